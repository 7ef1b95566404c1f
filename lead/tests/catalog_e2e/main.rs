//! The rule catalog on a repository it has never seen: a small billing crate with sixteen planted
//! defects, spread over the six Inspectors, reviewed by the real `retake` binary. At least 14 of
//! them must be found, each by the right Inspector (the finding's `agents`) in the right file.

mod planted;
#[path = "../support/mod.rs"]
mod support;

use std::process::Command;

/// One planted defect: what it is, the rule expected to find it (whose `kind/` prefix names the
/// Inspector that owns it) and the file the finding must point at.
type Planted = (&'static str, &'static str, &'static str);

const DEFECTS: [Planted; 16] = [
    (
        "unfinished task",
        "rulebase/task-incomplete",
        "specs/billing/tasks.yaml",
    ),
    (
        "declared file missing",
        "rulebase/file-missing",
        "specs/billing/design.md",
    ),
    (
        "phase vs tasks mismatch",
        "rulebase/metadata-mismatch",
        "specs/billing/spec.yaml",
    ),
    (
        "signature differs from design",
        "interface/signature-mismatch",
        "src/invoice.rs",
    ),
    (
        "call with the wrong arity",
        "interface/call-site-error",
        "src/export.rs",
    ),
    ("failing test", "test/test-failure", "tests/invoices.rs"),
    (
        "tautological assertion",
        "test/weak-assertion",
        "src/discount.rs",
    ),
    ("TODO marker", "quality/todo-marker", "src/invoice.rs"),
    (
        "swallowed error",
        "quality/swallowed-error",
        "src/storage.rs",
    ),
    (
        "unwrap in library code",
        "quality/unwrap-in-library",
        "src/config.rs",
    ),
    (
        "opaque error type",
        "consistency/error-type-pattern",
        "src/refunds.rs",
    ),
    (
        "printing among loggers",
        "consistency/logging-pattern",
        "src/notify.rs",
    ),
    ("todo!() left in", "holistic/todo-macro", "src/refunds.rs"),
    (
        "std lock across .await",
        "holistic/lock-across-await",
        "src/notify.rs",
    ),
    (
        "hard-coded credential",
        "holistic/hardcoded-credential",
        "src/gateway.rs",
    ),
    (
        "SQL built with format!",
        "holistic/sql-injection",
        "src/storage.rs",
    ),
];

/// The Inspector kind that owns a rule: its id's prefix (`quality/todo-marker` → `quality`).
fn inspector_of(rule: &str) -> &str {
    rule.split('/').next().unwrap_or(rule)
}

/// Whether a finding of the review is the planted defect: its rule, its file, and the owning
/// Inspector among the agents that reported it.
fn finds(finding: &serde_json::Value, &(_, rule, path): &Planted) -> bool {
    let inspector = format!("inspector-{}", inspector_of(rule));
    finding["rule"] == rule
        && finding["path"] == path
        && finding["agents"]
            .as_array()
            .is_some_and(|agents| agents.iter().any(|a| a == inspector.as_str()))
}

#[test]
fn the_catalog_finds_at_least_14_of_16_planted_defects() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    planted::planted_repo(repo);
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--format", "json"])
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}); stderr: {stderr}"));
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert_eq!(json["verdict"], "NO-GO");
    let findings = json["findings"].as_array().expect("findings");
    let mut missed = Vec::new();
    for defect @ (what, rule, path) in &DEFECTS {
        let found = findings.iter().any(|f| finds(f, defect));
        println!(
            "{:<5} {:<12} {:<32} {:<26} {what}",
            if found { "found" } else { "MISS" },
            inspector_of(rule),
            rule,
            path,
        );
        if !found {
            missed.push(*what);
        }
    }
    println!("missed: {missed:?}");
    for f in findings {
        println!(
            "  {} {} {}:{} {}",
            f["severity"].as_str().unwrap_or("?"),
            f["rule"].as_str().unwrap_or("?"),
            f["path"].as_str().unwrap_or("?"),
            f["line"],
            f["description"].as_str().unwrap_or("?")
        );
    }
    assert!(
        missed.len() <= 2,
        "{} of 16 planted defects missed: {missed:?}\nfindings: {}",
        missed.len(),
        serde_json::to_string_pretty(findings).unwrap_or_default()
    );
}
