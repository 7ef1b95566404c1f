//! verdicts.md over three reviews: B1, B2, B3 appended without rewriting earlier batches; a
//! CONDITIONAL batch's tracked issue that disappears is listed as resolved, and when it comes back
//! it is a REGRESSION one severity level higher — which also raises the consensus verdict.

use auditor::consensus::{consensus, Consensus};
use protocol::cpf::{format_verdict, VerdictCpf, VerifiedRow};
use protocol::{AuditOutcome, Decision, Finding, Grade, Location, Severity, Verdict};
use review::verdicts_md::{self, Batch};
use std::path::Path;
use std::process::Command;

fn row(sev: Severity, category: &str, location: &str, description: &str) -> VerifiedRow {
    VerifiedRow {
        agents: vec!["inspector-quality".into()],
        severity: sev,
        category: category.into(),
        location: location.into(),
        description: description.into(),
    }
}

fn todo() -> VerifiedRow {
    row(
        Severity::Medium,
        "incomplete",
        "src/a.rs:3",
        "TODO marker left",
    )
}

fn naming() -> VerifiedRow {
    row(
        Severity::Low,
        "naming-violation",
        "src/b.rs:5",
        "camelCase name",
    )
}

/// Three pipelines that all report `rows` with a CONDITIONAL verdict.
fn three(rows: &[VerifiedRow]) -> Vec<Option<VerdictCpf>> {
    let mut v = VerdictCpf::new(Verdict::Conditional);
    v.verified = rows.to_vec();
    vec![Some(v.clone()), Some(v.clone()), Some(v)]
}

fn append(path: &Path, pipelines: &[Option<VerdictCpf>], ts: &str) -> verdicts_md::Appended {
    let c: Consensus = consensus(pipelines, None).expect("verdicts");
    let raw: Vec<Option<String>> = pipelines
        .iter()
        .map(|p| p.as_ref().map(format_verdict))
        .collect();
    let batch = Batch {
        title: "payments",
        timestamp: ts,
        version: "0.1.0",
        raw: &raw,
        consensus: &c,
        disposition: None,
        findings: &[],
        already_there: &[],
    };
    verdicts_md::append(path, &batch).expect("append")
}

#[test]
fn three_reviews_append_b1_b2_b3_with_resolved_and_regression() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir
        .path()
        .join("specs")
        .join("payments")
        .join("verdicts.md");

    let b1 = append(&path, &three(&[todo(), naming()]), "2026-01-01T00:00:00Z");
    assert_eq!((b1.seq, b1.consensus.verdict), (1, Verdict::Conditional));
    let t1 = std::fs::read_to_string(&path).expect("read");
    assert!(t1.starts_with("# Verdicts: payments\n\n## [B1] impl | 2026-01-01T00:00:00Z | v0.1.0 | runs:3 | threshold:2/3\n"));
    assert!(t1.contains("#### V3\n\n```\nVERDICT:CONDITIONAL\nVERIFIED:\n"));
    assert!(t1.contains(
        "### Tracked\n\n- M|incomplete|src/a.rs:3|TODO marker left\n- L|naming-violation|src/b.rs:5|camelCase name\n"
    ));

    let b2 = append(&path, &three(&[naming()]), "2026-01-02T00:00:00Z");
    assert_eq!((b2.seq, b2.consensus.verdict), (2, Verdict::Conditional));
    assert_eq!(b2.resolved, vec!["incomplete|src/a.rs:3".to_string()]);
    let t2 = std::fs::read_to_string(&path).expect("read");
    assert!(t2.starts_with(&t1), "B1 is never rewritten");
    assert!(t2.contains("### Resolved since B1\n\n- M|incomplete|src/a.rs:3|TODO marker left\n"));
    assert!(t2.contains("### Disposition\n\nCONDITIONAL-TRACKED\n\n### Tracked\n\n- L|naming-violation|src/b.rs:5|camelCase name\n"));
    assert_eq!(
        verdicts_md::regressions(
            &t2,
            &[
                verdicts_md::Issue::parse("- M|incomplete|src/a.rs:3|TODO marker left")
                    .expect("issue")
            ]
        ),
        vec!["incomplete|src/a.rs:3".to_string()]
    );

    let b3 = append(&path, &three(&[todo(), naming()]), "2026-01-03T00:00:00Z");
    assert_eq!(b3.seq, 3);
    assert_eq!(b3.regressions, vec!["incomplete|src/a.rs:3".to_string()]);
    let back = &b3.consensus.consensus[0];
    assert_eq!(
        (back.severity, back.reported, back.regression),
        (Severity::High, Severity::Medium, true)
    );
    assert_eq!(
        b3.consensus.verdict,
        Verdict::NoGo,
        "a High in the Consensus is NO-GO"
    );
    assert!(
        b3.resolved.is_empty(),
        "the tracked naming issue is still present"
    );
    let t3 = std::fs::read_to_string(&path).expect("read");
    assert!(t3.starts_with(&t2), "B1 and B2 are never rewritten");
    let b3_text = &t3[t2.len()..];
    assert!(b3_text.starts_with("\n## [B3] impl | 2026-01-03T00:00:00Z | v0.1.0 | runs:3 | threshold:2/3\n\nVerdict: NO-GO (answered 3/3)\n"));
    assert!(b3_text.contains(
        "| H REGRESSION (was M) | incomplete | src/a.rs:3 | 3 | inspector-quality | TODO marker left |"
    ));
    assert!(b3_text.contains("### Disposition\n\nESCALATED\n"));
    assert!(!b3_text.contains("### Tracked") && !b3_text.contains("### Resolved since"));
    assert_eq!(t3.matches("## [B").count(), 3);
}

#[test]
fn the_binary_appends_batches_and_a_regression_raises_the_exit_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let md = dir.path().join("verdicts.md");
    let with = "VERDICT:CONDITIONAL\nVERIFIED:\ninspector-quality|M|incomplete|src/a.rs:3|TODO marker left\n";
    let without = "VERDICT:CONDITIONAL\nVERIFIED:\ninspector-quality|L|naming-violation|src/b.rs:5|camelCase\n";
    let run = |body: &str| {
        let file = dir.path().join("v.cpf");
        std::fs::write(&file, body).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_retake"))
            .arg("consensus")
            .args([&file, &file, &file])
            .arg("--verdicts")
            .arg(&md)
            .args(["--format", "json"])
            .output()
            .expect("run retake");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        (out.status.code(), json)
    };
    let (code, json) = run(with);
    assert_eq!((code, json["batch"]["seq"].as_u64()), (Some(0), Some(1)));
    let (code, json) = run(without);
    assert_eq!(
        (code, json["batch"]["resolved"][0].as_str()),
        (Some(0), Some("incomplete|src/a.rs:3"))
    );
    let (code, json) = run(with);
    assert_eq!((code, json["verdict"].as_str()), (Some(1), Some("NO-GO")));
    assert_eq!(json["batch"]["seq"], 3);
    assert_eq!(json["consensus"][0]["severity"], "H");
    assert_eq!(json["consensus"][0]["regression"], true);
    let text = std::fs::read_to_string(&md).expect("read");
    let title = dir
        .path()
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(text.starts_with(&format!("# Verdicts: {title}\n")));
    assert!(text.contains("### Resolved since B1\n\n- M|incomplete|src/a.rs:3|TODO marker left\n"));
}

/// A TODO finding as the quality Inspector reports it, its fingerprint keyed on the marker's text.
fn todo_at(line: u32, marker: &str) -> Finding {
    Finding::new(
        "inspector-quality",
        "quality/todo-marker",
        "incomplete",
        Severity::Medium,
        Location::at("src/a.rs", line),
        "TODO marker left",
        marker,
    )
}

/// One review's batch: a CONDITIONAL verdict of `findings`, appended with their fingerprints.
fn review(path: &Path, findings: &[Finding]) -> verdicts_md::Appended {
    let outcome = AuditOutcome {
        verdict: Verdict::Conditional,
        scope: "payments".into(),
        answered: 6,
        expected: 6,
        decision: Decision::Approve,
        grade: Grade::B,
        findings: findings.to_vec(),
        removed: vec![],
        resolved: vec![],
        spec_feedback: vec![],
        steering: vec![],
        notes: vec![],
        roadmap_advisory: vec![],
    };
    let cpf = outcome.to_cpf();
    let c = Consensus::single(&cpf);
    let raw = vec![Some(format_verdict(&cpf))];
    let batch = Batch {
        title: "payments",
        timestamp: "t",
        version: "0.1.0",
        raw: &raw,
        consensus: &c,
        disposition: None,
        findings,
        already_there: &[],
    };
    verdicts_md::append(path, &batch).expect("append")
}

#[test]
fn a_finding_moved_by_an_edit_above_it_stays_tracked_and_only_a_real_return_is_a_regression() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("verdicts.md");
    let fp = todo_at(3, "// TODO: retry").fingerprint;

    let b1 = review(&path, &[todo_at(3, "// TODO: retry")]);
    assert_eq!((b1.seq, b1.consensus.verdict), (1, Verdict::Conditional));
    let t1 = std::fs::read_to_string(&path).expect("read");
    assert!(t1.contains(&format!(
        "### Tracked\n\n- M|incomplete|src/a.rs:3|TODO marker left|{fp}\n"
    )));

    // Three lines added above it: the same problem, still tracked, neither resolved nor back.
    let b2 = review(&path, &[todo_at(6, "// TODO: retry")]);
    assert_eq!(b2.resolved, Vec::<String>::new());
    assert_eq!(b2.regressions, Vec::<String>::new());
    assert_eq!(b2.consensus.verdict, Verdict::Conditional);
    assert_eq!(b2.consensus.consensus[0].severity, Severity::Medium);
    let b2_text = std::fs::read_to_string(&path).expect("read")[t1.len()..].to_string();
    assert!(b2_text.contains(&format!(
        "### Tracked\n\n- M|incomplete|src/a.rs:6|TODO marker left|{fp}\n"
    )));
    assert!(!b2_text.contains("### Resolved since"));

    // Gone: resolved, as it was last tracked.
    let b3 = review(&path, &[]);
    assert_eq!(b3.resolved, vec!["incomplete|src/a.rs:6".to_string()]);
    let t3 = std::fs::read_to_string(&path).expect("read");
    assert!(t3.contains(&format!(
        "### Resolved since B2\n\n- M|incomplete|src/a.rs:6|TODO marker left|{fp}\n"
    )));

    // Back, on yet another line: a REGRESSION, one level up.
    let b4 = review(&path, &[todo_at(9, "// TODO: retry")]);
    assert_eq!(b4.regressions, vec!["incomplete|src/a.rs:9".to_string()]);
    let row = &b4.consensus.consensus[0];
    assert_eq!(
        (row.severity, row.reported, row.regression),
        (Severity::High, Severity::Medium, true)
    );
    // A different TODO with the same description is another problem: not a regression.
    let dir2 = tempfile::tempdir().expect("tempdir");
    let other = dir2.path().join("verdicts.md");
    std::fs::write(&other, &t3).expect("write");
    let b4b = review(&other, &[todo_at(6, "// TODO: cache")]);
    assert_eq!(b4b.regressions, Vec::<String>::new());
}

#[test]
fn rows_written_without_a_fingerprint_match_by_category_path_and_description() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("verdicts.md");
    // An earlier build's batch: Tracked rows of four fields.
    std::fs::write(
        &path,
        "# Verdicts: payments\n\n## [B1] impl | t | v0.1.0 | runs:1 | threshold:1/1\n\n\
         ### Tracked\n\n- M|incomplete|src/a.rs:3|TODO marker left\n\
         - L|naming-violation|src/b.rs:5|camelCase name\n",
    )
    .expect("write");
    let b2 = review(&path, &[todo_at(6, "// TODO: retry")]);
    assert_eq!(b2.seq, 2);
    assert_eq!(
        b2.resolved,
        vec!["naming-violation|src/b.rs:5".to_string()],
        "the moved TODO is the same problem; the naming issue is gone"
    );
}
