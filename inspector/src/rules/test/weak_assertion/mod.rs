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
    category: "weak-assertion",
    severity: Severity::Low,
    languages: &LANGUAGES,
    dimensions: &[Dimension::Quality],
    explanation: "A test with nothing in it that can fail: empty, or only assignments and logging.",
};

static META: RuleMeta = RuleMeta {
    id: "test/weak-assertion",
    category: "weak-assertion",
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

impl Weak {
    /// This weakness, excused by `excuse` when there is one.
    pub(super) fn excused(mut self, excuse: Option<&'static str>) -> Weak {
        self.excuse = excuse;
        self
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
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn a_name_says_equality_or_no_error() {
        let named = |n: &str| {
            let m = Named::of(n);
            (m.equality, m.no_error)
        };
        assert_eq!(named("test_method_eq"), (true, false));
        assert_eq!(named("TestEqualityIsReflexive"), (true, false));
        assert_eq!(named("comparisons"), (true, false));
        assert_eq!(named("test_request_sequence"), (false, false));
        assert_eq!(
            named("should not throw unhandled errors when replacing"),
            (false, true)
        );
        assert_eq!(named("test_does_not_crash"), (false, true));
        assert_eq!(named("doesn't raise on None"), (false, true));
        assert_eq!(named("raises on bad input"), (false, false));
        assert_eq!(
            named("process exits cleanly after interval tasks complete"),
            (false, true)
        );
        assert_eq!(named("test_exit_code_is_one"), (false, false));
        assert_eq!(named("TestServerShutsDownGracefully"), (false, true));
    }

    #[test]
    fn fires_on_a_tautology_in_a_rust_test_module() {
        let text = "pub fn f() -> u8 { 1 }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn f_is_one() {\n        let _ = super::f();\n        assert!(true);\n    }\n    #[test]\n    fn later() {}\n}\n";
        assert_eq!(
            hits(&WeakAssertion::CANNOT_FAIL, "src/a.rs", text),
            vec![(
                7,
                "test `f_is_one` asserts something that cannot fail: `assert!(true);`".to_string()
            )]
        );
        // The empty test is the pedantic rule's.
        assert_eq!(
            hits(&WeakAssertion::FREE, "src/a.rs", text),
            vec![(
                10,
                "test `later` has no assertion: it passes whatever the code does".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_real_assertions_and_files_without_tests() {
        let text = "#[test]\nfn f_is_one() {\n    assert_eq!(super::f(), 1);\n}\n";
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/a.rs", text).is_empty());
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "src/a.rs", "pub fn f() {}\n").is_empty());
        assert!(hits(
            &WeakAssertion::CANNOT_FAIL,
            "app/views.py",
            "def test_x():\n    pass\n"
        )
        .is_empty());
        // A benchmark measures: pytest collects it, but it checks nothing by design.
        assert!(hits(
            &WeakAssertion::FREE,
            "bench/test_benchmarks.py",
            "def test_x():\n    pass\n"
        )
        .is_empty());
    }

    #[test]
    fn what_a_test_says_of_itself_excuses_but_does_not_drop() {
        use crate::rules::fixture::excused;
        let eq = "#[test]\nfn test_method_eq() {\n    let x = make();\n    assert_eq!(x, x);\n}\n";
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/eq.rs", eq).is_empty());
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "tests/eq.rs", eq),
            vec![(4, EQUALITY.to_string())]
        );
        let placeholder = "test('works', () => {\n  expect(true).toBe(true)\n})\n";
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "test/a.test.js", placeholder).is_empty());
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "test/a.test.js", placeholder),
            vec![(2, PLACEHOLDER.to_string())]
        );
        let no_error = "test('does not throw on empty input', () => {\n  parse('')\n  // expect(parse('')).toBe(1)\n})\n";
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "test/b.test.js", no_error),
            vec![(3, NO_ERROR.to_string())]
        );
        // `assert True` after the code that could hang marks the end the test reached.
        let no_deadlock = "def test_no_deadlock_on_gc():\n    for _ in range(10):\n        logger.info('x')\n    assert True\n";
        assert_eq!(
            excused(
                &WeakAssertion::CANNOT_FAIL,
                "tests/test_locks.py",
                no_deadlock
            ),
            vec![(4, NO_ERROR.to_string())]
        );
        // The same tautology in a test named for what it computes is a finding.
        let envwrap = "def test_envwrap_types(monkeypatch):\n    monkeypatch.setenv('FUNC_number', '1')\n    assert 1, '1' == nofallback()\n";
        assert_eq!(
            hits(&WeakAssertion::CANNOT_FAIL, "tests/test_utils.py", envwrap).len(),
            1
        );
        // A placeholder that also calls its completion callback is still a placeholder.
        let done =
            "const assert = require('node:assert');\nit('using imported it', function (done) {\n  assert.ok(true);\n  done();\n});\n";
        assert_eq!(
            excused(
                &WeakAssertion::CANNOT_FAIL,
                "test/unit/tokens.spec.cjs",
                done
            ),
            vec![(3, PLACEHOLDER.to_string())]
        );
        let arrow = "const assert = require('assert');\nit('runs', (cb) => {\n  assert.ok(true);\n  cb()\n  run();\n});\n";
        assert_eq!(
            hits(&WeakAssertion::CANNOT_FAIL, "test/a.spec.js", arrow).len(),
            1
        );
    }

    #[test]
    fn a_tautology_that_only_makes_a_typed_function_valid_is_excused() {
        use crate::rules::fixture::excused;
        let types = "import { expect, it } from 'vitest'\nit('can use exposed types', () => {\n  const api = create()\n  function checkAllTypes(\n    _getState: GetState,\n    _setState: SetState,\n  ) {\n    expect(true).toBeTruthy()\n  }\n  checkAllTypes(api.getState, api.setState)\n})\n";
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/types.test.tsx", types).is_empty());
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "tests/types.test.tsx", types).len(),
            1
        );
        let branch = types.replace("  ) {\n    expect", "  ) {}\n  if (api) {\n    expect");
        assert_eq!(
            hits(&WeakAssertion::CANNOT_FAIL, "tests/types.test.tsx", &branch).len(),
            1,
            "a tautology in a branch checks nothing"
        );
    }

    #[test]
    fn a_tautology_marking_the_expected_except_path_is_excused() {
        use crate::rules::fixture::excused;
        let raised = "def test_bf_info(client):\n    try:\n        client.bf().create('b', expansion=2, noScale=True)\n        assert False\n    except RedisError:\n        assert True\n";
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/test_bloom.py", raised).is_empty());
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "tests/test_bloom.py", raised).len(),
            1
        );
    }

    #[test]
    fn a_fixture_a_test_runner_runs_is_no_test_of_the_project() {
        let suite = "var assert = require('assert');\ndescribe('delayed', function () {\n  it('has no effect twice', function () {\n    assert(true);\n    run();\n  });\n});\n";
        assert!(hits(
            &WeakAssertion::CANNOT_FAIL,
            "test/integration/fixtures/delay.fixture.js",
            suite
        )
        .is_empty());
        assert_eq!(
            hits(
                &WeakAssertion::CANNOT_FAIL,
                "test/integration/delay.spec.js",
                suite
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_bare_constant_beside_real_checks_is_excused_a_meant_one_is_not() {
        use crate::rules::fixture::excused;
        let typed = "import {assert, _} from './spec_ts'\ntest('types are ok', () => {\n\tlet val = _ as Immutable<string[]>\n\tassert(val, _ as ReadonlyArray<string>)\n\texpect(true).toBe(true)\n})\n";
        assert!(hits(&WeakAssertion::CANNOT_FAIL, "__tests__/immutable.ts", typed).is_empty());
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "__tests__/immutable.ts", typed).len(),
            1
        );
        let settled = "import assert from 'node:assert';\ntest('cleared in a race', async () => {\n\tconst cleared = queue.onRateLimitCleared();\n\tawait cleared;\n\tassert.ok(true, 'cleared');\n});\n";
        assert_eq!(
            excused(&WeakAssertion::CANNOT_FAIL, "test/rate-limit.ts", settled).len(),
            1
        );
        let meant = "package exit\n\nimport \"github.com/stretchr/testify/assert\"\n\nfunc TestExit(t *testing.T) {\n\tstub := Stub()\n\tassert.Equal(t, 1, stub.Code)\n\tassert.True(t, true, stub.Exited, \"exited\")\n}\n";
        assert_eq!(
            hits(&WeakAssertion::CANNOT_FAIL, "exit_test.go", meant).len(),
            1,
            "a tautology naming a value of the test is a check gone wrong"
        );
    }
}
