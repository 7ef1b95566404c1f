//! `retake review` end to end on a repository it has never seen, built here with planted defects:
//! across processes (`local`) and in one process (`inproc`), with journals, verdicts.md, exit
//! codes, and no process left behind.

mod support;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use support::write;

/// A small ledger crate with one planted defect per Inspector angle.
fn planted_repo(root: &Path) {
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"ledger\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        root,
        "src/lib.rs",
        "pub mod accounts;\npub mod export;\npub mod sync;\n",
    );
    write(
        root,
        "src/accounts.rs",
        r#"use std::fmt;

#[derive(Debug)]
pub enum AccountError {
    Empty,
}

impl fmt::Display for AccountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "empty owner")
    }
}

impl std::error::Error for AccountError {}

pub struct Account {
    pub owner: String,
    pub limit: i64,
}

pub fn open_account(owner: &str, limit: i64) -> Result<Account, AccountError> {
    // TODO: validate the limit against the bank's policy
    if owner.is_empty() {
        return Err(AccountError::Empty);
    }
    Ok(Account { owner: owner.to_string(), limit })
}

pub fn balance_after(start: i64, change: i64) -> i64 {
    start - change
}
"#,
    );
    write(
        root,
        "src/export.rs",
        r#"use std::fmt;

#[derive(Debug)]
pub enum ExportError {
    Closed,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ledger closed")
    }
}

impl std::error::Error for ExportError {}

pub fn export_csv(rows: &[(String, i64)]) -> Result<String, ExportError> {
    let _ = rows;
    todo!("CSV export")
}
"#,
    );
    write(
        root,
        "src/sync.rs",
        r#"use std::sync::Mutex;

async fn push(line: &str) -> Result<(), Box<dyn std::error::Error>> {
    let _ = line;
    Ok(())
}

pub async fn flush(queue: &Mutex<Vec<String>>) -> Result<usize, Box<dyn std::error::Error>> {
    let pending = queue.lock().unwrap();
    for line in pending.iter() {
        push(line).await?;
    }
    Ok(pending.len())
}
"#,
    );
    write(
        root,
        "tests/ledger.rs",
        "#[test]\nfn adding_money_raises_the_balance() {\n    assert_eq!(ledger::accounts::balance_after(100, 20), 120);\n}\n",
    );
    write(root, "specs/ledger/spec.yaml", "feature: ledger\nversion: 1\nphase: tasks-generated\nfiles:\n  - src/accounts.rs\n  - src/export.rs\n");
    write(
        root,
        "specs/ledger/tasks.yaml",
        "tasks:\n  - id: 1\n    title: Open accounts\n    done: true\n    files: [src/accounts.rs]\n  - id: 2\n    title: Export the ledger as CSV\n    done: false\n    files: [src/export.rs]\n",
    );
    write(
        root,
        "specs/ledger/design.md",
        "# Design: ledger\n\n## Components\n\n| Component | Files |\n|---|---|\n| Accounts | `src/accounts.rs` |\n| Export | `src/export.rs` |\n\n### Spec 1: Accounts\n1. `open_account` opens an account with a credit limit.\n\n```rust\npub fn open_account(owner: &str, limit: u64) -> Result<Account, AccountError>;\n```\n",
    );
}

struct Run {
    code: i32,
    json: serde_json::Value,
    stderr: String,
}

fn review(repo: &Path, runtime: &str, tag: &str) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--runtime", runtime, "--format", "json"])
        .env("RETAKE_E2E_TAG", tag)
        .output()
        .expect("run retake");
    Run {
        code: out.status.code().expect("exit code"),
        json: serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Processes still carrying this test's tag in their environment (children inherit it).
fn leftovers(tag: &str) -> Vec<String> {
    let needle = format!("RETAKE_E2E_TAG={tag}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

fn inspector_kinds(json: &serde_json::Value) -> BTreeSet<String> {
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .flat_map(|f| f["agents"].as_array().cloned().unwrap_or_default())
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect()
}

#[test]
fn planted_defects_give_no_go_from_five_kinds_in_both_runtimes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    planted_repo(repo);
    let tag = format!("e2e-{}", std::process::id());

    let local = review(repo, "local", &tag);
    assert_eq!(
        local.code, 1,
        "stderr: {}\njson: {}",
        local.stderr, local.json
    );
    assert_eq!(local.json["verdict"], "NO-GO");
    let kinds = inspector_kinds(&local.json);
    assert!(kinds.len() >= 5, "findings from {kinds:?}");
    let rules: BTreeSet<&str> = local.json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    // (`quality/todo-marker`, planted too, is a pedantic rule.)
    for rule in [
        "consistency/error-type-pattern",
        "holistic/todo-macro",
        "holistic/lock-across-await",
        "interface/signature-mismatch",
        "rulebase/task-incomplete",
        "test/test-failure",
    ] {
        assert!(rules.contains(rule), "{rule} missing from {rules:?}");
    }
    let run_id = local.json["run_id"].as_str().expect("run id");
    let reports = repo.join(".retake/runs").join(run_id).join("reports");
    let mut journaled: Vec<String> = std::fs::read_dir(&reports)
        .expect("reports")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".cpf"))
        .collect();
    journaled.sort();
    assert_eq!(
        journaled,
        [
            "consistency",
            "holistic",
            "interface",
            "quality",
            "rulebase",
            "test"
        ]
        .map(|k| format!("inspector-{k}.cpf"))
        .to_vec()
    );
    let verdict_cpf =
        std::fs::read_to_string(repo.join(".retake/runs").join(run_id).join("verdict.cpf"))
            .expect("verdict");
    assert!(verdict_cpf.starts_with("VERDICT:NO-GO\n"), "{verdict_cpf}");
    let md = std::fs::read_to_string(repo.join(".retake/verdicts.md")).expect("verdicts.md");
    assert!(md.contains("## [B1] impl |"), "{md}");
    assert!(
        leftovers(&tag).is_empty(),
        "retake processes left: {:?}",
        leftovers(&tag)
    );

    let inproc = review(repo, "inproc", &tag);
    assert_eq!(inproc.code, 1, "stderr: {}", inproc.stderr);
    assert_eq!(inproc.json["verdict"], "NO-GO");
    let fingerprints = |j: &serde_json::Value| -> BTreeSet<String> {
        j["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter_map(|f| f["fingerprint"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(
        fingerprints(&local.json),
        fingerprints(&inproc.json),
        "same findings in both runtimes"
    );
    let md = std::fs::read_to_string(repo.join(".retake/verdicts.md")).expect("verdicts.md");
    assert!(md.contains("## [B2] impl |"), "a second batch is appended");
    assert!(
        leftovers(&tag).is_empty(),
        "retake processes left: {:?}",
        leftovers(&tag)
    );
}

#[test]
fn a_clean_repository_passes_with_go() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    write(
        repo,
        "Cargo.toml",
        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        repo,
        "src/lib.rs",
        "/// Adds two numbers.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
    );
    write(
        repo,
        "tests/add.rs",
        "#[test]\nfn adds() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n",
    );
    let run = review(repo, "local", "go-case");
    assert_eq!(run.code, 0, "stderr: {}\njson: {}", run.stderr, run.json);
    assert_eq!(run.json["verdict"], "GO");
    assert_eq!(run.json["decision"], "APPROVE");
}

#[test]
fn bad_input_is_one_error_line_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["review", "/nonexistent/repo"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("/nonexistent/repo"), "{stderr}");

    let dir = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(dir.path())
        .args(["--paths", "src/[a"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid glob 'src/[a'"));

    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(dir.path())
        .args(["--feature", "payments"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Spec 'payments' not found"));
}

#[test]
fn consensus_runs_three_pipelines_each_journaled_and_aggregates_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    planted_repo(repo);
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--consensus", "3", "--no-exec", "--format", "json"])
        .output()
        .expect("run retake");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json["verdict"], "NO-GO");
    let notes: Vec<&str> = json["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert_eq!(
        notes[0],
        "CONSENSUS:3/3 pipelines answered|threshold 2/3; 0 noise"
    );
    let run = repo
        .join(".retake/runs")
        .join(json["run_id"].as_str().expect("run id"));
    for k in 1..=3 {
        let reports = std::fs::read_dir(run.join(format!("pipeline-{k}/reports")))
            .expect("reports")
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "cpf"))
            })
            .count();
        assert_eq!(reports, 6, "pipeline {k}");
        let verdict = std::fs::read_to_string(run.join(format!("pipeline-{k}/verdict.cpf")))
            .expect("verdict");
        assert!(verdict.starts_with("VERDICT:NO-GO"));
    }
    let md = std::fs::read_to_string(repo.join(".retake/verdicts.md")).expect("verdicts.md");
    assert!(md.contains("| runs:3 | threshold:2/3"), "{md}");
    assert!(md.contains("#### V3"), "{md}");
}
