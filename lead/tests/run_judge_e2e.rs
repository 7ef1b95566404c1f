//! The task runner's judge inside a real `retake run` (see `run_fixture`): two plan tasks whose
//! agent misbehaves — one writes a Python file that does not parse, one changes nothing and
//! claims it is done. Both are rejected on every iteration for exactly that (Q4 naming the
//! file and line; Q5 and Q6 for the empty claim), escalated with exit 5, and nothing is
//! committed.

mod run_fixture;

use run_fixture::*;

const PLAN: &str = "# Plans\n\n\
- [ ] 1 Add the report tool `cc:TODO` owns: `tools/report.py`\n\
- [ ] 2 Tidy the notes `cc:TODO` owns: `docs/notes.md`\n";

const AGENT: &str = r#"#!/bin/sh
cat > /dev/null
case "$RETAKE_TASK_ID" in
  1) mkdir -p tools
     printf 'def report(rows):\n    for row in rows\n        print(row)\n' > tools/report.py
     echo "Wrote tools/report.py with report()." ;;
  *) echo "Done." ;;
esac
"#;

#[test]
fn a_syntax_error_and_an_empty_claim_are_rejected_every_iteration() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture_custom(
        dir.path(),
        PLAN,
        AGENT,
        "max_iterations = 2\n",
        &[("docs/notes.md", "# Notes\n")],
    );
    let tag = format!("run-judge-{}", std::process::id());
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = run(&repo, &tag);
    assert_eq!(
        ran.code, 5,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    // Each claim of task 1 (a second Implementer may claim it after an escalation) is
    // rejected: first for the file that does not parse, then, the broken file already there,
    // for changing nothing.
    let first = judgments(&repo, 1);
    let q4 = ("REJECT".to_string(), vec!["Q4".to_string()]);
    assert_eq!(first[..2], [q4.clone(), q4], "{first:?}");
    assert!(first.iter().all(|(j, _)| j == "REJECT"), "{first:?}");
    let timeline =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).expect("timeline");
    let syntax: Vec<serde_json::Value> = timeline
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event_type"] == "REJECTION_DETAILS" && e["content"]["task"] == 1)
        .flat_map(|e| {
            e["content"]["issues_detected"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|i| i["type"] == "syntax_error")
        .collect();
    assert_eq!(syntax.len(), 2, "{syntax:?}");
    assert_eq!(
        (&syntax[0]["location"], &syntax[0]["description"]),
        (
            &serde_json::json!("tools/report.py:2"),
            &serde_json::json!("`for row in rows` lacks the `:` that opens its block")
        )
    );
    let second = judgments(&repo, 2);
    assert!(second.len() >= 2, "{second:?}");
    for (judgment, failed) in &second {
        assert_eq!(
            (judgment.as_str(), failed.as_slice()),
            ("REJECT", ["Q5".to_string(), "Q6".to_string()].as_slice()),
            "{second:?}"
        );
    }
    assert!(
        ran.stdout.contains("no file in the repository changed"),
        "{}",
        ran.stdout
    );
    assert_eq!(
        git(&repo, &["rev-parse", "HEAD"]),
        before,
        "nothing committed"
    );
    assert!(leftovers(&tag).is_empty(), "every actor is gone");
}
