//! `retake run` through a retake round: under the `breezing` gate a review that asks for
//! changes (a swallowed error, a High finding) becomes a fix task for the file, an Implementer
//! fixes it, the second review approves, and the run commits once with both rounds in its
//! history.

mod run_fixture;

use run_fixture::*;

#[test]
fn request_changes_becomes_a_fix_task_and_the_second_review_approves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture(
        dir.path(),
        Agent::Sloppy,
        "gate = \"breezing\"\n\n[rules]\nprofile = \"pedantic\"\n",
    );
    let tag = format!("run-e2e-retake-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = run(&repo, &tag);
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );

    let text =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).expect("timeline");
    let reviews: Vec<(String, String)> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|e| e["event_type"] == "REVIEW_COMPLETED")
        .map(|e| {
            let c = &e["content"];
            (
                c["decision"].as_str().unwrap_or_default().to_string(),
                c["grade"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        reviews,
        vec![
            ("REQUEST_CHANGES".to_string(), "C".to_string()),
            ("APPROVE".to_string(), "A".to_string())
        ]
    );
    let tasks: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".retake/state/tasks.json")).expect("tasks.json"),
    )
    .expect("JSON");
    let fix = &tasks["tasks"][2];
    assert_eq!(
        (&fix["id"], &fix["origin"], &fix["owns"], &fix["status"]),
        (
            &serde_json::json!(3),
            &serde_json::json!("Fix"),
            &serde_json::json!(["src/mul.rs"]),
            &serde_json::json!("completed")
        )
    );
    assert!(
        fix["subject"]
            .as_str()
            .is_some_and(|s| s.starts_with("Fix src/mul.rs: ")),
        "{fix}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("calls-3"))
            .expect("calls")
            .trim(),
        "1",
        "the fix task passed at its first iteration"
    );
    // The fix task's findings were recorded for its judge, which re-ran their rules.
    let recorded: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".retake/state/fix-findings.json"))
            .expect("fix-findings.json"),
    )
    .expect("JSON");
    let findings = recorded["tasks"]["3"]
        .as_array()
        .expect("task 3's findings");
    assert!(
        !findings.is_empty()
            && findings
                .iter()
                .all(|f| f["location"]["path"] == "src/mul.rs"),
        "{recorded}"
    );
    let mul = std::fs::read_to_string(repo.join("src/mul.rs")).expect("mul.rs");
    assert!(!mul.contains("let _ ="), "{mul}");
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log.lines().count(), 1, "one commit: {log}");
    assert!(log.starts_with("feat: "), "{log}");
    assert!(ran.stdout.contains("- Retakes: 1\n"), "{}", ran.stdout);
    assert!(!repo.join(".retake/state/active.json").exists());
    assert!(
        leftovers(&tag).is_empty(),
        "processes left: {:?}",
        leftovers(&tag)
    );
}
