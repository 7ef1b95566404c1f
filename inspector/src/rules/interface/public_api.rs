//! The public surface of one Rust module file, and what breaks between two revisions of it.
//!
//! The surface is what a dependent crate can name: `pub` items (not `pub(crate)`, not
//! `#[doc(hidden)]`, not `#[cfg(test)]`), inline `pub mod`s, and the `pub` methods of inherent
//! `impl`s of the file's own public types. A break is what makes a dependent that compiled
//! against the base stop compiling: an item gone, a function's parameter types, generics or
//! return type changed, a field or variant removed or retyped, a variant added to an exhaustive
//! enum, a field added to a struct a literal can build, a required method added to a trait.
//! Parameter names, docs, bodies and private items never break anything.

use super::signature::{normalise, FnSig};
use canon::{alias, generics_of, unqualified};
use quote::ToTokens;
use std::collections::BTreeMap;

mod canon;
mod compare;

#[cfg(test)]
use canon::replace_word;
pub(super) use compare::{breaks, Break};

/// One public item, with what a dependent relies on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Api {
    /// A function or method: parameter types, return type, generics with bounds.
    Fn {
        params: Vec<String>,
        ret: String,
        generics: String,
        receiver: Option<String>,
    },
    /// A struct: its public fields (name or position → type), whether it has others, and
    /// whether it is `#[non_exhaustive]`.
    Struct {
        fields: Vec<(String, String)>,
        private_fields: bool,
        non_exhaustive: bool,
    },
    /// An enum: its variants (name → shape), and whether it is `#[non_exhaustive]`.
    Enum {
        variants: Vec<(String, String)>,
        non_exhaustive: bool,
    },
    /// A trait: its items (name → signature) and which of them have no default.
    Trait {
        items: Vec<(String, String)>,
        required: Vec<String>,
    },
    /// A constant, a static or a type alias: its type (or aliased type).
    Typed { ty: String },
    /// A Python or TypeScript function: its parameters; Python callers may pass them by name.
    Callable {
        params: Vec<super::public_script::ScriptParam>,
        by_name: bool,
    },
    /// Anything else public (a module, a macro, a union, a class): only its presence.
    Present,
}

/// A file's public surface: item key (`fn parse`, `struct Config`, `fn Config::new`,
/// `mod io::fn read`) → the item and its 1-based line.
pub(super) type Surface = BTreeMap<String, (Api, u32)>;

/// The public surface of `text`; `None` when it does not parse (nothing is compared then).
pub(super) fn surface(text: &str) -> Option<Surface> {
    let file = syn::parse_file(text).ok()?;
    let mut out = Surface::new();
    items(&file.items, "", &mut out);
    Some(out)
}

fn line_of(span: proc_macro2::Span) -> u32 {
    span.start().line as u32
}

fn public(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Whether `attrs` leave the item out of the surface (`#[cfg(test)]`, `#[doc(hidden)]`).
fn hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let text = normalise(&a.to_token_stream().to_string());
        text.contains("cfg(test)") || text.contains("doc(hidden)")
    })
}

fn non_exhaustive(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("non_exhaustive"))
}

pub(super) fn text_of(tokens: &impl ToTokens) -> String {
    normalise(&tokens.to_token_stream().to_string())
}

fn function(sig: &syn::Signature, owner: Option<String>) -> Api {
    let parsed = FnSig::from_syn(sig, owner, line_of(sig.ident.span()));
    Api::Fn {
        params: parsed
            .params
            .into_iter()
            .map(|p| unqualified(&p.ty))
            .collect(),
        ret: unqualified(&parsed.ret),
        generics: generics_of(&sig.generics),
        receiver: parsed.receiver.map(|r| unqualified(&r)),
    }
}

/// A trait method's signature as a dependent relies on it (see [`function`]).
fn signature_text(sig: &syn::Signature) -> String {
    let Api::Fn {
        params,
        ret,
        generics,
        receiver,
    } = function(sig, None)
    else {
        return String::new();
    };
    let mut all: Vec<String> = receiver.into_iter().collect();
    all.extend(params);
    let generics = if generics.is_empty() {
        String::new()
    } else {
        format!(" {generics}")
    };
    format!("fn({}) -> {ret}{generics}", all.join(", "))
}

fn fields_of(fields: &syn::Fields) -> (Vec<(String, String)>, bool) {
    let mut public_fields = Vec::new();
    let mut private = false;
    for (i, f) in fields.iter().enumerate() {
        if public(&f.vis) && !hidden(&f.attrs) {
            let name = f.ident.as_ref().map_or(i.to_string(), ToString::to_string);
            public_fields.push((name, unqualified(&text_of(&f.ty))));
        } else {
            private = true;
        }
    }
    (public_fields, private)
}

fn items(list: &[syn::Item], prefix: &str, out: &mut Surface) {
    let mut own_types: Vec<String> = Vec::new();
    for item in list {
        let Some((key, api, line)) = entry(item, prefix, out) else {
            continue;
        };
        if matches!(api, Api::Struct { .. } | Api::Enum { .. }) {
            own_types.push(
                key.split_once(' ')
                    .map_or(String::new(), |(_, n)| n.to_string()),
            );
        }
        out.insert(format!("{prefix}{key}"), (api, line));
    }
    // Inherent methods of this file's public types.
    for item in list {
        let syn::Item::Impl(imp) = item else {
            continue;
        };
        if imp.trait_.is_some() || hidden(&imp.attrs) {
            continue;
        }
        let syn::Type::Path(p) = &*imp.self_ty else {
            continue;
        };
        let Some(ty) = p.path.segments.last().map(|s| s.ident.to_string()) else {
            continue;
        };
        if !own_types.contains(&ty) {
            continue;
        }
        for ii in &imp.items {
            if let syn::ImplItem::Fn(f) = ii {
                if public(&f.vis) && !hidden(&f.attrs) {
                    out.insert(
                        format!("{prefix}fn {ty}::{}", f.sig.ident),
                        (
                            function(&f.sig, Some(ty.clone())),
                            line_of(f.sig.ident.span()),
                        ),
                    );
                }
            }
        }
    }
}

/// One item's key (without the prefix), surface entry and line, when it is public; an inline
/// public module adds its own items to `out` (under its prefix) and itself as present.
fn entry(item: &syn::Item, prefix: &str, out: &mut Surface) -> Option<(String, Api, u32)> {
    Some(match item {
        syn::Item::Fn(f) if public(&f.vis) && !hidden(&f.attrs) => (
            format!("fn {}", f.sig.ident),
            function(&f.sig, None),
            line_of(f.sig.ident.span()),
        ),
        syn::Item::Struct(s) if public(&s.vis) && !hidden(&s.attrs) => {
            let (fields, private_fields) = fields_of(&s.fields);
            (
                format!("struct {}", s.ident),
                Api::Struct {
                    fields,
                    private_fields,
                    non_exhaustive: non_exhaustive(&s.attrs),
                },
                line_of(s.ident.span()),
            )
        }
        syn::Item::Enum(e) if public(&e.vis) && !hidden(&e.attrs) => {
            let variants = e
                .variants
                .iter()
                .filter(|v| !hidden(&v.attrs))
                .map(|v| (v.ident.to_string(), unqualified(&text_of(&v.fields))))
                .collect();
            (
                format!("enum {}", e.ident),
                Api::Enum {
                    variants,
                    non_exhaustive: non_exhaustive(&e.attrs),
                },
                line_of(e.ident.span()),
            )
        }
        syn::Item::Trait(t) if public(&t.vis) && !hidden(&t.attrs) => {
            let mut members = Vec::new();
            let mut required = Vec::new();
            for ti in &t.items {
                if let syn::TraitItem::Fn(f) = ti {
                    let name = f.sig.ident.to_string();
                    members.push((name.clone(), signature_text(&f.sig)));
                    if f.default.is_none() {
                        required.push(name);
                    }
                }
            }
            (
                format!("trait {}", t.ident),
                Api::Trait {
                    items: members,
                    required,
                },
                line_of(t.ident.span()),
            )
        }
        syn::Item::Const(c) if public(&c.vis) && !hidden(&c.attrs) => (
            format!("const {}", c.ident),
            Api::Typed {
                ty: unqualified(&text_of(&c.ty)),
            },
            line_of(c.ident.span()),
        ),
        syn::Item::Static(s) if public(&s.vis) && !hidden(&s.attrs) => (
            format!("static {}", s.ident),
            Api::Typed {
                ty: unqualified(&text_of(&s.ty)),
            },
            line_of(s.ident.span()),
        ),
        syn::Item::Type(t) if public(&t.vis) && !hidden(&t.attrs) => (
            format!("type {}", t.ident),
            Api::Typed { ty: alias(t) },
            line_of(t.ident.span()),
        ),
        syn::Item::Union(u) if public(&u.vis) && !hidden(&u.attrs) => (
            format!("union {}", u.ident),
            Api::Present,
            line_of(u.ident.span()),
        ),
        syn::Item::Use(u) if public(&u.vis) && !hidden(&u.attrs) => {
            // A re-export keeps a name public wherever its item moved: `use NAME`, or `use *`
            // for a glob (which may keep any name).
            let mut names = Vec::new();
            reexported(&u.tree, &mut names);
            let line = line_of(u.use_token.span);
            for name in names {
                out.insert(format!("{prefix}use {name}"), (Api::Present, line));
            }
            return None;
        }
        syn::Item::Mod(m) if public(&m.vis) && !hidden(&m.attrs) => {
            if let Some((_, inner)) = &m.content {
                items(inner, &format!("{prefix}mod {}::", m.ident), out);
            }
            (
                format!("mod {}", m.ident),
                Api::Present,
                line_of(m.ident.span()),
            )
        }
        _ => return None,
    })
}

/// The names a `use` tree brings in (`*` for a glob).
fn reexported(tree: &syn::UseTree, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => reexported(&p.tree, out),
        syn::UseTree::Name(n) => out.push(n.ident.to_string()),
        syn::UseTree::Rename(r) => out.push(r.rename.to_string()),
        syn::UseTree::Glob(_) => out.push("*".into()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| reexported(t, out)),
    }
}

#[cfg(test)]
mod tests;
