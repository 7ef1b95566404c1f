//! The project model: what every Inspector of one review knows about the repository it reads —
//! its packages and their targets (from the manifests), each file's role with the reason for
//! it, which tests exercise which modules, and the test frameworks with their assertion
//! vocabularies. The Lead builds it once per review (`inspector::project`), ships it as a
//! content-addressed file under `.retake/cache/`, and every Inspector reads the same one.
//!
//! Wire types: enums and structs are append-only (bincode encodes variant indexes and field
//! order).

use serde::{Deserialize, Serialize};

mod third_party;
pub use third_party::generated_or_vendored;

/// What a file is to its project. Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FileRole {
    /// Code other code calls: a library target's modules.
    Library,
    /// A program's own code: a binary target, an entry point, a script.
    Program,
    /// A test: a test target, a test file of a framework's layout.
    Test,
    /// Code only tests use: helpers, fixtures, `#[cfg(test)]` modules out of line.
    TestSupport,
    /// An example target.
    Example,
    /// A benchmark.
    Bench,
    /// A build script (`build.rs`, `setup.py`).
    BuildScript,
    /// Generated code (marked so in its first lines).
    Generated,
    /// Third-party code checked in (`vendor/`, `node_modules/`).
    Vendored,
    /// Documentation and its tooling (`docs/`).
    Docs,
    /// Inputs tests read — fixtures, golden files, the sources a formatter's or parser's tests
    /// feed it (`testdata/`, a `.rs` file under `tests/` no target compiles): never built or run
    /// as code, so no rule reads it as code.
    TestData,
}

impl FileRole {
    /// Whether the role is test code (a test or what only tests use).
    pub fn is_test(self) -> bool {
        matches!(
            self,
            FileRole::Test | FileRole::TestSupport | FileRole::TestData
        )
    }

    /// The role's name, as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            FileRole::Library => "library",
            FileRole::Program => "program",
            FileRole::Test => "test",
            FileRole::TestSupport => "test support",
            FileRole::Example => "example",
            FileRole::Bench => "bench",
            FileRole::BuildScript => "build script",
            FileRole::Generated => "generated",
            FileRole::Vendored => "vendored",
            FileRole::Docs => "docs",
            FileRole::TestData => "test data",
        }
    }
}

/// Which manifest format declared a package. Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ecosystem {
    /// `Cargo.toml`.
    Cargo,
    /// `pyproject.toml` or `setup.cfg`.
    Python,
    /// `package.json`.
    Node,
    /// `go.mod`.
    Go,
}

/// What a target builds or names. Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TargetKind {
    /// A library root (`[lib]`, package.json `main`/`module`/`exports`, a Python package).
    Lib,
    /// A program (`[[bin]]`, `[project.scripts]`, package.json `bin`, Go `package main`).
    Bin,
    /// A test target (`[[test]]`, `tests/*.rs`).
    Test,
    /// A benchmark target.
    Bench,
    /// An example target.
    Example,
    /// A build script.
    Build,
}

/// One target of a package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// What it is.
    pub kind: TargetKind,
    /// Its name (binary name, script name, `main`).
    pub name: String,
    /// Its root file, repository-relative; empty when the manifest names a file that is not there.
    pub path: String,
    /// Where it was declared (`"[[bin]] path in crates/core/Cargo.toml"`, `"auto-discovered src/main.rs"`).
    pub reason: String,
}

/// One package of the repository, as its manifest declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Package {
    /// Which manifest format.
    pub ecosystem: Ecosystem,
    /// The manifest, repository-relative.
    pub manifest: String,
    /// The package's name (a Go module path for Go).
    pub name: String,
    /// Its folder, repository-relative with a trailing `/` (`""` at the root).
    pub root: String,
    /// Its targets.
    pub targets: Vec<Target>,
    /// Whether it may be published (Cargo's `publish = false` says no).
    pub publish: bool,
    /// Workspace members its manifest lists (globs as written).
    pub members: Vec<String>,
    /// The Rust edition a Cargo package compiles as: its `edition`, 2015 when it names none
    /// (Cargo's default); `None` for other ecosystems and an edition the workspace sets.
    pub edition: Option<u16>,
    /// Whether a Cargo package's library is a procedural macro (`[lib] proc-macro = true`): it
    /// exports only its macros, which run inside the compiler, where a panic is a compile error.
    pub proc_macro: bool,
}

/// One file of the repository and what the model knows of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFacts {
    /// Repository-relative path, `/`-separated.
    pub path: String,
    /// Its role.
    pub role: FileRole,
    /// Why (`"Go _test.go"`, `"declared #[cfg(test)] mod testutil; in src/lib.rs"`).
    pub reason: String,
    /// For a test: the repository files it imports or uses (its modules under test), sorted.
    pub exercises: Vec<String>,
}

/// A test framework the project uses and the calls that assert in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFramework {
    /// Its name (`"ava"`, `"pytest"`, `"go testing"`, `"rust test"`).
    pub name: String,
    /// The language of its tests (`"rust"`, `"python"`, `"javascript"`, `"go"`).
    pub language: String,
    /// Why the model thinks it is used (`"devDependencies in package.json"`).
    pub evidence: String,
    /// Call prefixes that assert (`"t.is"`, `"expect("`, `"assert"`, `"self.assert"`).
    pub assertions: Vec<String>,
}

/// What a review knows about its project. Built once per review; every Inspector reads the
/// same one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ProjectModel {
    /// Packages, by manifest path.
    pub packages: Vec<Package>,
    /// Every source file of the repository, sorted by path.
    pub files: Vec<FileFacts>,
    /// Test frameworks in use, by name.
    pub frameworks: Vec<TestFramework>,
}

impl ProjectModel {
    /// What the model knows of `path`, when it lists the file.
    pub fn file(&self, path: &str) -> Option<&FileFacts> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .and_then(|i| self.files.get(i))
    }

    /// The role of `path`, when the model lists the file.
    pub fn role(&self, path: &str) -> Option<FileRole> {
        self.file(path).map(|f| f.role)
    }

    /// The tests that import or use `module` (a repository-relative path), sorted.
    pub fn tests_of(&self, module: &str) -> Vec<&str> {
        self.files
            .iter()
            .filter(|f| f.exercises.iter().any(|m| m == module))
            .map(|f| f.path.as_str())
            .collect()
    }

    /// The innermost package of `ecosystem` whose folder holds `path` (a named one: a virtual
    /// workspace manifest owns no file).
    pub fn package_of(&self, path: &str, ecosystem: Ecosystem) -> Option<&Package> {
        self.packages
            .iter()
            .filter(|p| p.ecosystem == ecosystem && !p.name.is_empty() && path.starts_with(&p.root))
            .max_by_key(|p| p.root.len())
    }

    /// The assertion calls of every framework of `language` the project uses.
    pub fn assertions(&self, language: &str) -> Vec<&str> {
        self.frameworks
            .iter()
            .filter(|f| f.language == language)
            .flat_map(|f| f.assertions.iter().map(String::as_str))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(path: &str, role: FileRole, exercises: &[&str]) -> FileFacts {
        FileFacts {
            path: path.to_string(),
            role,
            reason: "r".to_string(),
            exercises: exercises.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn queries_answer_from_the_files_and_frameworks() {
        let model = ProjectModel {
            packages: Vec::new(),
            files: vec![
                facts("src/a.rs", FileRole::Library, &[]),
                facts("tests/a.rs", FileRole::Test, &["src/a.rs"]),
            ],
            frameworks: vec![TestFramework {
                name: "ava".to_string(),
                language: "javascript".to_string(),
                evidence: "devDependencies".to_string(),
                assertions: vec!["t.is".to_string()],
            }],
        };
        assert_eq!(model.role("tests/a.rs"), Some(FileRole::Test));
        assert_eq!(model.role("src/b.rs"), None);
        assert_eq!(model.tests_of("src/a.rs"), vec!["tests/a.rs"]);
        assert_eq!(model.assertions("javascript"), vec!["t.is"]);
        assert!(model.assertions("go").is_empty());
        assert!(FileRole::TestSupport.is_test() && !FileRole::Program.is_test());
        let bytes = crate::wire::encode_cached(&model).expect("encodes");
        let back: ProjectModel = crate::wire::decode_cached(&bytes).expect("decodes");
        assert_eq!(back, model);
    }
}
