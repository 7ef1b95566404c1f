use super::*;
use crate::criteria::IssueType;
use crate::recheck::{Checked, Recheck, Status};
use crate::testing::task;
use protocol::{Location, Severity};

struct Case {
    outcome: ExecOutcome,
    retries_left: bool,
    before: Snapshot,
    now: Snapshot,
    expectations: Expectations,
    checks: Vec<CheckRun>,
    recheck: Option<Recheck>,
}

impl Case {
    fn new(output: &str, before: &[(&str, &str)], now: &[(&str, &str)]) -> Case {
        Case {
            outcome: ExecOutcome::success(output),
            retries_left: true,
            before: Snapshot::from_texts(before.iter().copied()),
            now: Snapshot::from_texts(now.iter().copied()),
            expectations: Expectations {
                requires_change: true,
                ..Expectations::default()
            },
            checks: Vec::new(),
            recheck: None,
        }
    }

    fn judge(&self) -> Judgement {
        let change = self.now.changes_since(&self.before);
        judge(&JudgeInput {
            outcome: &self.outcome,
            retries_left: self.retries_left,
            change: &change,
            now: &self.now,
            expectations: &self.expectations,
            checks: &self.checks,
            template: None,
            recheck: self.recheck.as_ref(),
            config: &LoopConfig::default(),
        })
    }
}

const GOOD: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
const TODO: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    // TODO: add\n    0\n}\n";

#[test]
fn complete_work_passes_with_every_mandatory_criterion() {
    let j = Case::new(
        "Implemented add in src/lib.rs.",
        &[],
        &[("src/lib.rs", GOOD)],
    )
    .judge();
    assert_eq!(j.judgment, Judgment::Pass);
    let ids: Vec<&str> = j
        .criteria_results
        .iter()
        .map(|r| r.criteria_id.as_str())
        .collect();
    assert_eq!(ids, ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"]);
    assert_eq!(j.summary, "all 6 criteria met");
}

#[test]
fn a_todo_and_a_done_claim_are_rejected_with_their_places() {
    let j = Case::new("Done.", &[], &[("src/lib.rs", TODO)]).judge();
    assert_eq!(j.judgment, Judgment::Reject);
    assert_eq!(j.criteria_failed(), ["Q2", "Q6"]);
    let places: Vec<(IssueType, Option<&str>)> = j
        .issues
        .iter()
        .map(|i| (i.kind, i.location.as_deref()))
        .collect();
    assert_eq!(
        places,
        [
            (IssueType::Incomplete, Some("src/lib.rs:2")),
            (IssueType::EarlyTermination, Some("output:1"))
        ]
    );
    assert_eq!(j.issues[0].description, "TODO marker left: `// TODO: add`");
}

#[test]
fn a_todo_that_was_already_there_is_not_the_executors() {
    let before = [("src/lib.rs", TODO)];
    let now = [(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    // TODO: add\n    1\n}\n",
    )];
    assert_eq!(
        Case::new("Returned 1.", &before, &now).judge().judgment,
        Judgment::Pass
    );
}

#[test]
fn empty_output_is_rejected() {
    let j = Case::new("  \n", &[], &[("src/lib.rs", GOOD)]).judge();
    assert_eq!(j.judgment, Judgment::Reject);
    assert_eq!(j.criteria_failed(), ["Q5"]);
    assert_eq!(
        j.issues[0].description,
        "the executor wrote nothing to standard output"
    );
}

#[test]
fn unparseable_output_is_rejected() {
    let mut case = Case::new("", &[], &[("src/lib.rs", GOOD)]);
    case.outcome = ExecOutcome::success(vec![0xff, 0xfe, b'o', b'k']);
    let j = case.judge();
    assert_eq!(
        (j.judgment, j.criteria_failed()),
        (Judgment::Reject, vec!["Q5".to_string()])
    );
    assert_eq!(Output::decode(b"a\0b"), Output::Unparseable);
}

#[test]
fn a_done_claim_without_a_change_is_rejected() {
    let j = Case::new(
        "That's all, it already works.",
        &[("a", "x")],
        &[("a", "x")],
    )
    .judge();
    assert_eq!(j.criteria_failed(), ["Q5", "Q6"]);
    assert_eq!(j.issues[0].description, "no file in the repository changed");
}

#[test]
fn timeouts_and_executor_errors_retry_while_retries_are_left_then_reject() {
    let mut case = Case::new("", &[], &[("src/lib.rs", GOOD)]);
    case.outcome = ExecOutcome::TimedOut { secs: 30 };
    let j = case.judge();
    assert_eq!((j.judgment, j.criteria_results.len()), (Judgment::Retry, 0));
    case.retries_left = false;
    let j = case.judge();
    assert_eq!(j.judgment, Judgment::Reject);
    assert_eq!(j.criteria_failed(), ["Q5"]);
    assert_eq!(
        j.issues[0].description,
        "the executor did not finish: executor timed out after 30 s"
    );
    case.outcome = ExecOutcome::Finished {
        code: Some(2),
        stdout: b"Implemented add.".to_vec(),
        stderr: "api error".into(),
    };
    assert_eq!(case.judge().judgment, Judgment::Reject);
    case.retries_left = true;
    assert_eq!(case.judge().judgment, Judgment::Retry);
}

#[test]
fn missing_and_unchanged_expected_files_fail_q1() {
    let mut case = Case::new(
        "Edited.",
        &[("src/a.rs", GOOD)],
        &[("src/a.rs", GOOD), ("b", "n")],
    );
    case.expectations.expected_files = vec!["src/a.rs".into(), "src/new.rs".into()];
    case.expectations.must_change = vec!["src/a.rs".into()];
    let j = case.judge();
    assert_eq!(j.criteria_failed(), ["Q1"]);
    let text: Vec<&str> = j.issues.iter().map(|i| i.description.as_str()).collect();
    assert_eq!(
        text,
        [
            "expected file src/new.rs does not exist",
            "src/a.rs was not changed, but the task is to change it"
        ]
    );
}

#[test]
fn omissions_and_broken_syntax_are_rejected() {
    let now = [("src/a.rs", "fn a() {\n    // ...\n"), ("b.md", "...")];
    let j = Case::new("```rust\n// 残り省略\n```\nEdited.", &[], &now).judge();
    assert_eq!(j.criteria_failed(), ["Q3", "Q4"]);
    let places: Vec<Option<&str>> = j.issues.iter().map(|i| i.location.as_deref()).collect();
    assert_eq!(
        places[..3],
        [Some("b.md:1"), Some("src/a.rs:2"), Some("output:2")]
    );
    assert_eq!(j.issues[3].kind, IssueType::SyntaxError);
}

#[test]
fn configured_checks_must_pass() {
    let mut case = Case::new("Implemented add.", &[], &[("src/lib.rs", GOOD)]);
    case.checks = vec![
        CheckRun {
            criterion: Criterion::Q7,
            command: vec!["cargo".into(), "test".into()],
            result: CheckResult::Failed {
                code: Some(101),
                tail: "test add ... FAILED\n".into(),
            },
        },
        CheckRun {
            criterion: Criterion::Q9,
            command: vec!["cargo".into(), "check".into()],
            result: CheckResult::Passed,
        },
    ];
    let j = case.judge();
    assert_eq!(j.judgment, Judgment::Reject);
    assert_eq!(j.criteria_failed(), ["Q7"]);
    assert_eq!(j.criteria_results.len(), 8);
    assert_eq!(
        j.issues[0].description,
        "`cargo test` failed (exit 101):\ntest add ... FAILED\n"
    );
}

#[test]
fn expectations_follow_the_task() {
    let mut t = task("Fix");
    t.owns = vec!["src/a.rs".into(), "src/".into(), "tests/*.rs".into()];
    t.origin = TaskOrigin::Fix;
    let e = Expectations::from_task(&t);
    assert_eq!(e.expected_files, ["src/a.rs"]);
    assert_eq!(e.must_change, ["src/a.rs"]);
    assert!(!e.writes_tests && !e.owns_nothing);
    t.origin = TaskOrigin::Plan;
    assert!(Expectations::from_task(&t).must_change.is_empty());
    // A missing-test finding's task owns the test file: it must write tests, and the untested
    // file it also owns (Rust's in-file test module) need not change.
    t.origin = TaskOrigin::Fix;
    t.owns = vec!["src/run.rs".into(), "tests/run.rs".into()];
    let tests = Expectations::from_task(&t);
    assert!(tests.writes_tests);
    assert!(tests.must_change.is_empty() && tests.expected_files.is_empty());
    t.owns = Vec::new();
    assert!(Expectations::from_task(&t).owns_nothing);
}

fn todo_finding() -> Finding {
    Finding::new(
        "inspector-quality",
        "quality/todo-marker",
        "incomplete",
        Severity::Medium,
        Location::at("src/lib.rs", 2),
        "TODO marker: add",
        "TODO: add",
    )
}

fn fix_case(status: Option<Status>) -> Case {
    let mut case = Case::new(
        "Removed the TODO.",
        &[("src/lib.rs", TODO)],
        &[("src/lib.rs", GOOD)],
    );
    case.expectations.findings = vec![todo_finding()];
    case.recheck = status.map(|status| Recheck {
        findings: vec![Checked {
            finding: todo_finding(),
            status,
        }],
    });
    case
}

#[test]
fn a_fix_passes_only_when_its_findings_are_confirmed_gone() {
    assert_eq!(
        fix_case(Some(Status::Gone)).judge().judgment,
        Judgment::Pass
    );
    let remains = fix_case(Some(Status::Remains {
        line: Some(3),
        suppressed: None,
    }))
    .judge();
    assert_eq!(remains.judgment, Judgment::Reject);
    assert_eq!(remains.criteria_failed(), ["Q5"]);
    assert_eq!(remains.issues[0].kind, IssueType::NotFixed);
    assert_eq!(remains.issues[0].location.as_deref(), Some("src/lib.rs:3"));
    assert_eq!(
        remains.issues[0].description,
        "quality/todo-marker still reports `TODO marker: add`"
    );
    let unchecked = fix_case(Some(Status::NotChecked(
        "src/lib.rs: it no longer exists".into(),
    )))
    .judge();
    assert_eq!(unchecked.criteria_failed(), ["Q5"]);
    assert_eq!(
        unchecked.issues[0].description,
        "quality/todo-marker `TODO marker: add` could not be confirmed gone: src/lib.rs: it no longer exists"
    );
    let never_run = fix_case(None).judge();
    assert_eq!(never_run.criteria_failed(), ["Q5"]);
    assert_eq!(
        never_run.issues[0].description,
        "the 1 finding(s) the task was made for were not checked again"
    );
}

#[test]
fn a_python_syntax_error_fails_q4_naming_the_file_and_line() {
    let j = Case::new(
        "Fixed the loop.",
        &[("app/loop.py", "def run(xs):\n    return sum(xs)\n")],
        &[("app/loop.py", "def run(xs)\n    return sum(xs)\n")],
    )
    .judge();
    assert_eq!(j.judgment, Judgment::Reject);
    assert_eq!(j.criteria_failed(), ["Q4"]);
    assert_eq!(j.issues[0].location.as_deref(), Some("app/loop.py:1"));
    assert_eq!(
        j.issues[0].description,
        "`def run(xs)` lacks the `:` that opens its block"
    );
}

#[test]
fn suppressing_or_weakening_tests_is_no_evidence() {
    let suppressed = Case::new(
        "Handled the finding.",
        &[("src/lib.rs", TODO)],
        &[(
            "src/lib.rs",
            "pub fn add(a: i32, b: i32) -> i32 {\n    // TODO: add\n    // retake-ignore: quality/todo-marker\n    0\n}\n",
        )],
    )
    .judge();
    assert_eq!(suppressed.judgment, Judgment::Reject);
    assert_eq!(suppressed.criteria_failed(), ["Q5"]);
    assert_eq!(suppressed.issues[0].kind, IssueType::Evasion);
    assert!(
        suppressed.issues[0]
            .description
            .starts_with("the change only adds suppressions"),
        "{}",
        suppressed.issues[0].description
    );
    let skipped = Case::new(
        "Made the suite green.",
        &[(
            "tests/it.rs",
            "#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n",
        )],
        &[(
            "tests/it.rs",
            "#[test]\n#[ignore]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n",
        )],
    )
    .judge();
    assert_eq!(skipped.criteria_failed(), ["Q5"]);
    assert_eq!(
        (
            skipped.issues[0].location.as_deref(),
            skipped.issues[0].description.as_str()
        ),
        (
            Some("tests/it.rs:2"),
            "the change switches a test off with `#[ignore`"
        )
    );
}

#[test]
fn a_test_writing_task_must_write_test_code() {
    let mut untested = Case::new(
        "Added tests.",
        &[("pkg/prices.py", "def total(xs):\n    return sum(xs)\n")],
        &[(
            "pkg/prices.py",
            "def total(xs):\n    return sum(list(xs))\n",
        )],
    );
    untested.expectations.writes_tests = true;
    let j = untested.judge();
    assert_eq!(j.criteria_failed(), ["Q5"]);
    assert_eq!(
        j.issues[0].description,
        "the task is to write tests, but no test file or test function was added"
    );
    let mut tested = Case::new(
        "Added tests.",
        &[("pkg/prices.py", "def total(xs):\n    return sum(xs)\n")],
        &[
            ("pkg/prices.py", "def total(xs):\n    return sum(xs)\n"),
            (
                "pkg/test_prices.py",
                "def test_total():\n    assert total([1]) == 1\n",
            ),
        ],
    );
    tested.expectations.writes_tests = true;
    assert_eq!(tested.judge().judgment, Judgment::Pass);
}
