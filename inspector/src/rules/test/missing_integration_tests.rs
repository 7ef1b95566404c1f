//! `test/missing-integration-tests`: a project whose code is tested, if at all, only from the
//! inside — no test that drives it through its public surface. One finding for the project,
//! naming every part that lacks them, with the advice in each part's own convention:
//! - a Rust crate that no black-box test drives (`black_box.rs`: its own `tests/*.rs`, a
//!   `tests/` file naming it, or a driven crate depending on it);
//! - Python, TypeScript/JavaScript and Go code with no test under an `integration`, `e2e`,
//!   `functional`, `acceptance` or `system` folder or file name (also Cypress and Playwright
//!   folders, and Go files built with the `integration` tag), and no black-box test in the
//!   language's own form (a test importing the package by name or entry point, Go's external
//!   `_test` package).

use super::black_box::{driven_crates, go_driven, js_driven, python_driven};
use super::conventions::{is_entry_file, names_integration};
use crate::engine::{is_test_path, Context, Hit, Language, Rule, RuleMeta, Sink};
use crate::rules::library_code::crate_root;
use crate::rules::repository_files::RepositoryFiles;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::BTreeSet;

static META: RuleMeta = RuleMeta {
    id: "test/missing-integration-tests",
    category: Category::MissingIntegrationTests,
    severity: Severity::Medium,
    languages: &[],
    dimensions: &[Dimension::Quality, Dimension::Architecture],
    explanation: "The project has unit tests at most: no integration tests drive it from outside.",
};

/// Projects without integration tests → one finding at the first one's manifest.
pub(crate) struct MissingIntegrationTests;

impl Rule for MissingIntegrationTests {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let files = RepositoryFiles::of(ctx);
        let mut lacking: Vec<(String, String)> = rust_crates_without(&files);
        let mut advice: Vec<&str> = Vec::new();
        if !lacking.is_empty() {
            advice.push(advice_for(Language::Rust));
        }
        for (lang, what, manifest) in [
            (Language::Python, "the Python code", "pyproject.toml"),
            (
                Language::TypeScript,
                "the TypeScript/JavaScript code",
                "package.json",
            ),
            (Language::Go, "the Go code", "go.mod"),
        ] {
            if has_code(&files, lang) && !has_integration_tests(&files, lang) {
                lacking.push((what.to_string(), manifest.to_string()));
                advice.push(advice_for(lang));
            }
        }
        let Some((_, manifest)) = lacking.first() else {
            return;
        };
        let location = if ctx.root.join(manifest).is_file() {
            Location::file(manifest.as_str())
        } else {
            Location::file("")
        };
        let parts: Vec<&str> = lacking.iter().map(|(what, _)| what.as_str()).collect();
        out.hit(
            Hit::new(
                location,
                format!(
                    "no integration tests: {} {} tested only from the inside, if at all",
                    parts.join(", "),
                    if parts.len() == 1 { "is" } else { "are" }
                ),
                "integration tests",
            )
            .suggest(format!(
                "add tests that use the code through its public interface: {}",
                advice.join("; ")
            )),
        );
    }
}

/// How `lang`'s projects write tests that drive the code from outside.
fn advice_for(lang: Language) -> &'static str {
    match lang {
        Language::Rust => "Rust: `tests/*.rs` using the crate's public API",
        Language::Python => "Python: tests that `import` the package by name (pytest)",
        Language::Go => {
            "Go: an external `package <name>_test` or tests built with `//go:build integration`"
        }
        _ => "TypeScript/JavaScript: tests importing the package's entry point (package.json `main`), or an `e2e/` suite",
    }
}

fn language_of(path: &str) -> Option<Language> {
    match Language::of(path)? {
        Language::JavaScript => Some(Language::TypeScript),
        l => Some(l),
    }
}

/// `crate <name-or-folder>` of every Rust crate with source that no black-box test drives,
/// with its manifest.
fn rust_crates_without(files: &RepositoryFiles<'_>) -> Vec<(String, String)> {
    let crates: BTreeSet<&str> = files
        .paths()
        .iter()
        .filter(|p| p.ends_with(".rs") && !is_test_path(p))
        .filter_map(|p| crate_root(p))
        .collect();
    let tested = driven_crates(files, &crates);
    crates
        .into_iter()
        .filter(|c| !tested.contains(*c))
        .map(|c| {
            let name = if c.is_empty() {
                "the crate".to_string()
            } else {
                format!("crate {}", c.trim_end_matches('/'))
            };
            (name, format!("{c}Cargo.toml"))
        })
        .collect()
}

/// Whether the repository has implementation code in `lang` (JavaScript counted as TypeScript).
fn has_code(files: &RepositoryFiles<'_>, lang: Language) -> bool {
    files.paths().iter().any(|p| {
        language_of(p) == Some(lang)
            && !is_test_path(p)
            && !is_entry_file(p)
            && crate::rules::library_code::is_library_path(p)
    })
}

fn has_integration_tests(files: &RepositoryFiles<'_>, lang: Language) -> bool {
    let own_form = match lang {
        Language::Python => python_driven(files),
        Language::Go => go_driven(files),
        _ => js_driven(files),
    };
    own_form
        || files.test_paths().any(|p| {
            if language_of(p) != Some(lang) {
                return false;
            }
            names_integration(p)
                || (lang == Language::Go
                    && files.text(p).is_some_and(|t| {
                        t.lines()
                            .take(5)
                            .any(|l| l.starts_with("//go:build") && l.contains("integration"))
                    }))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    #[test]
    fn fires_once_for_every_part_tested_only_from_inside() {
        let dir = repo(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"core\", \"cli\"]\n"),
            ("core/Cargo.toml", "[package]\nname = \"core\"\n"),
            (
                "core/src/lib.rs",
                "pub fn f() {}\n#[cfg(test)]\nmod tests {}\n",
            ),
            ("cli/Cargo.toml", "[package]\nname = \"cli\"\n"),
            ("cli/src/main.rs", "fn main() {}\n"),
            ("cli/tests/run.rs", "#[test]\nfn runs() {}\n"),
            ("app/users.py", "def f(): pass\n"),
            ("tests/test_users.py", "def test_f(): assert f() is None\n"),
        ]);
        let sink = project(&MissingIntegrationTests, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![(
                "core/Cargo.toml".to_string(),
                "no integration tests: crate core, the Python code are tested only from the inside, if at all".to_string()
            )]
        );
    }

    #[test]
    fn quiet_when_each_part_has_integration_tests() {
        let dir = repo(&[
            ("Cargo.toml", "[package]\nname = \"core\"\n"),
            ("src/lib.rs", "pub fn f() {}\n"),
            ("tests/api.rs", "#[test]\nfn t() {}\n"),
            ("app/users.py", "def f(): pass\n"),
            (
                "tests/integration/test_api.py",
                "def test_f(): assert f() is None\n",
            ),
            ("web/cart.ts", "export function total() {}\n"),
            (
                "web/e2e/cart.spec.ts",
                "it('x', () => expect(1).toBe(1));\n",
            ),
            ("pkg/store.go", "package pkg\nfunc F() {}\n"),
            (
                "pkg/store_test.go",
                "//go:build integration\n\npackage pkg\n",
            ),
        ]);
        let sink = project(&MissingIntegrationTests, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }

    #[test]
    fn black_box_tests_in_each_languages_own_form_count() {
        let dir = repo(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"core\", \"derive\", \"suite\"]\n"),
            (
                "core/Cargo.toml",
                "[package]\nname = \"my-core\"\n\n[dependencies]\nmy-derive = { path = \"../derive\" }\n",
            ),
            ("core/src/lib.rs", "pub fn f() {}\n"),
            ("derive/Cargo.toml", "[package]\nname = \"my-derive\"\n"),
            ("derive/src/lib.rs", "pub fn d() {}\n"),
            ("suite/Cargo.toml", "[package]\nname = \"suite\"\n"),
            ("suite/tests/api.rs", "use my_core::f;\n#[test]\nfn t() { f() }\n"),
            ("src/client/__init__.py", "def get(): pass\n"),
            ("src/client/models.py", "class M: pass\n"),
            ("tests/test_api.py", "import client\n\ndef test_get():\n    assert client.get() is None\n"),
            ("package.json", "{\"name\": \"fetchy\", \"main\": \"index.js\"}\n"),
            ("index.js", "module.exports = require('./lib/fetchy');\n"),
            ("lib/fetchy.js", "export function get() {}\n"),
            ("test/specs/api.spec.js", "import * as fetchy from '../../index.js';\nit('x', () => expect(1).toBe(1));\n"),
            ("store/store.go", "package store\nfunc F() {}\n"),
            ("store/store_test.go", "package store_test\n\nimport \"testing\"\n"),
        ]);
        let sink = project(&MissingIntegrationTests, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", described(&sink));
    }

    #[test]
    fn a_typescript_project_is_told_its_own_convention() {
        let dir = repo(&[
            (
                "package.json",
                "{\"name\": \"fetchy\", \"main\": \"index.js\"}\n",
            ),
            ("lib/fetchy.ts", "export function get() {}\n"),
            (
                "lib/fetchy.test.ts",
                "import { get } from './fetchy';\nit('x', () => expect(get()).toBe(1));\n",
            ),
        ]);
        let sink = project(&MissingIntegrationTests, &context(&dir));
        let suggestion = sink.hits[0].suggestion.clone().unwrap_or_default();
        assert_eq!(
            suggestion,
            "add tests that use the code through its public interface: TypeScript/JavaScript: tests importing the package's entry point (package.json `main`), or an `e2e/` suite"
        );
        assert!(!suggestion.contains(".rs"));
    }
}
