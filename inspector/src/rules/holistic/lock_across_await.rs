//! `holistic/lock-across-await`: a guard of a blocking lock (`std::sync`, `parking_lot`) that is
//! still alive when the task awaits. The task may be suspended while holding the lock, every
//! other thread that wants it blocks, and a task on the same thread that wants it deadlocks.
//!
//! Inside an `async fn`, `async` block or async closure, each block is read statement by
//! statement: `let g = x.lock().unwrap();` (also `.expect(..)`, `.unwrap_or_else(..)`,
//! `read()`/`write()`/`try_lock()` with one of those, or a bare parking_lot `x.lock()`) binds a
//! guard; it is released by `drop(g)` or by the end of the block; any later statement of the same
//! block that awaits (`.await`, `join!`, `select!`) while it is alive fires. Guards of async locks
//! (`x.lock().await`) are not guards here, and a guard scoped in an inner block is dropped there.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::async_scope::{visit_async_scopes, AsyncScope};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::macro_calls::visit_macro_args;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// Methods that acquire a blocking lock's guard (a bare call: only the first, parking_lot's).
const ACQUIRE: [&str; 6] = ["lock", "read", "write", "try_lock", "try_read", "try_write"];

/// The words of an await point: `.await`, then the macros that await their arguments.
const AWAIT_WORDS: [&str; 4] = ["await", "join", "try_join", "select"];

static META: RuleMeta = RuleMeta {
    id: "holistic/lock-across-await",
    category: Category::RaceCondition,
    severity: Severity::High,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::Performance],
    explanation: "A blocking (std::sync/parking_lot) lock guard held across `.await`: stalls threads or deadlocks",
};

/// Flags blocking lock guards held across an await point.
pub(crate) struct LockAcrossAwait;

impl Rule for LockAcrossAwait {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// In code order: `async`, a lock acquisition, an await point.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && code_has(
                file,
                &[
                    Needle::Word(&["async"]),
                    Needle::Method(&ACQUIRE),
                    Needle::Word(&AWAIT_WORDS),
                ],
            )
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder::default();
        finder.visit_file(ast);
        for held in finder.found {
            let mut location = Location::at(&file.rel_path, held.let_line);
            location.end_line = Some(held.await_line);
            out.hit(
                Hit::new(
                    location,
                    format!(
                        "guard `{}` of the blocking lock `{}` is still held at the await on line {}",
                        held.guard, held.lock, held.await_line
                    ),
                    format!("{} = {}", held.guard, held.lock),
                )
                .suggest("drop the guard (or scope it in a block) before awaiting, or use tokio::sync::Mutex"),
            );
        }
    }
}

/// A guard alive across an await.
struct Held {
    guard: String,
    lock: String,
    let_line: u32,
    await_line: u32,
}

#[derive(Default)]
struct Finder {
    in_async: bool,
    found: Vec<Held>,
}

impl Finder {
    fn check_block(&mut self, block: &syn::Block) {
        for (i, stmt) in block.stmts.iter().enumerate() {
            let Some((guard, lock, let_line)) = guard_binding(stmt) else {
                continue;
            };
            for later in &block.stmts[i + 1..] {
                if drops(later, &guard) {
                    break;
                }
                let mut awaits = Awaits::default();
                awaits.visit_stmt(later);
                if awaits.bases.iter().any(|b| b == &guard) {
                    break; // `g.await`: `g` was an async lock's future, not a guard
                }
                if let Some(await_line) = awaits.lines.first() {
                    self.found.push(Held {
                        guard,
                        lock,
                        let_line,
                        await_line: *await_line,
                    });
                    break;
                }
            }
        }
    }
}

impl AsyncScope for Finder {
    fn in_async_mut(&mut self) -> &mut bool {
        &mut self.in_async
    }
}

impl<'ast> Visit<'ast> for Finder {
    visit_async_scopes!('ast);

    fn visit_block(&mut self, block: &'ast syn::Block) {
        if self.in_async {
            self.check_block(block);
        }
        visit::visit_block(self, block);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

/// `let g = <blocking lock acquisition>;` → (guard name, lock rendering, line).
fn guard_binding(stmt: &syn::Stmt) -> Option<(String, String, u32)> {
    let syn::Stmt::Local(local) = stmt else {
        return None;
    };
    let pat = match &local.pat {
        syn::Pat::Type(t) => &*t.pat,
        other => other,
    };
    let syn::Pat::Ident(ident) = pat else {
        return None;
    };
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    let lock = blocking_lock(&init.expr)?;
    Some((
        ident.ident.to_string(),
        lock,
        local.let_token.span.start().line as u32,
    ))
}

/// The rendered lock call when `expr` acquires a blocking lock guard.
fn blocking_lock(expr: &syn::Expr) -> Option<String> {
    let syn::Expr::MethodCall(call) = expr else {
        return None;
    };
    let method = call.method.to_string();
    let unwrapped = match method.as_str() {
        "unwrap" => call.args.is_empty(),
        "expect" | "unwrap_or_else" => call.args.len() == 1,
        _ => false,
    };
    let (acquire, allowed): (&syn::ExprMethodCall, &[&str]) = if unwrapped {
        match &*call.receiver {
            syn::Expr::MethodCall(inner) => (inner, &ACQUIRE),
            _ => return None,
        }
    } else {
        (call, &ACQUIRE[..1])
    };
    let name = acquire.method.to_string();
    (acquire.args.is_empty() && allowed.contains(&name.as_str()))
        .then(|| format!("{}.{name}()", render(&acquire.receiver)))
}

fn render(expr: &syn::Expr) -> String {
    match expr {
        syn::Expr::Path(p) => p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::"),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => format!("{}.{n}", render(&f.base)),
            syn::Member::Unnamed(i) => format!("{}.{}", render(&f.base), i.index),
        },
        syn::Expr::MethodCall(m) => format!("{}.{}()", render(&m.receiver), m.method),
        syn::Expr::Reference(r) => render(&r.expr),
        syn::Expr::Paren(p) => render(&p.expr),
        _ => "…".to_string(),
    }
}

/// Whether `stmt` is `drop(guard);` (or `std::mem::drop(guard);`).
fn drops(stmt: &syn::Stmt, guard: &str) -> bool {
    let syn::Stmt::Expr(syn::Expr::Call(call), _) = stmt else {
        return false;
    };
    let is_drop = matches!(&*call.func, syn::Expr::Path(p)
        if p.path.segments.last().is_some_and(|s| s.ident == "drop"));
    is_drop
        && call.args.len() == 1
        && matches!(&call.args[0], syn::Expr::Path(p) if p.path.is_ident(guard))
}

/// The await points of a statement, not counting nested async blocks, closures or items,
/// which do not suspend the enclosing function.
#[derive(Default)]
struct Awaits {
    lines: Vec<u32>,
    /// Awaited variables (`g.await`).
    bases: Vec<String>,
}

impl<'ast> Visit<'ast> for Awaits {
    fn visit_expr_await(&mut self, e: &'ast syn::ExprAwait) {
        self.lines.push(e.await_token.span.start().line as u32);
        if let syn::Expr::Path(p) = &*e.base {
            if let Some(id) = p.path.get_ident() {
                self.bases.push(id.to_string());
            }
        }
        visit::visit_expr_await(self, e);
    }

    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            if AWAIT_WORDS[1..].contains(&last.ident.to_string().as_str()) {
                self.lines.push(last.ident.span().start().line as u32);
            }
        }
        visit_macro_args(self, mac);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_a_std_guard_alive_at_an_await() {
        let text = "async fn bump(state: &Mutex<u32>, tx: &Sender<u32>) {\n    let mut n = state.lock().unwrap();\n    *n += 1;\n    if *n > 3 {\n        tx.send(*n).await;\n    }\n}\nimpl S {\n    async fn f(&self) {\n        let g = self.cache.write().expect(\"poisoned\");\n        tokio::join!(a(), b());\n    }\n}\n";
        assert_eq!(
            hits(&LockAcrossAwait, "src/svc.rs", text),
            vec![
                (2, "guard `n` of the blocking lock `state.lock()` is still held at the await on line 5".to_string()),
                (10, "guard `g` of the blocking lock `self.cache.write()` is still held at the await on line 11".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_on_async_locks_dropped_or_scoped_guards_and_sync_fns() {
        let text = "async fn a(m: &tokio::sync::Mutex<u8>) {\n    let g = m.lock().await;\n    io().await;\n}\nasync fn b(m: &std::sync::Mutex<u8>) {\n    let g = m.lock().unwrap();\n    let v = *g;\n    drop(g);\n    io().await;\n}\nasync fn c(m: &std::sync::Mutex<u8>) {\n    let v = {\n        let g = m.lock().unwrap();\n        *g\n    };\n    io().await;\n    let n = m.lock().unwrap().clone();\n    io().await;\n}\nfn d(m: &std::sync::Mutex<u8>) {\n    let g = m.lock().unwrap();\n    let f = async { io().await };\n}\n";
        assert!(hits(&LockAcrossAwait, "src/svc.rs", text).is_empty());
    }

    #[test]
    fn wants_async_then_a_lock_then_an_await_in_code() {
        let held =
            "async fn f(m: &Mutex<u8>) {\n    let g = m.lock().unwrap();\n    tick().await;\n}\n";
        assert!(wanted(&LockAcrossAwait, held));
        let out_of_order = "fn f(m: &Mutex<u8>) {\n    let g = m.lock().unwrap();\n}\nasync fn g() {\n    tick().await;\n}\n";
        assert!(!wanted(&LockAcrossAwait, out_of_order));
        let commented =
            "// async: m.lock() then .await\nfn f() {\n    log(\"async .lock() .await\");\n}\n";
        assert!(!wanted(&LockAcrossAwait, commented));
    }
}
