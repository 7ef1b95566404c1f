//! Black-box tests in each language's own form, for `test/missing-integration-tests`: tests
//! that use the code the way its users do, through its public name or entry point.
//!
//! - Rust: a crate is driven from outside when it has `tests/*.rs`, when a `tests/` file of the
//!   repository names it (`use serde::…`, `serde::to_string`), or when a crate so driven depends
//!   on it by `path` (its public API is exercised through the dependent's tests);
//! - Python: a test outside a top-level package that imports it by name (`import requests`);
//! - TypeScript/JavaScript: a test importing the package by its `package.json` name, or its
//!   entry point (`main`, or the root `index.*`) by relative path;
//! - Go: an external test package (`package store_test`), Go's own black-box convention.

use super::super::repository_files::RepositoryFiles;
use std::collections::BTreeSet;

/// The manifest of the crate at `root` (`cli/`, or `""`), parsed.
fn manifest(files: &RepositoryFiles<'_>, root: &str) -> Option<toml::Table> {
    files.text(&format!("{root}Cargo.toml"))?.parse().ok()
}

/// The crate's name as code spells it (`grep-cli` → `grep_cli`): `[lib] name`, else the
/// package name.
fn crate_ident(manifest: &toml::Table) -> Option<String> {
    let lib = manifest.get("lib").and_then(|l| l.get("name"));
    let package = manifest.get("package").and_then(|p| p.get("name"));
    lib.or(package)
        .and_then(|n| n.as_str())
        .map(|n| n.replace('-', "_"))
}

/// The roots of the crates `root`'s `[dependencies]` name by `path` (directly, or through
/// `workspace = true` and the workspace's `[workspace.dependencies]`).
fn path_dependencies(files: &RepositoryFiles<'_>, root: &str) -> Vec<String> {
    let Some(m) = manifest(files, root) else {
        return Vec::new();
    };
    let workspace = manifest(files, "");
    let shared = workspace
        .as_ref()
        .and_then(|w| w.get("workspace"))
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.as_table());
    let Some(deps) = m.get("dependencies").and_then(|d| d.as_table()) else {
        return Vec::new();
    };
    deps.iter()
        .filter_map(|(name, spec)| {
            if let Some(path) = spec.get("path").and_then(|p| p.as_str()) {
                return Some(join(root, path));
            }
            let inherited = spec.get("workspace").and_then(|w| w.as_bool()) == Some(true);
            let path = shared?.get(name)?.get("path")?.as_str()?;
            inherited.then(|| join("", path))
        })
        .collect()
}

/// `base` (a root ending in `/`, or `""`) joined with the relative `path`, `..` resolved, as a
/// root ending in `/`.
fn join(base: &str, path: &str) -> String {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("{}/", parts.join("/"))
    }
}

/// Whether `text` names the crate `ident` as a path (`ident::`, `use ident`, `extern crate`).
fn names_crate(text: &str, ident: &str) -> bool {
    let mut from = 0;
    while let Some(at) = text[from..].find(ident).map(|p| p + from) {
        let before = text[..at].chars().next_back();
        let after = &text[at + ident.len()..];
        let starts = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        if starts
            && (after.starts_with("::") || after.starts_with(';') || after.starts_with(" as "))
        {
            return true;
        }
        from = at + ident.len();
    }
    false
}

/// The Rust crate roots among `crates` that black-box tests drive (see the module doc).
pub(super) fn driven_crates(
    files: &RepositoryFiles<'_>,
    crates: &BTreeSet<&str>,
) -> BTreeSet<String> {
    let mut driven: BTreeSet<String> = BTreeSet::new();
    let test_files: Vec<&String> = files
        .paths()
        .iter()
        .filter(|p| p.ends_with(".rs"))
        .filter(|p| p.starts_with("tests/") || p.contains("/tests/"))
        .collect();
    for path in &test_files {
        if let Some((prefix, _)) = path.split_once("tests/") {
            if prefix.is_empty() || prefix.ends_with('/') {
                driven.insert(prefix.to_string());
            }
        }
    }
    let texts: Vec<String> = test_files
        .iter()
        .filter_map(|p| files.text(p).map(|t| t.into_owned()))
        .collect();
    for root in crates {
        let named = manifest(files, root)
            .and_then(|m| crate_ident(&m))
            .is_some_and(|ident| texts.iter().any(|t| names_crate(t, &ident)));
        if named {
            driven.insert(root.to_string());
        }
    }
    // What a driven crate depends on by path is driven through it.
    let mut queue: Vec<String> = driven.iter().cloned().collect();
    while let Some(root) = queue.pop() {
        for dep in path_dependencies(files, &root) {
            if driven.insert(dep.clone()) {
                queue.push(dep);
            }
        }
    }
    driven
}

/// Whether a Python test outside the project's top-level packages imports one by name.
pub(super) fn python_driven(files: &RepositoryFiles<'_>) -> bool {
    let packages: BTreeSet<(&str, &str)> = files
        .paths()
        .iter()
        .filter_map(|p| p.strip_suffix("/__init__.py"))
        .filter(|dir| !files.contains(&format!("{}/__init__.py", parent(dir))))
        .filter(|dir| !crate::engine::is_test_path(&format!("{dir}/__init__.py")))
        .map(|dir| (dir, dir.rsplit('/').next().unwrap_or(dir)))
        .collect();
    files
        .test_paths()
        .filter(|p| p.ends_with(".py"))
        .any(|test| {
            let Some(text) = files.text(test) else {
                return false;
            };
            packages.iter().any(|(dir, name)| {
                !test.starts_with(&format!("{dir}/"))
                    && text.lines().any(|l| {
                        let l = l.trim_start();
                        [format!("import {name}"), format!("from {name}")]
                            .iter()
                            .any(|s| {
                                l.strip_prefix(s.as_str()).is_some_and(|rest| {
                                    rest.starts_with([' ', '.', ',']) || rest.is_empty()
                                })
                            })
                    })
            })
        })
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

/// Whether a TypeScript/JavaScript test imports the package by name or its entry point.
pub(super) fn js_driven(files: &RepositoryFiles<'_>) -> bool {
    let package: Option<serde_json::Value> = files
        .text("package.json")
        .and_then(|t| serde_json::from_str(&t).ok());
    let name = package
        .as_ref()
        .and_then(|p| p["name"].as_str())
        .map(str::to_string);
    let main = package
        .as_ref()
        .and_then(|p| p["main"].as_str())
        .map(|m| strip_extension(m.trim_start_matches("./")).to_string());
    let entry = |resolved: &str| {
        let stem = strip_extension(resolved);
        stem == "index" || main.as_deref() == Some(stem)
    };
    files
        .test_paths()
        .filter(|p| {
            [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"]
                .iter()
                .any(|e| p.ends_with(e))
        })
        .any(|test| {
            let Some(text) = files.text(test) else {
                return false;
            };
            let found = specifiers(&text).any(|spec| {
                if spec.starts_with('.') {
                    let resolved = join(&format!("{}/", parent(test)), spec);
                    entry(resolved.trim_end_matches('/'))
                } else {
                    name.as_deref()
                        .is_some_and(|n| spec == n || spec.starts_with(&format!("{n}/")))
                }
            });
            found
        })
}

fn strip_extension(path: &str) -> &str {
    match path.rsplit_once('.') {
        Some((stem, ext)) if !ext.contains('/') && !stem.is_empty() => stem,
        _ => path,
    }
}

/// The module specifiers of `import … from 'x'`, `import 'x'` and `require('x')`.
fn specifiers(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let line = line.trim();
        let quoted = if line.starts_with("import ") || line.contains(" from ") {
            line.rsplit_once(" from ")
                .map_or(line.trim_start_matches("import "), |(_, s)| s)
        } else {
            line.split_once("require(")?.1
        };
        let quoted = quoted.trim_start();
        let quote = quoted
            .chars()
            .next()
            .filter(|c| matches!(c, '\'' | '"' | '`'))?;
        quoted[1..].split(quote).next()
    })
}

/// Whether a Go test file is an external test package (`package x_test`).
pub(super) fn go_driven(files: &RepositoryFiles<'_>) -> bool {
    files
        .test_paths()
        .filter(|p| p.ends_with("_test.go"))
        .any(|p| {
            files.text(p).is_some_and(|t| {
                t.lines()
                    .find(|l| l.starts_with("package "))
                    .is_some_and(|l| l.trim_end().ends_with("_test"))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_and_specifiers_parse() {
        assert_eq!(join("crates/grep/", "../cli"), "crates/cli/");
        assert_eq!(join("", "crates/core"), "crates/core/");
        let js = "import assert from 'assert';\nimport * as axios from '../../index.js';\nconst x = require(\"./lib/x\");\n";
        assert_eq!(
            specifiers(js).collect::<Vec<_>>(),
            vec!["assert", "../../index.js", "./lib/x"]
        );
        assert!(names_crate("use serde::Serialize;", "serde"));
        assert!(!names_crate("use serde_json::Value;", "serde"));
        assert!(!names_crate("my_serde::x()", "serde"));
    }
}
