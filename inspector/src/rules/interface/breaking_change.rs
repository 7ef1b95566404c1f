//! `interface/breaking-change` (the compatibility dimension): in a session (`--base`), every
//! changed module of a published library (Rust, Python, TypeScript, Go) whose public surface the
//! base revision had, compared item by item with the change (`public_api`, `public_script`). A break in a crate whose version did
//! not get a major bump is High, at the item (or at the module's first line when the item is
//! gone); with a major bump it is a note — breaking is then what the version says.
//!
//! Only what a dependent can reach is compared, in packages that may be published (`publish =
//! false` crates and `"private": true` packages have no dependents outside their workspace):
//! Rust modules the library root declares `pub mod` all the way down (or re-exports with `pub
//! use m::*`); Python modules with no `_private` segment in their path; TypeScript modules of
//! the package. A module this cannot follow is left out, never guessed at.
//!
//! When `cargo-semver-checks` is installed and commands may run, it checks each such Rust crate
//! whole (`semver_checks`): its failed major checks are this rule's findings for that crate and
//! the comparison here steps aside; a crate it cannot check keeps the comparison, with a note.

use super::public_api::{breaks, surface, Break};
use super::semver_checks;
use version::{major_bump, version};

mod version;
use crate::engine::git::files_at_revision;
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::project::{FileRole, Package, TargetKind};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "interface/breaking-change",
    category: Category::BreakingChange,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Compatibility],
    explanation: "A public item of a published library (Rust, Python, TypeScript, Go) is gone or changed incompatibly since the base revision, and the package's version did not get a major bump.",
};

/// Breaking changes of public Rust APIs against a session's base.
pub(crate) struct BreakingChange;

/// A changed module of a published library: its path, language and package, and (Rust) the
/// files that declare it public, each with the module name it declares.
struct Module<'a> {
    path: String,
    language: Language,
    package: &'a Package,
    declared_by: Vec<(String, String)>,
}

impl Module<'_> {
    fn surface(&self, text: &str) -> Option<super::public_api::Surface> {
        match self.language {
            Language::Python => Some(super::public_script::python(text)),
            Language::TypeScript => Some(super::public_script::typescript(text)),
            Language::Go => Some(super::public_script::go(text)),
            _ => surface(text),
        }
    }
}

impl Rule for BreakingChange {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let Some(changes) = &ctx.changes else {
            return;
        };
        let modules: Vec<Module<'_>> = changes
            .files
            .keys()
            .filter(|p| ctx.project.role(p) == Some(FileRole::Library))
            .filter_map(|p| match Language::of(p) {
                Some(Language::Rust) => public_module(ctx, p),
                Some(lang @ (Language::Python | Language::TypeScript)) => {
                    script_module(ctx, p, lang)
                }
                Some(Language::Go) => go_module(ctx, p),
                _ => None,
            })
            .collect();
        if modules.is_empty() {
            return;
        }
        let checked = semver_checked(ctx, &changes.merge_base, &modules, out);
        let modules: Vec<Module<'_>> = modules
            .into_iter()
            .filter(|m| !checked.contains(&m.package.manifest))
            .collect();
        if modules.is_empty() {
            return;
        }
        let mut paths: Vec<&str> = modules.iter().map(|m| m.path.as_str()).collect();
        paths.extend(modules.iter().map(|m| m.package.manifest.as_str()));
        paths.extend(
            modules
                .iter()
                .flat_map(|m| m.declared_by.iter().map(|(p, _)| p.as_str())),
        );
        // A Cargo workspace's root manifest holds inherited versions.
        paths.push("Cargo.toml");
        paths.sort_unstable();
        paths.dedup();
        let base = match files_at_revision(&ctx.root, &changes.merge_base, &paths) {
            Ok(files) => files,
            Err(e) => {
                out.not_run(format!(
                    "compatibility: the base revision cannot be read ({e})"
                ));
                return;
            }
        };
        let at_base = |path: &str| {
            base.files
                .iter()
                .find(|f| f.path == path)
                .and_then(|f| f.text.clone())
        };
        for m in &modules {
            // A module the base did not have adds API; it breaks nothing.
            let (Some(before), Some(after)) = (at_base(&m.path), now(ctx, &m.path)) else {
                continue;
            };
            // What the base did not publish (a private module, one behind an unstable
            // feature) promised dependents nothing.
            let promised = m.declared_by.iter().all(|(parent, name)| {
                at_base(parent).is_some_and(|text| declares_public(&text, name))
            });
            if !promised {
                continue;
            }
            let (Some(was), Some(is)) = (m.surface(&before), m.surface(&after)) else {
                continue;
            };
            let found = breaks(&was, &is);
            if found.is_empty() {
                continue;
            }
            let eco = m.package.ecosystem;
            let versions = (
                version(eco, at_base(&m.package.manifest), at_base("Cargo.toml")),
                version(eco, now(ctx, &m.package.manifest), now(ctx, "Cargo.toml")),
            );
            if let (Some(from), Some(to)) = &versions {
                if major_bump(from, to) {
                    out.note(format!(
                        "{} breaking change(s) in {} of `{}` come with its major version bump {from} → {to}",
                        found.len(),
                        m.path,
                        m.package.name
                    ));
                    continue;
                }
            }
            let noun = match eco {
                protocol::project::Ecosystem::Cargo => "crate",
                protocol::project::Ecosystem::Go => "module",
                _ => "package",
            };
            let version = match &versions {
                (Some(from), Some(to)) if from == to => format!("its version stays {to}"),
                (Some(from), Some(to)) => {
                    format!("its version went {from} → {to}, not a major bump")
                }
                _ => "its version could not be read".to_string(),
            };
            // A package whose manifest names none (a setup.py one) is named by its manifest.
            let name = if m.package.name.is_empty() {
                &m.package.manifest
            } else {
                &m.package.name
            };
            let tail = format!("({noun} `{name}`: {version})");
            report(out, &m.path, name, &found, &tail);
        }
    }
}

/// Runs `cargo-semver-checks` on the Rust crates of `modules` (when installed and commands may
/// run), reporting what it finds; the manifests of the crates it checked.
fn semver_checked(
    ctx: &Context,
    base: &str,
    modules: &[Module<'_>],
    out: &mut Sink,
) -> Vec<String> {
    if ctx.options.no_exec || !semver_checks::installed() {
        return Vec::new();
    }
    let mut crates: Vec<&Package> = modules
        .iter()
        .filter(|m| m.language == Language::Rust)
        .map(|m| m.package)
        .collect();
    crates.sort_by(|a, b| a.manifest.cmp(&b.manifest));
    crates.dedup_by(|a, b| a.manifest == b.manifest);
    let mut checked = Vec::new();
    for package in crates {
        let violations = match semver_checks::check(ctx, &package.manifest, base) {
            Ok(found) => found,
            Err(why) => {
                out.note(format!(
                    "compatibility: {why} for crate `{}`; the built-in comparison stands",
                    package.name
                ));
                continue;
            }
        };
        let dir = package
            .manifest
            .rsplit_once('/')
            .map_or(String::new(), |(d, _)| format!("{d}/"));
        let tail = format!(
            "(crate `{}`: its version did not get the major bump this needs)",
            package.name
        );
        for v in violations.iter().filter(|v| v.major) {
            out.hit(semver_checks::hit(ctx, v, &dir, &package.manifest, &tail));
        }
        let minor: Vec<&str> = violations
            .iter()
            .filter(|v| !v.major)
            .map(|v| v.lint.as_str())
            .collect();
        if !minor.is_empty() {
            out.note(format!(
                "compatibility: cargo-semver-checks asks for a minor version bump of crate `{}` ({})",
                package.name,
                minor.join(", ")
            ));
        }
        checked.push(package.manifest.clone());
    }
    checked
}

/// The breaks of one module as findings: one per changed item at its line (its breaks joined),
/// and one for the module naming every item that is gone (they have no line left).
fn report(out: &mut Sink, path: &str, package: &str, found: &[Break], tail: &str) {
    let suggestion = "keep the old item beside the new one (deprecated), or bump the major version";
    let gone: Vec<&Break> = found.iter().filter(|b| b.gone).collect();
    if !gone.is_empty() {
        let whats: Vec<&str> = gone.iter().map(|b| b.what.as_str()).collect();
        let items: Vec<&str> = gone.iter().map(|b| b.item.as_str()).collect();
        out.hit(
            Hit::new(
                Location::file(path),
                format!("{} {tail}", whats.join("; ")),
                format!("{package}:gone:{}", items.join(",")),
            )
            .suggest(suggestion),
        );
    }
    let mut changed: Vec<&Break> = found.iter().filter(|b| !b.gone).collect();
    changed.sort_by(|a, b| a.item.cmp(&b.item));
    for group in changed.chunk_by(|a, b| a.item == b.item) {
        let whats: Vec<&str> = group.iter().map(|b| b.what.as_str()).collect();
        out.hit(
            Hit::new(
                Location::at(path, group[0].line),
                format!("{} {tail}", whats.join("; ")),
                format!("{package}:{}", group[0].item),
            )
            .suggest(suggestion),
        );
    }
}

/// The file's text in the change (read when the review did not read it).
fn now(ctx: &Context, path: &str) -> Option<String> {
    match ctx.file(path) {
        Some(f) => Some(f.text.clone()),
        None => std::fs::read_to_string(ctx.root.join(path)).ok(),
    }
}

/// The innermost package holding `path`, when it may be published.
fn publishable<'a>(ctx: &'a Context, path: &str) -> Option<&'a Package> {
    ctx.project
        .packages
        .iter()
        .filter(|p| path.starts_with(&p.root))
        .max_by_key(|p| p.root.len())
        .filter(|p| p.publish)
}

/// `path` as a module a dependent can reach: in a publishable package with a library target,
/// under the library root's folder, declared public all the way from the root.
fn public_module<'a>(ctx: &'a Context, path: &str) -> Option<Module<'a>> {
    let package = publishable(ctx, path)?;
    let lib = package.targets.iter().find(|t| t.kind == TargetKind::Lib)?;
    let dir = lib
        .path
        .rsplit_once('/')
        .map_or(String::new(), |(d, _)| format!("{d}/"));
    let rel = path.strip_prefix(&dir)?;
    let chain = module_chain(rel, lib.path == path)?;
    let mut parent = lib.path.clone();
    let mut declared_by = Vec::new();
    for (i, name) in chain.iter().enumerate() {
        let text = now(ctx, &parent)?;
        if !declares_public(&text, name) {
            return None;
        }
        declared_by.push((parent.clone(), name.clone()));
        let folder = format!("{dir}{}", chain[..=i].join("/"));
        parent = [format!("{folder}.rs"), format!("{folder}/mod.rs")]
            .into_iter()
            .find(|p| ctx.root.join(p).is_file())?;
    }
    // A package needs a manifest to be published (the model's package of a bare `src/` has
    // none).
    ctx.root.join(&package.manifest).is_file().then(|| Module {
        path: path.to_string(),
        language: Language::Rust,
        package,
        declared_by,
    })
}

/// `path` as a public module of a publishable Python or Node package: no path segment below
/// the package's folder is private (`_name`, other than `__init__.py`).
fn script_module<'a>(ctx: &'a Context, path: &str, language: Language) -> Option<Module<'a>> {
    let package = publishable(ctx, path)?;
    let wanted = match language {
        Language::Python => protocol::project::Ecosystem::Python,
        _ => protocol::project::Ecosystem::Node,
    };
    if package.ecosystem != wanted || path.ends_with(".d.ts") {
        return None;
    }
    let rel = path.strip_prefix(&package.root)?;
    let private = rel
        .split('/')
        .any(|seg| seg.starts_with('_') && seg != "__init__.py");
    (!private && ctx.root.join(&package.manifest).is_file()).then(|| Module {
        path: path.to_string(),
        language,
        package,
        declared_by: Vec::new(),
    })
}

/// `path` as a file of an importable package of a Go module: not a test, not under `internal/`
/// or `testdata/`, not `package main`.
fn go_module<'a>(ctx: &'a Context, path: &str) -> Option<Module<'a>> {
    let package = publishable(ctx, path)?;
    if package.ecosystem != protocol::project::Ecosystem::Go || path.ends_with("_test.go") {
        return None;
    }
    let rel = path.strip_prefix(&package.root)?;
    if rel
        .split('/')
        .any(|seg| matches!(seg, "internal" | "testdata"))
    {
        return None;
    }
    let text = now(ctx, path)?;
    let main = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("package "))
        .is_some_and(|name| name.trim() == "main");
    (!main && ctx.root.join(&package.manifest).is_file()).then(|| Module {
        path: path.to_string(),
        language: Language::Go,
        package,
        declared_by: Vec::new(),
    })
}

/// The module names from the library root to the file `rel` (relative to the root's folder):
/// `a/b.rs` and `a/b/mod.rs` are `[a, b]`; the root itself is `[]`; `None` for `bin/`
/// programs and other files that are no module of the library.
fn module_chain(rel: &str, is_root: bool) -> Option<Vec<String>> {
    if is_root {
        return Some(Vec::new());
    }
    let stem = rel.strip_suffix(".rs")?;
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem.starts_with("bin/") || stem == "main" || stem == "lib" {
        return None;
    }
    Some(stem.split('/').map(str::to_string).collect())
}

/// Whether `text` declares the module `name` public (`pub mod name;`) or re-exports all of it
/// (`pub use name::*;`, `pub use self::name::*;`) — and not only behind an unstable feature
/// (`#[cfg(feature = "kv_unstable")]`: an API its crate promises nothing about).
fn declares_public(text: &str, name: &str) -> bool {
    let Ok(file) = syn::parse_file(text) else {
        return false;
    };
    let unstable = |attrs: &[syn::Attribute]| {
        attrs.iter().any(|a| {
            a.path().is_ident("cfg")
                && quote::ToTokens::to_token_stream(a)
                    .to_string()
                    .contains("unstable")
        })
    };
    file.items.iter().any(|item| match item {
        syn::Item::Mod(m) => {
            m.ident == name && matches!(m.vis, syn::Visibility::Public(_)) && !unstable(&m.attrs)
        }
        syn::Item::Use(u) => {
            let glob =
                super::signature::normalise(&quote::ToTokens::to_token_stream(&u.tree).to_string());
            matches!(u.vis, syn::Visibility::Public(_))
                && (glob == format!("{name}::*") || glob == format!("self::{name}::*"))
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn major_bumps_as_cargo_reads_them() {
        assert!(major_bump("1.2.3", "2.0.0"));
        assert!(!major_bump("1.2.3", "1.3.0"));
        assert!(major_bump("0.3.1", "0.4.0"));
        assert!(!major_bump("0.3.1", "0.3.2"));
        assert!(major_bump("0.0.3", "0.0.4"));
        assert!(major_bump("0.9.0", "1.0.0"));
        assert!(!major_bump("1.0.0", "1.0.0"));
    }

    #[test]
    fn modules_of_the_library_and_what_is_not_one() {
        assert_eq!(
            module_chain("a/b.rs", false),
            Some(vec!["a".into(), "b".into()])
        );
        assert_eq!(module_chain("a/mod.rs", false), Some(vec!["a".into()]));
        assert_eq!(module_chain("lib.rs", true), Some(vec![]));
        assert_eq!(module_chain("bin/tool.rs", false), None);
        assert_eq!(module_chain("main.rs", false), None);
        assert!(declares_public("pub mod a;\nmod b;\n", "a"));
        assert!(!declares_public("pub mod a;\nmod b;\n", "b"));
        assert!(!declares_public("pub(crate) mod c;\n", "c"));
        assert!(declares_public("mod d;\npub use self::d::*;\n", "d"));
        assert!(!declares_public(
            "#[cfg(feature = \"kv_unstable\")]\npub mod kv;\n",
            "kv"
        ));
        assert!(declares_public(
            "#[cfg(feature = \"kv\")]\npub mod kv;\n",
            "kv"
        ));
        assert_eq!(
            version(
                protocol::project::Ecosystem::Cargo,
                Some("[package]\nname = \"x\"\nversion.workspace = true\n".into()),
                Some("[workspace.package]\nversion = \"2.1.0\"\n".into())
            ),
            Some("2.1.0".into())
        );
    }
}
