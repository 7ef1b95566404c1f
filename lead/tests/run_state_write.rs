//! A team run whose state can no longer be written fails instead of running on blind: the
//! scripted Implementer replaces `timeline.jsonl` with a folder while it works, so the team
//! hub's next append fails. The run ends with exit 2 and one line naming the write, and what
//! was persisted before — `tasks.json` — is still there and still JSON.

mod run_fixture;

use run_fixture::*;

const PLAN: &str = "# Plans\n\n- [ ] 1 Add the t1 check `cc:TODO` owns: `tests/t1.rs`\n";

/// Breaks the state folder's timeline, then does the task's work.
fn script(state: &std::path::Path) -> String {
    let timeline = state.join("timeline.jsonl");
    format!(
        r#"#!/bin/sh
# The hub may append between the two steps and recreate the file: until it is a folder.
until [ -d "{timeline}" ]; do
  rm -f "{timeline}"
  mkdir -p "{timeline}" 2>/dev/null
done
mkdir -p tests
printf '#[test]\nfn t1() {{\n    assert_eq!(calc::add::add(1, 1), 2);\n}}\n' > tests/t1.rs
echo "Wrote tests/t1.rs."
"#,
        timeline = timeline.display()
    )
}

#[test]
fn a_timeline_the_team_hub_cannot_append_to_fails_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let state = dir.path().join("repo/.retake/state");
    let repo = fixture_custom(dir.path(), PLAN, &script(&state), "", &[]);
    let tag = format!("run-state-write-{}", std::process::id());

    let ran = run_with(&repo, &tag, &["--parallel", "1"]);

    assert_eq!(
        ran.code, 2,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert!(
        ran.stderr
            .contains("the team could not run: cannot append to the run's timeline"),
        "{}",
        ran.stderr
    );
    let tasks = std::fs::read_to_string(state.join("tasks.json")).expect("tasks.json kept");
    let tasks: serde_json::Value = serde_json::from_str(&tasks).expect("still JSON");
    assert_eq!(tasks["tasks"][0]["id"], 1, "{tasks}");
    assert!(
        leftovers(&tag).is_empty(),
        "no Implementer outlives the run"
    );
}
