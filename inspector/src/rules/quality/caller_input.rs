//! What a function's caller decides: the names a function's parameters bind, and the locals
//! computed from them (`let value = text.trim();`), for `quality/unwrap-in-library`, which
//! reports an unwrap only on the caller's input — what reaches a public function from outside
//! the crate — never on a value the crate built itself (an `itoa` buffer, a `format!` of
//! parts it checked, a field of `self`).

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::BTreeSet;

/// The names a function's parameters bind (`s` in `s: &str`, `a` and `b` in `(a, b): (u8, u8)`);
/// `self` is the crate's own value, not the caller's input.
pub(super) fn parameter_names(sig: &syn::Signature) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for input in &sig.inputs {
        if let syn::FnArg::Typed(t) = input {
            bound_names(&t.pat, &mut names);
        }
    }
    names
}

/// The names a pattern binds.
pub(super) fn bound_names(pat: &syn::Pat, out: &mut BTreeSet<String>) {
    match pat {
        syn::Pat::Ident(i) => {
            out.insert(i.ident.to_string());
            if let Some((_, sub)) = &i.subpat {
                bound_names(sub, out);
            }
        }
        syn::Pat::Type(t) => bound_names(&t.pat, out),
        syn::Pat::Reference(r) => bound_names(&r.pat, out),
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| bound_names(p, out)),
        syn::Pat::TupleStruct(t) => t.elems.iter().for_each(|p| bound_names(p, out)),
        syn::Pat::Struct(s) => s.fields.iter().for_each(|f| bound_names(&f.pat, out)),
        syn::Pat::Slice(s) => s.elems.iter().for_each(|p| bound_names(p, out)),
        syn::Pat::Or(o) => o.cases.iter().for_each(|p| bound_names(p, out)),
        _ => {}
    }
}

/// Whether `node` (an expression, with the arguments of the macros in it) names one of `names`.
pub(super) fn mentions(node: &impl ToTokens, names: &BTreeSet<String>) -> bool {
    !names.is_empty() && tokens_mention(node.to_token_stream(), names)
}

/// The traits a file declares without `pub` (`trait Encodable: Sized { … }`, `pub(crate)`
/// too): their impls' methods are the crate's own, out of reach of callers outside it.
pub(super) fn private_traits(ast: &syn::File) -> BTreeSet<String> {
    // Items only, inline modules included: no walk through function bodies.
    fn collect(items: &[syn::Item], out: &mut BTreeSet<String>) {
        for item in items {
            match item {
                syn::Item::Trait(t) if !matches!(t.vis, syn::Visibility::Public(_)) => {
                    out.insert(t.ident.to_string());
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        collect(inner, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    collect(&ast.items, &mut out);
    out
}

/// Methods that write what they are given to their receiver.
const WRITES: [&str; 6] = [
    "write",
    "write_all",
    "write_fmt",
    "write_str",
    "write_char",
    "flush",
];

/// The part of an unwrapped call that decides whether it fails, to tell the caller's input from
/// the crate's own values: a write fails because of where it writes, never because of what it
/// writes — `write!(buf, "{value:?}")` into the crate's buffer reads no input even when `value`
/// is the caller's — so for a write it is the destination; for any other call, all of it.
pub(super) fn deciding_part(receiver: &syn::Expr) -> TokenStream {
    match receiver {
        syn::Expr::Paren(p) => deciding_part(&p.expr),
        syn::Expr::Reference(r) => deciding_part(&r.expr),
        syn::Expr::Try(t) => deciding_part(&t.expr),
        syn::Expr::Await(a) => deciding_part(&a.base),
        syn::Expr::MethodCall(m) if WRITES.iter().any(|w| m.method == w) => {
            m.receiver.to_token_stream()
        }
        syn::Expr::Macro(m)
            if m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "write" || s.ident == "writeln") =>
        {
            m.mac
                .tokens
                .clone()
                .into_iter()
                .take_while(|t| !matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                .collect()
        }
        other => other.to_token_stream(),
    }
}

/// A name after a `.` is a field or a method, not the local of that name.
fn tokens_mention(tokens: TokenStream, names: &BTreeSet<String>) -> bool {
    let mut after_dot = false;
    tokens.into_iter().any(|t| {
        let found = match &t {
            TokenTree::Ident(i) => !after_dot && names.contains(&i.to_string()),
            TokenTree::Group(g) => tokens_mention(g.stream(), names),
            TokenTree::Literal(l) => captures(&l.to_string()).iter().any(|c| names.contains(c)),
            _ => false,
        };
        after_dot = matches!(&t, TokenTree::Punct(p) if p.as_char() == '.');
        found
    })
}

/// The names a format string captures (`text` in `"/{text}"`); `{{` is an escaped brace.
fn captures(literal: &str) -> Vec<String> {
    literal
        .replace("{{", "")
        .split('{')
        .skip(1)
        .map(|part| {
            part.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| name.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_and_what_mentions_them() {
        let f: syn::ItemFn = syn::parse_str(
            "pub fn f(&self, text: &str, (a, _b): (u8, u8), Wrapper { inner }: W) {}",
        )
        .expect("parses");
        let names = parameter_names(&f.sig);
        assert_eq!(
            names.iter().map(String::as_str).collect::<Vec<_>>(),
            ["_b", "a", "inner", "text"]
        );
        let e: syn::Expr =
            syn::parse_str("format!(\"/{}\", text.trim()).parse::<u8>()").expect("e");
        assert!(mentions(&e, &names));
        let e: syn::Expr = syn::parse_str("self.text.parse::<u8>()").expect("e");
        assert!(
            !mentions(&e, &names),
            "a field named like a parameter is not the parameter"
        );
        let e: syn::Expr = syn::parse_str("format!(\"/{text}?{{a}}\").parse::<Uri>()").expect("e");
        assert!(mentions(&e, &names), "an inline format argument");
        let e: syn::Expr = syn::parse_str("format!(\"/{{text}}\").parse::<Uri>()").expect("e");
        assert!(!mentions(&e, &names), "an escaped brace");
        let e: syn::Expr = syn::parse_str("buffer.format(size)").expect("e");
        assert!(!mentions(&e, &names));
    }

    #[test]
    fn a_write_is_decided_by_its_destination() {
        let names: BTreeSet<String> = ["value", "out"].iter().map(|n| n.to_string()).collect();
        let decided = |src: &str| {
            let e: syn::Expr = syn::parse_str(src).expect("parses");
            mentions(&deciding_part(&e), &names)
        };
        assert!(
            !decided("write!(buf, \"{:?}\", value)"),
            "the crate's buffer"
        );
        assert!(!decided(
            "self.writer.make_writer().write_all(value.as_bytes())"
        ));
        assert!(decided("writeln!(out, \"{}\", 1)"), "the caller's writer");
        assert!(decided("out.write_all(b\"x\")"));
        assert!(
            decided("value.parse::<u8>()"),
            "not a write: all of it decides"
        );
    }
}
