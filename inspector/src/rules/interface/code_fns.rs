//! The implementation side: function definitions and calls in the reviewed non-test Rust code.
//!
//! "Trust code, not mocks": files that are test code by path, `#[cfg(test)]` items and test
//! functions are skipped, and so are the test doubles of non-test code (`test_doubles`), so a
//! double never stands in for the real definition.

use super::design_fns::type_name;
use super::signature::FnSig;
use super::test_doubles::{is_double_attr, is_double_module, is_double_path, is_double_type};
use crate::engine::{Context, Language, SourceFile};
use crate::rules::test_code::{is_test_attr, TestCode};
use syn::spanned::Spanned;
use syn::visit::Visit;

/// A definition in the code.
#[derive(Debug, Clone)]
pub(super) struct CodeFn {
    /// Its signature, with the line of its `fn`.
    pub(super) sig: FnSig,
    /// The file it is defined in.
    pub(super) path: String,
}

/// A call in the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Call {
    /// The called function's or method's name.
    pub(super) name: String,
    /// For a path call `A::b(..)`: `A`.
    pub(super) qualifier: Option<String>,
    /// `x.b(..)` rather than `b(..)`.
    pub(super) method: bool,
    /// How many arguments it passes.
    pub(super) args: usize,
    /// The file it is in.
    pub(super) path: String,
    /// Its 1-based line.
    pub(super) line: u32,
    /// The function the call is in (for the fingerprint).
    pub(super) caller: String,
}

/// The non-test Rust files of the review that parse.
pub(super) fn code_files(ctx: &Context) -> impl Iterator<Item = (&SourceFile, &syn::File)> {
    ctx.files
        .iter()
        .filter(|f| f.language == Some(Language::Rust) && !is_double_path(&f.rel_path))
        .filter(|f| !TestCode::of(f).is_whole_file())
        .filter_map(|f| match f.rust_ast() {
            Some(Ok(ast)) => Some((f, ast)),
            _ => None,
        })
}

/// Every function and method defined in non-test code.
pub(super) fn definitions(ctx: &Context) -> Vec<CodeFn> {
    let mut out = Vec::new();
    for (file, ast) in code_files(ctx) {
        collect(&ast.items, &file.rel_path, &mut out);
    }
    out
}

/// Whether an item is test code or a test double by its attributes.
fn excluded(attrs: &[syn::Attribute]) -> bool {
    is_test_attr(attrs) || is_double_attr(attrs)
}

/// Whether an impl block implements something for a test double (`impl Repo for MockRepo`).
fn double_impl(i: &syn::ItemImpl) -> bool {
    excluded(&i.attrs) || type_name(&i.self_ty).is_some_and(|t| is_double_type(&t))
}

fn line_of(sig: &syn::Signature) -> u32 {
    sig.fn_token.span().start().line as u32
}

fn collect(items: &[syn::Item], path: &str, out: &mut Vec<CodeFn>) {
    let mut push = |sig: FnSig| {
        out.push(CodeFn {
            sig,
            path: path.to_string(),
        })
    };
    let mut nested = Vec::new();
    for item in items {
        match item {
            syn::Item::Fn(f) if !excluded(&f.attrs) => {
                push(FnSig::from_syn(&f.sig, None, line_of(&f.sig)));
            }
            syn::Item::Trait(t) if !excluded(&t.attrs) && !is_double_type(&t.ident.to_string()) => {
                for ti in &t.items {
                    if let syn::TraitItem::Fn(f) = ti {
                        let owner = Some(t.ident.to_string());
                        push(FnSig::from_syn(&f.sig, owner, line_of(&f.sig)));
                    }
                }
            }
            syn::Item::Impl(i) if !double_impl(i) => {
                let trait_name = i
                    .trait_
                    .as_ref()
                    .and_then(|(_, p, _)| p.segments.last())
                    .map(|s| s.ident.to_string());
                for ii in &i.items {
                    if let syn::ImplItem::Fn(f) = ii {
                        if excluded(&f.attrs) {
                            continue;
                        }
                        let mut sig =
                            FnSig::from_syn(&f.sig, type_name(&i.self_ty), line_of(&f.sig));
                        sig.trait_name = trait_name.clone();
                        push(sig);
                    }
                }
            }
            syn::Item::Mod(m) if !excluded(&m.attrs) && !is_double_module(&m.ident.to_string()) => {
                if let Some((_, inner)) = &m.content {
                    nested.push(inner);
                }
            }
            _ => {}
        }
    }
    for inner in nested {
        collect(inner, path, out);
    }
}

/// Every call in non-test code.
pub(super) fn calls(ctx: &Context) -> Vec<Call> {
    let mut visitor = Calls {
        path: String::new(),
        caller: Vec::new(),
        out: Vec::new(),
    };
    for (file, ast) in code_files(ctx) {
        visitor.path.clone_from(&file.rel_path);
        visitor.visit_file(ast);
    }
    visitor.out
}

struct Calls {
    path: String,
    caller: Vec<String>,
    out: Vec<Call>,
}

impl Calls {
    fn record(
        &mut self,
        name: String,
        qualifier: Option<String>,
        method: bool,
        args: usize,
        line: u32,
    ) {
        self.out.push(Call {
            name,
            qualifier,
            method,
            args,
            path: self.path.clone(),
            line,
            caller: self.caller.last().cloned().unwrap_or_default(),
        });
    }
}

impl<'ast> Visit<'ast> for Calls {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !excluded(&m.attrs) && !is_double_module(&m.ident.to_string()) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if !double_impl(i) {
            syn::visit::visit_item_impl(self, i);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !excluded(&f.attrs) {
            self.caller.push(f.sig.ident.to_string());
            syn::visit::visit_item_fn(self, f);
            self.caller.pop();
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !excluded(&f.attrs) {
            self.caller.push(f.sig.ident.to_string());
            syn::visit::visit_impl_item_fn(self, f);
            self.caller.pop();
        }
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*call.func {
            let segments: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            if let Some(name) = segments.last() {
                let qualifier = segments.len().checked_sub(2).map(|i| segments[i].clone());
                let line = call.span().start().line as u32;
                self.record(name.clone(), qualifier, false, call.args.len(), line);
            }
        }
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let line = call.method.span().start().line as u32;
        self.record(call.method.to_string(), None, true, call.args.len(), line);
        syn::visit::visit_expr_method_call(self, call);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Specs;
    use std::path::Path;

    const LIB: &str = "\
pub struct Service;
impl Service {
    pub fn create(&self, name: &str) -> u32 { helper(name, 1) }
}
pub fn helper(a: &str, b: u32) -> u32 { b }
#[cfg(test)]
mod tests {
    fn helper(a: u8) {}
    #[test]
    fn t() { super::helper(\"x\", 2); }
}
";

    fn ctx() -> Context {
        Context::from_files(
            Path::new("/repo"),
            vec![
                SourceFile::new("src/lib.rs", LIB),
                SourceFile::new(
                    "tests/mock.rs",
                    "pub fn helper() {}\nfn x() { helper(); }\n",
                ),
            ],
            Specs::default(),
        )
    }

    #[test]
    fn finds_real_definitions_only() {
        let defs: Vec<(String, String, u32)> = definitions(&ctx())
            .iter()
            .map(|d| (d.sig.qualified(), d.path.clone(), d.sig.line))
            .collect();
        assert_eq!(
            defs,
            vec![
                ("Service::create".to_string(), "src/lib.rs".to_string(), 3),
                ("helper".to_string(), "src/lib.rs".to_string(), 5),
            ]
        );
    }

    #[test]
    fn finds_calls_outside_tests() {
        let found: Vec<(String, usize, u32, String)> = calls(&ctx())
            .into_iter()
            .map(|c| (c.name, c.args, c.line, c.caller))
            .collect();
        assert_eq!(
            found,
            vec![("helper".to_string(), 2, 3, "create".to_string())]
        );
    }
}
