//! Cargo packages: each `Cargo.toml`'s targets — `[lib]`, `[[bin]]`, `[[test]]`, `[[bench]]`,
//! `[[example]]`, the build script, and the ones Cargo discovers (`src/main.rs`, `src/bin/*`,
//! `tests/*`, `benches/*`, `examples/*`, `build.rs`) — and the roles of the files their module
//! trees load. A library's modules are library code; a module only binaries load is program
//! code; a `#[cfg(test)]` module is test support wherever it sits. A crate that is a test
//! suite (only test targets, or named or placed as tests or test support — `tests`, `mock`,
//! `fixtures`, `harness` — used by no package as a normal dependency, and unpublished or a
//! sibling's dev-dependency) is test code as a whole.

mod test_suite;

use super::rust_mods::tree;
use super::{dir_of, join, Roles, Sources};
use protocol::project::{Ecosystem, FileRole, Package, Target, TargetKind};
use std::collections::HashSet;
use test_suite::test_suite;
use toml::{Table, Value};

/// Reads every `Cargo.toml` and places the roles its targets give.
pub(crate) fn read(src: &Sources<'_>, packages: &mut Vec<Package>, roles: &mut Roles) {
    let manifests: Vec<(String, Table)> = src
        .paths()
        .iter()
        .filter(|p| p.rsplit('/').next() == Some("Cargo.toml"))
        .filter(|p| roles.get(p).is_none())
        .filter_map(|p| {
            let table: Table = src.text(p)?.parse().ok()?;
            Some((p.clone(), table))
        })
        .collect();
    let normal_deps = dependencies(&manifests, &["dependencies", "build-dependencies"]);
    let dev_deps = dependencies(&manifests, &["dev-dependencies"]);
    let mut crates: Vec<Package> = Vec::new();
    for (manifest, table) in &manifests {
        crates.push(package(src, manifest, table));
    }
    crates.extend(without_manifest(src, &manifests, roles));
    for pkg in &crates {
        if let Some(reason) = test_suite(pkg, &normal_deps, &dev_deps) {
            for path in src.under(&pkg.root) {
                if owner(&crates, path).is_some_and(|o| o.manifest == pkg.manifest) {
                    roles.place(path, FileRole::Test, reason.clone());
                }
            }
        }
    }
    // Library trees first: a module a library and a binary share is library code.
    let order = [
        TargetKind::Lib,
        TargetKind::Bin,
        TargetKind::Build,
        TargetKind::Test,
        TargetKind::Bench,
        TargetKind::Example,
    ];
    for kind in order {
        for pkg in &crates {
            for target in pkg
                .targets
                .iter()
                .filter(|t| t.kind == kind && !t.path.is_empty())
            {
                let program = kind == TargetKind::Lib && implements_program(src, pkg, target);
                place_tree(src, pkg, target, program, roles);
            }
        }
    }
    place_test_inputs(src, &crates, roles);
    packages.extend(crates);
}

/// Places the `.rs` files in the folders under a package's `tests/` that no target's module
/// tree reaches (`tests/source/closure.rs` of a formatter): Cargo compiles only `tests/*.rs`,
/// `tests/*/main.rs` and what they declare, so these are inputs the tests read — often invalid
/// on purpose — never code.
fn place_test_inputs(src: &Sources<'_>, crates: &[Package], roles: &mut Roles) {
    for pkg in crates.iter().filter(|p| !p.manifest.is_empty()) {
        let folder = format!("{}tests/", pkg.root);
        for path in src.under(&folder) {
            let nested = path[folder.len()..].contains('/');
            let owned = owner(crates, path).is_some_and(|o| o.manifest == pkg.manifest);
            if nested && owned && path.ends_with(".rs") && roles.get(path).is_none() {
                roles.place(
                    path,
                    FileRole::TestData,
                    format!("under {folder} and compiled by no target: an input the tests read"),
                );
            }
        }
    }
}

/// The `template/` or `templates/` folder a package's folder lies inside (not the package's own
/// folder), if any.
fn template_folder(root: &str) -> Option<&str> {
    let dirs: Vec<&str> = root.trim_end_matches('/').split('/').collect();
    dirs.split_last()?
        .1
        .iter()
        .find(|d| matches!(**d, "template" | "templates"))
        .copied()
}

/// Whether a package's library is its program's implementation rather than an API: the
/// package builds a binary named after itself, and the library's root has no crate-level
/// documentation (`//!`, `#![doc = …]`) — a library written for others has a front page;
/// one that exists so the binary can be benchmarked or split into modules does not
/// (starship's "Lib is present to allow for benchmarking").
fn implements_program(src: &Sources<'_>, pkg: &Package, lib: &Target) -> bool {
    let named_program = pkg
        .targets
        .iter()
        .any(|t| t.kind == TargetKind::Bin && t.name == pkg.name && !t.path.is_empty());
    named_program
        && src.text(&lib.path).is_some_and(|text| {
            !text
                .lines()
                .map(str::trim_start)
                .any(|l| l.starts_with("//!") || l.starts_with("/*!") || l.starts_with("#![doc"))
        })
}

/// Places the files of one target's module tree; a library that implements its package's
/// program (`program`) is program code.
fn place_tree(src: &Sources<'_>, pkg: &Package, target: &Target, program: bool, roles: &mut Roles) {
    let role = match target.kind {
        TargetKind::Lib if program => FileRole::Program,
        TargetKind::Lib => FileRole::Library,
        TargetKind::Bin => FileRole::Program,
        TargetKind::Test => FileRole::Test,
        TargetKind::Bench => FileRole::Bench,
        TargetKind::Example => FileRole::Example,
        TargetKind::Build => FileRole::BuildScript,
    };
    // A package kept in the top-level examples folder (`examples/imperative/`, a workspace
    // member) is an example, whatever its targets build; so is a package kept inside a
    // generator's template folder (`sea-orm-cli/template/migration/`), copied into its users'
    // projects — a package whose own folder is named `templates` is a crate of that name.
    let dirs: Vec<&str> = target.path.split('/').collect();
    let example = super::paths::top_level_example(&dirs).or_else(|| template_folder(&pkg.root));
    let role = if example.is_some() {
        FileRole::Example
    } else {
        role
    };
    for reached in tree(src, &target.path) {
        let Some(parent) = &reached.declared_in else {
            let reason = if let Some(dir) = example {
                format!("{}; a package under {dir}/", target.reason)
            } else if program {
                format!(
                    "{}; the library of the program `{}`, undocumented as an API",
                    target.reason, target.name
                )
            } else {
                target.reason.clone()
            };
            roles.place(&reached.path, role, reason);
            continue;
        };
        if reached.test_only {
            roles.place(
                &reached.path,
                FileRole::TestSupport,
                format!("declared `#[cfg(test)] mod {};` in {parent}", reached.name),
            );
        } else {
            let role = if role == FileRole::Test {
                FileRole::TestSupport
            } else {
                role
            };
            roles.place(
                &reached.path,
                role,
                format!(
                    "module of {} `{}` ({}), declared in {parent}",
                    if program {
                        "the program's library"
                    } else {
                        kind_name(target.kind)
                    },
                    target.name,
                    target.path
                ),
            );
        }
    }
}

fn kind_name(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::Lib => "[lib]",
        TargetKind::Bin => "[[bin]]",
        TargetKind::Test => "[[test]]",
        TargetKind::Bench => "[[bench]]",
        TargetKind::Example => "[[example]]",
        TargetKind::Build => "build script",
    }
}

/// The package whose folder is the deepest one holding `path`.
fn owner<'p>(crates: &'p [Package], path: &str) -> Option<&'p Package> {
    crates
        .iter()
        .filter(|p| path.starts_with(&p.root))
        .max_by_key(|p| p.root.len())
}

/// Every package name some manifest lists in one of `tables` (`dependencies`,
/// `dev-dependencies`, …), including target-specific tables.
fn dependencies(manifests: &[(String, Table)], tables: &[&str]) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut add = |t: Option<&Value>| {
        for (name, spec) in t.and_then(Value::as_table).into_iter().flatten() {
            let real = spec.get("package").and_then(Value::as_str).unwrap_or(name);
            out.insert(real.to_string());
        }
    };
    for (_, table) in manifests {
        for key in tables {
            add(table.get(*key));
        }
        for (_, cfg) in table
            .get("target")
            .and_then(Value::as_table)
            .into_iter()
            .flatten()
        {
            for key in tables {
                add(cfg.get(*key));
            }
        }
    }
    out
}

/// Crates whose folder holds `src/lib.rs`, `src/main.rs` or `src/bin/` but no `Cargo.toml`
/// (a fragment of a repository, a fixture): their targets as Cargo would discover them.
fn without_manifest(
    src: &Sources<'_>,
    manifests: &[(String, Table)],
    roles: &Roles,
) -> Vec<Package> {
    let mut roots: Vec<&str> = src
        .paths()
        .iter()
        .filter(|p| p.ends_with(".rs") && roles.get(p).is_none())
        .filter_map(|p| {
            let at = if p.starts_with("src/") {
                0
            } else {
                p.find("/src/")? + 1
            };
            let rest = &p[at + 4..];
            matches!(rest, "lib.rs" | "main.rs")
                .then_some(())
                .or_else(|| rest.starts_with("bin/").then_some(()))?;
            Some(&p[..at])
        })
        .collect();
    roots.dedup();
    roots
        .into_iter()
        .filter(|root| !manifests.iter().any(|(m, _)| dir_of(m) == *root))
        .map(|root| {
            let name = root
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .filter(|n| !n.is_empty());
            let name = name.unwrap_or("crate").to_string();
            let manifest = format!("{root}src/ (no Cargo.toml)");
            let mut empty = Table::new();
            empty.insert("package".to_string(), Value::Table(Table::new()));
            let pkg = empty.get("package").and_then(Value::as_table);
            let targets = targets_of(src, &manifest, root, &name, &empty, pkg);
            Package {
                ecosystem: Ecosystem::Cargo,
                manifest,
                name,
                root: root.to_string(),
                targets,
                publish: true,
                members: Vec::new(),
                edition: None,
                proc_macro: false,
            }
        })
        .collect()
}

/// One manifest's package and targets (a virtual workspace manifest has no name and only members).
fn package(src: &Sources<'_>, manifest: &str, table: &Table) -> Package {
    let root = dir_of(manifest).to_string();
    let pkg = table.get("package").and_then(Value::as_table);
    let name = pkg
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    // `publish = false` or `publish = []` say so; so does a package that has no version
    // (Cargo then takes 0.0.0 and refuses to publish it) or keeps the placeholder 0.0.0 — a
    // workspace's local crates, the way rust-analyzer marks its own. A version the workspace
    // sets (`version.workspace = true`) is a version.
    let version = pkg.and_then(|p| p.get("version"));
    let released = match version {
        None => false,
        Some(Value::String(v)) => v != "0.0.0",
        Some(_) => true,
    };
    let publish = released
        && !matches!(
            pkg.and_then(|p| p.get("publish")),
            Some(Value::Boolean(false))
        )
        && !matches!(pkg.and_then(|p| p.get("publish")), Some(Value::Array(a)) if a.is_empty());
    let members = table
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut targets = Vec::new();
    if pkg.is_some() {
        targets = targets_of(src, manifest, &root, &name, table, pkg);
    }
    Package {
        ecosystem: Ecosystem::Cargo,
        manifest: manifest.to_string(),
        name,
        root,
        targets,
        publish,
        members,
        edition: pkg.is_some().then(|| edition_of(pkg)).flatten(),
        proc_macro: ["proc-macro", "proc_macro"].iter().any(|key| {
            table
                .get("lib")
                .and_then(|lib| lib.get(key))
                .and_then(Value::as_bool)
                == Some(true)
        }),
    }
}

/// The edition a `[package]` table compiles as: its `edition`, 2015 when it names none; `None`
/// when the workspace sets it (`edition.workspace = true`) or it is not a year.
fn edition_of(pkg: Option<&Table>) -> Option<u16> {
    match pkg.and_then(|p| p.get("edition")) {
        None => Some(2015),
        Some(Value::String(year)) => year.parse().ok(),
        Some(_) => None,
    }
}

/// The targets of one package: declared ones, then the ones Cargo discovers.
fn targets_of(
    src: &Sources<'_>,
    manifest: &str,
    root: &str,
    name: &str,
    table: &Table,
    pkg: Option<&Table>,
) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let file = |rel: &str| {
        join(root, rel)
            .filter(|p| src.exists(p))
            .unwrap_or_default()
    };
    let mut push = |out: &mut Vec<Target>, kind, tname: &str, path: String, reason: String| {
        if path.is_empty() || seen.insert(path.clone()) {
            out.push(Target {
                kind,
                name: tname.to_string(),
                path,
                reason,
            });
        }
    };
    let lib = table.get("lib").and_then(Value::as_table);
    match lib.and_then(|l| l.get("path")).and_then(Value::as_str) {
        Some(p) => push(
            &mut out,
            TargetKind::Lib,
            name,
            file(p),
            format!("`[lib] path` in {manifest}"),
        ),
        None if src.exists(&format!("{root}src/lib.rs")) => push(
            &mut out,
            TargetKind::Lib,
            name,
            format!("{root}src/lib.rs"),
            format!("library src/lib.rs of {manifest}"),
        ),
        None => {}
    }
    let sections = [
        ("bin", TargetKind::Bin, "src/bin"),
        ("test", TargetKind::Test, "tests"),
        ("bench", TargetKind::Bench, "benches"),
        ("example", TargetKind::Example, "examples"),
    ];
    for (section, kind, dir) in sections {
        for t in table
            .get(section)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let tname = t.get("name").and_then(Value::as_str).unwrap_or(name);
            let path = match t.get("path").and_then(Value::as_str) {
                Some(p) => file(p),
                None if kind == TargetKind::Bin
                    && tname == name
                    && src.exists(&format!("{root}src/main.rs")) =>
                {
                    format!("{root}src/main.rs")
                }
                None => {
                    let single = file(&format!("{dir}/{tname}.rs"));
                    if single.is_empty() {
                        file(&format!("{dir}/{tname}/main.rs"))
                    } else {
                        single
                    }
                }
            };
            push(
                &mut out,
                kind,
                tname,
                path,
                format!("`[[{section}]] path` in {manifest}"),
            );
        }
        let auto = pkg
            .and_then(|p| p.get(format!("auto{section}s").as_str()))
            .and_then(Value::as_bool)
            .unwrap_or(true);
        if !auto {
            continue;
        }
        if kind == TargetKind::Bin && src.exists(&format!("{root}src/main.rs")) {
            push(
                &mut out,
                kind,
                name,
                format!("{root}src/main.rs"),
                format!("auto-discovered src/main.rs of {manifest}"),
            );
        }
        let folder = format!("{root}{dir}/");
        let found: Vec<String> = src
            .under(&folder)
            .filter(|p| {
                let rest = &p[folder.len()..];
                (rest.ends_with(".rs") && !rest.contains('/'))
                    || rest.split_once('/').is_some_and(|(_, f)| f == "main.rs")
            })
            .map(str::to_string)
            .collect();
        for path in found {
            let stem = path[folder.len()..]
                .split(['/', '.'])
                .next()
                .unwrap_or_default()
                .to_string();
            push(
                &mut out,
                kind,
                &stem,
                path,
                format!("auto-discovered {dir}/ target of {manifest}"),
            );
        }
    }
    match pkg.and_then(|p| p.get("build")) {
        Some(Value::String(p)) => push(
            &mut out,
            TargetKind::Build,
            "build",
            file(p),
            format!("`build = \"{p}\"` in {manifest}"),
        ),
        Some(Value::Boolean(false)) => {}
        _ if src.exists(&format!("{root}build.rs")) => push(
            &mut out,
            TargetKind::Build,
            "build",
            format!("{root}build.rs"),
            format!("build script build.rs of {manifest}"),
        ),
        _ => {}
    }
    out
}
