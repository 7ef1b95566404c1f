//! `retake run` under the `breezing` gate meeting a Critical finding: the agent's `mul` takes
//! `i32` where the design declares `i64` (a Critical signature mismatch), the review decides
//! REJECT, and the run stops at once with the manual-intervention report, exit 5, nothing
//! committed, the state kept. The human fixes the signature by hand and `retake resume`
//! reviews again (no task is run again), approves and commits once.

mod run_fixture;

use run_fixture::*;

fn reviews(repo: &std::path::Path) -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).expect("timeline");
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|e| e["event_type"] == "REVIEW_COMPLETED")
        .map(|e| {
            let c = &e["content"];
            (
                c["decision"].as_str().unwrap_or_default().to_string(),
                c["grade"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_critical_finding_stops_a_breezing_run_for_a_human_and_resume_finishes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture_with(dir.path(), Agent::Reckless, "gate = \"breezing\"\n", DESIGN);
    let tag = format!("run-gate-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = run(&repo, &tag);
    assert_eq!(
        ran.code, 5,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert_eq!(
        ran.stdout,
        "### Manual Intervention Required\n\n**Decision**: REJECT\n**Grade**: D\n\
         **Reason**: critical problems that automatic fixes cannot address\n\n**Critical Issues**:\n\
         1. [src/mul.rs:4] signature of `mul` differs from design.md: \
         parameter 1 is `a: i64` in the design, `a: i32` in the code; \
         parameter 2 is `b: i64` in the design, `b: i32` in the code; \
         return type is `i64` in the design, `i32` in the code\n\n\
         The run has stopped. Fix these by hand, then continue with `retake resume`.\n",
        "stderr: {}",
        ran.stderr
    );
    assert_eq!(
        reviews(&repo),
        vec![("REJECT".to_string(), "D".to_string())]
    );
    assert_eq!(
        git(&repo, &["rev-parse", "HEAD"]),
        before,
        "nothing committed"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("Plans.md")).expect("plan"),
        PLAN
    );
    let active = std::fs::read_to_string(repo.join(".retake/state/active.json"))
        .expect("the state file stays for `retake resume`");
    assert!(active.contains("\"kind\": \"run\""), "{active}");
    assert!(!active.contains("accepted"), "{active}");
    let result: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".retake/state/review-result.json"))
            .expect("review-result.json"),
    )
    .expect("JSON");
    assert_eq!(
        (&result["verdict"], &result["grade"]),
        (&"REJECT".into(), &"D".into())
    );
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
    assert_eq!(invocations(dir.path()), vec![1, 1, 2, 2]);

    let mul = std::fs::read_to_string(repo.join("src/mul.rs")).expect("mul.rs");
    assert!(mul.contains("pub fn mul(a: i32, b: i32) -> i32"), "{mul}");
    std::fs::write(repo.join("src/mul.rs"), mul.replace("i32", "i64")).expect("fix by hand");
    let resumed = retake(&repo, &tag, &["resume"]);
    assert_eq!(
        resumed.code, 0,
        "stdout: {}\nstderr: {}",
        resumed.stdout, resumed.stderr
    );
    assert!(
        resumed
            .stderr
            .contains("(all): 2 task(s) done, 0 to go, 1 review round(s) so far\n"),
        "{}",
        resumed.stderr
    );
    assert_eq!(
        invocations(dir.path()),
        vec![1, 1, 2, 2],
        "no task is run again"
    );
    assert_eq!(
        reviews(&repo),
        vec![
            ("REJECT".to_string(), "D".to_string()),
            ("APPROVE".to_string(), "A".to_string())
        ]
    );
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log, "feat: add subtraction, add multiplication\n");
    let committed = git(&repo, &["show", "HEAD:src/mul.rs"]);
    assert!(
        committed.contains("pub fn mul(a: i64, b: i64) -> i64"),
        "{committed}"
    );
    assert!(
        resumed.stdout.contains("- Decision: APPROVE (Grade: A)"),
        "{}",
        resumed.stdout
    );
    assert!(!repo.join(".retake/state/active.json").exists());
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
}
