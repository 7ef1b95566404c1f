//! `retake run` recovering and in the other runtime: an Implementer that crashes while
//! executing loses its task to pending (the attempt counted) and its replacement finishes the
//! run; the inproc runtime drives the same plan to the same commit.

mod run_fixture;

use run_fixture::*;

#[test]
fn a_crashed_implementers_task_goes_back_and_its_replacement_finishes_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Good, "");
    let tag = format!("run-e2e-crash-{}", std::process::id());
    let ran = run_with(
        &repo,
        &tag,
        &["--chaos", "--fault", "implementer-1#1:crash-at=execute"],
    );
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    let event = |t: &str, task: u64, actor: &str| (t.to_string(), task, actor.to_string());
    assert_eq!(
        team_events(&repo),
        vec![
            event("TASK_CLAIMED", 1, "implementer-1"),
            event("TASK_RELEASED", 1, "implementer-1"),
            event("TASK_CLAIMED", 1, "implementer-1-r1"),
            event("TASK_COMPLETED", 1, "implementer-1-r1"),
            event("TASK_CLAIMED", 2, "implementer-1-r1"),
            event("TASK_COMPLETED", 2, "implementer-1-r1"),
        ]
    );
    let tasks: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".retake/state/tasks.json")).expect("tasks.json"),
    )
    .expect("JSON");
    assert_eq!(
        tasks["tasks"][0]["attempts"], 2,
        "the crashed attempt counts"
    );
    assert_eq!(tasks["tasks"][0]["status"], "completed");
    assert!(
        ran.stderr
            .contains("implementer-1 was re-spawned 1 time(s)"),
        "{}",
        ran.stderr
    );
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
}

#[test]
fn the_inproc_runtime_drives_the_same_plan_to_the_same_commit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Good, "");
    let ran = run_with(
        &repo,
        &format!("run-e2e-inproc-{}", std::process::id()),
        &["--runtime", "inproc"],
    );
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert_eq!(
        git(&repo, &["log", "--format=%s"]),
        "feat: add subtraction, add multiplication\nchore: start\n"
    );
    assert_eq!(judgments(&repo, 2).len(), 2);
}
