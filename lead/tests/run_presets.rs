//! `[executor] preset` and `fallback` through the real binary: a run whose preset CLI is not
//! installed (gemini) falls back to the next preset (qwen, here a stand-in on PATH that is the
//! scripted agent of `run_fixture`) and ends as the acceptance run does — each task's TODO
//! rejected, the corrected attempt accepted, one commit, exit 0.

mod run_fixture;

use run_fixture::*;

#[test]
fn a_missing_preset_cli_falls_back_to_the_next_and_the_run_completes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(dir.path(), Agent::Good, "");
    std::fs::write(
        repo.join("retake.toml"),
        "[executor]\npreset = \"gemini\"\nfallback = [\"qwen\"]\ntimeout_secs = 120\n\n[loop]\nretry_delay_ms = 0\n",
    )
    .expect("config");
    git(
        &repo,
        &["commit", "-q", "-am", "chore: the agents by preset"],
    );
    let before = git(&repo, &["rev-parse", "HEAD"]);
    // `qwen` on PATH is the scripted agent; no `gemini` is installed.
    let tools = dir.path().join("tools");
    std::fs::create_dir_all(&tools).expect("tools");
    let qwen = tools.join("qwen");
    std::fs::write(
        &qwen,
        format!(
            "#!/bin/sh\n[ \"$1 $2\" = \"--approval-mode auto-edit\" ] || exit 64\nexec sh {}\n",
            dir.path().join("agent.sh").display()
        ),
    )
    .expect("qwen");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&qwen, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        tools.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let tag = format!("run-presets-{}", std::process::id());
    let run = ran(
        retake_command(&repo, &tag, &["run", "all", "--yes", "--no-discuss"]).env("PATH", path),
    );
    assert_eq!(
        run.code, 0,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    assert_accepted(&repo, &before);
}
