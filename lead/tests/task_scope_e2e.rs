//! A task-scoped review through the real binary: `retake review --feature orders --tasks 1` on a
//! copy of `examples/shop-go` judges task 1's file (`src/inventory.rs`) alone. The design's
//! functions of tasks 2 and 3 live in `src/orders.rs`, outside the scope, so they are neither
//! "not defined in the code" (a false Critical before) nor named by any finding.

mod support;
use support::copy_tree;

use std::path::Path;
use std::process::Command;

#[test]
fn a_task_review_reports_only_its_own_files_and_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("shop-go");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/shop-go"),
        &repo,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(&repo)
        .args(["--feature", "orders", "--tasks", "1", "--format", "json"])
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}\njson: {json}");
    assert_eq!(json["verdict"], "GO");
    assert_eq!(json["decision"], "APPROVE");
    assert_eq!(json["scope"], "orders tasks:1");
    let findings = json["findings"].as_array().expect("findings");
    let other_tasks = ["src/orders.rs", "place_order", "total", "refund"];
    let naming_others: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| {
            let text = f.to_string();
            other_tasks.iter().any(|name| text.contains(name))
        })
        .collect();
    assert_eq!(naming_others, Vec::<&serde_json::Value>::new());
    assert_eq!(findings.len(), 0, "{json}");
    // Nor a note: the design's interfaces of tasks 2 and 3 are no coverage gap of task 1.
    assert_eq!(json["notes"], serde_json::json!([]), "{json}");
    // The run journal and verdicts.md land in the copy, never in examples/.
    let md = std::fs::read_to_string(repo.join("specs/orders/verdicts.md")).expect("verdicts.md");
    assert!(md.contains("Verdict: GO (answered 1/1)"), "{md}");
}
