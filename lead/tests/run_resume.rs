//! kill -9 of the Lead in the middle of `retake run`: nothing of the run survives it (the
//! Implementers, the agent scripts they run and the processes those start; Phase C's `cargo
//! test` and its test binary), the state file and the dead Lead's lock stay, and `retake
//! resume` finishes the run — the finished task is not run again, the interrupted one goes back
//! to pending with its attempt counted; a run killed in Phase C after its review accepted goes
//! straight back to Phase C — one commit, the state file removed, exit 0.

mod run_fixture;

use run_fixture::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn tasks_json(repo: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(repo.join(".retake/state/tasks.json")).ok()?;
    serde_json::from_str(&text).ok()
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_run_whose_lead_was_killed_leaves_nothing_running_and_resume_finishes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let repo = fixture(root, Agent::Good, "");
    // Task 2's agent sleeps in a child process while this file exists.
    std::fs::write(root.join("slow-2"), "").expect("write");
    let tag = format!("run-resume-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);
    let mut lead = retake_command(&repo, &tag, &["run", "all", "--yes", "--no-discuss"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn retake run");

    wait_for(
        "task 1 to complete and task 2's agent to start",
        Duration::from_secs(180),
        || {
            let done = tasks_json(&repo).is_some_and(|t| t["tasks"][0]["status"] == "completed");
            done && invocations(root).contains(&2)
        },
    );
    let claimed = tasks_json(&repo).expect("tasks.json");
    assert_eq!(
        (
            &claimed["tasks"][1]["status"],
            &claimed["tasks"][1]["claimer"]
        ),
        (
            &serde_json::json!("in_progress"),
            &serde_json::json!("implementer-1")
        )
    );
    assert!(
        leftovers(&tag).len() >= 3,
        "the Lead, its Implementer, the agent and its sleep: {:?}",
        leftovers(&tag)
    );
    lead.kill().expect("kill -9 the Lead");
    lead.wait().expect("reap");
    wait_for(
        "every process of the run to end",
        Duration::from_secs(5),
        || leftovers(&tag).is_empty(),
    );
    assert!(
        repo.join(".retake/state/active.json").is_file(),
        "the state file survives"
    );
    assert!(
        repo.join(".retake/lock").is_file(),
        "the dead Lead's lock is left behind"
    );
    let before_resume = invocations(root);
    assert_eq!(
        before_resume,
        vec![1, 1, 2],
        "task 1 twice (TODO, then done), task 2 started"
    );

    std::fs::remove_file(root.join("slow-2")).expect("rm");
    let ran = retake(&repo, &tag, &["resume"]);
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert!(
        ran.stderr.contains("(all): 1 task(s) done, 1 to go\n"),
        "{}",
        ran.stderr
    );
    assert_eq!(
        invocations(root),
        vec![1, 1, 2, 2, 2],
        "task 1 is not run again; task 2 starts over (TODO, then done)"
    );
    let event = |t: &str, task: u64| (t.to_string(), task, "implementer-1".to_string());
    assert_eq!(
        team_events(&repo),
        vec![
            event("TASK_CLAIMED", 1),
            event("TASK_COMPLETED", 1),
            event("TASK_CLAIMED", 2),
            event("TASK_RELEASED", 2),
            event("TASK_CLAIMED", 2),
            event("TASK_COMPLETED", 2),
        ]
    );
    let tasks = tasks_json(&repo).expect("tasks.json");
    assert_eq!(
        (
            &tasks["tasks"][0]["attempts"],
            &tasks["tasks"][1]["attempts"],
            &tasks["tasks"][1]["status"]
        ),
        (
            &serde_json::json!(1),
            &serde_json::json!(2),
            &serde_json::json!("completed")
        ),
        "the interrupted claim counts as an attempt"
    );
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
        "one commit"
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
    assert!(!repo.join(".retake/state/active.json").exists());
    assert!(!repo.join(".retake/lock").exists(), "the lock is released");
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
    let again = retake(&repo, &tag, &["resume"]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("nothing to resume"),
        "{}",
        again.stderr
    );
}

/// A test of the fixture crate that, in Phase C only (a review result exists), says it started
/// and then waits while `slow-verify` exists beside the repository.
const SLOW_VERIFY: &str = "use std::path::Path;\n\n\
#[test]\n\
fn waits_in_phase_c_while_told() {\n\
    let repo = Path::new(env!(\"CARGO_MANIFEST_DIR\"));\n\
    let marker = repo.join(\"../slow-verify\");\n\
    if repo.join(\".retake/state/review-result.json\").exists() && marker.exists() {\n\
        std::fs::write(repo.join(\"../verifying\"), \"\").unwrap();\n\
        while marker.exists() {\n\
            std::thread::sleep(std::time::Duration::from_millis(50));\n\
        }\n\
    }\n\
    assert_eq!(2 + 2, 4);\n\
}\n";

#[test]
fn a_run_killed_in_phase_c_after_its_review_accepted_resumes_straight_into_phase_c() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let repo = fixture_with(root, Agent::Good, "", &[("tests/verify.rs", SLOW_VERIFY)]);
    std::fs::write(root.join("slow-verify"), "").expect("write");
    let tag = format!("run-resume-c-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);
    let mut lead = retake_command(&repo, &tag, &["run", "all", "--yes", "--no-discuss"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn retake run");
    wait_for(
        "Phase C's cargo test to start",
        Duration::from_secs(180),
        || root.join("verifying").exists(),
    );
    let active = std::fs::read_to_string(repo.join(".retake/state/active.json")).expect("active");
    assert!(active.contains("\"accepted\""), "{active}");
    lead.kill().expect("kill -9 the Lead");
    lead.wait().expect("reap");
    wait_for(
        "cargo test and its test binary to end with the Lead",
        Duration::from_secs(5),
        || leftovers(&tag).is_empty(),
    );
    assert_eq!(
        git(&repo, &["rev-parse", "HEAD"]),
        before,
        "not committed yet"
    );

    std::fs::remove_file(root.join("slow-verify")).expect("rm");
    let ran = retake(&repo, &tag, &["resume"]);
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert!(
        ran.stderr.contains(
            "retake run: review round 1 accepted the work (APPROVE A); completing the run\n"
        ),
        "{}",
        ran.stderr
    );
    let text =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).expect("timeline");
    assert_eq!(
        text.matches("\"REVIEW_COMPLETED\"").count(),
        1,
        "no second review"
    );
    assert_eq!(invocations(root), vec![1, 1, 2, 2], "no task is run again");
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log, "feat: add subtraction, add multiplication\n");
    assert!(
        ran.stdout.contains("- Tests: ✅ 4/4 passed"),
        "{}",
        ran.stdout
    );
    assert!(!repo.join(".retake/state/active.json").exists());
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
}
