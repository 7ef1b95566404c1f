//! libtest's output (`cargo test`) and nextest's: per-test lines, `test result:` summaries and
//! the `---- name stdout ----` failure sections whose first panic message describes a failure.

use super::test_run::{add_counts, Count, TestRun};

/// Parses cargo test / cargo nextest output.
pub(super) fn parse_libtest(output: &str) -> TestRun {
    let mut run = TestRun::default();
    let mut lines_run = TestRun::default();
    // The failure section being read, and whether its panic message is on the next line.
    let mut section: Option<String> = None;
    let mut message_next = false;
    for line in output.lines() {
        let trimmed = line.trim();
        if let Some(rest) = line.strip_prefix("test result: ") {
            run.summarised = true;
            add_counts(&mut run, rest.split([';', '.']), count);
            section = None;
            continue;
        }
        if nextest_line(trimmed, &mut run, &mut lines_run) {
            section = None;
            continue;
        }
        if let Some(name) = section_header(line) {
            section = Some(name.to_string());
            message_next = false;
            continue;
        }
        if let Some(name) = section.clone() {
            if trimmed == "failures:" {
                section = None;
            } else if let Some(after) = panic_site(line) {
                // Old form: panicked at 'message', src/a.rs:3:5. New form: message on the next line.
                match after.strip_prefix('\'').and_then(|m| m.rsplit_once("', ")) {
                    Some((message, _)) => run.fail(&name, Some(message.to_string())),
                    None => message_next = true,
                }
            } else if message_next && !trimmed.is_empty() {
                run.fail(&name, Some(trimmed.to_string()));
                message_next = false;
            }
            continue;
        }
        if let Some((name, status)) = line
            .strip_prefix("test ")
            .and_then(|rest| rest.rsplit_once(" ... "))
        {
            match status.trim() {
                "ok" => lines_run.passed += 1,
                "FAILED" => {
                    lines_run.failed += 1;
                    lines_run.fail(name.trim(), None);
                }
                s if s.starts_with("ignored") => lines_run.skipped += 1,
                _ => {}
            }
        }
    }
    // Per-test lines name the failures in order; the sections add their messages.
    let mut failures = lines_run.failures.clone();
    for f in &run.failures {
        match failures.iter_mut().find(|g| g.name == f.name) {
            Some(g) => g.message.clone_from(&f.message),
            None => failures.push(f.clone()),
        }
    }
    run.failures = failures;
    if !run.summarised {
        run.passed = lines_run.passed;
        run.failed = lines_run.failed.max(run.failures.len() as u32);
        run.skipped = lines_run.skipped;
    }
    run
}

fn count(word: &str) -> Option<Count> {
    match word {
        "passed" => Some(Count::Passed),
        "failed" => Some(Count::Failed),
        "ignored" | "skipped" => Some(Count::Skipped),
        "measured" | "filtered" => Some(Count::Ignored),
        _ => None,
    }
}

/// `---- name stdout ----` (libtest) or `--- STDERR: binary name ---` (nextest) → `name`.
fn section_header(line: &str) -> Option<&str> {
    if let Some(inner) = line
        .strip_prefix("---- ")
        .and_then(|l| l.strip_suffix(" ----"))
    {
        return inner
            .strip_suffix(" stdout")
            .or_else(|| inner.strip_suffix(" stderr"));
    }
    let inner = line
        .strip_prefix("--- STDERR:")
        .or_else(|| line.strip_prefix("--- STDOUT:"))?
        .strip_suffix(" ---")?;
    inner.split_whitespace().last()
}

/// `thread 'name' (123) panicked at <rest>` → `<rest>`.
fn panic_site(line: &str) -> Option<&str> {
    if !line.starts_with("thread '") {
        return None;
    }
    line.split_once(" panicked at ").map(|(_, rest)| rest)
}

/// nextest's own lines: `FAIL [ 0.004s] crate tests::name`, `PASS [..]`, `SKIP [..]` and
/// `Summary [ 0.1s] 3 tests run: 2 passed, 1 failed, 0 skipped`; whether the line was one.
fn nextest_line(trimmed: &str, run: &mut TestRun, lines_run: &mut TestRun) -> bool {
    let Some((status, rest)) = trimmed.split_once(" [") else {
        return false;
    };
    let Some((_, after)) = rest.split_once(']') else {
        return false;
    };
    match status.trim() {
        "PASS" => lines_run.passed += 1,
        "SKIP" => lines_run.skipped += 1,
        "FAIL" | "SIGSEGV" | "SIGABRT" | "TIMEOUT" => {
            if let Some(name) = after.split_whitespace().last() {
                lines_run.failed += 1;
                lines_run.fail(name, None);
            }
        }
        "Summary" => match after.split_once("tests run:") {
            Some((_, counts)) => {
                run.summarised = true;
                add_counts(run, counts.split(','), count);
            }
            None => return false,
        },
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test::test_run::Failure;

    /// `cargo test` over a workspace with one failing assertion, one old-style panic, and a
    /// second test binary that passes.
    const CARGO: &str = "\
   Compiling users v0.1.0 (/repo)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s
     Running unittests src/lib.rs (target/debug/deps/users-1a2b3c)

running 4 tests
test users::tests::creates ... ok
test users::tests::rejects_duplicates ... FAILED
test store::tests::legacy ... FAILED
test users::tests::slow ... ignored, needs a database

failures:

---- users::tests::rejects_duplicates stdout ----

thread 'users::tests::rejects_duplicates' (31243) panicked at src/users.rs:40:9:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- store::tests::legacy stdout ----
thread 'store::tests::legacy' panicked at 'called `Option::unwrap()` on a `None` value', src/store.rs:12:5

failures:
    store::tests::legacy
    users::tests::rejects_duplicates

test result: FAILED. 1 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

     Running tests/api.rs (target/debug/deps/api-4d5e6f)

running 2 tests
test lists ... ok
test shows ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";

    #[test]
    fn parses_cargo_test_output() {
        let run = parse_libtest(CARGO);
        assert_eq!((run.passed, run.failed, run.skipped), (3, 2, 1));
        assert!(run.summarised);
        assert_eq!(
            run.failures,
            vec![
                Failure {
                    name: "users::tests::rejects_duplicates".into(),
                    message: Some("assertion `left == right` failed".into()),
                },
                Failure {
                    name: "store::tests::legacy".into(),
                    message: Some("called `Option::unwrap()` on a `None` value".into()),
                },
            ]
        );
    }

    #[test]
    fn parses_nextest_output() {
        let out = "\
    Starting 3 tests across 1 binary
        PASS [   0.003s] users users::tests::creates
        FAIL [   0.004s] users users::tests::rejects_duplicates
        SKIP [   0.000s] users users::tests::slow
--- STDERR:              users users::tests::rejects_duplicates ---
thread 'users::tests::rejects_duplicates' panicked at src/users.rs:40:9:
boom
     Summary [   0.010s] 2 tests run: 1 passed, 1 failed, 1 skipped
";
        let run = parse_libtest(out);
        assert_eq!((run.passed, run.failed, run.skipped), (1, 1, 1));
        assert_eq!(
            run.failures,
            vec![Failure {
                name: "users::tests::rejects_duplicates".into(),
                message: Some("boom".into()),
            }]
        );
    }

    #[test]
    fn without_a_summary_the_lines_count() {
        let run = parse_libtest("test a::b ... FAILED\ntest a::c ... ok\n");
        assert_eq!((run.passed, run.failed, run.summarised), (1, 1, false));
        let build_error =
            "error[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:2:5\n";
        assert!(!parse_libtest(build_error).recognised());
    }
}
