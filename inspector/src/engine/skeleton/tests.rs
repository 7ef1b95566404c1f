use super::*;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

const SAMPLE: &str = r#"//! A module.
use std::fmt;

/// Doc.
pub fn total(items: &[u32]) -> u32 {
    let mut t = 0;
    for i in items {
        t += i; // comment
    }
    t
}

fn with_helper() -> u8 {
    fn helper() -> u8 {
        let x = 1;
        x
    }
    helper()
}

pub struct Shape {
    pub f: fn(u8) -> u8,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shape")
    }
}

trait Area {
    fn area(&self) -> f64;
    fn twice(&self) -> f64 {
        self.area() * 2.0
    }
}

const LIMIT: u32 = { let x = 3; x * 2 };

macro_rules! m {
    () => { fn generated() { let _ = 1; } };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(total(&[1, 2]), 3);
    }
}
"#;

/// (kind, name, first line, last line, tokens of the body) of every fn a visitor finds.
#[derive(Default)]
struct Fns(Vec<(String, u32, u32, String)>);

impl<'ast> Visit<'ast> for Fns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let span = f.span();
        self.0.push((
            f.sig.ident.to_string(),
            span.start().line as u32,
            span.end().line as u32,
            f.block.to_token_stream().to_string(),
        ));
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let span = f.block.span();
        self.0.push((
            f.sig.ident.to_string(),
            span.start().line as u32,
            span.end().line as u32,
            f.block.to_token_stream().to_string(),
        ));
        visit::visit_impl_item_fn(self, f);
    }
}

fn fns(file: &syn::File) -> Vec<(String, u32, u32, String)> {
    let mut v = Fns::default();
    v.visit_file(file);
    v.0
}

#[test]
fn items_spans_and_body_tokens_are_those_of_the_full_parse() {
    let full = syn::parse_file(SAMPLE).expect("full parse");
    let items = parse_items(SAMPLE).expect("item-level parse");
    assert_eq!(items.items.len(), full.items.len());
    let (got, want) = (fns(&items), fns(&full));
    assert_eq!(got, want);
    let names: Vec<&str> = got.iter().map(|f| f.0.as_str()).collect();
    // `helper` is found because a body that defines an item is parsed in full.
    assert_eq!(names, vec!["total", "with_helper", "helper", "fmt", "adds"]);
    // From the doc comment (an attribute of the item) to the closing brace.
    assert_eq!((got[0].1, got[0].2), (4, 11));
}

#[test]
fn bodies_without_items_are_kept_as_tokens() {
    let items = parse_items(SAMPLE).expect("item-level parse");
    let Some(syn::Item::Fn(total)) = items.items.get(1) else {
        panic!("second item is `total`");
    };
    assert!(matches!(
        total.block.stmts.as_slice(),
        [syn::Stmt::Expr(syn::Expr::Verbatim(_), None)]
    ));
    let Some(syn::Item::Fn(with_helper)) = items.items.get(2) else {
        panic!("third item is `with_helper`");
    };
    assert_eq!(with_helper.block.stmts.len(), 2);
}

#[test]
fn a_statement_that_does_not_parse_does_not_hide_the_items() {
    let text = "use a::b;\nfn main() {\n    let x = ;\n}\n";
    assert!(syn::parse_file(text).is_err());
    let items = parse_items(text).expect("items parse");
    assert_eq!(items.items.len(), 2);
}

#[test]
fn what_only_the_full_parse_reads_is_left_to_it() {
    assert!(parse_items("#!/usr/bin/env run-cargo-script\nfn main() {}\n").is_none());
    assert!(parse_items("fn main( {\n").is_none());
    assert!(parse_items("#![allow(dead_code)]\nfn main() { let _ = 1; }\n").is_some());
    assert!(parse_items("\u{feff}fn main() { let _ = 1; }\n").is_some());
}
