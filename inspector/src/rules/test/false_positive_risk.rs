//! `test/false-positive-risk`: mock expectations that never check arguments, so the test passes
//! whatever the code under test calls the mock with:
//! - mockall `.expect_save()` chains without `.with(..)`/`.withf(..)`, when the mocked method
//!   takes arguments (its `fn save(&self, ..)` is looked up in the code; unknown → not judged);
//! - Python `m.assert_called()`/`assert_called_once()`/`assert m.called` when the file never
//!   checks that mock's arguments (`m.assert_called_with`, `m.call_args`, …); a `called` flag
//!   the file sets itself (`self.called = True` in a hand-written fake) is no mock's;
//! - jest/vitest `expect(m).toHaveBeenCalled()`/`toBeCalled()`/`toHaveBeenCalledTimes(n)` when
//!   the file never checks `m`'s arguments (`toHaveBeenCalledWith`, `m.mock.calls`, …), and `m`
//!   replaces a dependency: a bare spy the test creates (`const onDone = jest.fn()`) and hands
//!   to the code as a callback is the subject — whether the code calls it is the behaviour;
//! - gomock `.EXPECT().Save(gomock.Any(), gomock.Any())`: every argument `Any()`.
//!
//! Only test code is read.

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::LexLine;
use crate::rules::repository_files::RepositoryFiles;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::BTreeMap;

static META: RuleMeta = RuleMeta {
    id: "test/false-positive-risk",
    category: Category::FalsePositiveRisk,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::Go,
        Language::TypeScript,
        Language::JavaScript,
    ],
    dimensions: &[Dimension::Quality],
    explanation: "A mock expectation that never checks the arguments it is called with.",
};

/// Each argument-blind mock expectation in test code → one finding at it.
pub(crate) struct FalsePositiveRisk;

impl Rule for FalsePositiveRisk {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// Rust expectations need the mocked trait's signatures from other files: a project check.
    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut repo: Option<RepositoryFiles<'_>> = None;
        let mut arity: BTreeMap<String, Option<bool>> = BTreeMap::new();
        for file in &ctx.files {
            let found = match file.language {
                Some(Language::Rust) if file.text.contains(".expect_") && has_tests(file) => {
                    let files = repo.get_or_insert_with(|| RepositoryFiles::of(ctx));
                    mockall(file, files, &mut arity)
                }
                Some(Language::Python) if file.is_test_file() && file.text.contains("called") => {
                    python(file)
                }
                Some(Language::TypeScript | Language::JavaScript)
                    if file.text.contains("Called") || file.text.contains("toBeCalled") =>
                {
                    jest(file)
                }
                Some(Language::Go) if file.is_test_file() && file.text.contains("EXPECT()") => {
                    gomock(file)
                }
                _ => Vec::new(),
            };
            for (line, description, key) in found {
                out.hit(
                    Hit::new(Location::at(&file.rel_path, line), description, key).suggest(
                        "check the arguments the mock receives, not only that it was called",
                    ),
                );
            }
        }
    }
}

type Found = Vec<(u32, String, String)>;

/// Whether a Rust file can hold test code at all (cheap: its path, or a test attribute).
fn has_tests(file: &SourceFile) -> bool {
    file.is_test_file() || file.text.contains("#[cfg(test)]") || file.text.contains("test]")
}

/// The identifier that ends `text` (`self.repo.save` → `save`).
fn ident_before(text: &str) -> &str {
    let start = text
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    &text[start..]
}

/// `arity` remembers, per mocked method, whether it takes arguments.
fn mockall(
    file: &SourceFile,
    files: &RepositoryFiles<'_>,
    arity: &mut BTreeMap<String, Option<bool>>,
) -> Found {
    let lines = file.lexed(Language::Rust);
    // Built only for a candidate: most `.expect_` in non-test code are parser methods.
    let mut tests: Option<TestCode> = None;
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        for (at, _) in code.match_indices(".expect_") {
            let rest = &code[at + ".expect_".len()..];
            let method: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if method.is_empty() || !rest[method.len()..].starts_with("()") {
                continue;
            }
            let chain = statement_from(&lines, i, at);
            if chain.contains(".with(") || chain.contains(".withf(") || chain.contains(".withf_st(")
            {
                continue;
            }
            let in_test = tests
                .get_or_insert_with(|| TestCode::of(file))
                .contains(line.number);
            if !in_test
                || *arity
                    .entry(method.clone())
                    .or_insert_with(|| takes_arguments(files, &method))
                    != Some(true)
            {
                continue;
            }
            out.push((
                line.number,
                format!("mock expectation `expect_{method}()` never checks its arguments (no `.with(..)` or `.withf(..)`): the test passes whatever `{method}` is called with"),
                format!("expect_{method} without with"),
            ));
        }
    }
    out
}

/// The code from byte `at` of line `i` to the end of its statement (`;`), at most 15 lines.
fn statement_from(lines: &[LexLine<'_>], i: usize, at: usize) -> String {
    let mut text = String::new();
    for (k, line) in lines.iter().enumerate().skip(i).take(15) {
        let code = line.code();
        let part = if k == i { &code[at..] } else { code.as_str() };
        match part.find(';') {
            Some(end) => {
                text.push_str(&part[..end]);
                break;
            }
            None => text.push_str(part),
        }
    }
    text
}

/// Whether the real (non-test) method `name` takes arguments besides its receiver, by the first
/// `fn name(` found in the repository's Rust files; `None` when it is not found.
fn takes_arguments(files: &RepositoryFiles<'_>, name: &str) -> Option<bool> {
    let needle = format!("fn {name}(");
    for path in files.paths().iter().filter(|p| p.ends_with(".rs")) {
        let Some(text) = files.text(path) else {
            continue;
        };
        let Some(at) = text.find(&needle) else {
            continue;
        };
        let params = text[at + needle.len()..]
            .split(')')
            .next()
            .unwrap_or_default();
        let others = params
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty() && !p.ends_with("self"))
            .count();
        return Some(others > 0);
    }
    None
}

fn python(file: &SourceFile) -> Found {
    let lines = file.lexed(Language::Python);
    let sets_called_flag = lines.iter().any(|l| assigns_called(&l.code()));
    let mut out = Vec::new();
    for line in lines.iter() {
        let code = line.code();
        let t = code.trim();
        let (mock, call) = if let Some(at) = ["assert_called()", "assert_called_once()"]
            .iter()
            .find_map(|c| t.find(&format!(".{c}")).map(|at| (at, *c)))
        {
            (ident_before(&t[..at.0]).to_string(), at.1.to_string())
        } else if let Some(rest) = t
            .strip_prefix("assert ")
            .and_then(|r| r.strip_suffix(".called"))
            .filter(|_| !sets_called_flag)
        {
            (rest.trim().to_string(), "called".to_string())
        } else {
            continue;
        };
        let checks_args = [
            ".assert_called_with(",
            ".assert_called_once_with(",
            ".assert_any_call(",
            ".assert_has_calls(",
            ".call_args",
        ]
        .iter()
        .any(|c| file.text.contains(&format!("{mock}{c}")));
        if mock.is_empty() || checks_args {
            continue;
        }
        out.push((
            line.number,
            format!("`{mock}.{call}` checks that the mock was called, never with what: the test passes whatever arguments the code passes"),
            format!("{mock}.{call}"),
        ));
    }
    out
}

/// Whether a line of Python code sets a `called` flag (`self.called = True`, `called = False`
/// in a class body): a hand-written fake records its call there.
fn assigns_called(code: &str) -> bool {
    code.match_indices("called").any(|(at, m)| {
        let before = code[..at].chars().next_back();
        let after = code[at + m.len()..].trim_start();
        before.is_none_or(|c| c == '.' || c.is_whitespace())
            && after.starts_with('=')
            && !after.starts_with("==")
    })
}

/// Whether the file creates `name` as a bare spy of its own (`const name = jest.fn()`,
/// `vi.fn()`, `jasmine.createSpy(..)`, `sinon.spy()`): a callback the test hands to the code,
/// not a dependency's method replaced.
fn bare_spy(text: &str, name: &str) -> bool {
    !name.contains('.')
        && ["const", "let", "var"].iter().any(|decl| {
            let head = format!("{decl} {name} = ");
            text.match_indices(&head).any(|(at, _)| {
                let rest = &text[at + head.len()..];
                [
                    "jest.fn()",
                    "vi.fn()",
                    "jasmine.createSpy(",
                    "sinon.spy()",
                    "sinon.fake()",
                ]
                .iter()
                .any(|s| rest.starts_with(s))
            })
        })
}

fn jest(file: &SourceFile) -> Found {
    let mut out = Vec::new();
    for line in file
        .lexed(file.language.unwrap_or(Language::JavaScript))
        .iter()
    {
        let code = line.code();
        for matcher in [
            ".toHaveBeenCalled()",
            ".toBeCalled()",
            ".toHaveBeenCalledTimes(",
        ] {
            let Some(at) = code.find(matcher) else {
                continue;
            };
            let Some(open) = code[..at].rfind("expect(") else {
                continue;
            };
            let between = &code[open + "expect(".len()..at];
            // `expect(m).not.toHaveBeenCalled()` asserts the call never happened: nothing to
            // check the arguments of.
            if between.ends_with(".not") {
                continue;
            }
            let mock = between.trim_end_matches(')').trim().to_string();
            let checks_args = [
                ".toHaveBeenCalledWith(",
                ".toBeCalledWith(",
                ".toHaveBeenLastCalledWith(",
                ".toHaveBeenNthCalledWith(",
            ]
            .iter()
            .any(|c| file.text.contains(&format!("expect({mock}){c}")))
                || file.text.contains(&format!("{mock}.mock.calls"))
                // jasmine: `spy.calls.first().args`, `spy.calls.argsFor(0)`.
                || file.text.contains(&format!("{mock}.calls."));
            if mock.is_empty() || checks_args || bare_spy(&file.text, &mock) {
                continue;
            }
            let shown = matcher.trim_end_matches('(');
            out.push((
                line.number,
                format!("`expect({mock}){shown}` checks that the mock was called, never with what: the test passes whatever arguments the code passes"),
                format!("{mock}{shown}"),
            ));
        }
    }
    out
}

fn gomock(file: &SourceFile) -> Found {
    let mut out = Vec::new();
    for line in file.lexed(Language::Go).iter() {
        let code = line.code();
        let Some(at) = code.find(".EXPECT().") else {
            continue;
        };
        let rest = &code[at + ".EXPECT().".len()..];
        let Some((method, args)) = rest.split_once('(') else {
            continue;
        };
        let mut depth = 1;
        let end = args
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(args.len(), |(i, _)| i);
        let args = &args[..end];
        let all_any =
            !args.trim().is_empty() && args.split(',').all(|a| a.trim() == "gomock.Any()");
        if all_any {
            out.push((
                line.number,
                format!("`EXPECT().{method}(..)` accepts any arguments (every one `gomock.Any()`): the test passes whatever `{method}` is called with"),
                format!("EXPECT().{method} any"),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const TRAIT: &str = "#[cfg_attr(test, mockall::automock)]\npub trait Repo {\n    fn save(&self, user: &User) -> Result<(), Error>;\n    fn count(&self) -> usize;\n}\n";

    #[test]
    fn fires_on_argument_blind_expectations() {
        let dir = repo(&[
            ("src/repo.rs", TRAIT),
            ("tests/signup.rs", "#[test]\nfn signs_up() {\n    let mut repo = MockRepo::new();\n    repo.expect_save()\n        .times(1)\n        .returning(|_| Ok(()));\n    repo.expect_count().return_const(0usize);\n    signup(&repo, \"ann\");\n}\n"),
            ("tests/test_signup.py", "def test_signup(mocker):\n    repo = mocker.Mock()\n    signup(repo, 'ann')\n    repo.save.assert_called_once()\n    assert repo.count.called\n"),
            ("web/signup.test.ts", "it('saves', () => {\n  signup(repo, 'ann');\n  expect(repo.save).toHaveBeenCalledTimes(1);\n});\n"),
            ("signup/signup_test.go", "func TestSignup(t *testing.T) {\n\trepo.EXPECT().Save(gomock.Any(), gomock.Any()).Return(nil)\n}\n"),
        ]);
        let sink = project(&FalsePositiveRisk, &context(&dir));
        let locations: Vec<String> = described(&sink).into_iter().map(|(l, _)| l).collect();
        assert_eq!(
            locations,
            vec![
                "signup/signup_test.go:2",
                "tests/signup.rs:4",
                "tests/test_signup.py:4",
                "tests/test_signup.py:5",
                "web/signup.test.ts:3"
            ]
        );
        assert_eq!(
            sink.hits[1].description,
            "mock expectation `expect_save()` never checks its arguments (no `.with(..)` or `.withf(..)`): the test passes whatever `save` is called with"
        );
        assert_eq!(
            sink.hits[2].description,
            "`repo.save.assert_called_once()` checks that the mock was called, never with what: the test passes whatever arguments the code passes"
        );
    }

    #[test]
    fn quiet_when_arguments_are_checked() {
        let dir = repo(&[
            ("src/repo.rs", TRAIT),
            ("tests/signup.rs", "#[test]\nfn signs_up() {\n    let mut repo = MockRepo::new();\n    repo.expect_save()\n        .withf(|u| u.name == \"ann\")\n        .returning(|_| Ok(()));\n    repo.expect_load().returning(|| None);\n}\n"),
            ("tests/test_signup.py", "def test_signup(mocker):\n    repo.save.assert_called_once()\n    repo.save.assert_called_with('ann')\n"),
            ("web/signup.test.ts", "it('saves', () => {\n  expect(repo.save).toHaveBeenCalled();\n  expect(repo.save).toHaveBeenCalledWith('ann');\n});\n"),
            ("web/settle.spec.js", "it('rejects', () => {\n  expect(resolve).not.toHaveBeenCalled();\n  expect(reject).toHaveBeenCalled();\n  const reason = reject.calls.first().args[0];\n  expect(reason.message).toBe('failed');\n});\n"),
            ("signup/signup_test.go", "func TestSignup(t *testing.T) {\n\trepo.EXPECT().Save(gomock.Any(), \"ann\").Return(nil)\n\trepo.EXPECT().Close()\n}\n"),
            // A hand-written fake's own flag, and a fake class's flag attribute.
            ("tests/test_db.py", "def test_init(monkeypatch):\n    class Recorder:\n        called = False\n    def fake_init_db():\n        Recorder.called = True\n    run()\n    assert Recorder.called\n"),
            // A bare spy handed to the code as a callback: being called is the behaviour.
            ("web/progress.spec.js", "it('runs the handler', (done) => {\n  const progressSpy = jasmine.createSpy('progress');\n  const onEnd = jest.fn();\n  axios('/foo', { onDownloadProgress: progressSpy, onEnd });\n  expect(progressSpy).toHaveBeenCalled();\n  expect(onEnd).toHaveBeenCalledTimes(1);\n});\n"),
            ("src/lib.rs", "pub fn f(o: Option<u8>) -> u8 { o.expect_none() }\n"),
        ]);
        let sink = project(&FalsePositiveRisk, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }
}
