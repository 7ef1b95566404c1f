//! Rust names against rustc's style conventions, from the syntax tree.

use super::Misnamed;
use crate::lexical::names::{is_camel_case, is_snake_case, is_upper_case};
use syn::visit::{self, Visit};

/// The misnamed items of a file, in source order.
pub(super) fn find(ast: &syn::File) -> Vec<Misnamed> {
    let mut finder = Finder {
        allowed: Vec::new(),
        found: Vec::new(),
    };
    finder.push_allows(&ast.attrs);
    finder.visit_file(ast);
    finder.found.sort_by_key(|m| m.line);
    finder.found
}

/// The style lints an `#[allow(..)]` attribute turns off.
const LINTS: [&str; 4] = [
    "non_snake_case",
    "non_camel_case_types",
    "non_upper_case_globals",
    "nonstandard_style",
];

struct Finder {
    /// Lints allowed by the enclosing items, innermost last.
    allowed: Vec<&'static str>,
    found: Vec<Misnamed>,
}

impl Finder {
    /// Pushes the style lints `attrs` allow; returns how many to pop afterwards.
    fn push_allows(&mut self, attrs: &[syn::Attribute]) -> usize {
        let mut n = 0;
        for attr in attrs {
            if !(attr.path().is_ident("allow") || attr.path().is_ident("expect")) {
                continue;
            }
            let Ok(list) = attr.meta.require_list() else {
                continue;
            };
            let tokens = list.tokens.to_string();
            for lint in LINTS {
                if tokens.contains(lint) {
                    self.allowed.push(lint);
                    n += 1;
                }
            }
        }
        n
    }

    fn scoped(&mut self, attrs: &[syn::Attribute], walk: impl FnOnce(&mut Self)) {
        let n = self.push_allows(attrs);
        walk(self);
        self.allowed.truncate(self.allowed.len() - n);
    }

    fn check(&mut self, ident: &syn::Ident, kind: &'static str, style: Style) {
        let lint = match style {
            Style::Snake => "non_snake_case",
            Style::Camel => "non_camel_case_types",
            Style::Upper => "non_upper_case_globals",
        };
        if self.allowed.contains(&lint) || self.allowed.contains(&"nonstandard_style") {
            return;
        }
        let name = ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
        let (ok, convention) = match style {
            Style::Snake => (is_snake_case(&name), "snake_case"),
            Style::Camel => (is_camel_case(&name), "CamelCase"),
            Style::Upper => (is_upper_case(&name), "UPPER_CASE"),
        };
        if !ok {
            self.found.push(Misnamed {
                line: ident.span().start().line as u32,
                kind,
                name,
                convention,
            });
        }
    }

    fn check_binding(&mut self, pat: &syn::Pat) {
        let mut bindings = Bindings(Vec::new());
        bindings.visit_pat(pat);
        for ident in bindings.0 {
            let name = ident.to_string();
            // An upper-case first letter may be a constant or unit variant in a pattern.
            if name.starts_with(|c: char| c.is_lowercase()) {
                self.check(&ident, "variable", Style::Snake);
            }
        }
    }

    fn check_sig(&mut self, sig: &syn::Signature, attrs: &[syn::Attribute]) {
        let foreign = sig.abi.is_some()
            || attrs.iter().any(|a| {
                a.path().is_ident("no_mangle")
                    || a.path().is_ident("export_name")
                    || a.meta.require_list().is_ok_and(|l| {
                        a.path().is_ident("unsafe") && l.tokens.to_string().contains("no_mangle")
                    })
            });
        if !foreign {
            self.check(&sig.ident, "function", Style::Snake);
        }
        for input in &sig.inputs {
            if let syn::FnArg::Typed(t) = input {
                self.check_binding(&t.pat);
            }
        }
    }
}

impl Finder {
    /// A method: its name is checked unless a trait impl's (the trait names it).
    fn impl_fn(&mut self, f: &syn::ImplItemFn, trait_impl: bool) {
        self.scoped(&f.attrs, |v| {
            if !trait_impl {
                v.check_sig(&f.sig, &f.attrs);
            }
            v.visit_block(&f.block);
        });
    }
}

#[derive(Clone, Copy)]
enum Style {
    Snake,
    Camel,
    Upper,
}

/// The identifiers a pattern binds.
struct Bindings(Vec<syn::Ident>);

impl<'ast> Visit<'ast> for Bindings {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(p.ident.clone());
        visit::visit_pat_ident(self, p);
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.scoped(&f.attrs, |v| {
            v.check_sig(&f.sig, &f.attrs);
            visit::visit_block(v, &f.block);
        });
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let trait_impl = i.trait_.is_some();
        self.scoped(&i.attrs, |v| {
            for item in &i.items {
                match item {
                    syn::ImplItem::Fn(f) => v.impl_fn(f, trait_impl),
                    other => v.visit_impl_item(other),
                }
            }
        });
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.scoped(&f.attrs, |v| {
            v.check_sig(&f.sig, &f.attrs);
            if let Some(block) = &f.default {
                visit::visit_block(v, block);
            }
        });
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.scoped(&m.attrs, |v| visit::visit_item_mod(v, m));
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.scoped(&t.attrs, |v| {
            v.check(&t.ident, "trait", Style::Camel);
            visit::visit_item_trait(v, t);
        });
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.scoped(&s.attrs, |v| v.check(&s.ident, "type", Style::Camel));
    }

    fn visit_item_union(&mut self, u: &'ast syn::ItemUnion) {
        self.scoped(&u.attrs, |v| v.check(&u.ident, "type", Style::Camel));
    }

    fn visit_item_type(&mut self, t: &'ast syn::ItemType) {
        self.scoped(&t.attrs, |v| v.check(&t.ident, "type", Style::Camel));
    }

    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.scoped(&e.attrs, |v| {
            v.check(&e.ident, "type", Style::Camel);
            for variant in &e.variants {
                v.scoped(&variant.attrs, |v| {
                    v.check(&variant.ident, "variant", Style::Camel)
                });
            }
        });
    }

    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.scoped(&c.attrs, |v| {
            if c.ident != "_" {
                v.check(&c.ident, "constant", Style::Upper);
            }
            visit::visit_item_const(v, c);
        });
    }

    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.scoped(&s.attrs, |v| {
            v.check(&s.ident, "static", Style::Upper);
            visit::visit_item_static(v, s);
        });
    }

    fn visit_item_foreign_mod(&mut self, _: &'ast syn::ItemForeignMod) {}

    fn visit_item_macro(&mut self, _: &'ast syn::ItemMacro) {}

    fn visit_local(&mut self, local: &'ast syn::Local) {
        self.scoped(&local.attrs, |v| {
            v.check_binding(&local.pat);
            visit::visit_local(v, local);
        });
    }
}
