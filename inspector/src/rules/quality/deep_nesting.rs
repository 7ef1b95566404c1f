//! `quality/deep-nesting`: control blocks nested more than [`MAX_DEPTH`] deep inside one
//! function (`if`, `match`, loops, closures with a block body; `else if` chains count once).
//! Past four levels a reader can no longer hold the conditions that lead to a line; early
//! returns, `?`, `let .. else` and extracted functions flatten it. Test code is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::{functions, max_control_depth};
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// The deepest nesting of control blocks a function may have.
pub(crate) const MAX_DEPTH: usize = 4;

static META: RuleMeta = RuleMeta {
    id: "quality/deep-nesting",
    category: Category::Complexity,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability],
    explanation: "Control blocks nested more than 4 deep in a function: flatten with early returns or extract",
};

/// Flags deeply nested functions.
pub(crate) struct DeepNesting;

impl Rule for DeepNesting {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && !file.is_test_file()
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let deep: Vec<(String, usize, u32)> = if lang == Language::Rust {
            let Some(Ok(ast)) = file.rust_ast() else {
                return;
            };
            let mut finder = Finder::default();
            finder.visit_file(ast);
            finder.found
        } else {
            let lines = file.lexed(lang);
            functions(&lines, lang)
                .into_iter()
                .filter_map(|f| {
                    let own = &lines[(f.start - 1) as usize..f.end as usize];
                    let (depth, line) = max_control_depth(own, lang);
                    (depth > MAX_DEPTH).then_some((f.name, depth, line))
                })
                .collect()
        };
        if deep.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (name, depth, line) in deep {
            if tests.contains(line) {
                continue;
            }
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, line),
                    format!("function `{name}` nests control blocks {depth} deep (more than {MAX_DEPTH})"),
                    format!("deep nesting in {name}"),
                )
                .suggest("return early, use `?`/`let .. else`, or extract the inner part into a function"),
            );
        }
    }
}

/// Per function: its name, and the deepest point (depth, line) when deeper than allowed.
#[derive(Default)]
struct Finder {
    /// (name, current depth, deepest (depth, line)) of the functions being visited.
    stack: Vec<(String, usize, (usize, u32))>,
    found: Vec<(String, usize, u32)>,
}

impl Finder {
    fn function(&mut self, name: &syn::Ident, walk: impl FnOnce(&mut Self)) {
        self.stack.push((name.to_string(), 0, (0, 0)));
        walk(self);
        if let Some((name, _, (depth, line))) = self.stack.pop() {
            if depth > MAX_DEPTH {
                self.found.push((name, depth, line));
            }
        }
    }

    fn nested(&mut self, line: u32, walk: impl FnOnce(&mut Self)) {
        if let Some(top) = self.stack.last_mut() {
            top.1 += 1;
            if top.1 > top.2 .0 {
                top.2 = (top.1, line);
            }
        }
        walk(self);
        if let Some(top) = self.stack.last_mut() {
            top.1 -= 1;
        }
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.function(&f.sig.ident, |v| visit::visit_item_fn(v, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.function(&f.sig.ident, |v| visit::visit_impl_item_fn(v, f));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.function(&f.sig.ident, |v| visit::visit_trait_item_fn(v, f));
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        let line = e.if_token.span.start().line as u32;
        self.nested(line, |v| {
            v.visit_expr(&e.cond);
            v.visit_block(&e.then_branch);
        });
        if let Some((_, other)) = &e.else_branch {
            match &**other {
                // `else if` continues the chain at the same depth.
                syn::Expr::If(chained) => self.visit_expr_if(chained),
                other => self.nested(line, |v| v.visit_expr(other)),
            }
        }
    }

    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        let line = e.match_token.span.start().line as u32;
        self.nested(line, |v| visit::visit_expr_match(v, e));
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        let line = e.for_token.span.start().line as u32;
        self.nested(line, |v| visit::visit_expr_for_loop(v, e));
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        let line = e.while_token.span.start().line as u32;
        self.nested(line, |v| visit::visit_expr_while(v, e));
    }

    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        let line = e.loop_token.span.start().line as u32;
        self.nested(line, |v| visit::visit_expr_loop(v, e));
    }

    fn visit_expr_closure(&mut self, e: &'ast syn::ExprClosure) {
        if matches!(&*e.body, syn::Expr::Block(_)) {
            let line = e.or1_token.span.start().line as u32;
            self.nested(line, |v| visit::visit_expr_closure(v, e));
        } else {
            visit::visit_expr_closure(self, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_past_four_levels() {
        let rust = "fn sync(items: &[Item]) {\n    for item in items {\n        if item.ready {\n            match item.kind {\n                Kind::A => {\n                    while busy() {\n                        if retry() {\n                            wait();\n                        }\n                    }\n                }\n                _ => {}\n            }\n        }\n    }\n}\n";
        assert_eq!(
            hits(&DeepNesting, "src/a.rs", rust),
            vec![(
                7,
                "function `sync` nests control blocks 5 deep (more than 4)".to_string()
            )]
        );
        let py = "def f(xs):\n    for x in xs:\n        if x:\n            while x:\n                with open(x) as f:\n                    if f:\n                        pass\n";
        assert_eq!(
            hits(&DeepNesting, "app/a.py", py),
            vec![(
                6,
                "function `f` nests control blocks 5 deep (more than 4)".to_string()
            )]
        );
        let go = "package a\n\nfunc F(xs []int) {\n\tfor _, x := range xs {\n\t\tif x > 0 {\n\t\t\tswitch x {\n\t\t\tcase 1:\n\t\t\t\tfor {\n\t\t\t\t\tif x > 2 {\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n}\n";
        assert_eq!(hits(&DeepNesting, "a/a.go", go).len(), 1);
    }

    #[test]
    fn quiet_on_else_if_chains_flat_code_and_literals() {
        let rust = "fn f(x: u8) -> u8 {\n    if x == 1 { 1 } else if x == 2 { 2 } else if x == 3 { 3 } else if x == 4 { 4 } else if x == 5 { 5 } else { 0 }\n}\nfn g(xs: &[u8]) {\n    for x in xs {\n        if *x > 1 {\n            match x {\n                2 => if ready() { go() },\n                _ => {}\n            }\n        }\n    }\n}\n";
        assert!(hits(&DeepNesting, "src/a.rs", rust).is_empty());
        let go = "package a\n\nfunc F() T {\n\treturn T{A: B{C: D{E: F{G: 1}}}}\n}\n";
        assert!(hits(&DeepNesting, "a/a.go", go).is_empty());
    }
}
