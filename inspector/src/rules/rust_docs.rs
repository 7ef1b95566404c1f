//! Reading Rust doc comments from the syntax tree: `///` lines are `#[doc = "…"]` attributes.

/// The text of the doc comments among `attrs`, one line each.
pub(crate) fn doc_text(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_lines_are_joined_and_other_attributes_skipped() {
        let f: syn::ItemFn =
            syn::parse_str("/// One.\n///\n/// # Panics\n#[inline]\nfn f() {}").expect("fn");
        assert_eq!(doc_text(&f.attrs), " One.\n\n # Panics");
    }
}
