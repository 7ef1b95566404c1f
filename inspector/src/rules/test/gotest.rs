//! `go test`'s output: `--- FAIL: TestX (0.00s)` / `--- PASS:` / `--- SKIP:` lines, the
//! `file_test.go:12: message` lines a failing test logs, and `ok`/`FAIL` package lines.

use super::test_run::TestRun;
use std::collections::HashMap;

/// Parses go test output (plain or `-v`).
pub(super) fn parse_go_test(output: &str) -> TestRun {
    let mut run = TestRun::default();
    // `-v` prints what a test logs before its verdict: the first message of each running test.
    let mut running: Option<String> = None;
    let mut first_log: HashMap<String, String> = HashMap::new();
    // Plain mode prints the messages after the verdict: the failure still waiting for one.
    let mut awaiting: Option<String> = None;
    for line in output.lines() {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix("=== RUN") {
            running = Some(name.trim().to_string());
            awaiting = None;
            continue;
        }
        if let Some((status, name)) = verdict(trimmed) {
            match status {
                "PASS" => run.passed += 1,
                "SKIP" => run.skipped += 1,
                _ => {
                    let message = first_log.get(name).cloned();
                    awaiting = message.is_none().then(|| name.to_string());
                    run.fail(name, message);
                }
            }
            continue;
        }
        if let Some(message) = logged(line) {
            if let Some(name) = awaiting.take() {
                run.fail(&name, Some(message));
            } else if let Some(name) = &running {
                first_log.entry(name.clone()).or_insert(message);
            }
            continue;
        }
        if package_line(line) {
            run.summarised = true;
        }
        awaiting = None;
    }
    // A failing parent only reports its failing subtests: count and name the leaves.
    let leaves: Vec<_> = run
        .failures
        .iter()
        .filter(|f| {
            let prefix = format!("{}/", f.name);
            !run.failures.iter().any(|g| g.name.starts_with(&prefix))
        })
        .cloned()
        .collect();
    run.failures = leaves;
    run.failed = run.failures.len() as u32;
    run
}

/// `--- FAIL: TestX (0.00s)` → (`FAIL`, `TestX`).
fn verdict(trimmed: &str) -> Option<(&str, &str)> {
    let rest = trimmed.strip_prefix("--- ")?;
    let (status, rest) = rest.split_once(": ")?;
    if !matches!(status, "PASS" | "FAIL" | "SKIP") {
        return None;
    }
    Some((status, rest.split_whitespace().next()?))
}

/// An indented `add_test.go:9: got 3, want 4` → `add_test.go:9: got 3, want 4`.
fn logged(line: &str) -> Option<String> {
    if !line.starts_with([' ', '\t']) {
        return None;
    }
    let trimmed = line.trim();
    let (file, rest) = trimmed.split_once(".go:")?;
    let line_no: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let valid = !file.is_empty() && !file.contains(' ') && !line_no.is_empty();
    (valid && rest[line_no.len()..].starts_with(": ")).then(|| trimmed.to_string())
}

/// `ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `?   \tpkg\t[no test files]`; not `[build failed]`.
fn package_line(line: &str) -> bool {
    let mut fields = line.split('\t');
    let head = fields.next().unwrap_or_default().trim();
    matches!(head, "ok" | "FAIL" | "?")
        && fields.next().is_some()
        && !line.contains("[build failed]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test::test_run::Failure;

    #[test]
    fn parses_plain_output() {
        let out = "--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 3, want 4\nFAIL\nFAIL\texample.com/calc\t0.002s\nok  \texample.com/util\t(cached)\n?   \texample.com/cmd\t[no test files]\nFAIL\n";
        let run = parse_go_test(out);
        assert!(run.summarised);
        assert_eq!(
            run.failures,
            vec![Failure {
                name: "TestAdd".into(),
                message: Some("add_test.go:9: got 3, want 4".into()),
            }]
        );
        assert_eq!(run.failed, 1);
    }

    #[test]
    fn parses_verbose_output_with_subtests() {
        let out = "\
=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestDiv
=== RUN   TestDiv/by_zero
    div_test.go:14: expected an error
--- FAIL: TestDiv (0.00s)
    --- FAIL: TestDiv/by_zero (0.00s)
=== RUN   TestSlow
    slow_test.go:5: skipping in short mode
--- SKIP: TestSlow (0.00s)
FAIL
FAIL\texample.com/calc\t0.003s
";
        let run = parse_go_test(out);
        assert_eq!((run.passed, run.failed, run.skipped), (1, 1, 1));
        assert_eq!(
            run.failures,
            vec![Failure {
                name: "TestDiv/by_zero".into(),
                message: Some("div_test.go:14: expected an error".into()),
            }]
        );
    }

    #[test]
    fn a_build_failure_is_not_a_summary() {
        let out = "# example.com/calc\n./add.go:3:1: syntax error: unexpected }\nFAIL\texample.com/calc [build failed]\nFAIL\n";
        assert!(!parse_go_test(out).recognised());
    }
}
