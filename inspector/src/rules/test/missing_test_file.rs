//! `test/missing-test-file`: an implementation file with no tests by its language's convention.
//!
//! - Rust `src/x.rs`: a `#[cfg(test)]`/`#[test]` in the file, or a file under the crate's
//!   `tests/` that mentions `x` or one of its public functions;
//! - Python `x.py` and TypeScript/JavaScript `x.ts`: a test that reaches it through imports
//!   (a test importing `flask` runs `flask/__init__.py`, which imports `app.py`: see
//!   [`ImportGraph`]), or a test named after it — `test_x.py`/`x_test.py` (`_x.py` too),
//!   `x.test.*`/`x.spec.*`, or `x.js` in a test folder. A module no file imports is a script,
//!   a configuration or an entry point, not a unit to test: it is not judged;
//! - Go `x.go`: a `_test.go` in its package (folder).
//!
//! Only library code that defines functions counts: entry files (`lib.rs`, `mod.rs`,
//! `__init__.py`, `index.ts`), binaries, scripts, examples and type-only files do not.

use super::conventions::{defines_functions, is_entry_file, stem_of};
use super::imports::{is_graph_language, ImportGraph};
use crate::engine::{is_fixture_path, Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::find_word;
use crate::rules::library_code::{crate_root, is_library_file};
use crate::rules::repository_files::RepositoryFiles;
use crate::rules::test_code::is_test_module_name;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::{BTreeMap, BTreeSet};

static META: RuleMeta = RuleMeta {
    id: "test/missing-test-file",
    category: Category::MissingTestFile,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::Go,
        Language::TypeScript,
        Language::JavaScript,
    ],
    dimensions: &[Dimension::Quality, Dimension::Maintainability],
    explanation: "An implementation file has no tests by its language's convention (test module, test_x.py, x_test.go, x.test.ts).",
};

/// Each untested implementation file in scope → one finding at the file.
pub(crate) struct MissingTestFile;

impl Rule for MissingTestFile {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A whole-project check (a file's tests are other files): no file is handed to it alone.
    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let candidates: Vec<&SourceFile> = ctx.files.iter().filter(|f| needs_tests(f)).collect();
        if candidates.is_empty() {
            return;
        }
        let files = RepositoryFiles::of(ctx);
        let index = TestIndex::of(&files);
        let graph = candidates
            .iter()
            .any(|f| is_graph_language(&f.rel_path))
            .then(|| ImportGraph::of(&files));
        for file in candidates {
            if let Some(why) = untested(file, &index, &files, graph.as_ref()) {
                out.hit(
                    Hit::new(
                        Location::file(&file.rel_path),
                        format!("`{}` has no tests: {why}", file.rel_path),
                        file.rel_path.clone(),
                    )
                    .suggest("add tests for it by the language's convention"),
                );
            }
        }
    }
}

/// Whether a file in scope is implementation code that should have tests.
fn needs_tests(file: &SourceFile) -> bool {
    let Some(lang) = file.language.filter(|l| META.languages.contains(l)) else {
        return false;
    };
    let structural = file.is_test_file()
        || (lang == Language::Rust && is_test_module_name(&file.rel_path))
        || is_entry_file(&file.rel_path)
        || is_fixture_path(&file.rel_path);
    // Rust code is a crate's `src/`; `.rs` files elsewhere are fixtures, scripts or test data.
    let outside_crate = lang == Language::Rust && crate_root(&file.rel_path).is_none();
    !structural && !outside_crate && is_library_file(file) && defines_functions(&file.text, lang)
}

/// The repository's test files, by what each convention looks for.
struct TestIndex {
    /// Test file names (`test_users.py`, `users.test.ts`).
    names: BTreeSet<String>,
    /// Test file paths (`pkg/users_test.go`).
    paths: BTreeSet<String>,
    /// Per crate prefix, the text of its `tests/` files.
    rust_tests: BTreeMap<String, String>,
}

impl TestIndex {
    fn of(files: &RepositoryFiles<'_>) -> TestIndex {
        let mut index = TestIndex {
            names: BTreeSet::new(),
            paths: BTreeSet::new(),
            rust_tests: BTreeMap::new(),
        };
        for path in files.test_paths() {
            let name = path.rsplit('/').next().unwrap_or(path);
            index.names.insert(name.to_string());
            index.paths.insert(path.to_string());
            let Some((prefix, _)) = path.split_once("tests/") else {
                continue;
            };
            if path.ends_with(".rs") && (prefix.is_empty() || prefix.ends_with('/')) {
                // A `tests/` folder inside `src/` (`crates/hir-ty/src/tests/`) is its crate's.
                let prefix = crate_root(path).unwrap_or(prefix);
                index.add_rust_tests(files, prefix, path);
            }
        }
        // Out-of-line test modules (`src/engine/run/tests.rs`) test their crate from inside.
        for path in files.paths().iter().filter(|p| is_test_module_name(p)) {
            if let Some(prefix) = crate_root(path) {
                index.add_rust_tests(files, prefix, path);
            }
        }
        index
    }

    fn add_rust_tests(&mut self, files: &RepositoryFiles<'_>, prefix: &str, path: &str) {
        if let Some(text) = files.text(path) {
            let all = self.rust_tests.entry(prefix.to_string()).or_default();
            all.push_str(&text);
            all.push('\n');
        }
    }
}

/// Whether a Rust module is test-only by its declaration: `#[cfg(test)] mod x;` in its parent
/// (`lib.rs`/`main.rs`/`mod.rs` beside it, or the file named after its folder).
fn declared_test_only(files: &RepositoryFiles<'_>, path: &str) -> bool {
    let stem = stem_of(path);
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let mut parents: Vec<String> = ["lib.rs", "main.rs", "mod.rs"]
        .iter()
        .map(|p| format!("{dir}/{p}"))
        .collect();
    parents.push(format!("{dir}.rs"));
    let declaration = format!("mod {stem};");
    parents.iter().filter_map(|p| files.text(p)).any(|text| {
        let lines: Vec<&str> = text.lines().collect();
        lines.iter().enumerate().any(|(i, l)| {
            l.trim_start()
                .trim_start_matches("pub ")
                .starts_with(&declaration)
                && (l.contains("#[cfg(test)]")
                    || i.checked_sub(1)
                        .is_some_and(|above| lines[above].trim() == "#[cfg(test)]"))
        })
    })
}

/// Why `file` counts as untested, or `None` when its tests exist (or it is no unit to test).
fn untested(
    file: &SourceFile,
    index: &TestIndex,
    files: &RepositoryFiles<'_>,
    graph: Option<&ImportGraph>,
) -> Option<String> {
    let path = file.rel_path.as_str();
    let stem = stem_of(path);
    let judged_by_imports = graph.filter(|_| is_graph_language(path));
    if judged_by_imports.is_some_and(|g| g.tested(path) || !g.imported(path)) {
        return None;
    }
    // `_config.py` is tested by `test_config.py`.
    let bare = stem.trim_start_matches('_');
    match file.language? {
        Language::Rust => {
            if file.text.contains("#[cfg(test)]")
                || file.text.contains("#[test]")
                || declared_test_only(files, path)
            {
                return None;
            }
            let prefix = crate_root(path).unwrap_or("");
            let tests = index.rust_tests.get(prefix).map_or("", String::as_str);
            let mentioned = find_word(tests, stem).is_some()
                || public_fns(&file.text).any(|f| find_word(tests, f).is_some());
            (!mentioned).then(|| {
                format!("no `#[cfg(test)]` module, and nothing under {prefix}tests/ mentions `{stem}` or its functions")
            })
        }
        Language::Python => {
            let wanted = [format!("test_{bare}.py"), format!("{bare}_test.py")];
            (!wanted.iter().any(|w| index.names.contains(w)))
                .then(|| format!("no test imports it, and no {} or {}", wanted[0], wanted[1]))
        }
        Language::Go => {
            // Go tests are per package: any `_test.go` of the folder tests its files.
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            let found = index.paths.iter().any(|p| {
                p.ends_with("_test.go") && p.rsplit_once('/').map_or("", |(d, _)| d) == dir
            });
            (!found).then(|| format!("no _test.go in {}", if dir.is_empty() { "." } else { dir }))
        }
        Language::TypeScript | Language::JavaScript => {
            // `cart.test.ts`, `cart.spec.js`, or `test/unit/cart.js` named after it.
            let found = index
                .names
                .iter()
                .any(|n| stem_of(n) == bare || stem_of(n) == stem);
            (!found)
                .then(|| format!("no test imports it, and no {stem}.test.* or {stem}.spec.* file"))
        }
        Language::Config => None,
    }
}

/// The names of the `pub fn`s of a Rust file, found in the text.
fn public_fns(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("pub fn ")
        .chain(text.match_indices("pub async fn "))
        .filter_map(|(at, m)| {
            let rest = &text[at + m.len()..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            (end > 0).then(|| &rest[..end])
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    #[test]
    fn fires_on_untested_files_of_each_language() {
        let dir = repo(&[
            ("src/lib.rs", "pub mod store;\npub mod cache;\n"),
            ("src/store.rs", "pub fn save() {}\n"),
            ("src/cache.rs", "pub fn get() {}\n"),
            (
                "tests/cache.rs",
                "#[test]\nfn hit() { app::cache::get(); }\n",
            ),
            ("app/__init__.py", ""),
            ("app/users.py", "def create_user(name):\n    pass\n"),
            ("app/main.py", "from app.users import create_user\n"),
            (
                "pkg/calc/add.go",
                "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
            ),
            (
                "web/cart.ts",
                "export function total(items: number[]) { return 0; }\n",
            ),
            ("web/app.ts", "import { total } from './cart';\n"),
            ("web/types.ts", "export interface Item { price: number }\n"),
        ]);
        let sink = project(&MissingTestFile, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                ("app/users.py".to_string(), "`app/users.py` has no tests: no test imports it, and no test_users.py or users_test.py".to_string()),
                ("pkg/calc/add.go".to_string(), "`pkg/calc/add.go` has no tests: no _test.go in pkg/calc".to_string()),
                ("src/store.rs".to_string(), "`src/store.rs` has no tests: no `#[cfg(test)]` module, and nothing under tests/ mentions `store` or its functions".to_string()),
                ("web/cart.ts".to_string(), "`web/cart.ts` has no tests: no test imports it, and no cart.test.* or cart.spec.* file".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_when_each_convention_is_met() {
        let dir = repo(&[
            ("src/lib.rs", "pub mod store;\n"),
            (
                "src/store.rs",
                "pub fn save() {}\n#[cfg(test)]\nmod tests {}\n",
            ),
            ("src/main.rs", "fn main() {}\n"),
            ("src/model.rs", "pub struct User;\n"),
            ("app/users.py", "def create_user(name):\n    pass\n"),
            (
                "tests/test_users.py",
                "def test_create():\n    assert True\n",
            ),
            (
                "pkg/calc/add.go",
                "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
            ),
            ("pkg/calc/add_test.go", "package calc\n"),
            ("web/cart.ts", "export function total() { return 0; }\n"),
            (
                "web/__tests__/cart.spec.ts",
                "it('sums', () => expect(1).toBe(1));\n",
            ),
            ("cli/src/args.rs", "pub fn parse_args() {}\n"),
            (
                "cli/tests/cli.rs",
                "#[test]\nfn t() { cli::parse_args(); }\n",
            ),
            // A test folder inside the crate's src/ (rust-analyzer's `hir-ty/src/tests/`).
            ("ty/src/infer/coerce.rs", "pub fn unify() {}\n"),
            // Tested under its name without the private module's underscore.
            ("pkg/_config.py", "def load():\n    pass\n"),
            ("pkg/api.py", "from ._config import load\n"),
            (
                "tests/test_config.py",
                "def test_load():\n    assert True\n",
            ),
            // A test named after the module, without `.test`/`.spec`.
            ("lib/utils.js", "export function merge() {}\n"),
            (
                "lib/app.js",
                "import { merge } from './utils.js';\nimport send from './send.js';\n",
            ),
            ("test/utils.js", "it('merges', () => {});\n"),
            // Reached through the module a test imports.
            ("lib/send.js", "export default function send() {}\n"),
            ("test/app.listen.js", "const app = require('../lib/app');\n"),
            // Imported by nothing: build configuration, a script.
            ("gulpfile.js", "function build() {}\n"),
            // Go tests are per package.
            (
                "pkg/calc/sub.go",
                "package calc\n\nfunc Sub(a, b int) int { return a - b }\n",
            ),
            (
                "ty/src/tests/coercion.rs",
                "#[test]\nfn reborrow() { check(\"let x: &u8 = coerce(&mut 1);\"); }\n",
            ),
        ]);
        let sink = project(&MissingTestFile, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }
}
