//! `[loop] evaluator = "goal-drift"`: every task is judged by the goal-drift guard as well as
//! Q1–Q9. The scripted agent's finished code passes Q1–Q9 (the run without the evaluator is
//! accepted, `run_e2e.rs`) but never states that every requirement is fulfilled, so with the
//! evaluator no attempt passes and the tasks are escalated.

mod run_fixture;

use run_fixture::*;

#[test]
fn the_goal_drift_evaluator_rejects_an_attempt_that_does_not_state_completion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(
        dir.path(),
        Agent::Good,
        "max_iterations = 2\nevaluator = \"goal-drift\"\n",
    );
    let tag = format!("run-evaluator-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = run(&repo, &tag);
    assert_eq!(
        ran.code, 5,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    // The first attempt fails Q2 and Q6 (a TODO, "Done.") and GD5; the finished code passes
    // Q1–Q9 but not GD5 (no "COMPLETE: all N requirements fulfilled").
    let want = |failed: &[&str]| {
        (
            "REJECT".to_string(),
            failed.iter().map(|c| c.to_string()).collect(),
        )
    };
    assert_eq!(
        judgments(&repo, 1),
        vec![want(&["Q2", "Q6", "GD5"]), want(&["GD5"])]
    );
    assert_eq!(
        git(&repo, &["rev-parse", "HEAD"]),
        before,
        "nothing committed"
    );
}
