//! The item-level Rust tree ([`crate::engine::SourceFile::rust_items`]): the file's items
//! parsed, the bodies of its functions kept as the tokens they are.
//!
//! Rules that compare imports, type definitions, signatures or test attributes across files
//! never read a statement, yet a full `syn` parse spends most of its time on statements. Here
//! the file is tokenised once, each function body that defines no items of its own (no nested
//! `fn`, `struct`, `enum`, `union`, `impl`, `trait` or `mod`) is set aside before `syn` sees the
//! tokens, and afterwards put back into its block as one verbatim expression: the tree has every
//! item a rule's visitor would find, each block spans the lines it spans in the file, and a
//! block's tokens print as in the file. Anything this cannot mirror exactly (a shebang, a body
//! it cannot put back) is left to the full parse.

use proc_macro2::{Delimiter, Group, LineColumn, TokenStream, TokenTree};
use std::collections::HashMap;
use std::str::FromStr;

/// Keywords that make a body define items a visitor would find inside it.
const ITEM_KEYWORDS: [&str; 7] = ["fn", "struct", "enum", "union", "impl", "trait", "mod"];

/// Bodies set aside, by the position of their opening brace.
type Bodies = HashMap<LineColumn, TokenStream>;

/// The item-level tree of `text`, or `None` when only the full parse can give the right one
/// (the text does not tokenise or parse this way, or has a shebang line).
pub(crate) fn parse_items(text: &str) -> Option<syn::File> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.starts_with("#!") && !text.starts_with("#![") {
        return None;
    }
    let tokens = TokenStream::from_str(text).ok()?;
    let mut bodies = Bodies::new();
    let stripped = strip(tokens, &mut bodies);
    let mut file: syn::File = syn::parse2(stripped).ok()?;
    let mut refill = Refill {
        bodies,
        missing: false,
    };
    refill.items(&mut file.items);
    (refill.bodies.is_empty() && !refill.missing).then_some(file)
}

/// Copies an item-level token stream, setting aside the body of every function that defines no
/// items and descending into the other brace groups that hold items (modules, impls, traits).
fn strip(tokens: TokenStream, bodies: &mut Bodies) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    // Set after `fn <name>`, until its body or `;`.
    let mut in_signature = false;
    for tree in tokens {
        match tree {
            TokenTree::Ident(ref ident) if ident == "fn" => {
                in_signature = false;
                out.push(tree);
            }
            TokenTree::Ident(_) if matches!(out.last(), Some(TokenTree::Ident(k)) if k == "fn") => {
                in_signature = true;
                out.push(tree);
            }
            TokenTree::Punct(ref p) if p.as_char() == ';' => {
                in_signature = false;
                out.push(tree);
            }
            TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
                if in_signature {
                    in_signature = false;
                    out.push(TokenTree::Group(set_aside(group, bodies)));
                } else if holds_items(&out) {
                    let mut inner = Group::new(Delimiter::Brace, strip(group.stream(), bodies));
                    inner.set_span(group.span());
                    out.push(TokenTree::Group(inner));
                } else {
                    out.push(TokenTree::Group(group));
                }
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// Whether a brace group after `before` holds items rather than an expression or macro
/// input: not after `=` (a constant's block) and not after `!` or `name!` (a macro's tokens).
fn holds_items(before: &[TokenTree]) -> bool {
    let bang = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let eq = matches!(before.last(), Some(TokenTree::Punct(p)) if p.as_char() == '=');
    let n = before.len();
    !(eq || bang(before.last()) || (n >= 2 && bang(before.get(n - 2))))
}

/// The body `group` replaced by an empty block over the same lines; its tokens are kept in
/// `bodies` unless it defines items (then it stays, to be parsed).
fn set_aside(group: Group, bodies: &mut Bodies) -> Group {
    let stream = group.stream();
    if stream.is_empty() || defines_items(&stream) {
        return group;
    }
    bodies.insert(group.span_open().start(), stream);
    let mut empty = Group::new(Delimiter::Brace, TokenStream::new());
    empty.set_span(group.span());
    empty
}

/// Whether a body names an item keyword anywhere inside it.
fn defines_items(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(ident) => ITEM_KEYWORDS.iter().any(|k| ident == k),
        TokenTree::Group(g) => defines_items(&g.stream()),
        _ => false,
    })
}

/// Puts every set-aside body back into its block, found by the position of its brace.
struct Refill {
    bodies: Bodies,
    /// A block spanned a set-aside body's position but was not empty: the tree is not the file's.
    missing: bool,
}

impl Refill {
    fn items(&mut self, items: &mut [syn::Item]) {
        for item in items {
            match item {
                syn::Item::Fn(f) => self.block(&mut f.block),
                syn::Item::Impl(i) => {
                    for it in &mut i.items {
                        if let syn::ImplItem::Fn(f) = it {
                            self.block(&mut f.block);
                        }
                    }
                }
                syn::Item::Trait(t) => {
                    for it in &mut t.items {
                        if let syn::TraitItem::Fn(syn::TraitItemFn {
                            default: Some(block),
                            ..
                        }) = it
                        {
                            self.block(block);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &mut m.content {
                        self.items(inner);
                    }
                }
                _ => {}
            }
        }
    }

    fn block(&mut self, block: &mut syn::Block) {
        let at = block.brace_token.span.open().start();
        if let Some(tokens) = self.bodies.remove(&at) {
            if !block.stmts.is_empty() {
                self.missing = true;
            }
            block.stmts = vec![syn::Stmt::Expr(syn::Expr::Verbatim(tokens), None)];
        }
    }
}

#[cfg(test)]
mod tests;
