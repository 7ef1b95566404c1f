//! The assertion vocabulary of each test framework, one table: which calls, macros and
//! statements make a test fail when what they check is false, and how a test file shows it
//! uses the framework (its own imports — file-local, so a rule's `check_file` depends only on
//! the file). A framework with no import marker is always on for its language (pytest's
//! `assert`, jest/vitest/jasmine/mocha globals, Go's `testing`, Rust's `assert*!`).

use crate::engine::Language;
use crate::lexical::{is_ident, LexLine};

/// A test framework (or a family sharing one vocabulary) whose assertions are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framework {
    /// AVA: `t.is`, `t.deepEqual`, `t.throws`, `t.plan`, …
    Ava,
    /// node-tap: `t.equal`, `t.ok`, `t.same`, `t.rejects`, …
    Tap,
    /// jest, vitest and jasmine: `expect(..)`, `expect.*`, type-level `expectTypeOf`.
    Expect,
    /// node:test and node's `assert` module.
    NodeAssert,
    /// chai: `expect`, `should`, `assert`.
    Chai,
    /// mocha/jasmine `done` callbacks: the test fails when `done(err)` gets an error (a bare
    /// `done()` only ends it).
    Mocha,
    /// pytest: the `assert` statement, `pytest.raises`/`warns`/`fail`.
    Pytest,
    /// unittest: `self.assert*`, `self.fail`.
    Unittest,
    /// Go's `testing`: `t.Error*`, `t.Fatal*`, `t.Fail*`.
    GoTesting,
    /// testify: `assert.*`, `require.*`, suite assertions.
    Testify,
    /// gomega: `Expect`, `Eventually`, `Consistently`, `Ω`.
    Gomega,
    /// Rust's libtest: `assert*!`, `panic!`, `unwrap`/`expect`/`?` of a result, `unwrap_err`,
    /// mockall expectations.
    Libtest,
}

/// One framework's row of the table.
struct Entry {
    framework: Framework,
    language: Lang,
    /// Module names whose import shows the framework is used; empty: always on.
    imports: &'static [&'static str],
    /// Text whose presence in a line of code is an assertion: a leading identifier must start
    /// a word (`t.is(` does not match `set.is(`), a leading `.` matches any receiver, a
    /// trailing `(_` wants an argument (`done(err)`, not `done()`).
    checks: &'static [&'static str],
}

/// The language group an entry belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
    Script,
    Python,
    Go,
    Rust,
}

impl Lang {
    fn of(lang: Language) -> Option<Lang> {
        match lang {
            Language::TypeScript | Language::JavaScript => Some(Lang::Script),
            Language::Python => Some(Lang::Python),
            Language::Go => Some(Lang::Go),
            Language::Rust => Some(Lang::Rust),
            Language::Config => None,
        }
    }
}

static TABLE: &[Entry] = &[
    Entry {
        framework: Framework::Ava,
        language: Lang::Script,
        imports: &["ava"],
        checks: &[
            "t.is(",
            "t.not(",
            "t.deepEqual(",
            "t.notDeepEqual(",
            "t.throws(",
            "t.throwsAsync(",
            "t.notThrows(",
            "t.notThrowsAsync(",
            "t.true(",
            "t.false(",
            "t.truthy(",
            "t.falsy(",
            "t.plan(",
            "t.pass(",
            "t.fail(",
            "t.like(",
            "t.regex(",
            "t.notRegex(",
            "t.snapshot(",
            "t.assert(",
        ],
    },
    Entry {
        framework: Framework::Tap,
        language: Lang::Script,
        imports: &["tap"],
        checks: &[
            "t.ok(",
            "t.notOk(",
            "t.equal(",
            "t.not(",
            "t.same(",
            "t.notSame(",
            "t.strictSame(",
            "t.match(",
            "t.notMatch(",
            "t.throws(",
            "t.doesNotThrow(",
            "t.rejects(",
            "t.resolves(",
            "t.plan(",
            "t.pass(",
            "t.fail(",
            "t.error(",
            "t.type(",
        ],
    },
    Entry {
        framework: Framework::Expect,
        language: Lang::Script,
        imports: &[],
        checks: &[
            "expect(",
            "expect.",
            "expectTypeOf",
            "assertType(",
            "fail(",
            "pending(",
        ],
    },
    Entry {
        framework: Framework::NodeAssert,
        language: Lang::Script,
        imports: &[
            "assert",
            "node:assert",
            "assert/strict",
            "node:assert/strict",
            "node:test",
            // `t = tspl(t, { plan: 2 })`: node's assert methods on the test's `t`.
            "@matteo.collina/tspl",
        ],
        checks: &[
            "assert(",
            "assert.",
            "t.assert.",
            "t.ok(",
            "t.equal(",
            "t.strictEqual(",
            "t.deepEqual(",
            "t.deepStrictEqual(",
            "t.notEqual(",
            "t.notStrictEqual(",
            "t.throws(",
            "t.rejects(",
            "t.doesNotThrow(",
            "t.ifError(",
            "t.match(",
            "t.fail(",
        ],
    },
    Entry {
        framework: Framework::Chai,
        language: Lang::Script,
        imports: &["chai"],
        checks: &["expect(", "assert(", "assert.", ".should", "should."],
    },
    Entry {
        framework: Framework::Mocha,
        language: Lang::Script,
        imports: &[],
        checks: &["done(_"],
    },
    Entry {
        framework: Framework::Pytest,
        language: Lang::Python,
        imports: &[],
        checks: &[
            "assert ",
            "assert(",
            "pytest.raises(",
            "pytest.warns(",
            "pytest.fail(",
            "pytest.deprecated_call(",
        ],
    },
    Entry {
        framework: Framework::Unittest,
        language: Lang::Python,
        imports: &[],
        checks: &[".assert", "self.fail(", ".fail("],
    },
    Entry {
        framework: Framework::GoTesting,
        language: Lang::Go,
        imports: &[],
        checks: &[
            ".Error(",
            ".Errorf(",
            ".Fatal(",
            ".Fatalf(",
            ".Fail(",
            ".FailNow(",
        ],
    },
    Entry {
        framework: Framework::Testify,
        language: Lang::Go,
        imports: &["github.com/stretchr/testify"],
        checks: &[
            "assert.",
            "require.",
            ".Require().",
            ".Assert().",
            "mock.AssertExpectations",
        ],
    },
    Entry {
        framework: Framework::Gomega,
        language: Lang::Go,
        imports: &["github.com/onsi/gomega"],
        checks: &["Expect(", "Eventually(", "Consistently(", "Ω("],
    },
    Entry {
        framework: Framework::Libtest,
        language: Lang::Rust,
        imports: &[],
        checks: &[
            "assert!",
            "assert_eq!",
            "assert_ne!",
            "assert_matches!",
            "debug_assert",
            "prop_assert",
            "panic!",
            "unreachable!",
            ".unwrap_err(",
            ".expect_err(",
            ".expect_",
            ".assert",
            // A test that unwraps or `?`s the tested call's result fails on its error.
            ".unwrap()",
            ".expect(",
            "?;",
            "?)",
        ],
    },
];

/// The frameworks a test file of `lang` uses: those always on for the language, and those
/// whose module its own imports name (`import test from 'ava'`, `require('node:assert')`,
/// `"github.com/stretchr/testify/assert"`).
pub(crate) fn frameworks_of(text: &str, lang: Language) -> Vec<Framework> {
    let Some(group) = Lang::of(lang) else {
        return Vec::new();
    };
    let imported = imported_modules(text, group);
    TABLE
        .iter()
        .filter(|e| e.language == group)
        .filter(|e| {
            e.imports.is_empty()
                || e.imports.iter().any(|m| {
                    imported
                        .iter()
                        .any(|i| i == m || i.starts_with(&format!("{m}/")))
                })
        })
        .map(|e| e.framework)
        .collect()
}

/// The assertion calls of `framework` as the project model lists them: each check of the table
/// without its matching markers (`done(_` is `done(`).
pub(crate) fn calls(framework: Framework) -> impl Iterator<Item = String> {
    TABLE
        .iter()
        .filter(move |e| e.framework == framework)
        .flat_map(|e| e.checks.iter())
        .map(|check| check.strip_suffix('_').unwrap_or(check).to_string())
}

/// Whether a line of code (comments removed) asserts by the vocabulary of `frameworks`.
pub(crate) fn asserts_on(code: &str, frameworks: &[Framework]) -> bool {
    TABLE
        .iter()
        .filter(|e| frameworks.contains(&e.framework))
        .flat_map(|e| e.checks.iter())
        .any(|check| contains_check(code, check))
}

/// Words a project's own assertion helpers are named with (`assertEqual`, `checkStdLogMessage`,
/// `requireNoError`, `verifyHeaders`).
const HELPER_WORDS: [&str; 7] = [
    "assert", "check", "expect", "require", "verify", "ensure", "must",
];

/// The name a Go test's header gives its `*testing.T` (`t` in `func TestX(t *testing.T) {`).
pub(super) fn go_test_handle(header: &str) -> Option<&str> {
    let params = header.split_once('(')?.1;
    let (name, ty) = params.trim_start().split_once(char::is_whitespace)?;
    ty.trim_start()
        .starts_with("*testing.")
        .then_some(name)
        .filter(|n| !n.is_empty())
}

/// Whether a Go test's line of code calls a helper of the project's own that asserts: a function
/// named for checking (`assertEqual(t, attempt, 1)`) handed the test's `handle`, through which
/// it fails the test.
pub(super) fn go_helper_asserts(code: &str, handle: &str) -> bool {
    code.match_indices('(').any(|(open, _)| {
        let name_start = code[..open]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = code[name_start..open].to_ascii_lowercase();
        let first_arg = code[open + 1..]
            .split([',', ')'])
            .next()
            .unwrap_or_default()
            .trim();
        first_arg == handle && HELPER_WORDS.iter().any(|w| name.starts_with(w))
    })
}

/// The first comment of a test's `lines` that is an assertion of its frameworks put out of action
/// (`// expect(spy).toHaveBeenCalled();`, `# assert rv == 1`): (line number, its text).
pub(crate) fn commented_assertion(
    lines: &[LexLine<'_>],
    frameworks: &[Framework],
) -> Option<(u32, String)> {
    lines.iter().find_map(|line| {
        line.comments().find_map(|c| {
            let body = c.body.trim();
            // Code, not prose: it starts with the assertion and has its brackets or comparison.
            let code_like = (body.contains('(') && body.ends_with([')', ';']))
                || (body.starts_with("assert ") && body.contains("=="));
            (code_like && leads_with_assertion(body, frameworks))
                .then(|| (line.number, body.to_string()))
        })
    })
}

/// Whether `body` begins with an assertion: its first word or path with the `(` or space after
/// it (`expect(`, `assert `, `self.assertEqual(`) asserts by itself.
fn leads_with_assertion(body: &str, frameworks: &[Framework]) -> bool {
    let head = body.find(['(', ' ']).map_or(body, |end| &body[..=end]);
    asserts_on(head, frameworks)
}

/// Whether `code` holds `check`, a leading identifier starting a word.
fn contains_check(code: &str, check: &str) -> bool {
    let (check, argument) = match check.strip_suffix('_') {
        Some(open) => (open, true),
        None => (check, false),
    };
    let starts_ident = check.as_bytes().first().is_some_and(|b| is_ident(*b));
    code.match_indices(check).any(|(at, _)| {
        let word_start = !starts_ident || at == 0 || {
            let before = code.as_bytes()[at - 1];
            !is_ident(before) && before != b'.'
        };
        word_start && (!argument || !code[at + check.len()..].trim_start().starts_with(')'))
    })
}

/// The module names a file imports, read from its import lines (the file's own text only).
fn imported_modules(text: &str, group: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        match group {
            Lang::Script => {
                let is_import = t.starts_with("import ")
                    || t.starts_with("export ")
                    || t.starts_with("} from ")
                    || t.contains("require(");
                if is_import {
                    out.extend(quoted(t));
                }
            }
            Lang::Python => {
                let module = t
                    .strip_prefix("import ")
                    .or_else(|| t.strip_prefix("from "))
                    .and_then(|r| r.split([' ', ',']).next());
                out.extend(module.map(|m| m.replace('.', "/")));
            }
            // Go import paths are quoted, in an import block or line.
            Lang::Go => {
                if t.starts_with("import ") || t.starts_with('"') || t.contains(" \"") {
                    out.extend(quoted(t).into_iter().filter(|q| q.contains('/')));
                }
            }
            Lang::Rust => {}
        }
    }
    out
}

/// The quoted strings of a line (`'ava'`, `"tap"`).
fn quoted(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for q in ['\'', '"', '`'] {
        let parts: Vec<&str> = line.split(q).collect();
        out.extend(
            parts
                .iter()
                .skip(1)
                .step_by(2)
                .take(parts.len().saturating_sub(1) / 2)
                .map(|s| s.to_string()),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frameworks_come_from_the_files_own_imports() {
        let ava = "import test from 'ava';\nimport got from '../source/index.js';\n";
        assert_eq!(
            frameworks_of(ava, Language::TypeScript),
            vec![Framework::Ava, Framework::Expect, Framework::Mocha]
        );
        let node = "const assert = require('node:assert/strict');\n";
        assert!(frameworks_of(node, Language::JavaScript).contains(&Framework::NodeAssert));
        assert!(!frameworks_of(node, Language::JavaScript).contains(&Framework::Ava));
        let go = "import (\n\t\"testing\"\n\t\"github.com/stretchr/testify/require\"\n)\n";
        assert_eq!(
            frameworks_of(go, Language::Go),
            vec![Framework::GoTesting, Framework::Testify]
        );
        assert_eq!(
            frameworks_of("import pytest\n", Language::Python),
            vec![Framework::Pytest, Framework::Unittest]
        );
    }

    #[test]
    fn each_framework_asserts_by_its_own_words_only() {
        let ava = frameworks_of("import test from 'ava';\n", Language::TypeScript);
        assert!(asserts_on("t.is(response.statusCode, 200);", &ava));
        assert!(asserts_on("await t.throwsAsync(got('x'));", &ava));
        assert!(asserts_on("t.plan(2);", &ava));
        assert!(!asserts_on("const set = s.is(x);", &ava));
        // Without AVA imported, `t.is(` is an ordinary call.
        let plain = frameworks_of("", Language::TypeScript);
        assert!(!asserts_on("t.is(a, b);", &plain));
        assert!(asserts_on("expect(a).toBe(b);", &plain));
        assert_eq!(go_test_handle("func TestRetry(t *testing.T) {"), Some("t"));
        assert_eq!(go_test_handle("func TestX(tt *testing.T) {"), Some("tt"));
        assert_eq!(go_test_handle("func helper(s string) {"), None);
        assert!(go_helper_asserts("\tassertEqual(t, attempt, 1)", "t"));
        assert!(go_helper_asserts(
            "\tcheckStdLogMessage(t, \"redirected\", logs)",
            "t"
        ));
        assert!(
            !go_helper_asserts("\tts := createGetServer(t)", "t"),
            "a fixture, not a check"
        );
        assert!(
            !go_helper_asserts("\tassertEqual(other, 1)", "t"),
            "not handed the test"
        );
        let go = frameworks_of("import \"github.com/onsi/gomega\"\n", Language::Go);
        assert!(asserts_on("Expect(err).NotTo(HaveOccurred())", &go));
        assert!(!asserts_on("Expect(err)", &frameworks_of("", Language::Go)));
        let rust = frameworks_of("", Language::Rust);
        assert!(asserts_on("assert_eq!(a, b);", &rust));
        assert!(!asserts_on("let x = f();", &rust));
        assert!(asserts_on("let x = parse(s)?;", &rust));
        assert!(asserts_on("let x = parse(s).unwrap();", &rust));
        let mocha = frameworks_of("", Language::JavaScript);
        assert!(asserts_on("if (err) return done(err);", &mocha));
        assert!(!asserts_on("done();", &mocha));
    }
}
