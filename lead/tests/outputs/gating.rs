//! Exit codes: `--fail-level`, and `--baseline` with `--new-only`.

use super::{
    audit, code, cpf_dir, fingerprints, pedantic_review, repo, stdout_json, write, FOUR_SEVERITIES,
};
use serde_json::Value;

#[test]
fn fail_level_fails_findings_at_or_above_it_even_on_go() {
    let cpf = cpf_dir(&[(
        "quality.cpf",
        "VERDICT:GO\nISSUES:\nM|incomplete|src/a.rs:3|TODO left\n",
    )]);
    let run = |level: &str| {
        code(&audit(
            cpf.path(),
            &["--format", "json", "--fail-level", level],
        ))
    };
    assert_eq!(
        code(&audit(cpf.path(), &["--format", "json"])),
        0,
        "GO, no fail level"
    );
    assert_eq!(run("M"), 1);
    assert_eq!(run("l"), 1, "case-insensitive");
    assert_eq!(run("H"), 0);
    assert_eq!(run("none"), 0);
    assert_eq!(run("X"), 2);
}

#[test]
fn baseline_marks_an_unchanged_rerun_unchanged_and_new_only_passes() {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let outs = tempfile::tempdir().expect("tempdir");
    let first = pedantic_review(
        dir.path(),
        &[
            "--format",
            "json",
            "--format",
            "sarif",
            "--output",
            outs.path().to_str().expect("utf-8"),
        ],
    );
    assert_eq!(code(&first), 1);
    let first_json = outs.path().join("retake.json");
    let baseline: Value =
        serde_json::from_str(&std::fs::read_to_string(&first_json).expect("read")).expect("json");
    let again = pedantic_review(
        dir.path(),
        &[
            "--format",
            "json",
            "--baseline",
            first_json.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(code(&again), 1, "without --new-only the NO-GO still gates");
    let report = stdout_json(&again);
    assert_eq!(fingerprints(&report), fingerprints(&baseline));
    assert!(report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .all(|f| f["baseline"] == "unchanged"));
    assert_eq!(report["absent"], serde_json::json!([]));
    let gated = pedantic_review(
        dir.path(),
        &[
            "--format",
            "json",
            "--baseline",
            first_json.to_str().expect("utf-8"),
            "--new-only",
            "--fail-level",
            "L",
        ],
    );
    assert_eq!(code(&gated), 0, "nothing is new");

    // Fix the TODO, add a second todo!(): one absent, one new Critical.
    write(dir.path(), "src/lib.rs", "/// Adds.\npub fn add(a: u32, b: u32) -> u32 {\n    a.wrapping_add(b)\n}\n\n/// Not yet.\npub fn refund(amount: u32) -> u32 {\n    todo!()\n}\n\n/// Later.\npub fn audit_log() -> String {\n    todo!(\"write it\")\n}\n");
    let sarif_base = outs.path().join("retake.sarif");
    let changed = pedantic_review(
        dir.path(),
        &[
            "--format",
            "sarif",
            "--baseline",
            sarif_base.to_str().expect("utf-8"),
            "--new-only",
        ],
    );
    assert_eq!(code(&changed), 1, "a new Critical gates");
    let log = stdout_json(&changed);
    let states: Vec<(String, String)> = log["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .flat_map(|r| r["results"].as_array().expect("results").iter())
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or_default().to_string(),
                r["baselineState"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert!(
        states.contains(&("quality/todo-marker".into(), "absent".into())),
        "{states:?}"
    );
    assert!(
        states.contains(&("holistic/todo-macro".into(), "new".into())),
        "{states:?}"
    );
    assert!(
        states.contains(&("holistic/todo-macro".into(), "unchanged".into())),
        "{states:?}"
    );
}

#[test]
fn an_unusable_baseline_is_exit_2_naming_the_file() {
    let cpf = cpf_dir(&[("quality.cpf", FOUR_SEVERITIES)]);
    let bad = cpf.path().join("old.json");
    std::fs::write(&bad, "{\"hello\": 1}").expect("write");
    let out = audit(cpf.path(), &["--baseline", bad.to_str().expect("utf-8")]);
    assert_eq!(code(&out), 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "baseline {}: neither a retake SARIF log",
            bad.display()
        )),
        "{stderr}"
    );
    let missing = audit(cpf.path(), &["--baseline", "/nonexistent/old.sarif"]);
    assert_eq!(code(&missing), 2);
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("cannot read baseline /nonexistent/old.sarif"));
    let no_baseline = audit(cpf.path(), &["--new-only"]);
    assert_eq!(code(&no_baseline), 2, "--new-only requires --baseline");
}
