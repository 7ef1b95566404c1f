//! pytest's output: the short test summary (`FAILED path::test - message`, `ERROR ...`), verbose
//! per-test lines (`path::test PASSED [ 50%]`) and the final `== 1 failed, 2 passed in 0.1s ==`.

use super::test_run::{add_counts, Count, TestRun};

/// Parses pytest output.
pub(super) fn parse_pytest(output: &str) -> TestRun {
    let mut run = TestRun::default();
    let mut lines_run = TestRun::default();
    for line in output.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed
            .strip_prefix("FAILED ")
            .or_else(|| trimmed.strip_prefix("ERROR "))
        {
            let (name, message) = match rest.split_once(" - ") {
                Some((name, message)) => (name.trim(), Some(message.trim().to_string())),
                None => (rest.trim(), None),
            };
            run.fail(name, message);
            continue;
        }
        if summary(trimmed, &mut run) {
            continue;
        }
        verbose(trimmed, &mut lines_run);
    }
    for f in lines_run.failures.drain(..) {
        run.fail(&f.name, f.message);
    }
    if !run.summarised {
        run.passed = lines_run.passed;
        run.failed = lines_run.failed.max(run.failures.len() as u32);
        run.skipped = lines_run.skipped;
    }
    run
}

/// `===== 1 failed, 2 passed, 1 skipped in 0.12s =====`, `no tests ran in 0.01s`.
fn summary(trimmed: &str, run: &mut TestRun) -> bool {
    let inner = trimmed.trim_matches(|c: char| c == '=' || c.is_whitespace());
    let Some((counts, time)) = inner.rsplit_once(" in ") else {
        return false;
    };
    if !time.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    if counts == "no tests ran" {
        run.summarised = true;
        return true;
    }
    let mut probe = TestRun::default();
    let parts = || counts.split(',');
    // Every part must be a count, or this is prose that happens to contain " in ".
    if parts().any(|p| {
        let mut w = p.split_whitespace();
        !(w.next().is_some_and(|n| n.parse::<u32>().is_ok()) && w.next().and_then(count).is_some())
    }) {
        return false;
    }
    add_counts(&mut probe, parts(), count);
    run.passed += probe.passed;
    run.failed += probe.failed;
    run.skipped += probe.skipped;
    run.summarised = true;
    true
}

fn count(word: &str) -> Option<Count> {
    match word {
        "passed" | "xpassed" => Some(Count::Passed),
        "failed" | "error" | "errors" => Some(Count::Failed),
        "skipped" | "xfailed" => Some(Count::Skipped),
        "deselected" | "warning" | "warnings" | "rerun" => Some(Count::Ignored),
        _ => None,
    }
}

/// `tests/test_a.py::test_b PASSED [ 50%]`.
fn verbose(trimmed: &str, run: &mut TestRun) {
    let mut words = trimmed.split_whitespace();
    let (Some(name), Some(status)) = (words.next(), words.next()) else {
        return;
    };
    if !name.contains("::") {
        return;
    }
    match status {
        "PASSED" | "XPASS" => run.passed += 1,
        "FAILED" | "ERROR" => {
            run.failed += 1;
            run.fail(name, None);
        }
        "SKIPPED" | "XFAIL" => run.skipped += 1,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test::test_run::Failure;

    const PYTEST: &str = "\
============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0
rootdir: /repo
collected 4 items

tests/test_users.py .F.s                                                 [100%]

=================================== FAILURES ===================================
_______________________________ test_duplicates ________________________________

    def test_duplicates():
>       assert create('a') == create('a')
E       AssertionError: assert <User a> == <User a>

tests/test_users.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_users.py::test_duplicates - AssertionError: assert <User a> == <User a>
==================== 1 failed, 2 passed, 1 skipped in 0.12s ====================
";

    #[test]
    fn parses_the_short_summary_and_the_counts() {
        let run = parse_pytest(PYTEST);
        assert_eq!((run.passed, run.failed, run.skipped), (2, 1, 1));
        assert_eq!(
            run.failures,
            vec![Failure {
                name: "tests/test_users.py::test_duplicates".into(),
                message: Some("AssertionError: assert <User a> == <User a>".into()),
            }]
        );
    }

    #[test]
    fn parses_verbose_lines_errors_and_empty_runs() {
        let verbose = "tests/test_a.py::test_one PASSED [ 50%]\ntests/test_a.py::test_two FAILED [100%]\nERROR tests/test_b.py - ModuleNotFoundError: No module named 'x'\n=== 1 failed, 1 passed, 1 error in 0.05s ===\n";
        let run = parse_pytest(verbose);
        assert_eq!((run.passed, run.failed), (1, 2));
        let names: Vec<&str> = run.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["tests/test_b.py", "tests/test_a.py::test_two"]);
        let empty = parse_pytest("=== no tests ran in 0.01s ===\n");
        assert!(empty.summarised && empty.failures.is_empty());
        assert!(!parse_pytest("Everything is fine in 3 places\n").recognised());
    }
}
