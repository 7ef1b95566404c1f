//! `test/weak-assertion`: tests that cannot fail — an assertion that is true whatever the code
//! does (`assert!(true)`, `assert_eq!(x, x)`, `assert True`, `expect(val).toEqual(val)`) in a
//! test that runs code, a test whose only assertion is commented out, or a test that records
//! what the code does and never reads the record (`record.rs`). A test made of nothing but a
//! literal tautology (`test("placeholder", () => expect(true).toBe(true))`) is a placeholder
//! kept on purpose, not a test pretending to check; an assertion whose result the test reads
//! (`if assert.Equal(t, 1, 1) != true`) is the code under test of an assertion library.
//!
//! `test/assertion-free` (pedantic, PRECISION.md): a test with nothing in it that can fail
//! (empty, or only assignments and logging) — mostly placeholders, compile-only checks and
//! fixtures on the corpus. One detection, two rules. A test that calls the code under test can fail by that call
//! raising, panicking or rejecting (a validator, `parse()` of valid input, a "does not crash"
//! test, a mocha `done`), so it is not called assertion-free. What asserts is each test
//! framework's vocabulary ([`vocabulary`]), chosen by the file's own imports. Benchmarks are not
//! tests. Every language is read at the text level, comment- and string-aware (`rust.rs`,
//! `script.rs`): no file is parsed into a syntax tree for this.

mod args;
mod context;
mod excuses;
mod record;
mod rust;
mod script;
pub(crate) mod vocabulary;

use crate::engine::{is_fixture_path, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use protocol::{Category, Dimension, Location, Severity};

/// Folder names that hold benchmarks, which measure rather than check.
const BENCH_DIRS: [&str; 4] = ["bench", "benches", "benchmark", "benchmarks"];

/// Whether a path lies in a benchmark folder.
fn is_benchmark_path(path: &str) -> bool {
    path.split('/')
        .rev()
        .skip(1)
        .any(|d| BENCH_DIRS.contains(&d))
}

/// The languages whose tests both rules read.
const LANGUAGES: [Language; 5] = [
    Language::Rust,
    Language::Python,
    Language::Go,
    Language::TypeScript,
    Language::JavaScript,
];

static META_FREE: RuleMeta = RuleMeta {
    id: "test/assertion-free",
    category: Category::WeakAssertion,
    severity: Severity::Low,
    languages: &LANGUAGES,
    dimensions: &[Dimension::Quality],
    explanation: "A test with nothing in it that can fail: empty, or only assignments and logging.",
};

static META: RuleMeta = RuleMeta {
    id: "test/weak-assertion",
    category: Category::WeakAssertion,
    severity: Severity::Medium,
    languages: &LANGUAGES,
    dimensions: &[Dimension::Quality],
    explanation:
        "A test whose assertion cannot fail (assert!(true), assert_eq!(x, x)), is commented out, \
         or never reads what the test recorded.",
};

/// Words of a test's name that make it a test of equality itself (`test_method_eq`,
/// `equality is reflexive`): comparing a value with itself is its subject, not a slip.
const EQUALITY_WORDS: [&str; 12] = [
    "eq",
    "equal",
    "equals",
    "equality",
    "partialeq",
    "cmp",
    "compare",
    "comparison",
    "comparisons",
    "ordering",
    "reflexive",
    "reflexivity",
];

/// What a test's name says it checks, for the two readings a name settles.
pub(super) struct Named {
    /// Equality itself (`test_method_eq`): a self-comparison is its reflexive case.
    pub(super) equality: bool,
    /// That running the code raises nothing, or does not hang (`should not throw when …`,
    /// `test_no_crash`, `test_no_deadlock_on_gc`): the run is the check, so a test that asserts
    /// nothing else still checks something.
    pub(super) no_error: bool,
}

impl Named {
    pub(super) fn of(name: &str) -> Named {
        // `test_methodEq`, `method eq`, `MethodEq` → lower-case words.
        let mut spaced = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                spaced.push(' ');
            }
            spaced.extend(c.to_lowercase());
        }
        let words: Vec<&str> = spaced
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .collect();
        let negated = |w: &str| {
            matches!(
                w,
                "not"
                    | "no"
                    | "never"
                    | "without"
                    | "doesn't"
                    | "don't"
                    | "won't"
                    | "can't"
                    | "cannot"
            )
        };
        let error = |w: &str| {
            [
                "throw",
                "raise",
                "crash",
                "fail",
                "error",
                "panic",
                "exception",
                "reject",
                "deadlock",
                "hang",
                "segfault",
                "abort",
            ]
            .iter()
            .any(|e| w.starts_with(e))
        };
        // `process exits cleanly after …`, `shuts down gracefully`: the end reached is the check.
        let ends = |w: &str| {
            ["exit", "terminat", "complet", "finish", "shut"]
                .iter()
                .any(|e| w.starts_with(e))
        };
        let cleanly = |w: &str| w.starts_with("clean") || w.starts_with("graceful");
        Named {
            equality: words.iter().any(|w| EQUALITY_WORDS.contains(w)),
            no_error: words.windows(2).any(|p| negated(p[0]) && error(p[1]))
                || words.windows(3).any(|p| negated(p[0]) && error(p[2]))
                || words.windows(2).any(|p| ends(p[0]) && cleanly(p[1]))
                || words.windows(3).any(|p| ends(p[0]) && cleanly(p[2])),
        }
    }
}

/// One weak test or assertion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Weak {
    line: u32,
    description: String,
    key: String,
    /// A test with nothing in it that can fail (`test/assertion-free`), not a weak assertion.
    free: bool,
    /// What in the test's own code says the weakness is deliberate (see [`Hit::excuse`]).
    excuse: Option<&'static str>,
}

/// A test named for equality compares a value with itself on purpose.
pub(super) const EQUALITY: &str =
    "the test is named for equality: comparing a value with itself is its reflexive case";
/// A test of nothing but a literal tautology is a placeholder.
pub(super) const PLACEHOLDER: &str =
    "the test holds nothing but a literal tautology: a placeholder kept on purpose";
/// A test named for running without an error checks by running.
pub(super) const NO_ERROR: &str =
    "the test is named for running without an error: the run is the check";

/// A test that skips itself first (`t.Skip()`) is disabled by its author.
pub(super) const SKIPPED: &str =
    "the test skips itself first (`t.Skip()`): disabled by its author, it claims nothing";

impl Weak {
    /// This weakness, excused by `excuse` when there is one.
    pub(super) fn excused(mut self, excuse: Option<&'static str>) -> Weak {
        self.excuse = excuse;
        self
    }

    /// This weakness, excused by `excuse` when nothing else excuses it already.
    pub(super) fn or_excused(mut self, excuse: &'static str) -> Weak {
        self.excuse = self.excuse.or(Some(excuse));
        self
    }

    /// Its line.
    pub(super) fn line(&self) -> u32 {
        self.line
    }

    /// A test with no assertion, at its header.
    fn no_assertion(test: &str, line: u32) -> Weak {
        Weak {
            line,
            description: format!(
                "test `{test}` has no assertion: it passes whatever the code does"
            ),
            key: format!("no assertion in {test}"),
            free: true,
            excuse: None,
        }
    }

    /// An assertion that cannot fail, as written.
    fn tautology(test: &str, line: u32, written: &str) -> Weak {
        Weak {
            line,
            description: format!("test `{test}` asserts something that cannot fail: `{written}`"),
            key: format!("{test}: {written}"),
            free: false,
            excuse: None,
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
            free: false,
            excuse: None,
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
            free: false,
            excuse: None,
        }
    }
}

/// Each weak test or assertion → one finding, of `test/weak-assertion` or, for a test with
/// nothing that can fail, `test/assertion-free`.
pub(crate) struct WeakAssertion {
    /// Which of the two the rule reports: assertion-free tests, or weak assertions.
    free: bool,
}

impl WeakAssertion {
    /// `test/weak-assertion`.
    pub(crate) const CANNOT_FAIL: WeakAssertion = WeakAssertion { free: false };
    /// `test/assertion-free`.
    pub(crate) const FREE: WeakAssertion = WeakAssertion { free: true };
}

impl Rule for WeakAssertion {
    fn meta(&self) -> &'static RuleMeta {
        if self.free {
            &META_FREE
        } else {
            &META
        }
    }

    /// It reads no syntax tree at all: it must not make the file pass build the full one.
    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    /// Files that can hold a test at all: Rust with a test attribute, test files of the others.
    fn wants(&self, file: &SourceFile) -> bool {
        let t = &file.text;
        // A fixture's tests are what a test runner's own tests run: their tautologies are
        // the input chosen for that test, not the project's checks.
        if is_benchmark_path(&file.rel_path) || is_fixture_path(&file.rel_path) {
            return false;
        }
        // An example's or the documentation's tests show the library at work to a reader (one
        // left without its assertion where the example cannot show it): not the project's
        // checks.
        if file.is_illustration() {
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
        for w in weak.into_iter().filter(|w| w.free == self.free) {
            let hit = Hit::new(Location::at(&file.rel_path, w.line), w.description, w.key)
                .suggest("assert on the behaviour the test is named for");
            out.hit(match w.excuse {
                Some(why) => hit.excused(why),
                None => hit,
            });
        }
    }
}

#[cfg(test)]
mod tests;
