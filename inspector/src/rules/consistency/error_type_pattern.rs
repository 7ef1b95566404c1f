//! `consistency/error-type-pattern`: some Rust library modules define their own error types
//! (`#[derive(thiserror::Error)]`, `impl std::error::Error for ..`) while others return opaque
//! errors from their public functions (`anyhow::Result`, `Result<_, anyhow::Error>`,
//! `Result<_, Box<dyn Error ..>>`). Callers of the opaque modules cannot match on what failed.
//!
//! Modules as in `module.rs`; binaries, tests and examples are not library code and are not
//! compared. A module that defines an error type counts as typed even if it also has opaque
//! functions. The minority style is flagged, one finding per module; on a tie the opaque modules
//! are flagged, since precise error types are the convention for libraries. Only crates that
//! may be published are compared: a `publish = false` crate's public functions are nobody's
//! API but the workspace's own (an application's internals, scaffolding), where an opaque
//! error at the boundary is the usual choice.

use super::module::{library_modules, list, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use crate::rules::library_code::{
    binary_crates, in_binary_crate, in_proc_macro_crate, is_library_file,
};
use protocol::{Category, Claim, Dimension, Location, Severity};
use std::collections::BTreeMap;
use syn::visit::{self, Visit};

static META: RuleMeta = RuleMeta {
    id: "consistency/error-type-pattern",
    category: Category::ErrorHandlingInconsistency,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Architecture, Dimension::Maintainability],
    explanation:
        "Library modules returning anyhow/Box<dyn Error> while others define their own error types",
};

/// Whether `path` belongs to a Cargo package that says it is never published.
fn unpublished(ctx: &Context, path: &str) -> bool {
    ctx.project
        .packages
        .iter()
        .filter(|p| p.ecosystem == protocol::project::Ecosystem::Cargo)
        .filter(|p| path.starts_with(&p.root))
        .max_by_key(|p| p.root.len())
        .is_some_and(|p| !p.publish)
}

/// Flags the modules whose error style differs from the rest of the project.
pub(crate) struct ErrorTypePattern;

/// The first evidence of each style in a module: (path, line, what).
#[derive(Default)]
struct Styles {
    typed: Option<(String, u32, String)>,
    opaque: Option<(String, u32, String)>,
}

impl Rule for ErrorTypePattern {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && is_library_file(file)
    }

    /// Reads one file's error style in the (parallel) file pass, where its tree is at hand;
    /// the modules are compared in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        if let Some(found) = scan(file) {
            out.keep((file.rel_path.clone(), found));
        }
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut scanned = out.kept_by_path::<Found>(ctx, self);
        let Some(files) = library_modules(ctx) else {
            out.note(NOTHING_TO_COMPARE);
            return;
        };
        // A crate that builds a binary (`sqlx-cli`) is a program: its library is the
        // program's own code, and an opaque error at its command boundary is the usual style.
        let binaries = binary_crates(ctx);
        let mut styles: BTreeMap<String, Styles> = BTreeMap::new();
        for (file, module) in files {
            if unpublished(ctx, &file.rel_path)
                || in_binary_crate(&file.rel_path, &binaries)
                || in_proc_macro_crate(ctx, &file.rel_path)
            {
                continue;
            }
            if let Some(found) = scanned.remove(&file.rel_path) {
                let entry = styles.entry(module).or_default();
                let path = file.rel_path.clone();
                if entry.typed.is_none() {
                    entry.typed = found.typed.map(|(l, w)| (path.clone(), l, w));
                }
                if entry.opaque.is_none() {
                    entry.opaque = found.opaque.map(|(l, w)| (path, l, w));
                }
            }
        }
        let typed: Vec<&str> = styles
            .iter()
            .filter(|(_, s)| s.typed.is_some())
            .map(|(m, _)| m.as_str())
            .collect();
        let opaque: Vec<&str> = styles
            .iter()
            .filter(|(_, s)| s.typed.is_none() && s.opaque.is_some())
            .map(|(m, _)| m.as_str())
            .collect();
        if opaque.is_empty() && typed.len() > 1 {
            // One style everywhere: a convention worth writing down (the Auditor's CODIFY).
            out.claims.push(Claim::PatternConsistent {
                pattern: "errors: each library module defines its own error type".to_string(),
                modules: typed.iter().map(|m| m.to_string()).collect(),
            });
        }
        if typed.is_empty() || opaque.is_empty() {
            return;
        }
        let flag_opaque = opaque.len() <= typed.len();
        for (module, s) in &styles {
            let (evidence, others) = match (flag_opaque, &s.typed, &s.opaque) {
                (true, None, Some(e)) => {
                    (e, format!("{} define their own error types", list(&typed)))
                }
                (false, Some(e), _) => (e, format!("{} return opaque errors", list(&opaque))),
                _ => continue,
            };
            let (path, line, what) = evidence;
            out.hit(
                Hit::new(
                    Location::at(path, *line),
                    format!("module `{module}` {what}, while {others}"),
                    format!("error style of module {module}"),
                )
                .suggest(if flag_opaque {
                    "define an error enum for this module (thiserror) like the others do"
                } else {
                    "use the error style the other modules use"
                }),
            );
        }
    }
}

/// What one file shows: (line, description) of its first error type and first opaque fn.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Found {
    typed: Option<(u32, String)>,
    opaque: Option<(u32, String)>,
}

fn scan(file: &SourceFile) -> Option<Found> {
    let t = &file.text;
    let candidate = [
        "thiserror",
        "Error for ",
        "anyhow",
        "dyn Error",
        "error::Error",
    ]
    .iter()
    .any(|n| t.contains(n));
    if !candidate {
        return None;
    }
    let Some(Ok(ast)) = file.rust_items() else {
        return None;
    };
    let mut finder = Finder {
        anyhow_result: false,
        found: Found::default(),
    };
    // `use anyhow::Result;` makes a bare `Result<T>` opaque; uses come first in practice, and
    // a second pass would cost more than it finds.
    finder.anyhow_result = ast
        .items
        .iter()
        .any(|i| matches!(i, syn::Item::Use(u) if imports_anyhow_result(&u.tree, false)));
    finder.visit_file(ast);
    Some(finder.found)
}

struct Finder {
    anyhow_result: bool,
    found: Found,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        if self.found.typed.is_none() && derives_error(&e.attrs) {
            let line = e.ident.span().start().line as u32;
            self.found.typed = Some((line, format!("defines its own error type `{}`", e.ident)));
        }
        visit::visit_item_enum(self, e);
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        if self.found.typed.is_none() && derives_error(&s.attrs) {
            let line = s.ident.span().start().line as u32;
            self.found.typed = Some((line, format!("defines its own error type `{}`", s.ident)));
        }
        visit::visit_item_struct(self, s);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let error_trait = i
            .trait_
            .as_ref()
            .and_then(|(_, path, _)| path.segments.last())
            .is_some_and(|s| s.ident == "Error");
        if self.found.typed.is_none() && error_trait {
            let line = i.impl_token.span.start().line as u32;
            self.found.typed = Some((
                line,
                "implements `std::error::Error` for its own type".to_string(),
            ));
        }
        visit::visit_item_impl(self, i);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.public_fn(&f.vis, &f.sig);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.public_fn(&f.vis, &f.sig);
        visit::visit_impl_item_fn(self, f);
    }
}

impl Finder {
    fn public_fn(&mut self, vis: &syn::Visibility, sig: &syn::Signature) {
        if self.found.opaque.is_some() || !matches!(vis, syn::Visibility::Public(_)) {
            return;
        }
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return;
        };
        if let Some(form) = opaque_result(ty, self.anyhow_result) {
            let line = sig.ident.span().start().line as u32;
            self.found.opaque = Some((
                line,
                format!("returns `{form}` from public fn `{}`", sig.ident),
            ));
        }
    }
}

/// `anyhow::Result`, `Result<T>` with anyhow's `Result` imported, or `Result<_, E>` where `E` is
/// `anyhow::Error` or `Box<dyn ..Error..>`.
fn opaque_result(ty: &syn::Type, anyhow_result: bool) -> Option<&'static str> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let last = p.path.segments.last().filter(|s| s.ident == "Result")?;
    let first = p.path.segments.first().map(|s| s.ident.to_string());
    if first.as_deref() == Some("anyhow") {
        return Some("anyhow::Result");
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let types: Vec<&syn::Type> = args
        .args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    match types.as_slice() {
        [_] if anyhow_result && p.path.segments.len() == 1 => Some("anyhow::Result"),
        [_, err] => opaque_error(err),
        _ => None,
    }
}

fn opaque_error(ty: &syn::Type) -> Option<&'static str> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    if names == ["anyhow", "Error"] {
        return Some("Result<_, anyhow::Error>");
    }
    let last = p.path.segments.last().filter(|s| s.ident == "Box")?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let dyn_error = args.args.iter().any(|a| {
        matches!(a, syn::GenericArgument::Type(syn::Type::TraitObject(t))
            if t.bounds.iter().any(|b| matches!(b, syn::TypeParamBound::Trait(tr)
                if tr.path.segments.last().is_some_and(|s| s.ident == "Error"))))
    });
    dyn_error.then_some("Result<_, Box<dyn Error>>")
}

fn derives_error(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            let mut found = false;
            let parsed = a.parse_nested_meta(|meta| {
                found |= meta
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Error");
                Ok(())
            });
            parsed.is_ok() && found
        })
}

fn imports_anyhow_result(tree: &syn::UseTree, under_anyhow: bool) -> bool {
    match tree {
        syn::UseTree::Path(p) => {
            imports_anyhow_result(&p.tree, under_anyhow || p.ident == "anyhow")
        }
        syn::UseTree::Name(n) => under_anyhow && n.ident == "Result",
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .any(|t| imports_anyhow_result(t, under_anyhow)),
        syn::UseTree::Rename(_) | syn::UseTree::Glob(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_sink;

    fn run(files: &[(&str, &str)]) -> Vec<(String, Option<u32>, String)> {
        project_sink(&ErrorTypePattern, files)
            .hits
            .into_iter()
            .map(|h| (h.location.path, h.location.line, h.description))
            .collect()
    }

    const TYPED: &str = "#[derive(Debug, thiserror::Error)]\npub enum StoreError {\n    #[error(\"gone\")]\n    Gone,\n}\n";

    #[test]
    fn fires_on_the_opaque_minority_module() {
        let hits = run(&[
            ("store/src/lib.rs", TYPED),
            ("wire/src/error.rs", "use std::fmt;\npub struct WireError;\nimpl std::error::Error for WireError {}\n"),
            ("sync/src/lib.rs", "use anyhow::{Context, Result};\n\nfn helper() -> Result<()> { Ok(()) }\npub fn pull(url: &str) -> Result<u32> {\n    Ok(1)\n}\n"),
        ]);
        assert_eq!(
            hits,
            vec![(
                "sync/src/lib.rs".to_string(),
                Some(4),
                "module `sync` returns `anyhow::Result` from public fn `pull`, while `store` and `wire` define their own error types".to_string()
            )]
        );
    }

    #[test]
    fn quiet_when_consistent_or_opaque_only_in_binaries() {
        let hits = run(&[
            ("store/src/lib.rs", TYPED),
            ("wire/src/lib.rs", "#[derive(Debug, Error)]\npub enum WireError { Io }\n"),
            ("cli/src/main.rs", "fn main() -> anyhow::Result<()> { Ok(()) }\n"),
            ("sync/src/lib.rs", "pub fn pull() -> Result<u32, std::io::Error> { Ok(1) }\nfn private() -> anyhow::Result<()> { Ok(()) }\n"),
        ]);
        assert!(hits.is_empty());
    }

    #[test]
    fn an_unpublished_crate_is_nobodys_api() {
        let files = |publish: &'static str| {
            vec![
                ("store/src/lib.rs", TYPED),
                ("wire/src/error.rs", "use std::fmt;\npub struct WireError;\nimpl std::error::Error for WireError {}\n"),
                ("index/Cargo.toml", publish),
                ("index/src/lib.rs", "pub fn build(root: &str) -> anyhow::Result<u32> {\n    Ok(1)\n}\n"),
            ]
        };
        let flagged = |files: &[(&str, &str)]| -> Vec<String> {
            run(files).into_iter().map(|h| h.0).collect()
        };
        let published = "[package]\nname = \"index\"\nversion = \"0.1.0\"\n";
        assert_eq!(
            flagged(&files(published)),
            vec!["index/src/lib.rs".to_string()]
        );
        let internal = "[package]\nname = \"index\"\nversion = \"0.1.0\"\npublish = false\n";
        assert!(flagged(&files(internal)).is_empty());
        // No version, or the placeholder 0.0.0: a workspace's local crate.
        let local = "[package]\nname = \"index\"\nversion = \"0.0.0\"\n";
        assert!(flagged(&files(local)).is_empty());
        let unversioned = "[package]\nname = \"index\"\n";
        assert!(flagged(&files(unversioned)).is_empty());
        // A crate that also builds a binary is a program's (a CLI's own library).
        let mut cli = files(published);
        cli.push(("index/src/main.rs", "fn main() {}\n"));
        assert!(flagged(&cli).is_empty());
        let inherited = "[package]\nname = \"index\"\nversion.workspace = true\n";
        assert_eq!(
            flagged(&files(inherited)),
            vec!["index/src/lib.rs".to_string()]
        );
    }

    #[test]
    fn one_style_everywhere_is_claimed_as_a_consistent_pattern() {
        let sink = project_sink(
            &ErrorTypePattern,
            &[
                ("store/src/lib.rs", TYPED),
                (
                    "wire/src/lib.rs",
                    "#[derive(Debug, thiserror::Error)]\npub enum WireError { Io }\n",
                ),
                (
                    "cli/src/main.rs",
                    "fn main() -> anyhow::Result<()> { Ok(()) }\n",
                ),
            ],
        );
        assert!(sink.hits.is_empty());
        assert_eq!(
            sink.claims,
            vec![Claim::PatternConsistent {
                pattern: "errors: each library module defines its own error type".to_string(),
                modules: vec!["store".to_string(), "wire".to_string()],
            }]
        );
        let mixed = project_sink(
            &ErrorTypePattern,
            &[
                ("store/src/lib.rs", TYPED),
                (
                    "sync/src/lib.rs",
                    "pub fn pull() -> anyhow::Result<u32> { Ok(1) }\n",
                ),
            ],
        );
        assert!(mixed.claims.is_empty());
    }
}
