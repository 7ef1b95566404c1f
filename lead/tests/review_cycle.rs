//! The review cycle (the review-cycle spec, review side) end to end with the real binary: a crate written
//! here whose `src/store.rs` has findings in four dimensions (a hard-coded password: security;
//! five TODOs: quality and action-items; an `unwrap`: quality and best-practices), and whose
//! `open_store` is called from three other files; `src/api.rs` has one TODO (two dimensions).
//!
//! Expected: `retake review --dimensions security,quality,action-items,best-practices` keeps the
//! Auditor's verdict and exit code, and writes `.retake/reviews/<run-id>/` with the state,
//! the progress, one JSON and one Markdown report per dimension, and two deep-dive iterations
//! (5 picks, then the sixth); `retake fix` on that folder plans from the re-assessed severities.

mod support;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};
use support::write;

const DIMENSIONS: &str = "security,quality,action-items,best-practices";

const STORE: &str = r#"use std::collections::HashMap;

pub struct Store {
    pub items: HashMap<String, String>,
}

pub fn open_store(path: &str) -> Store {
    let password = "hunter2-production";
    // TODO: read the password from the environment
    let text = std::fs::read_to_string(path).unwrap();
    let _ = (password, text);
    Store { items: HashMap::new() }
}

pub fn lookup(store: &Store, key: &str) -> String {
    // TODO: cache lookups
    // TODO: log misses
    store.items.get(key).cloned().unwrap_or_default()
}

pub fn evict(store: &mut Store, key: &str) {
    // TODO: evict in batches
    store.items.remove(key);
}
"#;

const API: &str = "use crate::store::open_store;\n\npub fn serve(path: &str) -> usize {\n    // TODO: serve over HTTP\n    let s = open_store(path);\n    s.items.len()\n}\n";

fn git(repo: &Path, args: &[&str]) {
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
}

/// The crate, committed by "Ada". Rules that would add findings unrelated to the planted
/// ones (missing test files, hard-coded paths) are disabled so that the counts are exact.
fn planted(repo: &Path) {
    write(
        repo,
        "Cargo.toml",
        "[package]\nname = \"vault\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(repo, "retake.toml", "[rules]\nprofile = \"pedantic\"\ndisable = [\"test/missing-test-file\", \"test/missing-integration-tests\", \"holistic/hardcoded-path\"]\n");
    write(repo, ".gitignore", "/.retake/\n/target\n");
    write(
        repo,
        "src/lib.rs",
        "pub mod store;\npub mod api;\npub mod admin;\npub mod report;\n",
    );
    write(repo, "src/store.rs", STORE);
    write(repo, "src/api.rs", API);
    write(repo, "src/admin.rs", "pub fn reset(path: &str) -> usize {\n    let s = crate::store::open_store(path);\n    s.items.len()\n}\n");
    write(
        repo,
        "src/report.rs",
        "pub fn build(path: &str) -> usize {\n    crate::store::open_store(path).items.len()\n}\n",
    );
    git(repo, &["init", "-q"]);
    git(repo, &["config", "user.name", "Ada"]);
    git(repo, &["config", "user.email", "ada@example.com"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "vault: first cut"]);
}

fn retake(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .current_dir(repo)
        .output()
        .expect("run retake")
}

fn review(repo: &Path, extra: &[&str]) -> (Output, Value) {
    let mut args = vec![
        "review",
        ".",
        "--no-exec",
        "--runtime",
        "inproc",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = retake(repo, &args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, json)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("json")
}

fn files_under(dir: &Path, sub: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir.join(sub))
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect()
}

fn dist(critical: u64, high: u64, medium: u64, low: u64) -> Value {
    json!({"critical": critical, "high": high, "medium": medium, "low": low,
           "total": critical + high + medium + low})
}

fn picked(iteration: &Value) -> Vec<(String, String, String)> {
    iteration["picked"]
        .as_array()
        .expect("picked")
        .iter()
        .map(|p| {
            let s = |k: &str| p[k].as_str().expect("string").to_string();
            (s("location"), s("severity_before"), s("severity_after"))
        })
        .collect()
}

#[test]
fn a_dimension_review_writes_the_cycle_and_fix_reads_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path();
    planted(repo);
    let (out, report) = review(repo, &["--dimensions", DIMENSIONS]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The verdict and the exit code are the Auditor's: the credential stays High in the report
    // although the review cycle raised it to Critical.
    assert_eq!(out.status.code(), Some(0), "{stderr}\n{report}");
    assert_eq!(report["verdict"], "GO");
    let credential = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["rule"] == "holistic/hardcoded-credential")
        .expect("credential");
    assert_eq!(credential["severity"], "H");
    let run_id = report["run_id"].as_str().expect("run id");
    let dir = repo.join(".retake/reviews").join(run_id);
    assert!(
        stderr.contains(&format!("retake: review cycle: {}", dir.display())),
        "{stderr}"
    );

    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        files_under(&dir, "."),
        names(&[
            "dimensions",
            "iterations",
            "reports",
            "review-progress.json",
            "review-state.json"
        ])
    );
    assert_eq!(
        files_under(&dir, "dimensions"),
        names(&[
            "action-items.json",
            "best-practices.json",
            "quality.json",
            "security.json"
        ])
    );
    assert_eq!(
        files_under(&dir, "reports"),
        names(&[
            "action-items-analysis.md",
            "best-practices-analysis.md",
            "quality-analysis.md",
            "review-cycle.json",
            "security-analysis.md"
        ])
    );
    assert_eq!(
        files_under(&dir, "iterations"),
        names(&["1.json", "2.json"])
    );

    let state = read_json(&dir.join("review-state.json"));
    assert_eq!(state["auditor_verdict"], "GO");
    assert_eq!(
        state["dimensions"],
        json!(["security", "quality", "action-items", "best-practices"])
    );
    assert_eq!(state["findings_total"], 7);
    assert_eq!(state["initial"]["overall"], dist(0, 1, 6, 0));
    assert_eq!(state["final"]["overall"], dist(1, 5, 1, 0));
    assert_eq!(
        state["initial"]["critical_files"],
        json!([{"path": "src/store.rs",
                "dimensions": ["security", "quality", "action-items", "best-practices"],
                "findings": 6}])
    );
    let by_dim = &state["initial"]["by_dimension"];
    assert_eq!(by_dim["security"], dist(0, 1, 0, 0));
    assert_eq!(by_dim["quality"], dist(0, 0, 6, 0));
    assert_eq!(by_dim["action-items"], dist(0, 0, 5, 0));
    assert_eq!(by_dim["best-practices"], dist(0, 0, 1, 0));
    assert_eq!(
        state["deep_dive"],
        json!({"triggered": true, "reasons": ["critical files"]})
    );
    assert_eq!(state["iterations_run"], 2);
    assert_eq!(state["stop_reason"], "no-candidates");
    assert_eq!(
        state["severity_changes"].as_array().expect("changes").len(),
        6
    );

    let progress = read_json(&dir.join("review-progress.json"));
    assert_eq!(progress["current_phase"], "complete");
    assert_eq!(
        progress["phases"][3],
        json!({"phase": "deep-dive", "status": "completed", "iterations": 2, "max_iterations": 3})
    );

    let security = read_json(&dir.join("dimensions/security.json"));
    assert_eq!(security["summary"], dist(1, 0, 0, 0));
    assert_eq!(security["initial_summary"], dist(0, 1, 0, 0));
    assert_eq!(security["critical_files"], json!(["src/store.rs"]));
    assert_eq!(
        security["findings"][0]["rule"],
        "holistic/hardcoded-credential"
    );
    assert_eq!(security["findings"][0]["severity"], "C");
    assert_eq!(security["findings"][0]["initial_severity"], "H");
    let action = read_json(&dir.join("dimensions/action-items.json"));
    assert_eq!(action["findings"].as_array().expect("findings").len(), 5);
    assert_eq!(
        action["summary"],
        dist(0, 4, 1, 0),
        "api.rs's TODO is no candidate: it stays Medium"
    );

    // Iteration 1: the High first, then the Mediums of the critical file by line, 5 at most.
    let first = read_json(&dir.join("iterations/1.json"));
    let s = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        picked(&first),
        vec![
            s("src/store.rs:8", "H", "C"),
            s("src/store.rs:9", "M", "H"),
            s("src/store.rs:10", "M", "H"),
            s("src/store.rs:16", "M", "H"),
            s("src/store.rs:17", "M", "H"),
        ]
    );
    let root = &first["picked"][0];
    assert_eq!(
        root["enclosing_function"],
        json!({"name": "open_store", "start": 7, "end": 13, "test": false})
    );
    assert_eq!(root["callers"]["files"], 3);
    let callers: BTreeSet<&str> = root["callers"]["sites"]
        .as_array()
        .expect("sites")
        .iter()
        .map(|c| c["path"].as_str().expect("path"))
        .collect();
    assert_eq!(
        callers,
        ["src/admin.rs", "src/api.rs", "src/report.rs"]
            .into_iter()
            .collect()
    );
    assert_eq!(root["last_change"]["commit"]["author"], "Ada");
    assert_eq!(root["last_change"]["commit"]["summary"], "vault: first cut");
    assert_eq!(
        first["severity_changes"][0]["reason"],
        "on a critical file; 2 related findings; callers in 3 files"
    );
    let second = read_json(&dir.join("iterations/2.json"));
    assert_eq!(picked(&second), vec![s("src/store.rs:22", "M", "H")]);
    assert_eq!(second["trigger"], json!(["critical > 0", "critical files"]));

    let md = std::fs::read_to_string(dir.join("reports/security-analysis.md")).expect("md");
    assert!(
        md.contains("| Critical | High | `holistic/hardcoded-credential` | `src/store.rs:8` |"),
        "{md}"
    );
    assert!(md.contains("The Auditor's verdict: GO"), "{md}");

    // `retake fix` accepts the folder and plans from the re-assessed severities.
    let folder = format!(".retake/reviews/{run_id}");
    let fix = retake(repo, &["fix", &folder, "--dry-run"]);
    let fix_out = String::from_utf8_lossy(&fix.stdout);
    assert_eq!(
        fix.status.code(),
        Some(0),
        "{fix_out}\n{}",
        String::from_utf8_lossy(&fix.stderr)
    );
    assert!(fix_out.starts_with("dry run: 7 finding(s)"), "{fix_out}");
    let mut priorities = Vec::new();
    for n in 1..=7 {
        let task = read_json(&dir.join(format!(".task/FIX-{n:03}.json")));
        priorities.push(format!(
            "{}@{}",
            task["priority"].as_str().expect("priority"),
            task["title"].as_str().expect("title")
        ));
    }
    assert!(
        priorities
            .contains(&"critical@Fix holistic/hardcoded-credential at src/store.rs:8".to_string()),
        "{priorities:?}"
    );
    assert!(
        priorities.contains(&"medium@Fix quality/todo-marker at src/api.rs:4".to_string()),
        "{priorities:?}"
    );
    let plan = read_json(&dir.join("plan.json"));
    assert_eq!(plan["task_count"], 7);
}

#[test]
fn max_iterations_bounds_the_deep_dive_and_needs_dimensions() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path();
    planted(repo);
    let (out, report) = review(repo, &["--dimensions", DIMENSIONS, "--max-iterations", "1"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = repo
        .join(".retake/reviews")
        .join(report["run_id"].as_str().expect("run id"));
    let state = read_json(&dir.join("review-state.json"));
    assert_eq!(state["iterations_run"], 1);
    assert_eq!(state["max_iterations"], 1);
    assert_eq!(state["stop_reason"], "max-iterations");
    assert_eq!(state["final"]["overall"], dist(1, 4, 2, 0));
    assert_eq!(files_under(&dir, "iterations").len(), 1);

    // Without dimensions there is no review cycle: no folder, and the flag is bad input.
    let (plain, _) = review(repo, &[]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(
        std::fs::read_dir(repo.join(".retake/reviews"))
            .expect("reviews")
            .count(),
        1
    );
    let (bad, _) = review(repo, &["--max-iterations", "2"]);
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--max-iterations applies to the review cycle"),
        "{stderr}"
    );
}
