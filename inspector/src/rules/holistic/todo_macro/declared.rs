//! Where the code itself declares an `unimplemented!()` deliberate: the ways a Rust program
//! says "this case is not supported" rather than "this is not written yet". `todo!()` is never
//! one of them, and neither is a message that says the work is still to come ("later", "todo",
//! "not yet", "implement").
//!
//! - a match arm whose pattern names the cases it answers (`Slice(_) => unimplemented!()`,
//!   `Event::Math(_) => unimplemented!("feature not enabled")`);
//! - a catch-all arm whose message says the case cannot happen (`_ => unimplemented!("Unexpected
//!   alias: {:?}", id)`) — an `unreachable!()` in other words —, or that the value is not
//!   supported (`_ => unimplemented!("the client only supports http/1.1 & http/2")`): a
//!   documented refusal of the caller's input;
//! - a method of a trait impl (`fn data_layout(&self) -> … { unimplemented!() }`): the type
//!   declares it does not support that part of the trait;
//! - a catch-all arm whose message shows the value that reached it (`_ => unimplemented!("{}",
//!   line)`);
//! - a function whose doc comment tells callers it is not supported (a stub kept so code
//!   compiles), or a method compiled only under `#[cfg(not(…))]`, for a configuration the
//!   crate does not support;
//! - a `#[deprecated]` function that refuses to run, pointing at its replacement;
//! - a let-else whose pattern names the one shape the code supports (`let Type::Syn(t) = ty
//!   else { unimplemented!() }`);
//! - a trait's provided method whose whole body is `unimplemented!()`: the default of a method
//!   the implementors provide, kept provided so that adding it broke no implementor;
//! - the catch-all of a match over a C library's constants (`sys::YAML_SCALAR_EVENT => …`):
//!   the compiler demands it for integers the library never returns.
//!
//! Each is an excuse ([`crate::engine::Hit::excuse`]): trusted on code the change under review
//! did not write, never on code it did.

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// A message of a macro call that says the work is still to come.
fn unfinished(m: &syn::Macro) -> bool {
    let said = m.tokens.to_string().to_lowercase();
    ["later", "todo", "yet", "implement"]
        .iter()
        .any(|w| said.contains(w))
}

/// A message that says the case cannot happen.
fn impossible(m: &syn::Macro) -> bool {
    let said = m.tokens.to_string().to_lowercase();
    [
        "unexpected",
        "unreachable",
        "impossible",
        "should not",
        "should never",
        "cannot happen",
        "can't happen",
        "unlikely",
    ]
    .iter()
    .any(|w| said.contains(w))
}

/// A message that says the value is outside what the code supports.
fn refuses(m: &syn::Macro) -> bool {
    let said = m.tokens.to_string().to_lowercase();
    ["only support", "not supported", "unsupported"]
        .iter()
        .any(|w| said.contains(w))
}

/// A message that formats a value (`unimplemented!("{}", line)`, `"{kind:?}"`): the arm
/// reports what reached it, a refusal rather than a placeholder.
fn shows_value(m: &syn::Macro) -> bool {
    let Ok(args) = m.parse_body_with(
        syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
    ) else {
        return false;
    };
    let Some(syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(format),
        ..
    })) = args.first()
    else {
        return false;
    };
    let format = format.value().replace("{{", "");
    format.contains('{') && (args.len() > 1 || format.contains(|c: char| c.is_alphabetic()))
}

/// A function whose documentation tells its callers it is not supported (`/// … is not
/// supported yet in Loom. This stub is provided just to make the code compile.`).
fn documented_gap<'b>(attrs: &[syn::Attribute], block: &'b syn::Block) -> Option<&'b syn::Macro> {
    let doc = crate::rules::rust_docs::doc_text(attrs).to_lowercase();
    let said = ["not supported", "unsupported", "stub"]
        .iter()
        .any(|w| doc.contains(w));
    sole_macro_of(block).filter(|m| said && is_unimplemented(m))
}

fn is_unimplemented(m: &syn::Macro) -> bool {
    m.path.is_ident("unimplemented")
}

fn line_of(m: &syn::Macro) -> u32 {
    m.path.span().start().line as u32
}

/// `#[cfg(not(CPython))]`, `#[cfg(target_arch = "wasm32")]`: the item exists only for a
/// configuration or a target the crate does not support, so that it compiles there.
fn for_unsupported_config(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta.require_list().is_ok_and(|l| {
                let predicate = l.tokens.to_string();
                let predicate = predicate.trim_start();
                predicate.starts_with("not")
                    || ["target_", "unix", "windows"]
                        .iter()
                        .any(|p| predicate.starts_with(p))
            })
    })
}

fn deprecated(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("deprecated"))
}

/// Why a stub compiled for one configuration only is deliberate.
const UNSUPPORTED_CONFIG: &str = "the function is compiled only for a configuration the crate does not support (`#[cfg(not(…))]`, a target)";

/// The `unimplemented!()` calls the code declares deliberate: (line, why).
#[derive(Default)]
pub(super) struct Declared {
    pub(super) found: Vec<(u32, &'static str)>,
    /// Inside a method of a trait impl.
    trait_method: bool,
    /// Inside a `#[deprecated]` function.
    deprecated: bool,
}

impl Declared {
    /// Why the code declares the call on `line` deliberate, if it does.
    pub(super) fn excuse(&self, line: u32) -> Option<&'static str> {
        self.found.iter().find(|(l, _)| *l == line).map(|(_, e)| *e)
    }

    fn record(&mut self, m: &syn::Macro, why: &'static str) {
        let line = line_of(m);
        if self.excuse(line).is_none() {
            self.found.push((line, why));
        }
    }
}

/// The one macro call an expression or block consists of (`unimplemented!()`, `{ todo!() }`).
fn sole_macro(expr: &syn::Expr) -> Option<&syn::Macro> {
    match expr {
        syn::Expr::Block(b) => sole_macro_of(&b.block),
        syn::Expr::Macro(m) => Some(&m.mac),
        _ => None,
    }
}

fn sole_macro_of(block: &syn::Block) -> Option<&syn::Macro> {
    match block.stmts.as_slice() {
        [syn::Stmt::Macro(m)] => Some(&m.mac),
        [syn::Stmt::Expr(syn::Expr::Macro(m), _)] => Some(&m.mac),
        _ => None,
    }
}

/// Whether a match's arms name a C library's constants (`sys::YAML_SCALAR_EVENT`, every arm
/// but the catch-all, at least two): a C enum reaches Rust as an integer, so the compiler
/// demands a catch-all for values the library never returns.
fn over_c_constants(arms: &[syn::Arm]) -> bool {
    let c_constant = |pat: &syn::Pat| match pat {
        syn::Pat::Path(p) => p.path.segments.iter().rev().skip(1).any(|s| {
            let name = s.ident.to_string();
            matches!(name.as_str(), "sys" | "ffi" | "bindings") || name.ends_with("_sys")
        }),
        _ => false,
    };
    let named: Vec<&syn::Arm> = arms
        .iter()
        .filter(|a| !matches!(a.pat, syn::Pat::Wild(_)))
        .collect();
    named.len() >= 2
        && named.iter().all(|a| match &a.pat {
            syn::Pat::Or(or) => or.cases.iter().all(c_constant),
            pat => c_constant(pat),
        })
}

impl<'ast> Visit<'ast> for Declared {
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        if over_c_constants(&m.arms) {
            let catch_alls = m
                .arms
                .iter()
                .filter(|a| matches!(a.pat, syn::Pat::Wild(_)))
                .filter_map(|a| sole_macro(&a.body))
                .filter(|mac| is_unimplemented(mac) && !unfinished(mac));
            for mac in catch_alls {
                self.record(mac, "the match is over a C library's constants: its catch-all covers values the library never returns");
            }
        }
        visit::visit_expr_match(self, m);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        let body = sole_macro(&arm.body);
        if let Some(mac) = body.filter(|m| is_unimplemented(m) && !unfinished(m)) {
            let catch_all = matches!(arm.pat, syn::Pat::Wild(_) | syn::Pat::Ident(_));
            if !catch_all {
                self.record(mac, "the match arm names the case it does not support");
            } else if impossible(mac) {
                self.record(mac, "its message says the case cannot happen");
            } else if refuses(mac) {
                self.record(mac, "its message says the value is not supported");
            } else if shows_value(mac) {
                self.record(mac, "its message shows the value the arm does not handle");
            }
        }
        visit::visit_arm(self, arm);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let outer = self.trait_method;
        for item in &i.items {
            self.trait_method = i.trait_.is_some() && matches!(item, syn::ImplItem::Fn(_));
            self.visit_impl_item(item);
        }
        self.trait_method = outer;
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if let Some(mac) = documented_gap(&f.attrs, &f.block) {
            self.record(mac, "its documentation tells callers it is not supported");
        }
        let stub = sole_macro_of(&f.block).filter(|m| is_unimplemented(m));
        if let Some(mac) = stub.filter(|_| for_unsupported_config(&f.attrs)) {
            self.record(mac, UNSUPPORTED_CONFIG);
        }
        let outer = self.deprecated;
        self.deprecated |= deprecated(&f.attrs);
        visit::visit_impl_item_fn(self, f);
        self.deprecated = outer;
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if let Some(mac) = documented_gap(&f.attrs, &f.block) {
            self.record(mac, "its documentation tells callers it is not supported");
        }
        let stub = sole_macro_of(&f.block).filter(|m| is_unimplemented(m));
        if let Some(mac) = stub.filter(|_| for_unsupported_config(&f.attrs)) {
            self.record(mac, UNSUPPORTED_CONFIG);
        }
        let (outer_dep, outer_trait) = (self.deprecated, self.trait_method);
        self.deprecated |= deprecated(&f.attrs);
        self.trait_method = false;
        visit::visit_item_fn(self, f);
        self.deprecated = outer_dep;
        self.trait_method = outer_trait;
    }

    /// `let Type::Syn(t) = ty else { unimplemented!() };`: the pattern names the one shape the
    /// code supports, like a match arm's.
    fn visit_local(&mut self, local: &'ast syn::Local) {
        let refused = local
            .init
            .as_ref()
            .and_then(|init| init.diverge.as_ref())
            .and_then(|(_, diverge)| sole_macro(diverge));
        if let Some(mac) = refused.filter(|m| is_unimplemented(m) && !unfinished(m)) {
            self.record(mac, "the let-else names the one case it supports");
        }
        visit::visit_local(self, local);
    }

    /// A trait's provided method whose whole body is `unimplemented!()`: the default of a method
    /// its implementors are to provide (kept provided so adding it broke nobody).
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        let body = f.default.as_ref().and_then(sole_macro_of);
        if let Some(mac) = body.filter(|m| is_unimplemented(m)) {
            self.record(
                mac,
                "a trait's default for a method its implementors provide",
            );
        }
        visit::visit_trait_item_fn(self, f);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if is_unimplemented(m) && !unfinished(m) {
            if self.deprecated {
                self.record(m, "a deprecated function that refuses to run");
            } else if self.trait_method {
                self.record(m, "a trait method this type declares it does not support");
            }
        }
        visit::visit_macro(self, m);
    }
}
