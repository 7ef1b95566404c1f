//! The functions design.md's ```rust blocks declare.
//!
//! Design blocks are interface sketches, not compilable Rust: bodies are usually replaced by `;`
//! and `self` appears outside any impl. syn already accepts both: `fn f(..) -> T;` at item and
//! impl-item level comes back as verbatim tokens (re-read here as a `ForeignItemFn`) and a
//! receiver parses in any signature. So a block is read in two steps:
//! 1. the block as a file (free fns, trait items, impl items, extern blocks, inline modules);
//! 2. when that fails (`struct Config { ... }`, `fn main() { ... }` elsewhere in the block), each
//!    `fn` line (continued until its `;` or `{`) alone as a `ForeignItemFn`, the owner taken from
//!    the last `impl X`/`trait X` line before it.
//!
//! Wrapping the block in `trait __Design { .. }` was tried and dropped: every block it could read,
//! step 1 already reads (syn is that lenient), and whatever breaks step 1 breaks it too.
//!
//! Lines are design.md lines: a block's first content line plus the span's line in the block.

use super::signature::FnSig;
use crate::spec::CodeBlock;
use syn::spanned::Spanned;

/// Every function `block` declares, with design.md lines.
pub(super) fn designed_fns(block: &CodeBlock) -> Vec<FnSig> {
    let offset = block.first_line.saturating_sub(1);
    // design.md is the reviewed repository's text too: a block nested beyond the limits would
    // overflow syn, so it declares nothing that can be checked.
    if crate::engine::limits::check(&block.text, crate::engine::Language::Rust).is_some() {
        return Vec::new();
    }
    if let Ok(file) = syn::parse_file(&block.text) {
        let mut out = Vec::new();
        collect_items(&file.items, offset, &mut out);
        return out;
    }
    line_by_line(&block.text, offset)
}

fn sig_at(sig: &syn::Signature, owner: Option<String>, offset: u32) -> FnSig {
    FnSig::from_syn(sig, owner, offset + sig.fn_token.span().start().line as u32)
}

fn collect_items(items: &[syn::Item], offset: u32, out: &mut Vec<FnSig>) {
    for item in items {
        match item {
            syn::Item::Fn(f) => out.push(sig_at(&f.sig, None, offset)),
            syn::Item::Verbatim(tokens) => {
                if let Ok(f) = syn::parse2::<syn::ForeignItemFn>(tokens.clone()) {
                    out.push(sig_at(&f.sig, None, offset));
                }
            }
            syn::Item::Trait(t) => {
                let owner = t.ident.to_string();
                for ti in &t.items {
                    if let syn::TraitItem::Fn(f) = ti {
                        out.push(sig_at(&f.sig, Some(owner.clone()), offset));
                    }
                }
            }
            syn::Item::Impl(i) => {
                let owner = type_name(&i.self_ty);
                let trait_name = i
                    .trait_
                    .as_ref()
                    .and_then(|(_, path, _)| path.segments.last())
                    .map(|s| s.ident.to_string());
                for ii in &i.items {
                    let sig = match ii {
                        syn::ImplItem::Fn(f) => Some(f.sig.clone()),
                        syn::ImplItem::Verbatim(tokens) => {
                            syn::parse2::<syn::ForeignItemFn>(tokens.clone())
                                .ok()
                                .map(|f| f.sig)
                        }
                        _ => None,
                    };
                    if let Some(sig) = sig {
                        let mut s = sig_at(&sig, owner.clone(), offset);
                        s.trait_name = trait_name.clone();
                        out.push(s);
                    }
                }
            }
            syn::Item::ForeignMod(m) => {
                for fi in &m.items {
                    if let syn::ForeignItem::Fn(f) = fi {
                        out.push(sig_at(&f.sig, None, offset));
                    }
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_items(inner, offset, out);
                }
            }
            _ => {}
        }
    }
}

/// The last path segment of a type (`crate::users::UserService<T>` → `UserService`).
pub(super) fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// A line without a leading `pub`/`pub(crate)`/`pub(super)` before a `fn`.
fn strip_visibility(line: &str) -> String {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    for vis in ["pub(crate) ", "pub(super) ", "pub "] {
        if let Some(rest) = trimmed.strip_prefix(vis) {
            if is_fn_start(rest) {
                return format!("{indent}{rest}");
            }
        }
    }
    line.to_string()
}

fn is_fn_start(text: &str) -> bool {
    let mut rest = text.trim_start();
    for qualifier in ["const ", "async ", "unsafe ", "extern \"C\" "] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    rest.starts_with("fn ")
}

/// Step 3: each `fn` on its own, owner from the last `impl`/`trait` line seen.
fn line_by_line(text: &str, offset: u32) -> Vec<FnSig> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut owner: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let stripped = strip_visibility(line);
        let trimmed = stripped.trim_start();
        if let Some(name) = owner_of(trimmed) {
            owner = Some(name);
            continue;
        }
        if line.starts_with('}') {
            owner = None;
        }
        if !is_fn_start(trimmed) {
            continue;
        }
        let mut signature = String::new();
        for next in &lines[i..] {
            signature.push_str(next);
            signature.push('\n');
            if next.contains(';') || next.contains('{') {
                break;
            }
        }
        let head = signature
            .split([';', '{'])
            .next()
            .unwrap_or_default()
            .to_string();
        if let Ok(f) = syn::parse_str::<syn::ForeignItemFn>(&format!("{head};")) {
            out.push(FnSig::from_syn(
                &f.sig,
                owner.clone(),
                offset + i as u32 + 1,
            ));
        }
    }
    out
}

/// `impl X {`, `impl T for X {`, `trait X {` → the owner's name.
fn owner_of(trimmed: &str) -> Option<String> {
    let rest = trimmed
        .strip_prefix("impl")
        .or_else(|| trimmed.strip_prefix("trait "))?;
    let head = rest.split('{').next().unwrap_or_default();
    let head = head.rsplit(" for ").next().unwrap_or(head);
    let word = head
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .find(|w| !w.is_empty())?;
    word.rsplit("::").next().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(text: &str) -> CodeBlock {
        CodeBlock {
            lang: "rust".into(),
            first_line: 10,
            text: text.into(),
        }
    }

    fn summary(fns: &[FnSig]) -> Vec<(String, u32, String)> {
        fns.iter()
            .map(|f| (f.qualified(), f.line, f.param_list()))
            .collect()
    }

    #[test]
    fn reads_a_block_that_parses_as_a_file() {
        let text = "pub struct User { pub id: u64 }\n\npub fn create_user(name: &str, email: &str) -> Result<User, Error>;\n\npub trait UserRepo {\n    fn find(&self, id: u64) -> Option<User>;\n}\n\nimpl UserService {\n    pub fn new(repo: Box<dyn UserRepo>) -> Self;\n    pub fn delete(&mut self, id: u64) {}\n}\n";
        assert_eq!(
            summary(&designed_fns(&block(text))),
            vec![
                ("create_user".into(), 12, "(name: &str, email: &str)".into()),
                ("UserRepo::find".into(), 15, "(id: u64)".into()),
                (
                    "UserService::new".into(),
                    19,
                    "(repo: Box<dyn UserRepo>)".into()
                ),
                ("UserService::delete".into(), 20, "(id: u64)".into()),
            ]
        );
    }

    #[test]
    fn reads_bare_method_lists() {
        let text = "pub fn find(&self, id: u64) -> Option<User>;\nasync fn save(&mut self, user: User) -> Result<(), Error>;\n";
        let fns = designed_fns(&block(text));
        assert_eq!(
            summary(&fns),
            vec![
                ("find".into(), 10, "(id: u64)".into()),
                ("save".into(), 11, "(user: User)".into()),
            ]
        );
        assert_eq!(fns[1].receiver.as_deref(), Some("&mut self"));
    }

    #[test]
    fn falls_back_to_single_signatures() {
        let text = "struct Config { ... }\n\nimpl Loader {\n    pub fn load(path: &Path,\n                opts: Options) -> Config;\n}\nfn main() { ... }\n";
        assert_eq!(
            summary(&designed_fns(&block(text))),
            vec![
                (
                    "Loader::load".into(),
                    13,
                    "(path: &Path, opts: Options)".into()
                ),
                ("main".into(), 16, "()".into()),
            ]
        );
    }

    #[test]
    fn a_block_nested_beyond_the_limits_declares_nothing_and_kills_nothing() {
        let deep = format!(
            "pub fn table() -> u8 {}1{}\npub fn shown(a: u8) -> u8;\n",
            "{".repeat(50_000),
            "}".repeat(50_000)
        );
        assert!(designed_fns(&block(&deep)).is_empty());
        let imports =
            super::super::design_imports::rust_imports(&block(&format!("use a::b;\n{deep}")));
        assert!(imports.is_empty());
        assert_eq!(
            designed_fns(&block("pub fn shown(a: u8) -> u8;\n")).len(),
            1
        );
    }
}
