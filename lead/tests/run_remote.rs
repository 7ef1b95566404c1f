//! `retake run --runtime remote`: the team loop on workers it did not start, as compose and
//! Kubernetes run them — Implementer workers claimed for the team phase, Inspector and Auditor
//! workers for the review of what the team changed — to the same end as the local runtime (see
//! `run_e2e`): each task's TODO rejected and its corrected attempt accepted, the review's
//! approval, one commit, exit 0.

mod run_fixture;
#[path = "support/workers.rs"]
mod workers;

use run_fixture::*;
use workers::{free_port, workers, KINDS};

#[test]
fn the_team_loop_runs_on_remote_workers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Good, "");
    let tag = format!("run-remote-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);
    let secret = "cd".repeat(32);
    let lead = format!("127.0.0.1:{}", free_port());
    let _workers = workers(&lead, &secret, &KINDS, true, 2);

    let Ran {
        code,
        stdout,
        stderr,
    } = ran(
        retake_command(&repo, &tag, &["run", "all", "--yes", "--no-discuss"])
            .args(["--runtime", "remote"])
            .env("RETAKE__WIRE__SECRET", &secret)
            .env("RETAKE__REVIEW__LISTEN", &lead),
    );
    assert_eq!(code, 0, "stdout: {stdout}\nstderr: {stderr}");
    assert!(
        stderr.contains(&format!("remote runtime: workers connect to {lead}")),
        "{stderr}"
    );
    // The workers' own names (`implementer@HOST-PID`) never reach the run's records: the hub
    // knows them by the slot they were claimed for.
    let actors: Vec<String> = team_events(&repo).into_iter().map(|(_, _, a)| a).collect();
    assert!(!actors.is_empty());
    assert!(
        actors.iter().all(|a| a.starts_with("implementer-")),
        "{actors:?}"
    );
    assert_accepted(&repo, &before);
    assert!(
        stdout.contains("- Decision: APPROVE (Grade: A)"),
        "{stdout}"
    );
}
