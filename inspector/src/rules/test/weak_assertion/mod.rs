//! `test/weak-assertion`: tests that cannot fail — an assertion that is true whatever the code
//! does (`assert!(true)`, `assert_eq!(x, x)`, `assert True`, `expect(true).toBe(true)`), a test
//! whose only assertion is commented out, a test that records what the code does and never
//! reads the record (`record.rs`), or a test with nothing in it that can fail (empty, or
//! only assignments and logging). A test that calls the code under test can fail by that call
//! raising, panicking or rejecting (a validator, `parse()` of valid input, a "does not crash"
//! test, a mocha `done`), so it is not called assertion-free. What asserts is each test
//! framework's vocabulary ([`vocabulary`]), chosen by the file's own imports. Benchmarks are not
//! tests. Every language is read at the text level, comment- and string-aware (`rust.rs`,
//! `script.rs`): no file is parsed into a syntax tree for this.

mod args;
mod record;
mod rust;
mod script;
pub(crate) mod vocabulary;

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use protocol::{Dimension, Location, Severity};

/// Folder names that hold benchmarks, which measure rather than check.
const BENCH_DIRS: [&str; 4] = ["bench", "benches", "benchmark", "benchmarks"];

/// Whether a path lies in a benchmark folder.
fn is_benchmark_path(path: &str) -> bool {
    path.split('/')
        .rev()
        .skip(1)
        .any(|d| BENCH_DIRS.contains(&d))
}

static META: RuleMeta = RuleMeta {
    id: "test/weak-assertion",
    category: "weak-assertion",
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::Go,
        Language::TypeScript,
        Language::JavaScript,
    ],
    dimensions: &[Dimension::Quality],
    explanation:
        "A test with no assertion, or with one that cannot fail (assert!(true), assert_eq!(x, x)).",
};

/// One weak test or assertion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Weak {
    line: u32,
    description: String,
    key: String,
    /// Below the rule's: a test with nothing that can fail may still be a placeholder on purpose.
    severity: Option<Severity>,
}

impl Weak {
    /// A test with no assertion, at its header.
    fn no_assertion(test: &str, line: u32) -> Weak {
        Weak {
            line,
            description: format!(
                "test `{test}` has no assertion: it passes whatever the code does"
            ),
            key: format!("no assertion in {test}"),
            severity: Some(Severity::Low),
        }
    }

    /// An assertion that cannot fail, as written.
    fn tautology(test: &str, line: u32, written: &str) -> Weak {
        Weak {
            line,
            description: format!("test `{test}` asserts something that cannot fail: `{written}`"),
            key: format!("{test}: {written}"),
            severity: None,
        }
    }

    /// A test that records what the code does in `record` and never reads it, at the record.
    fn unread_record(test: &str, line: u32, record: &str) -> Weak {
        Weak {
            line,
            description: format!(
                "test `{test}` records `{record}` and never checks it: it passes whatever the code does"
            ),
            // The same defect as a test with no assertion: the same identity.
            key: format!("no assertion in {test}"),
            severity: None,
        }
    }

    /// A test whose only assertion is commented out, at that comment.
    fn commented_out(test: &str, line: u32, written: &str) -> Weak {
        Weak {
            line,
            description: format!(
                "test `{test}` asserts nothing but a commented-out `{written}`: it passes whatever the code does"
            ),
            // The same defect as a test with no assertion: the same identity.
            key: format!("no assertion in {test}"),
            severity: None,
        }
    }
}

/// Each test without an assertion and each tautological assertion → one finding.
pub(crate) struct WeakAssertion;

impl Rule for WeakAssertion {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// It reads no syntax tree at all: it must not make the file pass build the full one.
    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    /// Files that can hold a test at all: Rust with a test attribute, test files of the others.
    fn wants(&self, file: &SourceFile) -> bool {
        let t = &file.text;
        if is_benchmark_path(&file.rel_path) {
            return false;
        }
        match file.language {
            Some(Language::Rust) => t.contains("test]") || t.contains("test_case("),
            Some(Language::Python) => file.is_test_file() && t.contains("def test"),
            Some(Language::Go) => file.rel_path.ends_with("_test.go") && t.contains("func Test"),
            Some(Language::TypeScript | Language::JavaScript) => {
                file.is_test_file() && (t.contains("it(") || t.contains("test("))
            }
            _ => false,
        }
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let weak = match file.language {
            Some(Language::Rust) => rust::weak_in_rust(file),
            Some(lang) => script::weak_in_script(file, lang),
            None => Vec::new(),
        };
        for w in weak {
            let mut hit = Hit::new(Location::at(&file.rel_path, w.line), w.description, w.key)
                .suggest("assert on the behaviour the test is named for");
            if let Some(severity) = w.severity {
                hit = hit.with_severity(severity);
            }
            out.hit(hit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_a_tautology_in_a_rust_test_module() {
        let text = "pub fn f() -> u8 { 1 }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn f_is_one() {\n        assert!(true);\n    }\n}\n";
        assert_eq!(
            hits(&WeakAssertion, "src/a.rs", text),
            vec![(
                6,
                "test `f_is_one` asserts something that cannot fail: `assert!(true);`".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_real_assertions_and_files_without_tests() {
        let text = "#[test]\nfn f_is_one() {\n    assert_eq!(super::f(), 1);\n}\n";
        assert!(hits(&WeakAssertion, "tests/a.rs", text).is_empty());
        assert!(hits(&WeakAssertion, "src/a.rs", "pub fn f() {}\n").is_empty());
        assert!(hits(&WeakAssertion, "app/views.py", "def test_x():\n    pass\n").is_empty());
        // A benchmark measures: pytest collects it, but it checks nothing by design.
        assert!(hits(
            &WeakAssertion,
            "bench/test_benchmarks.py",
            "def test_x():\n    pass\n"
        )
        .is_empty());
    }
}
