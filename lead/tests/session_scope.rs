//! Session reviews through the real `retake` binary: a git repository built here with a branch
//! change, reviewed against its merge base — only the changed files, `--filter added` (the
//! default) gating on the added lines with the rest of the changed files already there, the
//! session as the default when there are changes — and agent backends
//! configured in retake.toml reaching the Inspectors.

mod support;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use support::{git, write};

/// `main`: lib.rs and other.rs, each with a `todo!(…)` on line 2 (distinct texts, so the
/// Auditor's dedup keeps them apart). Branch `feature` (checked
/// out): lib.rs gains a function with a `todo!()` on line 6 (committed), and an untracked
/// new.rs has one on line 2.
fn branch_repo(root: &Path) {
    git(root, &["init", "-q"]);
    write(root, "src/lib.rs", "pub fn a() {\n    todo!(\"a\")\n}\n");
    write(root, "src/other.rs", "pub fn o() {\n    todo!(\"o\")\n}\n");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "feature"]);
    write(
        root,
        "src/lib.rs",
        "pub fn a() {\n    todo!(\"a\")\n}\n\npub fn b() {\n    todo!(\"b\")\n}\n",
    );
    git(root, &["commit", "-q", "-am", "add b"]);
    write(root, "src/new.rs", "pub fn n() {\n    todo!(\"n\")\n}\n");
}

struct Run {
    code: i32,
    json: serde_json::Value,
    stderr: String,
}

fn review(repo: &Path, flags: &[&str]) -> Run {
    review_with(repo, &[&["--no-exec"], flags].concat())
}

/// An agent is an external command: `--no-exec` would skip it, so agent reviews run without.
fn review_with(repo: &Path, flags: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--format", "json"])
        .args(flags)
        .output()
        .expect("run retake");
    Run {
        code: out.status.code().expect("exit code"),
        json: serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `(path, line)` of every finding of `rule` in the review's JSON.
fn places(json: &serde_json::Value, rule: &str) -> BTreeSet<(String, u64)> {
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            let path = f["path"].as_str().unwrap_or_default().to_string();
            (path, f["line"].as_u64().unwrap_or(0))
        })
        .collect()
}

fn paths(json: &serde_json::Value) -> BTreeSet<String> {
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["path"].as_str().map(str::to_string))
        .collect()
}

fn place(path: &str, line: u64) -> (String, u64) {
    (path.to_string(), line)
}

#[test]
fn a_branch_session_reviews_only_changed_files_and_filter_added_only_added_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    branch_repo(repo);

    let file = review(repo, &["--base", "main", "--filter", "file"]);
    assert_eq!(file.code, 1, "stderr: {}\njson: {}", file.stderr, file.json);
    assert_eq!(file.json["scope"], "session:main");
    assert_eq!(
        places(&file.json, "holistic/todo-macro"),
        BTreeSet::from([
            place("src/lib.rs", 2),
            place("src/lib.rs", 6),
            place("src/new.rs", 2)
        ])
    );
    assert!(!paths(&file.json).contains("src/other.rs"), "{}", file.json);
    assert_eq!(
        file.json["coverage"]["inspector-holistic"]["files_reviewed"],
        2
    );

    // `--filter added` is the default: the todo!() on an untouched line of lib.rs is already
    // there, listed apart; the one in other.rs, a file the change did not touch, is not.
    for flags in [
        &["--base", "main", "--filter", "added"][..],
        &["--base", "main"],
    ] {
        let added = review(repo, flags);
        assert_eq!(added.code, 1, "stderr: {}", added.stderr);
        assert_eq!(
            places(&added.json, "holistic/todo-macro"),
            BTreeSet::from([place("src/lib.rs", 6), place("src/new.rs", 2)])
        );
        let apart: Vec<(&str, u64)> = added.json["already_there"]
            .as_array()
            .expect("already_there")
            .iter()
            .filter(|f| f["rule"] == "holistic/todo-macro")
            .filter_map(|f| Some((f["path"].as_str()?, f["line"].as_u64()?)))
            .collect();
        assert_eq!(apart, [("src/lib.rs", 2)], "{flags:?}");
    }
    let added = review(repo, &["--base", "main", "--filter", "added"]);
    let lines: BTreeSet<(String, u64)> = added.json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| Some((f["path"].as_str()?.to_string(), f["line"].as_u64()?)))
        .collect();
    assert!(!lines.contains(&place("src/lib.rs", 2)), "{lines:?}");
}

#[test]
fn the_session_is_the_default_when_the_branch_has_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    branch_repo(repo);
    let run = review(repo, &[]);
    assert_eq!(run.json["scope"], "session:main", "stderr: {}", run.stderr);
    assert!(!paths(&run.json).contains("src/other.rs"));

    // Merged and clean: nothing changed, so the whole repository is reviewed.
    git(repo, &["add", "src"]);
    git(repo, &["commit", "-q", "-m", "new"]);
    git(repo, &["checkout", "-q", "main"]);
    git(repo, &["merge", "-q", "--ff-only", "feature"]);
    let whole = review(repo, &[]);
    assert_eq!(
        whole.json["scope"], "repository",
        "stderr: {}",
        whole.stderr
    );
    assert!(places(&whole.json, "holistic/todo-macro").contains(&place("src/other.rs", 2)));
}

#[test]
fn bad_session_and_dimension_input_is_one_error_line_and_exit_2() {
    let plain = tempfile::tempdir().expect("tempdir");
    let run = review(plain.path(), &["--base", "main"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("not a git repository"),
        "{}",
        run.stderr
    );

    let dir = tempfile::tempdir().expect("tempdir");
    branch_repo(dir.path());
    let run = review(dir.path(), &["--base", "no-such-branch"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("unknown base revision 'no-such-branch'"),
        "{}",
        run.stderr
    );

    let run = review(dir.path(), &["--dimensions", "security,speed"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown dimension 'speed'"),
        "{}",
        run.stderr
    );

    write(dir.path(), ".retake/decisions.yaml", "fingerprint: [\n");
    // The work tree's decisions count only when trusted: the change's own are not the gate's.
    let run = review(dir.path(), &["--trust-repo-config"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(".retake/decisions.yaml: "),
        "{}",
        run.stderr
    );
    let run = review(dir.path(), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.json["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .any(|n| n == ".retake/decisions.yaml: the change's edits are not applied — the review uses the file as it is at main"),
        "{}",
        run.json
    );
}

/// A scripted agent (the test's own shell script; retake itself never uses a shell).
fn agent_script(dir: &Path, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("agent.sh");
    std::fs::write(&path, format!("#!/bin/sh\ncat > /dev/null\n{body}\n")).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_string_lossy().into_owned()
}

#[test]
fn agent_findings_are_merged_with_the_builtin_ones_under_both() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tools = tempfile::tempdir().expect("tools");
    let repo = dir.path();
    write(repo, "src/lib.rs", "pub fn a() {\n    todo!()\n}\n");
    let agent = agent_script(
        tools.path(),
        "printf 'VERDICT:CONDITIONAL\\nISSUES:\\nH|resource-leak|src/lib.rs:1|socket never closed\\n'",
    );
    write(
        repo,
        "retake.toml",
        &format!("[inspector.holistic]\nbackend = \"both\"\n[agent]\ncommand = [\"{agent}\"]\ntimeout_secs = 20\n"),
    );
    // Not a git repository: its retake.toml sets an agent only when trusted.
    let run = review_with(repo, &["--trust-repo-config"]);
    assert_eq!(run.code, 1, "stderr: {}\njson: {}", run.stderr, run.json);
    let agents: BTreeSet<String> = run.json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .flat_map(|f| f["agents"].as_array().cloned().unwrap_or_default())
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect();
    assert!(agents.contains("holistic-agent"), "{agents:?}");
    assert!(agents.contains("inspector-holistic"), "{agents:?}");
    assert_eq!(
        places(&run.json, "cpf/resource-leak"),
        BTreeSet::from([place("src/lib.rs", 1)])
    );
}

#[test]
fn an_agent_that_prints_garbage_leaves_its_inspector_failed_not_clean() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tools = tempfile::tempdir().expect("tools");
    let repo = dir.path();
    write(repo, "src/lib.rs", "pub fn a() -> u8 {\n    1\n}\n");
    let calls = tools.path().join("calls");
    let agent = agent_script(
        tools.path(),
        &format!(
            "echo x >> '{}'\necho 'I found nothing worth reporting.'",
            calls.display()
        ),
    );
    write(
        repo,
        "retake.toml",
        &format!("[inspector.holistic]\nbackend = \"agent\"\n[agent]\ncommand = [\"{agent}\"]\ntimeout_secs = 20\n"),
    );
    // Not a git repository: its retake.toml sets an agent only when trusted.
    let run = review_with(repo, &["--trust-repo-config"]);
    let holistic = &run.json["coverage"]["inspector-holistic"];
    assert_eq!(
        holistic["status"], "unavailable",
        "stderr: {}\njson: {}",
        run.stderr, run.json
    );
    let notes: Vec<&str> = run.json["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("PARTIAL:inspector-holistic|")),
        "{notes:?}"
    );
    assert!(
        run.stderr
            .contains("holistic-agent: no usable CPF in 2 attempt(s)"),
        "{}",
        run.stderr
    );
    // The coverage says why, and the Inspector is not re-spawned: a replacement would ask the
    // same agent the same prompt. Two attempts, never a report.
    let reason = holistic["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(
            "failed: agent output unusable: holistic-agent: no usable CPF in 2 attempt(s)"
        ),
        "{reason}"
    );
    let attempts = std::fs::read_to_string(&calls)
        .expect("calls")
        .lines()
        .count();
    assert_eq!(attempts, 2, "{attempts} attempts");
    let run_id = run.json["run_id"].as_str().expect("run id");
    let reports = repo.join(".retake/runs").join(run_id).join("reports");
    assert!(!reports.join("inspector-holistic.cpf").exists());
}
