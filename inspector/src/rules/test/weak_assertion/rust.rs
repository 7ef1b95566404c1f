//! Weak assertions in Rust tests, from the syntax tree: `#[test]`-style functions that assert
//! nothing, and assertions that cannot fail (`assert!(true)`, `assert_eq!(x, x)`, `assert!(a == a)`).
//!
//! An assertion is any `assert*!`/`debug_assert*!`/`prop_assert*!` macro, `panic!`/`unreachable!`
//! (a failing branch), `#[should_panic]`, a call of an `assert*`/`check*`/`verify*`/`expect*`
//! helper, a mock expectation (`.expect_x()` — mockall verifies it on drop), or a method that
//! fails on the wrong variant (`.unwrap_err()`, `.expect_err(..)`, `.assert()`).

use super::Weak;
use crate::engine::SourceFile;
use crate::rules::macro_calls::visit_macro_args;
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// The weak assertions of a Rust file.
pub(super) fn weak_in_rust(file: &SourceFile) -> Vec<Weak> {
    let Some(Ok(ast)) = file.rust_ast() else {
        return Vec::new();
    };
    let lines: Vec<&str> = file.text.lines().collect();
    let mut finder = Finder {
        lines: &lines,
        out: Vec::new(),
    };
    finder.visit_file(ast);
    finder.out
}

/// Whether attributes make a function a test the harness runs (not `#[cfg(test)]` helpers).
fn is_test_fn(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().segments.last().is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "test" | "rstest" | "test_case"
            )
        }) && !a.path().is_ident("cfg")
    })
}

fn should_panic(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("should_panic"))
}

struct Finder<'l> {
    lines: &'l [&'l str],
    out: Vec<Weak>,
}

impl Finder<'_> {
    fn test_fn(&mut self, attrs: &[syn::Attribute], sig: &syn::Signature, body: &syn::Block) {
        let mut body_scan = Body {
            asserts: 0,
            tautologies: Vec::new(),
        };
        body_scan.visit_block(body);
        let name = sig.ident.to_string();
        if body_scan.asserts == 0 && !should_panic(attrs) {
            self.out.push(Weak::no_assertion(
                &name,
                sig.ident.span().start().line as u32,
            ));
        }
        for line in body_scan.tautologies {
            let written = self.lines.get(line as usize - 1).map_or("", |l| l.trim());
            self.out.push(Weak::tautology(&name, line, written));
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_test_fn(&f.attrs) {
            self.test_fn(&f.attrs, &f.sig, &f.block);
        }
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if is_test_fn(&f.attrs) {
            self.test_fn(&f.attrs, &f.sig, &f.block);
        }
        visit::visit_impl_item_fn(self, f);
    }
}

/// What a test body asserts.
struct Body {
    asserts: usize,
    /// The line of each assertion that cannot fail.
    tautologies: Vec<u32>,
}

fn is_assert_name(name: &str) -> bool {
    ["assert", "debug_assert", "prop_assert"]
        .iter()
        .any(|p| name.starts_with(p))
        || matches!(name, "panic" | "unreachable")
}

fn is_helper_name(name: &str) -> bool {
    ["assert", "check", "verify", "expect"]
        .iter()
        .any(|p| name.starts_with(p))
}

fn tokens(expr: &syn::Expr) -> String {
    expr.to_token_stream().to_string()
}

/// Whether an expression is always true: `true`, `!false`, `a == a` (same tokens on both sides).
fn always_true(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Lit(l) => matches!(&l.lit, syn::Lit::Bool(b) if b.value),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
            matches!(&*u.expr, syn::Expr::Lit(l) if matches!(&l.lit, syn::Lit::Bool(b) if !b.value))
        }
        syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Eq(_)) => {
            tokens(&b.left) == tokens(&b.right)
        }
        syn::Expr::Paren(p) => always_true(&p.expr),
        _ => false,
    }
}

impl<'ast> Visit<'ast> for Body {
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if is_assert_name(&name) {
            self.asserts += 1;
            let args = mac
                .parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
                .map(|p| p.into_iter().collect::<Vec<_>>())
                .unwrap_or_default();
            let tautological = match name.trim_start_matches("debug_") {
                "assert" => args.first().is_some_and(always_true),
                "assert_eq" => args.len() >= 2 && tokens(&args[0]) == tokens(&args[1]),
                _ => false,
            };
            if tautological {
                self.tautologies.push(mac.path.span().start().line as u32);
            }
        }
        visit_macro_args(self, mac);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let m = call.method.to_string();
        if m.starts_with("expect_") || matches!(m.as_str(), "unwrap_err" | "expect_err" | "assert")
        {
            self.asserts += 1;
        }
        visit::visit_expr_method_call(self, call);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*call.func {
            if p.path
                .segments
                .last()
                .is_some_and(|s| is_helper_name(&s.ident.to_string()))
            {
                self.asserts += 1;
            }
        }
        visit::visit_expr_call(self, call);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weak(text: &str) -> Vec<(u32, String)> {
        weak_in_rust(&SourceFile::new("src/a.rs", text))
            .into_iter()
            .map(|w| (w.line, w.description))
            .collect()
    }

    #[test]
    fn finds_empty_and_tautological_tests() {
        let text = "\
#[cfg(test)]
mod tests {
    #[test]
    fn smoke() {
        let _ = super::run();
    }
    #[tokio::test]
    async fn always() {
        assert!(true, \"ok\");
        assert_eq!(total(&cart), total(&cart));
        assert!(x.len() == x.len());
        assert_eq!(total(&cart), 3);
    }
    fn helper() {}
}
";
        assert_eq!(
            weak(text),
            vec![
                (4, "test `smoke` has no assertion: it passes whatever the code does".to_string()),
                (9, "test `always` asserts something that cannot fail: `assert!(true, \"ok\");`".to_string()),
                (10, "test `always` asserts something that cannot fail: `assert_eq!(total(&cart), total(&cart));`".to_string()),
                (11, "test `always` asserts something that cannot fail: `assert!(x.len() == x.len());`".to_string()),
            ]
        );
    }

    #[test]
    fn real_assertions_helpers_mocks_and_should_panic_are_enough() {
        let text = "\
#[test]
fn a() { assert_eq!(add(1, 2), 3); }
#[test]
#[should_panic]
fn b() { add(0, 0); }
#[test]
fn c() { check_invariants(&state); }
#[test]
fn d() { let mut m = MockRepo::new(); m.expect_save().returning(|_| Ok(())); run(&m); }
#[test]
fn e() { parse(\"\").unwrap_err(); }
#[test]
fn f() { match x { Ok(_) => {}, Err(e) => panic!(\"{e}\") } }
#[test]
fn g() { assert!(!done); }
";
        assert_eq!(weak(text), Vec::<(u32, String)>::new());
    }
}
