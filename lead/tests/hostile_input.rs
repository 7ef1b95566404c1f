//! Hostile input against the real `retake` binary (issue #14): a file nested 50,000 braces deep
//! kills no Inspector and hides no other file's findings, an empty CPF report is an error rather
//! than a clean report, and a 20,000-task dependency chain in Plans.md is planned promptly.

mod support;
use support::copy_example;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn retake(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .output()
        .expect("run retake")
}

/// `examples/shop-nogo` copied into `dir` (no journal of earlier reviews).
fn shop_copy(dir: &Path) -> std::path::PathBuf {
    let repo = dir.join("shop");
    copy_example("shop-nogo", &repo);
    repo
}

#[test]
fn fifty_thousand_nested_braces_are_listed_unreviewed_and_every_inspector_survives() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = shop_copy(dir.path());
    let deep = format!(
        "pub fn table() {}{}\n",
        "{".repeat(50_000),
        "}".repeat(50_000)
    );
    std::fs::write(repo.join("src/table.rs"), deep).expect("write table.rs");
    let repo = repo.to_str().expect("utf-8 path");

    let out = retake(&["review", repo, "--no-exec", "--format", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "NO-GO: {stderr}");
    assert!(!stderr.contains("overflowed its stack"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "NO-GO");

    // Coverage 6/6: every Inspector reported, none was replaced, each lists the file as skipped.
    let coverage = json["coverage"].as_object().expect("coverage");
    assert_eq!(coverage.len(), 6, "{json}");
    for (inspector, c) in coverage {
        assert_eq!(c["status"], "ok", "{inspector}: {c}");
        assert_eq!(json["restarts"][inspector], 0, "{inspector} was replaced");
        assert_eq!(
            c["files_skipped"],
            serde_json::json!([{
                "path": "src/table.rs",
                "reason": "not analysable: brackets nested deeper than 256 at line 1"
            }]),
            "{inspector}"
        );
    }

    let findings = json["findings"].as_array().expect("findings");
    let on = |path: &str, rule: &str| {
        findings
            .iter()
            .filter(|f| f["path"] == path && f["rule"] == rule)
            .collect::<Vec<_>>()
    };
    // The other files' findings stay: the todo!() in orders.rs is still Critical.
    let todo = on("src/orders.rs", "holistic/todo-macro");
    assert_eq!(todo.len(), 1, "{json}");
    assert_eq!(todo[0]["severity"], "C");
    assert_eq!(todo[0]["line"], 30);
    // The deep file: one Low unreviewed-file finding, and it is not called broken.
    let unreviewed = on("src/table.rs", "quality/unreviewed-file");
    assert_eq!(unreviewed.len(), 1, "{json}");
    assert_eq!(unreviewed[0]["severity"], "L");
    assert_eq!(
        unreviewed[0]["description"],
        "not reviewed: brackets nested deeper than 256"
    );
    assert!(on("src/table.rs", "quality/incomplete-syntax").is_empty());

    // The review cycle looks up the function enclosing each finding in the Lead itself: the
    // deep file's finding must not take the Lead down either.
    let cycle = retake(&["review", repo, "--no-exec", "--dimensions", "quality"]);
    let stderr = String::from_utf8_lossy(&cycle.stderr);
    assert_eq!(cycle.status.code(), Some(1), "NO-GO: {stderr}");
    assert!(!stderr.contains("overflowed its stack"), "{stderr}");
}

#[test]
fn an_empty_cpf_report_is_one_error_line_naming_the_file_and_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, body) in [
        ("empty.cpf", ""),
        ("rowless.cpf", "SCOPE:orders\nISSUES:\n"),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, body).expect("write cpf");
        let out = retake(&["audit", file.to_str().expect("utf-8 path")]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}: no verdict printed");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("{name}: line "))
                && stderr.contains(
                    "an empty Inspector report: no VERDICT, no ISSUES row and no NOTES line"
                ),
            "{stderr}"
        );
    }
}

#[test]
fn a_twenty_thousand_task_dependency_chain_is_planned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut plan = String::from("# Plan\n- 1. Task 1 cc:TODO owns: `src/f1.rs`\n");
    for i in 2..=20_000 {
        plan.push_str(&format!(
            "- {i}. Task {i} cc:TODO owns: `src/f{i}.rs` depends: {}\n",
            i - 1
        ));
    }
    std::fs::write(dir.path().join("Plans.md"), plan).expect("write Plans.md");
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["run", "--dry-run"])
        .current_dir(dir.path())
        .output()
        .expect("run retake");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("20000 tasks (1 independent) with 1 Implementer in parallel."),
        "{}",
        stdout.lines().rev().take(8).collect::<Vec<_>>().join("\n")
    );
    // A hang detector, not a speed target (BENCHMARKS.md has the measurement): the quadratic
    // plan checks did not finish in 60 s.
    assert!(started.elapsed() < Duration::from_secs(60));
}
