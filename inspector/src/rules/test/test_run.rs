//! What a test run's output says — counts and failing tests — and which parser reads it.

use super::{gotest, jest, libtest, pytest};

/// One failing test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Failure {
    /// The test's name as the runner prints it (`users::tests::creates`, `tests/test_a.py::test_b`).
    pub(super) name: String,
    /// The first line of its failure message, when the output has one.
    pub(super) message: Option<String>,
}

/// A parsed test run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TestRun {
    /// Tests that passed.
    pub(super) passed: u32,
    /// Tests that failed.
    pub(super) failed: u32,
    /// Tests skipped or ignored.
    pub(super) skipped: u32,
    /// The failing tests, in output order, each once.
    pub(super) failures: Vec<Failure>,
    /// A summary line (`test result:`, pytest's `== 1 failed ==`, `ok pkg`) was seen.
    pub(super) summarised: bool,
}

impl TestRun {
    /// Whether the parser recognised anything at all.
    pub(super) fn recognised(&self) -> bool {
        self.summarised || !self.failures.is_empty() || self.passed + self.failed + self.skipped > 0
    }

    /// Records a failure, once per name; a later message fills a missing one.
    pub(super) fn fail(&mut self, name: &str, message: Option<String>) {
        match self.failures.iter_mut().find(|f| f.name == name) {
            Some(existing) => {
                if existing.message.is_none() {
                    existing.message = message;
                }
            }
            None => self.failures.push(Failure {
                name: name.to_string(),
                message,
            }),
        }
    }
}

/// The output formats the test Inspector reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    /// cargo test, cargo nextest.
    Libtest,
    /// pytest.
    Pytest,
    /// go test.
    GoTest,
    /// jest, vitest.
    Jest,
}

impl Format {
    /// The format a command most likely prints.
    pub(super) fn of(argv: &[String]) -> Option<Format> {
        let name = |w: &String| w.rsplit('/').next().unwrap_or_default().to_string();
        let words: Vec<String> = argv.iter().map(name).collect();
        let has = |w: &str| words.iter().any(|x| x == w);
        match words.first().map(String::as_str) {
            Some("cargo") => Some(Format::Libtest),
            Some("go") => Some(Format::GoTest),
            _ if has("pytest") => Some(Format::Pytest),
            Some("npm" | "npx" | "yarn" | "pnpm" | "bun" | "jest" | "vitest") => Some(Format::Jest),
            _ => None,
        }
    }

    fn parse(self, output: &str) -> TestRun {
        match self {
            Format::Libtest => libtest::parse_libtest(output),
            Format::Pytest => pytest::parse_pytest(output),
            Format::GoTest => gotest::parse_go_test(output),
            Format::Jest => jest::parse_jest(output),
        }
    }
}

/// Parses `output` with the command's format first, then with each other until one recognises
/// it (a `make test` or a script can run any of them).
pub(super) fn parse_output(hint: Option<Format>, output: &str) -> (TestRun, Option<Format>) {
    let all = [
        Format::Libtest,
        Format::Pytest,
        Format::GoTest,
        Format::Jest,
    ];
    for format in hint
        .into_iter()
        .chain(all.into_iter().filter(|f| Some(*f) != hint))
    {
        let run = format.parse(output);
        if run.recognised() {
            return (run, Some(format));
        }
    }
    (TestRun::default(), hint)
}

/// What a test command's output says, for the Lead's own test runs (the fix pipeline's test
/// gate, a run's integration verification): the same parsers the test Inspector reads a run
/// with, whichever of libtest, nextest, pytest, `go test` or jest printed it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestSummary {
    /// Tests that passed.
    pub passed: u32,
    /// Tests that failed.
    pub failed: u32,
    /// The failing tests' names, in output order, each once.
    pub failing: Vec<String>,
    /// Whether a summary line (`test result:`, pytest's `== 1 failed ==`, `ok pkg`) was seen.
    pub summarised: bool,
}

/// Reads a test command's output ([`TestSummary`]).
pub fn summarise(output: &str) -> TestSummary {
    let (run, _) = parse_output(None, output);
    TestSummary {
        passed: run.passed,
        failed: run.failed,
        failing: run.failures.into_iter().map(|f| f.name).collect(),
        summarised: run.summarised,
    }
}

/// Adds the `N word` counts of a summary's parts (`3 passed`, `1 failed`) to a run; words are
/// mapped by `kind`. Returns whether any part was a count.
pub(super) fn add_counts<'a>(
    run: &mut TestRun,
    parts: impl Iterator<Item = &'a str>,
    kind: fn(&str) -> Option<Count>,
) -> bool {
    let mut any = false;
    for part in parts {
        let mut words = part.split_whitespace();
        let (Some(n), Some(word)) = (words.next(), words.next()) else {
            continue;
        };
        let (Ok(n), Some(count)) = (n.parse::<u32>(), kind(word)) else {
            continue;
        };
        any = true;
        match count {
            Count::Passed => run.passed += n,
            Count::Failed => run.failed += n,
            Count::Skipped => run.skipped += n,
            Count::Ignored => {}
        }
    }
    any
}

/// What a summary count counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Count {
    Passed,
    Failed,
    Skipped,
    /// Counted by the runner but not a test outcome (`measured`, `total`, `warnings`).
    Ignored,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn formats_follow_the_command_and_fall_back_on_the_output() {
        assert_eq!(
            Format::of(&argv("cargo nextest run")),
            Some(Format::Libtest)
        );
        assert_eq!(
            Format::of(&argv("python -m pytest -q")),
            Some(Format::Pytest)
        );
        assert_eq!(
            Format::of(&argv("/usr/bin/go test ./...")),
            Some(Format::GoTest)
        );
        assert_eq!(Format::of(&argv("npm test")), Some(Format::Jest));
        assert_eq!(Format::of(&argv("make test")), None);
        let (run, format) = parse_output(None, "--- FAIL: TestAdd (0.00s)\nFAIL\tpkg\t0.01s\n");
        assert_eq!(format, Some(Format::GoTest));
        assert_eq!(run.failed, 1);
        let (run, format) = parse_output(Some(Format::Libtest), "nothing to see\n");
        assert!(!run.recognised());
        assert_eq!(format, Some(Format::Libtest));
    }
}
