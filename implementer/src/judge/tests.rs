use super::*;
use crate::criteria::IssueType;
use crate::testing::task;

struct Case {
    outcome: ExecOutcome,
    retries_left: bool,
    before: Snapshot,
    now: Snapshot,
    expectations: Expectations,
    checks: Vec<CheckRun>,
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
    t.origin = TaskOrigin::Plan;
    assert!(Expectations::from_task(&t).must_change.is_empty());
}
