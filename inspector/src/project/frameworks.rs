//! Test frameworks the project uses, from its manifests and test files, each with the calls
//! that assert in it; and the test layout of the JavaScript frameworks (their conventional
//! test folders and file names are tests, their helper folders and AVA's `_`-prefixed files
//! test support).

use super::node::parsed;
use super::{dir_of, Roles, Sources};
use crate::engine::is_test_path;
use crate::rules::vocabulary::{self, Framework};
use protocol::project::{FileRole, Package, TestFramework};

/// (name, language, vocabularies) of every framework the model knows. The assertion calls
/// come from the one vocabulary table the test rules read
/// (`rules/test/weak_assertion/vocabulary.rs`); mocha is run with chai or node's `assert`.
const KNOWN: [(&str, &str, &[Framework]); 11] = [
    ("rust test", "rust", &[Framework::Libtest]),
    ("pytest", "python", &[Framework::Pytest]),
    ("unittest", "python", &[Framework::Unittest]),
    ("go testing", "go", &[Framework::GoTesting]),
    ("testify", "go", &[Framework::Testify]),
    ("jest", "javascript", &[Framework::Expect]),
    ("vitest", "javascript", &[Framework::Expect]),
    (
        "mocha",
        "javascript",
        &[Framework::Mocha, Framework::Chai, Framework::NodeAssert],
    ),
    ("ava", "javascript", &[Framework::Ava]),
    ("tap", "javascript", &[Framework::Tap]),
    ("node:test", "javascript", &[Framework::NodeAssert]),
];

/// The JavaScript frameworks a `package.json` dependency names.
const NODE_FRAMEWORKS: [&str; 5] = ["jest", "vitest", "mocha", "ava", "tap"];

/// The frameworks in use, by name, with the evidence for each; places the JavaScript test layout.
pub(crate) fn detect(
    src: &Sources<'_>,
    packages: &[Package],
    roles: &mut Roles,
) -> Vec<TestFramework> {
    let mut found: Vec<(&str, String)> = Vec::new();
    let mut note = |name: &'static str, evidence: String| {
        if !found.iter().any(|(n, _)| *n == name) {
            found.push((name, evidence));
        }
    };
    let paths = src.paths();
    if paths.iter().any(|p| p.ends_with(".rs")) {
        note(
            "rust test",
            "Rust sources (built-in test harness)".to_string(),
        );
    }
    if let Some(t) = paths.iter().find(|p| p.ends_with("_test.go")) {
        note("go testing", format!("Go tests ({t})"));
    }
    for pkg in packages {
        let manifest = pkg.manifest.as_str();
        if manifest.ends_with("go.mod")
            && src
                .text(manifest)
                .is_some_and(|t| t.contains("github.com/stretchr/testify"))
        {
            note("testify", format!("required in {manifest}"));
        }
        if (manifest.ends_with("pyproject.toml") || manifest.ends_with("setup.cfg"))
            && src.text(manifest).is_some_and(|t| t.contains("pytest"))
        {
            note("pytest", format!("named in {manifest}"));
        }
        if manifest.ends_with("package.json") {
            for name in node_frameworks(src, manifest) {
                note(name, format!("dependency in {manifest}"));
                place_js_layout(src, &pkg.root, name, roles);
            }
        }
    }
    if let Some(c) = paths
        .iter()
        .find(|p| p.rsplit('/').next() == Some("conftest.py"))
    {
        note("pytest", c.to_string());
    }
    for path in paths
        .iter()
        .filter(|p| p.ends_with(".py") && is_test_path(p))
    {
        let Some(text) = src.text(path) else { continue };
        if text.contains("import pytest") {
            note("pytest", format!("imported in {path}"));
        }
        if text.contains("import unittest") || text.contains("from unittest") {
            note("unittest", format!("imported in {path}"));
        }
    }
    let mut out: Vec<TestFramework> = found
        .into_iter()
        .filter_map(|(name, evidence)| {
            let (_, language, vocabularies) = KNOWN.iter().find(|(n, _, _)| *n == name)?;
            Some(TestFramework {
                name: name.to_string(),
                language: language.to_string(),
                evidence,
                assertions: vocabularies
                    .iter()
                    .flat_map(|f| vocabulary::calls(*f))
                    .collect(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The frameworks one `package.json` uses: its dependencies and devDependencies, and
/// `node --test` in its scripts.
fn node_frameworks(src: &Sources<'_>, manifest: &str) -> Vec<&'static str> {
    let Some(json) = parsed(src, manifest) else {
        return Vec::new();
    };
    let has = |dep: &str| {
        ["dependencies", "devDependencies"]
            .iter()
            .any(|k| json.get(k).and_then(|d| d.get(dep)).is_some())
    };
    let mut out: Vec<&'static str> = NODE_FRAMEWORKS.iter().copied().filter(|d| has(d)).collect();
    let scripts = json
        .get("scripts")
        .map(|s| s.to_string())
        .unwrap_or_default();
    if scripts.contains("node --test") || scripts.contains("node:test") {
        out.push("node:test");
    }
    out
}

/// Places the test files of JavaScript framework `name` in the package at `root`: under
/// `test/`, `tests/` or `__tests__/`, and `*.test.*` / `*.spec.*` files, are tests; helper and
/// fixture folders there, and AVA's `_`-prefixed files, test support.
fn place_js_layout(src: &Sources<'_>, root: &str, name: &str, roles: &mut Roles) {
    let js = |p: &str| {
        matches!(
            p.rsplit('.').next(),
            Some("js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx")
        )
    };
    for path in src.under(root).filter(|p| js(p)) {
        let rel = &path[root.len()..];
        let dirs: Vec<&str> = dir_of(rel).split('/').filter(|d| !d.is_empty()).collect();
        let Some(test_dir) = dirs
            .iter()
            .find(|d| matches!(**d, "test" | "tests" | "__tests__"))
        else {
            let file = rel.rsplit('/').next().unwrap_or(rel);
            if file.contains(".test.") || file.contains(".spec.") {
                roles.place(
                    path,
                    FileRole::Test,
                    format!("test framework {name}: *.test.* / *.spec.*"),
                );
            }
            continue;
        };
        let file = rel.rsplit('/').next().unwrap_or(rel);
        let helper = dirs
            .iter()
            .any(|d| matches!(*d, "helpers" | "fixtures" | "fixture" | "utils" | "support"))
            || (name == "ava" && file.starts_with('_'));
        if helper {
            roles.place(
                path,
                FileRole::TestSupport,
                format!("test framework {name}: helper under {test_dir}/"),
            );
        } else {
            roles.place(
                path,
                FileRole::Test,
                format!("test framework {name}: {test_dir}/**"),
            );
        }
    }
}
