//! `holistic/detached-spawn-in-loop`: a task or thread spawned per item of a `for` loop with
//! its handle dropped. Nothing waits for the work, its panics and errors vanish, and nothing
//! bounds how many run at once. Keeping the handles (`JoinSet`, a `Vec` of handles joined later,
//! `thread::scope`) fixes all three. Event loops (`loop`, `while let` over `accept()`) that spawn
//! a task per connection are the idiomatic server shape and are not flagged; only `for` loops
//! over a collection are. Test code is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{any_token_in_loops, LoopKind, Needle};
use crate::rules::holistic::syntax::{callee, line, path_ends_with};
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// Spawn functions whose result is the only handle on the work.
const SPAWNS: [&str; 7] = [
    "tokio::spawn",
    "thread::spawn",
    "task::spawn",
    "task::spawn_blocking",
    "task::spawn_local",
    "actix_rt::spawn",
    "async_std::task::spawn",
];

/// The last segments of the [`SPAWNS`], after a `::` (a bare `spawn(..)` is not one of them).
const SPAWN: Needle<'static> = Needle::PathTail(&["spawn", "spawn_blocking", "spawn_local"]);

static META: RuleMeta = RuleMeta {
    id: "holistic/detached-spawn-in-loop",
    category: Category::ResourceLeak,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::Performance],
    explanation: "Tasks/threads spawned per item of a for loop with the JoinHandle dropped: unjoined, unbounded work",
};

/// Flags spawns in `for` loops whose handle is dropped.
pub(crate) struct DetachedSpawn;

impl Rule for DetachedSpawn {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// Code with the end of a spawn path ([`SPAWN`]) inside a `for` loop.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && Needle::Word(&["for"]).in_text(file)
            && SPAWN.in_text(file)
            && any_token_in_loops(file, |t, loops| {
                loops.count(LoopKind::For) > 0 && SPAWN.matches(t)
            })
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder {
            in_for: 0,
            found: Vec::new(),
        };
        finder.visit_file(ast);
        if finder.found.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (line, spawn) in finder
            .found
            .into_iter()
            .filter(|(l, _)| !tests.contains(*l))
        {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, line),
                    format!("`{spawn}` in a `for` loop drops its JoinHandle: nothing waits for the work or sees it fail"),
                    format!("detached {spawn}"),
                )
                .suggest("collect the handles (JoinSet, Vec of handles, thread::scope) and join them"),
            );
        }
    }
}

struct Finder {
    in_for: u32,
    found: Vec<(u32, String)>,
}

/// The spawn a statement discards: `spawn(..);` or `let _ = spawn(..);`.
fn discarded_spawn(stmt: &syn::Stmt) -> Option<(u32, String)> {
    let expr = match stmt {
        syn::Stmt::Expr(e, Some(_)) => e,
        syn::Stmt::Local(l) if matches!(l.pat, syn::Pat::Wild(_)) => &*l.init.as_ref()?.expr,
        _ => return None,
    };
    let syn::Expr::Call(call) = expr else {
        return None;
    };
    let name = callee(call)?;
    let spawn = SPAWNS.iter().find(|s| path_ends_with(&name, s))?;
    let at = match &*call.func {
        syn::Expr::Path(p) => p.path.segments.last().map(|s| line(s.ident.span()))?,
        _ => return None,
    };
    Some((at, spawn.to_string()))
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.in_for += 1;
        visit::visit_expr_for_loop(self, e);
        self.in_for -= 1;
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        if self.in_for > 0 {
            self.found
                .extend(b.stmts.iter().filter_map(discarded_spawn));
        }
        visit::visit_block(self, b);
    }

    // Work spawned inside a spawned closure belongs to that closure's own lifecycle.
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        let outer = std::mem::replace(&mut self.in_for, 0);
        visit::visit_expr_closure(self, c);
        self.in_for = outer;
    }

    fn visit_item(&mut self, i: &'ast syn::Item) {
        let outer = std::mem::replace(&mut self.in_for, 0);
        visit::visit_item(self, i);
        self.in_for = outer;
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_dropped_handles_in_for_loops() {
        let text = "async fn notify_all(users: Vec<User>) {\n    for user in users {\n        tokio::spawn(async move { send_mail(&user).await });\n    }\n}\nfn crunch(chunks: Vec<Chunk>) {\n    for c in chunks {\n        let _ = std::thread::spawn(move || work(c));\n    }\n}\n";
        assert_eq!(
            hits(&DetachedSpawn, "src/a.rs", text),
            vec![
                (3, "`tokio::spawn` in a `for` loop drops its JoinHandle: nothing waits for the work or sees it fail".to_string()),
                (8, "`thread::spawn` in a `for` loop drops its JoinHandle: nothing waits for the work or sees it fail".to_string()),
            ]
        );
    }

    #[test]
    fn a_performance_rule_judges_code_that_runs_for_users_only() {
        let text =
            "fn main() {\n    for n in 0..4 {\n        thread::spawn(move || work(n));\n    }\n}\n";
        assert_eq!(hits(&DetachedSpawn, "src/main.rs", text).len(), 1);
        assert!(hits(&DetachedSpawn, "examples/cargo.rs", text).is_empty());
        assert!(hits(&DetachedSpawn, "benches/spawn.rs", text).is_empty());
        assert!(hits(&DetachedSpawn, "tests/spawn.rs", text).is_empty());
    }

    #[test]
    fn quiet_on_kept_handles_joinsets_and_accept_loops() {
        let text = "async fn a(users: Vec<User>, listener: TcpListener) {\n    let mut handles = Vec::new();\n    for u in users {\n        handles.push(tokio::spawn(send(u)));\n    }\n    let mut set = JoinSet::new();\n    for u in more {\n        set.spawn(send(u));\n        let h = tokio::spawn(x());\n        h.await;\n    }\n    loop {\n        let (s, _) = listener.accept().await?;\n        tokio::spawn(serve(s));\n    }\n}\n";
        assert!(hits(&DetachedSpawn, "src/a.rs", text).is_empty());
    }

    #[test]
    fn wants_a_spawn_path_inside_a_for_loop() {
        let in_loop = "fn f(jobs: Vec<Job>) {\n    for job in jobs {\n        tokio::spawn(run(job));\n    }\n}\n";
        assert!(wanted(&DetachedSpawn, in_loop));
        let outside = "fn f(jobs: Vec<Job>) {\n    // for job in jobs { tokio::spawn(run(job)); }\n    for job in jobs {\n        spawn(run(job));\n    }\n    let h = std::thread::spawn(g);\n}\n";
        assert!(!wanted(&DetachedSpawn, outside));
    }

    #[test]
    fn spawn_names_the_last_segment_of_every_spawn_path() {
        let Needle::PathTail(names) = SPAWN else {
            panic!("SPAWN is a list of path tails");
        };
        for path in SPAWNS {
            assert!(
                names.contains(&path.rsplit("::").next().unwrap_or(path)),
                "{path}"
            );
        }
    }
}
