//! jest's and vitest's output: the `Tests:` summary, and the failing tests' headers (jest's
//! `● Suite › name`, vitest's `FAIL  file > suite > name`) with the first message line after them.

use super::test_run::{add_counts, Count, TestRun};

/// Parses jest or vitest output.
pub(super) fn parse_jest(output: &str) -> TestRun {
    let mut run = TestRun::default();
    let mut awaiting: Option<String> = None;
    for line in output.lines() {
        let trimmed = line.trim();
        if let Some(name) = &awaiting {
            if !trimmed.is_empty() {
                let message = trimmed.trim_start_matches(['→', ' ']).to_string();
                run.fail(&name.clone(), Some(message));
                awaiting = None;
                continue;
            }
        }
        if let Some(name) = trimmed.strip_prefix("● ") {
            run.fail(name.trim(), None);
            awaiting = Some(name.trim().to_string());
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("FAIL ") {
            if let Some((_, name)) = rest.split_once(" > ") {
                run.fail(name.trim(), None);
                awaiting = Some(name.trim().to_string());
            }
            continue;
        }
        if let Some(counts) = trimmed.strip_prefix("Tests:") {
            run.summarised |= add_counts(&mut run, counts.split(','), count);
        } else if let Some(counts) = trimmed.strip_prefix("Tests ") {
            run.summarised |= add_counts(&mut run, counts.split('|'), count);
        }
    }
    if !run.summarised {
        run.failed = run.failures.len() as u32;
    }
    run
}

fn count(word: &str) -> Option<Count> {
    match word {
        "passed" => Some(Count::Passed),
        "failed" => Some(Count::Failed),
        "skipped" | "todo" | "pending" => Some(Count::Skipped),
        "total" => Some(Count::Ignored),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test::test_run::Failure;

    #[test]
    fn parses_jest_output() {
        let out = "\
FAIL src/sum.test.js
  math
    ✓ subtracts (2 ms)
    ✕ adds numbers (5 ms)

  ● math › adds numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: 4
    Received: 3

PASS src/other.test.js

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 1 skipped, 3 passed, 5 total
Snapshots:   0 total
Time:        0.512 s
";
        let run = parse_jest(out);
        assert_eq!((run.passed, run.failed, run.skipped), (3, 1, 1));
        assert_eq!(
            run.failures,
            vec![Failure {
                name: "math › adds numbers".into(),
                message: Some("expect(received).toBe(expected) // Object.is equality".into()),
            }]
        );
    }

    #[test]
    fn parses_vitest_output() {
        let out = "\
 ❯ src/sum.test.ts (2 tests | 1 failed) 5ms
   × math > adds numbers 3ms
     → expected 3 to be 4

 FAIL  src/sum.test.ts > math > adds numbers
AssertionError: expected 3 to be 4

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
";
        let run = parse_jest(out);
        assert_eq!((run.passed, run.failed), (1, 1));
        assert_eq!(
            run.failures,
            vec![Failure {
                name: "math > adds numbers".into(),
                message: Some("AssertionError: expected 3 to be 4".into()),
            }]
        );
    }
}
