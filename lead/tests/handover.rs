//! The session handover end to end, through the real `retake` binary: a review, a run and a
//! resume each redraft `.retake/handover/session.md`; a hand-written line under `## Notes`
//! survives the next draft; a committed Steering Exceptions row removes the finding it names
//! (a `REMOVED` row of the journaled verdict quoting it), and the same row left uncommitted is
//! not applied and says so.

#[path = "run_fixture/mod.rs"]
mod run_fixture;
mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use support::{git, write};

const HANDOVER: &str = ".retake/handover/session.md";
const TODO_RULE: &str = "quality/todo-marker";
const ROW: &str = "| * | quality/todo-marker | src/ | alice | prototype, tracked in #7 |\n";
const REASON: &str = "steering exception for every feature, rule quality/todo-marker (decided by alice): prototype, tracked in #7";

struct Review {
    code: i32,
    json: serde_json::Value,
    stderr: String,
}

impl Review {
    fn notes(&self) -> Vec<String> {
        self.json["notes"]
            .as_array()
            .map(|n| {
                n.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn rules(&self) -> Vec<String> {
        self.json["findings"]
            .as_array()
            .map(|fs| {
                fs.iter()
                    .filter_map(|f| f["rule"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn review(repo: &Path) -> Review {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--runtime", "inproc", "--no-exec", "--format", "json"])
        .args(["--profile", "pedantic"])
        .stdin(Stdio::null())
        .output()
        .expect("run retake");
    Review {
        code: out.status.code().expect("exit code"),
        json: serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn handover(repo: &Path) -> String {
    std::fs::read_to_string(repo.join(HANDOVER)).expect("session.md is written")
}

/// The `## ` section `title` of a handover, heading included.
fn section<'t>(text: &'t str, title: &str) -> &'t str {
    let start = text
        .find(&format!("## {title}\n"))
        .unwrap_or_else(|| panic!("no section {title}:\n{text}"));
    let rest = &text[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 4);
    &rest[..end]
}

/// The journaled verdict of the review that answered `json`.
fn journaled_verdict(repo: &Path, json: &serde_json::Value) -> String {
    let run_id = json["run_id"].as_str().expect("a run id");
    std::fs::read_to_string(repo.join(".retake/runs").join(run_id).join("verdict.cpf"))
        .expect("verdict.cpf")
}

/// A committed crate whose one library file leaves a TODO.
fn crate_with_a_todo(root: &Path) {
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"sync\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        root,
        "src/lib.rs",
        "/// Pushes every record.\npub fn sync_all(records: &[u32]) -> usize {\n    // TODO: retry failed records\n    records.len()\n}\n",
    );
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "start"]);
}

#[test]
fn a_review_drafts_the_handover_and_keeps_the_user_s_notes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    crate_with_a_todo(repo);
    let first = review(repo);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.json["verdict"], "GO", "{}", first.json);
    let run_id = first.json["run_id"].as_str().expect("a run id");
    let text = handover(repo);
    let last = section(&text, "Last command");
    assert!(last.contains("- `retake review` at "), "{last}");
    assert!(last.contains("- exit 0: the gate passed\n"), "{last}");
    assert!(
        last.contains("- verdict GO, decision APPROVE (grade B)\n"),
        "{last}"
    );
    assert!(
        last.contains(&format!("- journal `.retake/runs/{run_id}/`")),
        "{last}"
    );
    let verdicts = section(&text, "Verdicts and decisions");
    assert!(
        verdicts.contains("- [B1] ")
            && verdicts.contains(" GO — GO-ACCEPTED (.retake/verdicts.md)\n"),
        "{text}"
    );
    assert_eq!(
        section(&text, "Pending"),
        "## Pending\n\nNothing pending.\n\n"
    );

    std::fs::write(
        repo.join(HANDOVER),
        text.replace(
            "## Notes\n\n",
            "## Notes\n\nhand-written: ask Bob about retries\n",
        ),
    )
    .expect("edit");
    let second = review(repo);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let text = handover(repo);
    assert!(
        section(&text, "Notes").contains("\nhand-written: ask Bob about retries\n"),
        "{text}"
    );
    assert!(
        section(&text, "Verdicts and decisions").contains("- [B2] "),
        "{text}"
    );
    assert_eq!(text.matches("## Last command").count(), 1);
}

#[test]
fn a_committed_steering_exception_removes_its_finding_and_an_uncommitted_one_does_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    crate_with_a_todo(repo);
    let control = review(repo);
    assert!(
        control.rules().contains(&TODO_RULE.to_string()),
        "the TODO is a finding: {}",
        control.json
    );

    // The row in the work tree only: not applied, and the header says so.
    let with_row = handover(repo).replace(
        "|---|---|---|---|---|\n",
        &format!("|---|---|---|---|---|\n{ROW}| * | dead-code | | bob | |\n"),
    );
    std::fs::write(repo.join(HANDOVER), &with_row).expect("edit");
    let uncommitted = review(repo);
    assert!(
        uncommitted.rules().contains(&TODO_RULE.to_string()),
        "{}",
        uncommitted.json
    );
    let notes = uncommitted.notes();
    assert!(
        notes.iter().any(|n| n
            == ".retake/handover/session.md: Steering Exceptions not committed are not applied — the review uses them as committed at HEAD (--trust-repo-config uses the work tree's)"),
        "{notes:#?}"
    );
    assert!(!journaled_verdict(repo, &uncommitted.json).contains("steering exception"));

    // Committed: the Auditor removes the finding, quoting the row.
    git(repo, &["add", "-f", HANDOVER]);
    git(repo, &["commit", "-q", "-m", "steering exception"]);
    let committed = review(repo);
    assert_eq!(committed.code, 0, "{}", committed.stderr);
    assert!(
        !committed.rules().contains(&TODO_RULE.to_string()),
        "{}",
        committed.json
    );
    let verdict = journaled_verdict(repo, &committed.json);
    let removed: Vec<&str> = verdict
        .lines()
        .skip_while(|l| *l != "REMOVED:")
        .skip(1)
        .take_while(|l| l.contains('|'))
        .collect();
    assert!(
        removed.iter().any(|r| r.contains(REASON)),
        "REMOVED rows: {removed:?}\n{verdict}"
    );
    let notes = committed.notes();
    assert!(
        notes
            .iter()
            .all(|n| !n.contains("Steering Exceptions not committed")),
        "{notes:#?}"
    );
    assert!(
        notes.iter().any(|n| n
            == ".retake/handover/session.md: Steering Exceptions row 2 (| * | dead-code | | bob | |) is not applied: Why missing"),
        "{notes:#?}"
    );
}

#[test]
fn a_run_redrafts_the_handover() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = run_fixture::first_task_plan();
    let script = run_fixture::agent_script(dir.path(), run_fixture::Agent::Good);
    let repo = run_fixture::fixture_custom(dir.path(), &plan, &script, "", &[]);
    write(
        &repo,
        HANDOVER,
        "# Session handover\n\n## Notes\n\nkeep me\n",
    );
    let ran = run_fixture::run(&repo, "handover-run");
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let text = handover(&repo);
    let last = section(&text, "Last command");
    assert!(last.contains("- `retake run` at "), "{text}");
    assert!(
        last.contains("- exit 0: the result is committed\n"),
        "{text}"
    );
    assert!(section(&text, "Notes").contains("\nkeep me\n"), "{text}");
    assert!(text.contains("## Steering Exceptions\n"), "{text}");
}

const RUN_ID: &str = "20261126T000000Z-abcdef";

#[test]
fn a_resumed_review_redrafts_the_handover() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    write(repo, "src/lib.rs", "// TODO: cache it\npub fn a() {}\n");
    std::fs::create_dir_all(repo.join(".retake/runs").join(RUN_ID).join("reports"))
        .expect("journal");
    review::state::ActiveReview {
        kind: "review".into(),
        run_id: RUN_ID.into(),
        scope: protocol::Scope::Module {
            globs: vec!["src/**".into()],
        },
        runtime: "inproc".into(),
        no_exec: true,
        pipelines: 1,
        started_at: "2026-11-26T00:00:00Z".into(),
        profile: Some("pedantic".into()),
    }
    .write(&repo.join(".retake"))
    .expect("write state");
    write(repo, HANDOVER, "## Notes\n\nbefore the crash\n");
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["resume", "--format", "json"])
        .arg(repo)
        .stdin(Stdio::null())
        .output()
        .expect("run retake");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let verdict = json["verdict"].as_str().expect("a verdict");
    let text = handover(repo);
    let last = section(&text, "Last command");
    assert!(last.contains("- `retake resume` at "), "{text}");
    assert!(
        last.contains(&format!("- exit {}: ", out.status.code().expect("code"))),
        "{text}"
    );
    assert!(
        last.contains(&format!("- verdict {verdict}, decision ")),
        "{text}"
    );
    assert!(
        last.contains(&format!("- journal `.retake/runs/{RUN_ID}/`")),
        "{text}"
    );
    assert!(
        section(&text, "Notes").contains("\nbefore the crash\n"),
        "{text}"
    );
    // The resumed review finished: nothing waits for `retake resume` any more.
    assert!(
        !section(&text, "Pending").contains("retake resume"),
        "{text}"
    );
}
