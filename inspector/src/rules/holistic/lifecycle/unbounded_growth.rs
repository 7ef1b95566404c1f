//! `holistic/unbounded-growth`: a local sequence (`Vec`, `VecDeque`, `String`, `BinaryHeap`)
//! that a long-running loop (see `loops.rs`) pushes to while nothing in the function ever
//! shrinks, drains, clears, replaces or hands it out by `&mut`. It grows for as long as the
//! program runs: a memory leak.
//!
//! Maps and sets are not judged: keyed by a bounded id space (one entry per sensor, per
//! client) a map that only ever `insert`s stays bounded, and the text cannot tell the two apart.
//! Test code is exempt.

use super::loops::visit_counting_long_loops;
use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{any_token_in_loops, Needle, Window};
use crate::rules::holistic::syntax::{callee, line, path_ends_with};
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// Constructors of growable sequences.
const SEQUENCES: [&str; 8] = [
    "Vec::new",
    "Vec::with_capacity",
    "VecDeque::new",
    "VecDeque::with_capacity",
    "String::new",
    "String::with_capacity",
    "BinaryHeap::new",
    "LinkedList::new",
];

/// Methods that add to a sequence.
const GROW: [&str; 7] = [
    "push",
    "push_back",
    "push_front",
    "push_str",
    "extend",
    "append",
    "insert",
];

/// Methods that take from it or reset it.
const SHRINK: [&str; 14] = [
    "pop",
    "pop_back",
    "pop_front",
    "remove",
    "clear",
    "drain",
    "retain",
    "truncate",
    "split_off",
    "dedup",
    "swap_remove",
    "shrink_to",
    "split_to",
    "retain_mut",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/unbounded-growth",
    category: Category::ResourceLeak,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::Performance],
    explanation:
        "A collection pushed to in a long-running loop and never shrunk: memory grows without limit",
};

/// Flags collections that only grow inside long-running loops.
pub(crate) struct UnboundedGrowth;

impl Rule for UnboundedGrowth {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// Code that grows a local inside a loop that may never end.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && Needle::Method(&GROW).in_text(file)
            && Needle::Word(&["loop", "while", "incoming"]).in_text(file)
            && any_token_in_loops(file, |t, loops| loops.endless_marked(grows_a_local(t)))
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut fns = Functions(Vec::new());
        fns.visit_file(ast);
        if fns.0.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (made, name, grown) in fns.0.into_iter().filter(|(m, _, _)| !tests.contains(*m)) {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, grown),
                    format!("`{name}` (made on line {made}) grows in a loop that never ends and nothing ever removes from it"),
                    format!("unbounded growth {name}"),
                )
                .suggest("bound it (a ring buffer, truncate/drain after use) or clear it each iteration"),
            );
        }
    }
}

/// Whether a code token is the method name of a [`GROW`] call on a plain name (`v.push`, not
/// `self.v.push` nor `a::v.push`), as [`Uses`] counts growth.
fn grows_a_local(t: &Window<'_>) -> bool {
    Needle::Method(&GROW).matches(t)
        && t.word_back(2).is_some()
        && !(t.punct_back(3, b'.') || t.punct_back(3, b':'))
}

/// (line made, name, line grown) per function.
struct Functions(Vec<(u32, String, u32)>);

impl Functions {
    fn check(&mut self, block: &syn::Block) {
        for stmt in &block.stmts {
            let syn::Stmt::Local(l) = stmt else {
                continue;
            };
            let syn::Pat::Ident(id) = &l.pat else {
                continue;
            };
            let is_sequence = l.init.as_ref().is_some_and(|i| match &*i.expr {
                syn::Expr::Call(c) => {
                    callee(c).is_some_and(|n| SEQUENCES.iter().any(|s| path_ends_with(&n, s)))
                }
                syn::Expr::Macro(m) => m.mac.path.is_ident("vec") && m.mac.tokens.is_empty(),
                _ => false,
            });
            if !is_sequence {
                continue;
            }
            let name = id.ident.to_string();
            let mut uses = Uses {
                name: &name,
                long_loops: 0,
                grown: None,
                released: false,
            };
            uses.visit_block(block);
            // The block's value (`…; pending }`): handed to whoever waits for the loop to end.
            let tail =
                matches!(block.stmts.last(), Some(syn::Stmt::Expr(e, None)) if uses.is_ours(e));
            if let (Some(grown), false) = (uses.grown, uses.released || tail) {
                self.0.push((line(l.let_token.span), name, grown));
            }
        }
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.check(b);
        visit::visit_block(self, b);
    }
}

/// How a function uses one local sequence.
struct Uses<'n> {
    name: &'n str,
    long_loops: u32,
    /// First growth inside a long-running loop.
    grown: Option<u32>,
    /// Shrunk, reassigned, or handed out by `&mut`/by value anywhere.
    released: bool,
}

impl Uses<'_> {
    fn is_ours(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Path(p) if p.path.is_ident(self.name))
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        visit_counting_long_loops(self, e, |v| &mut v.long_loops);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if self.is_ours(&m.receiver) {
            let method = m.method.to_string();
            if SHRINK.contains(&method.as_str()) {
                self.released = true;
            } else if GROW.contains(&method.as_str()) && self.long_loops > 0 && self.grown.is_none()
            {
                self.grown = Some(line(m.method.span()));
            }
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        if self.is_ours(&a.left) {
            self.released = true;
        }
        visit::visit_expr_assign(self, a);
    }

    fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
        if r.mutability.is_some() && self.is_ours(&r.expr) {
            self.released = true;
        }
        visit::visit_expr_reference(self, r);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        // Passed by value (moved out): whoever receives it owns its lifetime.
        if c.args.iter().any(|a| self.is_ours(a)) {
            self.released = true;
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
        // Returned: the loop is expected to end, and the caller owns what it collected.
        if r.expr.as_deref().is_some_and(|e| self.is_ours(e)) {
            self.released = true;
        }
        visit::visit_expr_return(self, r);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

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
    fn fires_on_a_sequence_that_only_grows_in_an_endless_loop() {
        let text = "async fn serve(mut rx: Receiver<Event>) {\n    let mut history = Vec::new();\n    while let Some(ev) = rx.recv().await {\n        history.push(ev.clone());\n        handle(ev).await;\n    }\n}\nfn tail(src: &Source) {\n    let mut log = String::new();\n    loop {\n        let line = src.read_line();\n        log.push_str(&line);\n    }\n}\n";
        assert_eq!(
            hits(&UnboundedGrowth, "src/a.rs", text),
            vec![
                (4, "`history` (made on line 2) grows in a loop that never ends and nothing ever removes from it".to_string()),
                (12, "`log` (made on line 9) grows in a loop that never ends and nothing ever removes from it".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_when_drained_bounded_or_the_loop_ends() {
        let text = "async fn a(mut rx: Receiver<Event>) {\n    let mut batch = Vec::new();\n    while let Some(ev) = rx.recv().await {\n        batch.push(ev);\n        if batch.len() > 100 {\n            flush(&mut batch);\n        }\n    }\n    let mut lines = Vec::new();\n    loop {\n        let l = read();\n        if l.is_empty() {\n            break;\n        }\n        lines.push(l);\n    }\n    let mut window = VecDeque::new();\n    loop {\n        window.push_back(sample());\n        if window.len() > 10 {\n            window.pop_front();\n        }\n    }\n}\n";
        assert!(hits(&UnboundedGrowth, "src/a.rs", text).is_empty());
        let iterator = "fn unescape(raw: &str) -> String {\n    let mut out = String::new();\n    let mut chars = raw.chars();\n    while let Some(c) = chars.next() {\n        out.push(c);\n    }\n    out\n}\n";
        assert!(hits(&UnboundedGrowth, "src/a.rs", iterator).is_empty());
        // Collected until the stream closes, then handed back: the author expects the end.
        let collected = "async fn doubled(mut rx: Receiver<u32>) -> Vec<u32> {\n    let mut pending = vec![];\n    while let Some(v) = rx.next().await {\n        pending.push(v * 2);\n    }\n    pending\n}\nasync fn early(mut rx: Receiver<u32>) -> Vec<u32> {\n    let mut seen = Vec::new();\n    loop {\n        seen.push(rx.recv().await);\n        if done() {\n            return seen;\n        }\n    }\n}\n";
        assert!(hits(&UnboundedGrowth, "src/a.rs", collected).is_empty());
    }

    #[test]
    fn wants_a_local_grown_in_a_loop_that_may_not_end() {
        let endless = "fn f(src: &Source) {\n    let mut log = Vec::new();\n    loop {\n        log.push(src.read());\n    }\n}\n";
        assert!(wanted(&UnboundedGrowth, endless));
        let finite = "fn f(xs: &[u8]) {\n    let mut out = Vec::new();\n    for x in xs {\n        out.push(*x);\n    }\n    while let Some(c) = it.next() {\n        out.push(c);\n    }\n    loop {\n        self.out.push(1);\n    }\n}\n";
        assert!(!wanted(&UnboundedGrowth, finite));
        let commented = "// loop { log.push(x) }\nfn f() {\n    let mut log = Vec::new();\n    log.push(\"loop {\");\n}\n";
        assert!(!wanted(&UnboundedGrowth, commented));
    }
}
