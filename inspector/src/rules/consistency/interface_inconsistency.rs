//! `consistency/interface-inconsistency`: functions of the same name in two modules that take
//! the same parameters in a different order — `load(path, config)` here, `load(config, path)`
//! there. Callers moving between modules swap arguments; when the types coincide (two `&str`,
//! two ids) the compiler cannot catch it.
//!
//! Rust compares public functions and public inherent methods (with a receiver: constructors
//! build different types) by parameter types (lifetimes ignored); Python compares top-level `def`s by parameter names. At least two parameters, the
//! same multiset, a different sequence, different modules (as in `module.rs`). Library code
//! only; one finding per pair at the later file.

use super::module::{library_modules, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use crate::rules::library_code::is_library_file;
use crate::rules::test_code::is_test_attr;
use proc_macro2::{TokenStream, TokenTree};
use protocol::{Category, Dimension, Location, Severity};
use quote::ToTokens;
use std::collections::BTreeMap;

static META: RuleMeta = RuleMeta {
    id: "consistency/interface-inconsistency",
    category: Category::InterfaceInconsistency,
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::Python],
    dimensions: &[Dimension::Architecture, Dimension::Maintainability],
    explanation:
        "Same-named functions in two modules taking the same parameters in a different order",
};

/// Flags same-named functions whose parameter order differs between modules.
pub(crate) struct InterfaceInconsistency;

/// A function's shape: (module, path, line, rendered signature, parameter keys in order).
type Sig = (String, String, u32, String, Vec<String>);

impl Rule for InterfaceInconsistency {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && is_library_file(file)
    }

    /// Reads one file's signatures in the (parallel) file pass, where its tree is at hand;
    /// they are compared across modules in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let sigs = match file.language {
            Some(Language::Rust) => rust_sigs(file),
            Some(Language::Python) => python_sigs(file),
            _ => return,
        };
        out.keep((file.rel_path.clone(), sigs));
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut kept = out.kept_by_path::<Vec<FileSig>>(ctx, self);
        let Some(files) = library_modules(ctx) else {
            out.note(NOTHING_TO_COMPARE);
            return;
        };
        let mut by_name: BTreeMap<String, Vec<Sig>> = BTreeMap::new();
        for (file, module) in files {
            let Some(sigs) = kept.remove(&file.rel_path) else {
                continue;
            };
            for (name, line, shown, keys) in sigs {
                by_name.entry(name).or_default().push((
                    module.clone(),
                    file.rel_path.clone(),
                    line,
                    shown,
                    keys,
                ));
            }
        }
        for (name, sigs) in &by_name {
            for (i, later) in sigs.iter().enumerate().skip(1) {
                let clash = sigs[..i]
                    .iter()
                    .find(|first| first.0 != later.0 && reordered(&first.4, &later.4));
                let Some(first) = clash else {
                    continue;
                };
                out.hit(
                    Hit::new(
                        Location::at(&later.1, later.2),
                        format!(
                            "`{}` takes its parameters in another order than `{}` in {}",
                            later.3, first.3, first.1
                        ),
                        format!("parameter order of {name} vs {}", first.1),
                    )
                    .suggest(
                        "use one parameter order for functions of the same name across modules",
                    ),
                );
            }
        }
    }
}

/// Same parameters, other order.
fn reordered(a: &[String], b: &[String]) -> bool {
    if a.len() < 2 || a.len() != b.len() || a == b {
        return false;
    }
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    x.sort();
    y.sort();
    x == y
}

/// A type's tokens without lifetimes, compact.
fn type_key(tokens: TokenStream) -> String {
    let mut out = String::new();
    let mut skip_ident = false;
    for tt in tokens {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' => skip_ident = true,
            TokenTree::Ident(_) if skip_ident => skip_ident = false,
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::Brace => ("{", "}"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                out.push_str(open);
                out.push_str(&type_key(g.stream()));
                out.push_str(close);
            }
            other => out.push_str(&other.to_string()),
        }
    }
    out.replace("&,", "&").replace(",>", ">")
}

/// A function of one file: (name, line, shown signature, parameter keys).
type FileSig = (String, u32, String, Vec<String>);

/// Rust: (name, line, shown signature, parameter types) of public functions and methods.
fn rust_sigs(file: &SourceFile) -> Vec<FileSig> {
    let Some(Ok(ast)) = file.rust_items() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut push = |sig: &syn::Signature| {
        let params: Vec<(String, String)> = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(t) => Some((
                    t.pat.to_token_stream().to_string(),
                    type_key(t.ty.to_token_stream()),
                )),
                syn::FnArg::Receiver(_) => None,
            })
            .collect();
        let shown: Vec<String> = params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
        out.push((
            sig.ident.to_string(),
            sig.ident.span().start().line as u32,
            format!("{}({})", sig.ident, shown.join(", ")),
            params.into_iter().map(|(_, t)| t).collect(),
        ));
    };
    for item in &ast.items {
        match item {
            syn::Item::Fn(f) if is_pub(&f.vis) && !is_test_attr(&f.attrs) => push(&f.sig),
            syn::Item::Impl(i) if i.trait_.is_none() && !is_test_attr(&i.attrs) => i
                .items
                .iter()
                // A method, not an associated function: `BufReader::with_capacity(capacity,
                // inner)` and `ReaderStream::with_capacity(reader, capacity)` build two types,
                // each after its own model (here std's), not one operation in two orders.
                .filter_map(|it| match it {
                    syn::ImplItem::Fn(f) if is_pub(&f.vis) && f.sig.receiver().is_some() => {
                        Some(&f.sig)
                    }
                    _ => None,
                })
                .for_each(&mut push),
            _ => {}
        }
    }
    out
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Python: (name, line, shown signature, parameter names) of top-level `def`s on one line.
fn python_sigs(file: &SourceFile) -> Vec<FileSig> {
    let mut out = Vec::new();
    for line in file.lexed(Language::Python).iter() {
        let code = line.code();
        let Some(rest) = code
            .strip_prefix("def ")
            .or_else(|| code.strip_prefix("async def "))
        else {
            continue;
        };
        let Some((name, args)) = rest.split_once('(') else {
            continue;
        };
        let Some(args) = args.split_once(')').map(|(a, _)| a) else {
            continue;
        };
        let params: Vec<String> = args
            .split(',')
            .map(|p| {
                p.split([':', '='])
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            })
            .filter(|p| {
                !p.is_empty() && !p.starts_with('*') && p != "self" && p != "cls" && p != "/"
            })
            .collect();
        let name = name.trim().to_string();
        out.push((
            name.clone(),
            line.number,
            format!("{name}({})", params.join(", ")),
            params,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_hits;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
        project_hits(&InterfaceInconsistency, files)
    }

    #[test]
    fn fires_on_reordered_parameters_across_modules() {
        let found = run(&[
            ("billing/src/lib.rs", "pub fn charge<'a>(account: &'a Account, amount: Cents) -> Receipt { todo() }\n"),
            ("shop/src/lib.rs", "pub struct Cart;\nimpl Cart {\n    pub fn charge(&self, amount: Cents, account: &Account) -> Receipt { todo() }\n}\n"),
        ]);
        assert_eq!(
            found,
            vec![(
                "shop/src/lib.rs".to_string(),
                3,
                "`charge(amount: Cents, account: &Account)` takes its parameters in another order than `charge(account: &Account, amount: Cents)` in billing/src/lib.rs".to_string()
            )]
        );
        let py = run(&[
            ("mail/send.py", "def send(user, message):\n    pass\n"),
            ("sms/send.py", "def send(message, user):\n    pass\n"),
        ]);
        assert_eq!(py.len(), 1);
    }

    #[test]
    fn quiet_on_equal_orders_other_parameters_private_fns_and_one_module() {
        let found = run(&[
            ("billing/src/lib.rs", "pub fn charge(account: &Account, amount: Cents) {}\nfn helper(a: u8, b: bool) {}\n"),
            ("shop/src/lib.rs", "pub fn charge(account: &Account, amount: Cents) {}\nfn helper(b: bool, a: u8) {}\npub fn new(name: String, id: u64) {}\n"),
            ("web/src/lib.rs", "pub fn new(id: u64) {}\n"),
            // Two types' constructors, each after its own model.
            ("io/src/lib.rs", "pub struct BufReader;\nimpl BufReader {\n    pub fn with_capacity(capacity: usize, inner: R) -> Self { todo() }\n}\n"),
            ("util/src/lib.rs", "pub struct ReaderStream;\nimpl ReaderStream {\n    pub fn with_capacity(reader: R, capacity: usize) -> Self { todo() }\n}\n"),
        ]);
        assert!(found.is_empty());
    }
}
