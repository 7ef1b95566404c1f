//! Swallowed errors in Rust, from the syntax tree: `let _ = <call>;`, `Err(..) => {}` and
//! `if let Err(..) = x {}`.
//!
//! Without types, `let _ =` cannot know whether the call returns a `Result`; it flags every
//! function or method call except [`NOT_ERRORS`], the calls whose discarded value is not an
//! error worth handling. Macros (`write!` to a `String`) and `?`-propagated calls never fire.
//! Documented best effort is a decision, not a swallow: a comment on the statement or the line
//! before it, a function whose doc says failures are ignored, the calls that are best effort by
//! nature ([`BEST_EFFORT`]), and removing files in cleanup code (`Drop::drop`, `cleanup`).

use super::Swallow;
use crate::engine::SourceFile;
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::rust_docs::doc_text;
use crate::rules::test_code::TestCode;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// Calls that `let _ =` may discard: they panic instead of failing (`unwrap`); they return an
/// old value, a flag or a guard rather than an error (collection updates, atomics, `map`,
/// `enter`, `poll`, `spawn`); their error only means the receiver is gone (channel sends,
/// ignored by design at shutdown) or "already set" (one-time initialisers); or they exist to
/// contain a panic (`catch_unwind`) or a destroyed thread-local (`try_with`).
const NOT_ERRORS: [&str; 50] = [
    "unwrap",
    "expect",
    "insert",
    "remove",
    "pop",
    "pop_front",
    "pop_back",
    "push",
    "push_back",
    "push_front",
    "take",
    "replace",
    "swap",
    "swap_remove",
    "entry",
    "retain",
    "truncate",
    "get",
    "get_mut",
    "next",
    "clone",
    "len",
    "into_raw",
    "from_raw",
    "forget",
    "drop",
    "map",
    "enter",
    "poll",
    "spawn",
    "fetch_update",
    "compare_exchange",
    "compare_exchange_weak",
    "send",
    "try_send",
    "unbounded_send",
    "blocking_send",
    "send_replace",
    "send_modify",
    "do_send",
    "set",
    "init",
    "try_init",
    "set_global_default",
    "set_logger",
    "set_boxed_logger",
    "catch_unwind",
    "try_with",
    "split_to",
    "split_off",
];

/// Calls whose failure leaves nothing to do: flushing on the way out, killing a child that may
/// have exited, shutting down a socket the peer may have closed.
const BEST_EFFORT: [&str; 3] = ["flush", "kill", "shutdown"];

/// Calls that are best effort in cleanup code (a temporary file already gone is fine).
const CLEANUP_CALLS: [&str; 3] = ["remove_file", "remove_dir", "remove_dir_all"];

/// Words of a function's doc that say it ignores failures on purpose.
const IGNORED_DOC: [&str; 4] = ["ignore", "best effort", "best-effort", "silently"];

/// The swallowed errors of a Rust file outside test code.
pub(super) fn find(file: &SourceFile) -> Vec<Swallow> {
    let Some(Ok(ast)) = file.rust_ast() else {
        return Vec::new();
    };
    let mut finder = Finder::default();
    finder.visit_file(ast);
    if finder.found.is_empty() {
        return Vec::new();
    }
    let tests = TestCode::of(file);
    let lexed = file.lexed(crate::engine::Language::Rust);
    let commented = |from: u32, to: u32| {
        lexed
            .iter()
            .filter(|l| l.number + 1 >= from && l.number <= to)
            .any(|l| l.has_comment())
    };
    finder
        .found
        .into_iter()
        .filter(|(s, end)| !tests.contains(s.line) && !commented(s.line, *end))
        .map(|(s, _)| s)
        .collect()
}

#[derive(Default)]
struct Finder {
    /// Each swallow with the last line of its construct.
    found: Vec<(Swallow, u32)>,
    /// The innermost named function being visited.
    function: String,
    /// Whether that function's doc says it ignores failures.
    ignores_failures: bool,
}

impl Finder {
    fn push(&mut self, node: &dyn Spanned, what: String) {
        let span = node.span();
        let key = format!("{} in fn {}", what, self.function);
        self.found.push((
            Swallow {
                line: span.start().line as u32,
                what,
                key,
            },
            span.end().line as u32,
        ));
    }

    fn in_function(
        &mut self,
        name: &syn::Ident,
        attrs: &[syn::Attribute],
        walk: impl FnOnce(&mut Self),
    ) {
        let outer = std::mem::replace(&mut self.function, name.to_string());
        let doc = doc_text(attrs).to_lowercase();
        let ignores = IGNORED_DOC.iter().any(|w| doc.contains(w));
        let outer_ignores = std::mem::replace(&mut self.ignores_failures, ignores);
        walk(self);
        self.function = outer;
        self.ignores_failures = outer_ignores;
    }

    /// Whether discarding `call`'s result here is documented or best effort by nature.
    fn best_effort(&self, call: &str) -> bool {
        let cleanup = self.function == "drop"
            || ["clean", "teardown"]
                .iter()
                .any(|w| self.function.contains(w));
        self.ignores_failures
            || BEST_EFFORT.contains(&call)
            || (cleanup && CLEANUP_CALLS.contains(&call))
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.in_function(&f.sig.ident, &f.attrs, |v| visit::visit_item_fn(v, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.in_function(&f.sig.ident, &f.attrs, |v| visit::visit_impl_item_fn(v, f));
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (syn::Pat::Wild(_), Some(init)) = (&local.pat, &local.init) {
            if init.diverge.is_none() {
                if let Some((name, call)) = fallible_call(&init.expr) {
                    if !self.best_effort(&name) {
                        self.push(local, format!("`let _ = {call}` discards its result"));
                    }
                }
            }
        }
        visit::visit_local(self, local);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if arm.guard.is_none() && is_err_pattern(&arm.pat) && is_empty(&arm.body) {
            self.push(arm, "an `Err(..)` match arm with an empty body".to_string());
        }
        visit::visit_arm(self, arm);
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        if let syn::Expr::Let(cond) = &*e.cond {
            if is_err_pattern(&cond.pat)
                && e.then_branch.stmts.is_empty()
                && e.else_branch.is_none()
            {
                self.push(e, "an empty `if let Err(..) = ..` block".to_string());
            }
        }
        visit::visit_expr_if(self, e);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

/// The name of the call `let _ =` discards and the call rendered short, when it may be a
/// swallowed error.
fn fallible_call(expr: &syn::Expr) -> Option<(String, String)> {
    let name = match expr {
        syn::Expr::Paren(p) => return fallible_call(&p.expr),
        syn::Expr::Await(a) => {
            return fallible_call(&a.base).map(|(n, c)| (n, format!("{c}.await")))
        }
        syn::Expr::MethodCall(m) => m.method.to_string(),
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => p.path.segments.last()?.ident.to_string(),
            _ => return None,
        },
        _ => return None,
    };
    (!NOT_ERRORS.contains(&name.as_str())).then(|| (name, render(expr, 0)))
}

/// A short rendering of a call chain: `fs::remove_file(..)`, `child.kill()`.
fn render(expr: &syn::Expr, depth: u32) -> String {
    if depth > 4 {
        return "…".to_string();
    }
    let args = |n: usize| if n == 0 { "()" } else { "(..)" };
    match expr {
        syn::Expr::MethodCall(m) => format!(
            "{}.{}{}",
            render(&m.receiver, depth + 1),
            m.method,
            args(m.args.len())
        ),
        syn::Expr::Call(c) => format!("{}{}", render(&c.func, depth + 1), args(c.args.len())),
        syn::Expr::Path(p) => p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::"),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => format!("{}.{n}", render(&f.base, depth + 1)),
            syn::Member::Unnamed(i) => format!("{}.{}", render(&f.base, depth + 1), i.index),
        },
        syn::Expr::Await(a) => format!("{}.await", render(&a.base, depth + 1)),
        syn::Expr::Paren(p) => render(&p.expr, depth),
        syn::Expr::Reference(r) => format!("&{}", render(&r.expr, depth + 1)),
        _ => "…".to_string(),
    }
}

/// `Err(_)`, `Err(e)`, `Err(..)`: a catch-all error pattern. `Err(Kind::Lagged) => {}` names
/// the one error it ignores, which is a decision, not a swallow.
fn is_err_pattern(pat: &syn::Pat) -> bool {
    let syn::Pat::TupleStruct(t) = pat else {
        return false;
    };
    let catch_all = match t.elems.first() {
        Some(syn::Pat::Wild(_) | syn::Pat::Rest(_)) => true,
        Some(syn::Pat::Ident(id)) => id.subpat.is_none(),
        _ => false,
    };
    t.elems.len() == 1 && catch_all && t.path.segments.last().is_some_and(|s| s.ident == "Err")
}

fn is_empty(body: &syn::Expr) -> bool {
    match body {
        syn::Expr::Block(b) => b.block.stmts.is_empty() && b.label.is_none(),
        syn::Expr::Tuple(t) => t.elems.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::SwallowedError;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_discarded_calls_and_empty_err_handlers() {
        let text = "fn save(p: &Path) {\n    let _ = std::fs::remove_file(p);\n    match write(p) {\n        Ok(n) => use_it(n),\n        Err(_) => {}\n    }\n    if let Err(e) = flush() {}\n    let _ = child.wait().await;\n}\n";
        assert_eq!(
            hits(&SwallowedError, "src/store.rs", text),
            vec![
                (2, "`let _ = std::fs::remove_file(..)` discards its result: the error is swallowed silently".to_string()),
                (5, "an `Err(..)` match arm with an empty body: the error is swallowed silently".to_string()),
                (7, "an empty `if let Err(..) = ..` block: the error is swallowed silently".to_string()),
                (8, "`let _ = child.wait().await` discards its result: the error is swallowed silently".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_on_idioms_propagation_comments_and_tests() {
        let text = "fn run(tx: Sender<u8>, s: &mut String) -> Result<(), E> {\n    let _ = tx.send(1);\n    let _ = writeln!(s, \"x\");\n    let _ = map.insert(1, 2);\n    let _ = check()?;\n    let _ = cleanup(); // best effort: the temp dir is wiped at boot\n    match go() {\n        Err(_) => {\n            // already reported by go()\n        }\n        Ok(()) => {}\n    }\n    match rx.recv() {\n        Err(RecvError::Lagged(_)) => {}\n        Err(ref e) if e.kind() == Interrupted => {}\n        _ => {}\n    }\n    Ok(())\n}\n#[cfg(test)]\nmod tests {\n    fn t() { let _ = std::fs::remove_file(\"x\"); }\n}\n";
        assert!(hits(&SwallowedError, "src/run.rs", text).is_empty());
        let test_file = "fn t() { let _ = std::fs::remove_file(\"x\"); }\n";
        assert!(hits(&SwallowedError, "tests/it.rs", test_file).is_empty());
    }

    #[test]
    fn quiet_on_documented_and_natural_best_effort() {
        let text = "fn stop(&mut self) {\n    let _ = self.out.flush();\n    let _ = self.child.kill();\n    // The peer may be gone already.\n    let _ = self.sock.write_all(b\"bye\");\n}\nimpl Drop for Temp {\n    fn drop(&mut self) {\n        let _ = std::fs::remove_file(&self.path);\n    }\n}\n/// Adds the rule; a program that cannot be resolved is silently ignored.\npub fn associate(&mut self) -> &mut Self {\n    let _ = self.try_associate();\n    self\n}\n";
        assert!(hits(&SwallowedError, "src/proc.rs", text).is_empty());
        // Removing a file outside cleanup code is still a swallowed error.
        let text = "fn save(p: &Path) {\n    let _ = std::fs::remove_file(p);\n}\n";
        assert_eq!(hits(&SwallowedError, "src/save.rs", text).len(), 1);
    }
}
