//! A resumed review runs the rules the interrupted one ran: its rule profile (`--profile` or
//! `[rules] profile`) is kept in `.retake/state/active.json`, so `retake resume` — also the one a
//! restarted `retake serve` runs for its interrupted jobs — does not fall back to the
//! configuration's profile.

use protocol::Scope;
use review::state::ActiveReview;
use std::path::Path;
use std::process::Command;

const RUN_ID: &str = "20261126T000000Z-abcdef";

/// Writes a repository whose one finding comes from a pedantic rule (a TODO marker) and the
/// state of a review interrupted before any Inspector reported, with `profile`.
fn interrupted(repo: &Path, profile: Option<&str>) {
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    std::fs::write(
        repo.join("src/lib.rs"),
        "// TODO: cache it\npub fn a() {}\n",
    )
    .expect("write");
    // The journal of a review that started: its folder, with no report in it yet.
    std::fs::create_dir_all(repo.join(".retake/runs").join(RUN_ID).join("reports"))
        .expect("journal");
    ActiveReview {
        kind: "review".into(),
        run_id: RUN_ID.into(),
        scope: Scope::Module {
            globs: vec!["src/**".into()],
        },
        runtime: "inproc".into(),
        no_exec: true,
        pipelines: 1,
        started_at: "2026-11-26T00:00:00Z".into(),
        profile: profile.map(str::to_string),
    }
    .write(&repo.join(".retake"))
    .expect("write state");
}

/// The rules of the findings `retake resume` reports.
fn resumed_rules(repo: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["resume", "--format", "json"])
        .arg(repo)
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("resuming review {RUN_ID}")),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["rule"].as_str().expect("rule").to_string())
        .collect()
}

#[test]
fn a_resumed_review_keeps_the_interrupted_one_s_rule_profile() {
    let pedantic = tempfile::tempdir().expect("tempdir");
    interrupted(pedantic.path(), Some("pedantic"));
    assert!(
        resumed_rules(pedantic.path()).contains(&"quality/todo-marker".to_string()),
        "the pedantic rule ran again"
    );

    // A state file of an earlier build names no profile: the configuration's (default) applies.
    let earlier = tempfile::tempdir().expect("tempdir");
    interrupted(earlier.path(), None);
    assert!(!resumed_rules(earlier.path()).contains(&"quality/todo-marker".to_string()));
}
