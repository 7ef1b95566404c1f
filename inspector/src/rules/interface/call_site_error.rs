//! `interface/call-site-error`: calls of a designed function with a different number of
//! arguments than design.md declares.
//!
//! Conservative on purpose: only names that exactly one design item and exactly one code
//! definition carry are checked, method calls only for methods (and never for names the
//! standard library uses everywhere), path calls of methods only through their owner.

use super::code_fns::{calls, definitions, Call};
use super::designed_or_note;
use super::signature::FnSig;
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "interface/call-site-error",
    category: Category::CallSiteError,
    severity: Severity::High,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Architecture],
    explanation: "A call passes a different number of arguments than the designed interface takes.",
};

/// Method names of the standard library that a `.name(..)` call most likely means.
const STD_METHODS: [&str; 32] = [
    "get", "get_mut", "insert", "remove", "push", "pop", "len", "iter", "map", "find", "contains",
    "clone", "write", "read", "send", "recv", "take", "next", "extend", "join", "split", "lock",
    "flush", "entry", "filter", "collect", "new", "from", "into", "parse", "set", "run",
];

/// Each call of a designed function with the wrong number of arguments → one finding at the call.
pub(crate) struct CallSiteError;

impl Rule for CallSiteError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A whole-project check: no file is handed to it one by one.
    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let designed = designed_or_note(ctx, out);
        if designed.is_empty() {
            return;
        }
        let defs = definitions(ctx);
        let all_calls = calls(ctx);
        for d in &designed {
            let name = &d.sig.name;
            let unique = designed.iter().filter(|o| &o.sig.name == name).count() == 1
                && defs.iter().filter(|c| &c.sig.name == name).count() == 1;
            if !unique {
                continue;
            }
            for call in all_calls.iter().filter(|c| &c.name == name) {
                let Some(expected) = expected_args(&d.sig, call) else {
                    continue;
                };
                if call.args == expected {
                    continue;
                }
                out.hit(
                    Hit::new(
                        Location::at(&call.path, call.line),
                        format!(
                            "call of `{}` passes {} argument{}; design.md declares {} `{}`",
                            d.sig.qualified(),
                            call.args,
                            if call.args == 1 { "" } else { "s" },
                            expected,
                            d.sig.param_list()
                        ),
                        format!("{}/{} in {}", d.sig.qualified(), call.args, call.caller),
                    )
                    .suggest(format!(
                        "pass the arguments {}:{} declares",
                        d.design_path, d.sig.line
                    )),
                );
            }
        }
    }
}

/// How many arguments `call` must pass to match `design`; `None` when the call is not (surely)
/// a call of it.
fn expected_args(design: &FnSig, call: &Call) -> Option<usize> {
    let params = design.params.len();
    let has_receiver = design.receiver.is_some();
    if call.method {
        return (has_receiver && !STD_METHODS.contains(&call.name.as_str())).then_some(params);
    }
    match (&design.owner, &call.qualifier) {
        (Some(owner), Some(q)) if q == owner || q == "Self" => {
            Some(params + usize::from(has_receiver))
        }
        (Some(_), _) => None,
        (None, _) => Some(params),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::DESIGN;
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const LIB: &str = "\
pub fn create_user(name: &str, email: &str) -> Result<User, Error> { todo() }
pub trait UserRepo {
    fn lookup(&self, id: u64) -> Option<User>;
}
pub fn signup(repo: &dyn UserRepo) {
    let _ = create_user(\"ann\");
    let _ = crate::create_user(\"ann\", \"a@x\");
    let _ = repo.lookup(1, true);
    let _ = UserRepo::lookup(repo, 1);
}
#[cfg(test)]
mod tests {
    fn t() { super::create_user(\"x\"); }
}
";

    #[test]
    fn fires_on_calls_with_the_wrong_number_of_arguments() {
        let dir = repo(&[("specs/users/design.md", DESIGN), ("src/lib.rs", LIB)]);
        let sink = project(&CallSiteError, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "src/lib.rs:6".to_string(),
                    "call of `create_user` passes 1 argument; design.md declares 2 `(name: &str, email: &str)`".to_string()
                ),
                (
                    "src/lib.rs:8".to_string(),
                    "call of `UserRepo::lookup` passes 2 arguments; design.md declares 1 `(id: u64)`".to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_on_correct_calls_and_ambiguous_names() {
        let ok = LIB
            .replace("create_user(\"ann\");", "create_user(\"ann\", \"b\");")
            .replace("repo.lookup(1, true)", "repo.lookup(1)");
        let dir = repo(&[("specs/users/design.md", DESIGN), ("src/lib.rs", &ok)]);
        assert!(project(&CallSiteError, &context(&dir)).hits.is_empty());
        // A second definition of `create_user` makes the name ambiguous: no call is judged.
        let twice = format!("{LIB}pub mod other {{ pub fn create_user() {{}} }}\n");
        let dir = repo(&[("specs/users/design.md", DESIGN), ("src/lib.rs", &twice)]);
        let hits = described(&project(&CallSiteError, &context(&dir)));
        assert!(
            hits.iter().all(|(_, d)| !d.contains("create_user")),
            "{hits:?}"
        );
    }
}
