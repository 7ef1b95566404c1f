//! The test gate between a group's fix and its commit: the repository's test command (as
//! `retake run` finds it: `[test] command`, steering/tech.md, detection), run in its own
//! process group with a time limit, and a one-line reason when it fails that names the failing
//! tests when the output says which.

use protocol::exec::sandbox::run;
use protocol::exec::{Extra, RunError};
use std::path::Path;
use std::time::Duration;
use team::fix::FixEvent;

/// Runs the tests: `TestsPassed`, or `TestsFailed` with the reason.
pub fn run_tests(command: &[String], repo: &Path, timeout: Duration) -> FixEvent {
    match run(command, repo, timeout, &Extra::default()) {
        Ok(ran) if ran.ok() => FixEvent::TestsPassed,
        Err(RunError::TimedOut) => FixEvent::TestsFailed(match timeout.as_secs() {
            0 => format!("the tests timed out after {} ms", timeout.as_millis()),
            secs => format!("the tests timed out after {secs} s"),
        }),
        Ok(ran) => {
            let failing = failing_tests(&format!("{}\n{}", ran.stdout, ran.stderr));
            let what = match failing.as_slice() {
                [] => ran.last_line(),
                names if names.len() > 3 => {
                    format!("{} and {} more", names[..3].join(", "), names.len() - 3)
                }
                names => names.join(", "),
            };
            let how = ran
                .code
                .map_or_else(|| "a signal".to_string(), |c| format!("exit {c}"));
            FixEvent::TestsFailed(format!("the tests failed ({how}): {what}"))
        }
        Err(RunError::Spawn(e)) => {
            FixEvent::TestsFailed(format!("the test command could not run: {e}"))
        }
    }
}

/// The failing tests a run names (libtest's `test NAME ... FAILED`, pytest's `FAILED NAME -
/// why`, …), in order, once each: the test Inspector's parsers ([`inspector::rules::summarise`]).
fn failing_tests(output: &str) -> Vec<String> {
    inspector::rules::summarise(output).failing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failing_tests_are_named_from_libtest_and_pytest_output() {
        let libtest = "running 2 tests\ntest arithmetic ... ok\ntest b_keeps_its_import ... FAILED\n\
                       \nfailures:\n    b_keeps_its_import\ntest result: FAILED. 1 passed; 1 failed\n";
        assert_eq!(failing_tests(libtest), vec!["b_keeps_its_import"]);
        let pytest =
            "FAILED tests/test_a.py::test_x - AssertionError: 1 != 2\nFAILED tests/test_a.py::test_y\n";
        assert_eq!(
            failing_tests(pytest),
            vec!["tests/test_a.py::test_x", "tests/test_a.py::test_y"]
        );
        assert!(failing_tests("error: could not compile\n").is_empty());
    }

    #[test]
    fn the_gate_passes_fails_with_names_and_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let sh = |script: &str| vec!["sh".to_string(), "-c".into(), script.into()];
        let long = Duration::from_secs(30);
        assert_eq!(
            run_tests(&sh("exit 0"), dir.path(), long),
            FixEvent::TestsPassed
        );
        let many = "for t in a b c d e; do echo \"test $t ... FAILED\"; done; exit 101";
        assert_eq!(
            run_tests(&sh(many), dir.path(), long),
            FixEvent::TestsFailed("the tests failed (exit 101): a, b, c and 2 more".into())
        );
        assert_eq!(
            run_tests(&sh("echo boom >&2; exit 2"), dir.path(), long),
            FixEvent::TestsFailed("the tests failed (exit 2): boom".into())
        );
        assert_eq!(
            run_tests(&sh("sleep 5"), dir.path(), Duration::from_millis(200)),
            FixEvent::TestsFailed("the tests timed out after 200 ms".into())
        );
    }
}
