//! `retake fix` judges what its fixer did, with the real binary: a Python repository whose
//! review (run in process with the inspector crate, so the findings are the rules' own) holds
//! one `quality/todo-marker` finding and one repository-wide finding, fixed by script
//! executors that each misbehave in one way.
//!
//! Expected: a fixer that changes nothing, one that leaves a Python syntax error, one that
//! only appends a suppression, and one that creates a file outside its group and fails are
//! each rejected on every attempt with a reason saying so (exit 5), and the tree afterwards
//! is exactly the committed one — the created file gone; a real fix commits and is the only
//! finding `fix-summary.md` calls fixed, with the repository-wide finding listed as no task.

use protocol::{Coverage, InspectorKind, InspectorReport, Location, Scope, Severity};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CALC_PY: &str = "def area(r):\n    # TODO: use math.pi\n    return 3 * r * r\n";
const RUN_ID: &str = "20260301T120000Z-fixjdg";

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The repository with its fixer script, committed, and its review folder.
fn fixture(root: &Path, fixer: &str) -> (PathBuf, PathBuf) {
    let repo = root.join("repo");
    std::fs::create_dir_all(repo.join("app")).expect("mkdir");
    std::fs::write(repo.join("app/calc.py"), CALC_PY).expect("write");
    let script = root.join("fixer.sh");
    std::fs::write(&script, format!("#!/bin/sh\nset -e\n{fixer}\n")).expect("write");
    std::fs::write(
        repo.join("retake.toml"),
        format!(
            "[executor]\nkind = \"script\"\ncommand = [\"sh\", \"{}\"]\n\n[test]\ncommand = [\"true\"]",
            script.display()
        ),
    )
    .expect("write");
    git(&repo, &["init", "-q"]);
    git(&repo, &["config", "user.name", "Fixer"]);
    git(&repo, &["config", "user.email", "fixer@example.com"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "init"]);

    let mut ctx = inspector::Context::build(
        &repo,
        &Scope::repository(),
        // The TODO marker is a pedantic rule's finding.
        &protocol::message::InspectOptions {
            profile: protocol::message::RuleProfile::Pedantic,
            ..protocol::message::InspectOptions::default()
        },
    )
    .expect("context");
    let mut findings: Vec<protocol::Finding> = inspector::inspect(
        InspectorKind::Quality,
        &mut ctx,
        "inspector-quality",
        RUN_ID,
    )
    .findings
    .into_iter()
    .filter(|f| f.rule == "quality/todo-marker")
    .collect();
    assert_eq!(findings.len(), 1, "{findings:?}");
    findings.push(protocol::Finding::new(
        "inspector-quality",
        "test/missing-integration-tests",
        "missing-integration-tests",
        Severity::Medium,
        Location::file(""),
        "no integration tests drive the code",
        "integration",
    ));
    let review = repo.join(".retake/runs").join(RUN_ID);
    std::fs::create_dir_all(review.join("reports")).expect("mkdir");
    let report = InspectorReport {
        review: RUN_ID.into(),
        inspector: "inspector-quality".into(),
        kind: Some(InspectorKind::Quality),
        scope: "repository".into(),
        findings,
        notes: vec![],
        claims: vec![],
        coverage: Coverage::default(),
        preexisting: Vec::new(),
    };
    std::fs::write(
        review.join("reports/inspector-quality.json"),
        serde_json::to_vec_pretty(&report).expect("json"),
    )
    .expect("write");
    (repo, review)
}

fn fix(repo: &Path, review: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["fix", &review.to_string_lossy()])
        .current_dir(repo)
        .env("HOME", repo.parent().expect("parent"))
        .output()
        .expect("run retake")
}

/// Runs `fixer` as the executor: (exit code, stderr, fix-summary.md).
fn run(fixer: &str) -> (tempfile::TempDir, PathBuf, Option<i32>, String, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, review) = fixture(tmp.path(), fixer);
    let ran = fix(&repo, &review);
    let stderr = String::from_utf8_lossy(&ran.stderr).into_owned();
    let summary = std::fs::read_to_string(review.join("fix-summary.md")).unwrap_or_default();
    (tmp, repo, ran.status.code(), stderr, summary)
}

/// The tree is the committed one: nothing modified, nothing new but retake's own state.
fn assert_clean(repo: &Path) {
    let status = git(repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(
        status.lines().all(|l| l.starts_with("?? .retake/")),
        "{status}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("app/calc.py")).expect("calc"),
        CALC_PY
    );
}

#[test]
fn a_fixer_that_changes_nothing_is_rejected() {
    let (_tmp, repo, code, stderr, summary) = run("echo 'Done. Everything is fixed.'");
    assert_eq!(code, Some(5), "{stderr}");
    assert!(
        stderr.contains("after 3 attempts: the fixer changed none of the group's files (Done. Everything is fixed.)"),
        "{stderr}"
    );
    assert!(
        summary.contains("- Findings: 1 — fixed 0, failed 1, skipped 0\n"),
        "{summary}"
    );
    assert_clean(&repo);
}

#[test]
fn a_python_syntax_error_is_rejected_naming_the_file() {
    let (_tmp, repo, code, stderr, _) = run(
        "printf 'import math\\n\\n\\ndef area(r)\\n    return math.pi * r * r\\n' > app/calc.py",
    );
    assert_eq!(code, Some(5), "{stderr}");
    assert!(
        stderr.contains("the change does not hold up: syntax_error app/calc.py:4: `def area(r)` lacks the `:` that opens its block"),
        "{stderr}"
    );
    assert_clean(&repo);
}

#[test]
fn a_suppression_is_not_a_fix() {
    let (_tmp, repo, code, stderr, summary) = run(
        "sed -i 's|# TODO: use math.pi|# TODO: use math.pi  # retake-ignore: quality/todo-marker|' app/calc.py",
    );
    assert_eq!(code, Some(5), "{stderr}");
    assert!(
        stderr.contains("evasion app/calc.py: the change only adds suppressions"),
        "{stderr}"
    );
    assert!(
        stderr.contains("not_fixed app/calc.py:2: quality/todo-marker still reports"),
        "{stderr}"
    );
    assert!(summary.contains("fixed 0, failed 1"), "{summary}");
    assert_clean(&repo);
}

#[test]
fn files_a_failed_attempt_created_are_gone_after_the_rollback() {
    let (_tmp, repo, code, stderr, _) = run(
        "mkdir -p app/scratch\nprintf 'x = 1\\n' > app/scratch/notes.py\nprintf 'y\\n' > stray.txt\nexit 3",
    );
    assert_eq!(code, Some(5), "{stderr}");
    assert!(!repo.join("app/scratch/notes.py").exists());
    assert!(!repo.join("stray.txt").exists());
    assert_clean(&repo);
}

#[test]
fn a_real_fix_commits_and_is_the_only_one_called_fixed() {
    let (_tmp, repo, code, stderr, summary) = run(
        "printf 'import math\\n\\n\\ndef area(r):\\n    return math.pi * r * r\\n' > app/calc.py\nprintf 'scratch\\n' > notes.tmp\necho 'used math.pi'",
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        summary.contains("- Findings: 1 — fixed 1, failed 0, skipped 0\n"),
        "{summary}"
    );
    assert!(
        summary.contains("\n## Not tasks\n\n- test/missing-integration-tests (no integration tests drive the code) is repository-wide: no file to fix\n"),
        "{summary}"
    );
    assert_eq!(
        git(&repo, &["show", "--name-only", "--format=", "HEAD"]),
        "app/calc.py\n"
    );
    // The scratch file it left outside its group is removed, and is no reason to fail.
    assert!(!repo.join("notes.tmp").exists());
}

/// A chat completion whose answer is `content`.
fn completion(content: &str) -> String {
    serde_json::json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 200, "completion_tokens": 40}
    })
    .to_string()
}

/// The fixture with `[executor] kind = "chat"` asking a loopback endpoint that gives `replies`;
/// (exit code, stderr, fix-summary.md, the requests' bodies).
fn run_chat(
    replies: Vec<(u16, String)>,
) -> (
    tempfile::TempDir,
    PathBuf,
    Option<i32>,
    String,
    String,
    Vec<String>,
) {
    let (url, requests) = inspector::chat::testing::serve(replies);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, review) = fixture(tmp.path(), "exit 64");
    std::fs::write(
        repo.join("retake.toml"),
        format!(
            "[executor]\nkind = \"chat\"\nurl = \"{url}\"\nmodel = \"local\"\ntimeout_secs = 20\n\n[test]\ncommand = [\"true\"]"
        ),
    )
    .expect("write");
    git(&repo, &["commit", "-q", "-am", "the chat executor"]);
    let ran = fix(&repo, &review);
    let stderr = String::from_utf8_lossy(&ran.stderr).into_owned();
    let summary = std::fs::read_to_string(review.join("fix-summary.md")).unwrap_or_default();
    let bodies = requests.try_iter().map(|(_, body)| body).collect();
    (tmp, repo, ran.status.code(), stderr, summary, bodies)
}

#[test]
fn a_chat_executor_fixes_a_group_from_the_endpoints_whole_file() {
    let fixed = "import math\n\n\ndef area(r):\n    return math.pi * r * r\n";
    let answer = format!("FILE: app/calc.py\n```python\n{fixed}```\nUsed math.pi instead of 3.");
    let (_tmp, repo, code, stderr, summary, bodies) = run_chat(vec![(200, completion(&answer))]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        summary.contains("- Findings: 1 — fixed 1, failed 0, skipped 0\n"),
        "{summary}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("app/calc.py")).expect("calc"),
        fixed
    );
    assert_eq!(
        git(&repo, &["show", "--name-only", "--format=", "HEAD"]),
        "app/calc.py\n"
    );
    // The endpoint was sent the finding and the owned file's content.
    assert_eq!(bodies.len(), 1);
    assert!(bodies[0].contains("TODO: use math.pi"), "{}", bodies[0]);
}

#[test]
fn a_chat_answer_for_a_file_the_group_does_not_own_is_rejected_and_nothing_is_written() {
    let answer = "FILE: app/other.py\n```python\nprint('hi')\n```\nDone.";
    let replies = (0..3).map(|_| (200, completion(answer))).collect();
    let (_tmp, repo, code, stderr, summary, _) = run_chat(replies);
    assert_eq!(code, Some(5), "{stderr}");
    assert!(
        summary.contains("- Findings: 1 — fixed 0, failed 1, skipped 0\n"),
        "{summary}"
    );
    assert!(
        stderr.contains("after 3 attempts: the fixer's answer was not applied: ")
            && stderr.contains("app/other.py"),
        "{stderr}"
    );
    assert_clean(&repo);
}
