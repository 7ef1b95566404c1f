//! Small readings of Rust syntax the holistic rules share: paths as text, callee names,
//! and expressions rendered for comparison.

use proc_macro2::Span;
use quote::ToTokens;

/// `std::thread::spawn` for a path.
pub(super) fn path_text(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// The callee of a call expression as a path (`tokio::spawn`), when it is one.
pub(crate) fn callee(call: &syn::ExprCall) -> Option<String> {
    match &*call.func {
        syn::Expr::Path(p) => Some(path_text(&p.path)),
        _ => None,
    }
}

/// Whether a `::`-path ends with `suffix` at a segment boundary (`std::fs::write` ends with
/// `fs::write`, `myfs::write` does not).
pub(crate) fn path_ends_with(path: &str, suffix: &str) -> bool {
    path == suffix
        || path
            .strip_suffix(suffix)
            .is_some_and(|head| head.ends_with("::"))
}

/// 1-based line of a span.
pub(super) fn line(span: Span) -> u32 {
    span.start().line as u32
}

/// An expression as compact text for comparing two mentions of "the same" value: spaces,
/// references, `Path::new(..)` and `.as_path()`-style conversions removed.
pub(super) fn same_value_text(expr: &syn::Expr) -> String {
    let mut e = expr;
    loop {
        match e {
            syn::Expr::Reference(r) => e = &r.expr,
            syn::Expr::Paren(p) => e = &p.expr,
            syn::Expr::Call(c)
                if c.args.len() == 1
                    && callee(c).is_some_and(|p| path_ends_with(&p, "Path::new")) =>
            {
                e = &c.args[0]
            }
            syn::Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        m.method.to_string().as_str(),
                        "as_path" | "to_path_buf" | "as_ref" | "clone" | "as_str"
                    ) =>
            {
                e = &m.receiver
            }
            _ => break,
        }
    }
    e.to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}
