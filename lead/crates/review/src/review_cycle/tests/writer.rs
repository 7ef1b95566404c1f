use super::finding;
use crate::review_cycle::{dir_of, run, Input};
use protocol::Dimension::{ActionItems, Quality, Security};
use protocol::{Scope, Severity, Verdict};

#[test]
fn without_git_the_last_change_is_unknown_and_a_rerun_drops_stale_iterations() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path();
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    std::fs::write(repo.join("src/a.rs"), "pub fn a() -> u32 {\n    1\n}\n").expect("write");
    let mut suppressed = finding("r/s", "src/a.rs", 2, Severity::Critical, &[Security]);
    suppressed.suppression = Some("accepted".into());
    let findings = vec![
        finding("r/x", "src/a.rs", 2, Severity::High, &[Security]),
        finding(
            "r/y",
            "src/a.rs",
            2,
            Severity::Medium,
            &[Quality, ActionItems],
        ),
        suppressed,
    ];
    let stale = dir_of(repo, "r1").join("iterations/9.json");
    std::fs::create_dir_all(stale.parent().expect("parent")).expect("mkdir");
    std::fs::write(&stale, "{}").expect("write");
    let input = Input {
        repo,
        run_id: "r1",
        scope: &Scope::repository(),
        scope_label: "repository",
        verdict: Verdict::Conditional,
        findings: &findings,
        dimensions: &[Security, Quality, ActionItems],
        max_iterations: 3,
    };
    let written = run(&input).expect("run");
    assert_eq!(written.dir, repo.join(".retake/reviews/r1"));
    // Both picked in iteration 1 (one related finding each: no raise), so it is stable.
    assert_eq!(
        (written.iterations, written.critical_files, written.changes),
        (1, 1, 0)
    );
    assert!(!stale.exists(), "a rerun leaves no stale iteration");
    let it: serde_json::Value = serde_json::from_slice(
        &std::fs::read(written.dir.join("iterations/1.json")).expect("read"),
    )
    .expect("json");
    assert_eq!(it["picked"][0]["last_change"], "unknown");
    assert_eq!(it["picked"][0]["enclosing_function"]["name"], "a");
    let state: serde_json::Value = serde_json::from_slice(
        &std::fs::read(written.dir.join("review-state.json")).expect("read"),
    )
    .expect("json");
    assert_eq!(
        state["findings_total"], 2,
        "the suppressed finding is left out"
    );
    assert_eq!(state["stop_reason"], "stable");
    assert_eq!(state["auditor_verdict"], "CONDITIONAL");
    assert_eq!(
        written.summary(),
        format!(
            "review cycle: {} (1 critical file(s), 1 deep-dive iteration(s), 0 severity change(s))",
            written.dir.display()
        )
    );
}
