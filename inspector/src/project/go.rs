//! Go modules: each `go.mod`'s module path, its `package main` folders (programs) and its
//! `*_test.go` files (tests, whatever package they declare).

use super::paths::{go_package, role_by_path};
use super::{dir_of, Roles, Sources};
use protocol::project::{Ecosystem, FileRole, Package, Target, TargetKind};

/// Reads every `go.mod` and places Go tests and `package main` files.
pub(crate) fn read(src: &Sources<'_>, packages: &mut Vec<Package>, roles: &mut Roles) {
    let mut modules: Vec<Package> = src
        .paths()
        .iter()
        .filter(|p| p.rsplit('/').next() == Some("go.mod"))
        .filter(|p| roles.get(p).is_none())
        .filter_map(|manifest| {
            let text = src.text(manifest)?;
            let name = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))
                .map(|m| m.trim().trim_matches('"').to_string())?;
            Some(Package {
                ecosystem: Ecosystem::Go,
                manifest: manifest.clone(),
                name,
                root: dir_of(manifest).to_string(),
                targets: Vec::new(),
                publish: true,
                members: Vec::new(),
                edition: None,
                proc_macro: false,
            })
        })
        .collect();
    let go_files: Vec<&String> = src.paths().iter().filter(|p| p.ends_with(".go")).collect();
    for path in go_files {
        if roles.get(path).is_some() {
            continue;
        }
        if path.ends_with("_test.go") {
            roles.place(path, FileRole::Test, "Go `_test.go`");
            continue;
        }
        let Some(text) = src.text(path) else {
            continue;
        };
        if go_package(&text) != Some("main") {
            continue;
        }
        let dir = dir_of(path);
        // An example, a benchmark or a documentation page is a program too, written to be
        // read or measured: its folder says which (`example/tls/main.go`, `_examples/`).
        let (by_path, why) = role_by_path(path);
        if matches!(
            by_path,
            FileRole::Example | FileRole::Bench | FileRole::Docs
        ) {
            roles.place(path, by_path, format!("Go `package main` {why}"));
            continue;
        }
        let reason = format!(
            "Go `package main` in {}",
            if dir.is_empty() { "./" } else { dir }
        );
        roles.place(path, FileRole::Program, reason.clone());
        let module = modules
            .iter_mut()
            .filter(|m| path.starts_with(&m.root))
            .max_by_key(|m| m.root.len());
        if let Some(module) = module {
            if !module
                .targets
                .iter()
                .any(|t| crate::project::dir_of(&t.path) == dir)
            {
                let name = dir
                    .trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .unwrap_or(&module.name);
                module.targets.push(Target {
                    kind: TargetKind::Bin,
                    name: name.to_string(),
                    path: path.clone(),
                    reason,
                });
            }
        }
    }
    packages.extend(modules);
}
