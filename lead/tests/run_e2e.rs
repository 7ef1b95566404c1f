//! `retake run` end to end on an unseen repository (see `run_fixture`): the acceptance run —
//! a first attempt with a TODO and "Done." rejected, the corrected one accepted, the review's
//! approval, both tasks `cc:done`, one Conventional Commit, the state file removed, exit 0 —
//! an agent that never satisfies the judge (exit 5, the escalation report), and Phase A's
//! early abort.

mod run_fixture;

use run_fixture::*;

#[test]
fn a_two_task_plan_is_judged_reviewed_marked_done_and_committed_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Good, "");
    let tag = format!("run-e2e-ok-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = run(&repo, &tag);
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );

    for task in [1, 2] {
        let seen = judgments(&repo, task);
        assert_eq!(
            seen,
            vec![
                (
                    "REJECT".to_string(),
                    vec!["Q2".to_string(), "Q6".to_string()]
                ),
                ("PASS".to_string(), Vec::new()),
            ],
            "task {task}: the TODO and the \"Done.\" are rejected, the corrected attempt accepted"
        );
        let calls =
            std::fs::read_to_string(dir.path().join(format!("calls-{task}"))).expect("calls");
        assert_eq!(calls.trim(), "2", "the agent ran twice for task {task}");
    }
    assert_eq!(
        std::fs::read_to_string(repo.join("Plans.md")).expect("plan"),
        PLAN.replace("[ ]", "[x]").replace("cc:TODO", "cc:done")
    );
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(
        log, "feat: add subtraction, add multiplication\n",
        "exactly one new commit"
    );
    let body = git(&repo, &["log", "-1", "--format=%B"]);
    assert!(
        body.contains("- 1 Add subtraction\n- 2 Add multiplication\n"),
        "{body}"
    );
    assert!(body.contains("Reviewed: APPROVE (A)"), "{body}");
    let files = git(&repo, &["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(files, "Plans.md\nsrc/lib.rs\nsrc/mul.rs\nsrc/sub.rs\n");
    let status = git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(
        status.lines().all(|l| l.starts_with("?? .retake/")),
        "{status}"
    );
    assert!(
        !repo.join(".retake/state/active.json").exists(),
        "the state file is removed"
    );
    assert!(!repo.join(".retake/state/review-result.json").exists());
    assert!(
        ran.stdout.contains("- Decision: APPROVE (Grade: A)"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("| implementer-1 | #1, #2 |"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains(": feat: add subtraction, add multiplication\n"),
        "{}",
        ran.stdout
    );
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
}

#[test]
fn an_agent_that_never_satisfies_the_judge_escalates_with_exit_5() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Stubborn, "max_iterations = 2\n");
    let tag = format!("run-e2e-esc-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = run(&repo, &tag);
    assert_eq!(
        ran.code, 5,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert!(
        ran.stdout.starts_with(
            "⚠ retake: 2 tasks could not be finished by the team and are escalated to you\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "| 1 | 1 Add subtraction | 1 | not judged PASS within 2 iterations; last failed: Q2, Q6 |"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("| 1 | 1 | incomplete src/sub.rs:5: TODO marker left"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("(no review round completed)"),
        "{}",
        ran.stdout
    );
    assert_eq!(judgments(&repo, 1).len(), 2, "two iterations, both judged");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("calls-1"))
            .expect("calls")
            .trim(),
        "2"
    );
    assert!(
        !dir.path().join("calls-2").exists(),
        "task 2 waits for the failed task 1"
    );
    assert_eq!(
        git(&repo, &["rev-parse", "HEAD"]),
        before,
        "nothing committed"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("Plans.md")).expect("plan"),
        PLAN
    );
    let active = std::fs::read_to_string(repo.join(".retake/state/active.json"))
        .expect("the state file stays for `retake resume`");
    assert!(active.contains("\"kind\": \"run\""), "{active}");
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
}

#[test]
fn a_dirty_work_tree_stops_phase_a_and_removes_the_state_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Good, "");
    std::fs::write(repo.join("notes.txt"), "unsaved\n").expect("write");
    let ran = run(&repo, &format!("run-e2e-dirty-{}", std::process::id()));
    assert_eq!(ran.code, 2, "stderr: {}", ran.stderr);
    assert!(
        ran.stderr
            .contains("the work tree has uncommitted changes (notes.txt)"),
        "{}",
        ran.stderr
    );
    assert!(!repo.join(".retake/state/active.json").exists());
    assert!(!dir.path().join("calls-1").exists(), "no executor ran");
}
