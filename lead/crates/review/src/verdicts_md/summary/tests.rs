use super::super::{append, Batch};
use super::*;
use auditor::consensus::consensus;
use protocol::cpf::{format_verdict, VerdictCpf, VerifiedRow};
use protocol::Verdict;

fn row(sev: Severity, category: &str, location: &str, description: &str) -> VerifiedRow {
    VerifiedRow {
        agents: vec!["inspector-quality".into()],
        severity: sev,
        category: category.into(),
        location: location.into(),
        description: description.into(),
    }
}

/// Appends a batch of three pipelines that all verify `rows`.
fn batch(path: &std::path::Path, rows: &[VerifiedRow], ts: &str) {
    let mut v = VerdictCpf::new(Verdict::Conditional);
    v.verified = rows.to_vec();
    let pipelines = vec![Some(v.clone()), Some(v.clone()), Some(v)];
    let c = consensus(&pipelines, None).expect("verdicts");
    let raw: Vec<Option<String>> = pipelines
        .iter()
        .map(|p| p.as_ref().map(format_verdict))
        .collect();
    append(
        path,
        &Batch {
            title: "shop",
            timestamp: ts,
            version: "0.1.0",
            raw: &raw,
            consensus: &c,
            disposition: None,
            findings: &[],
            already_there: &[],
        },
    )
    .expect("append");
}

#[test]
fn three_batches_read_back_with_their_verdicts_resolved_issues_and_the_regression() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("verdicts.md");
    let todo = row(Severity::Medium, "incomplete", "src/a.rs:3", "TODO | left");
    let naming = row(
        Severity::Low,
        "naming-violation",
        "src/b.rs:5",
        "camelCase name",
    );
    batch(
        &path,
        &[todo.clone(), naming.clone()],
        "2026-01-01T00:00:00Z",
    );
    batch(&path, std::slice::from_ref(&naming), "2026-01-02T00:00:00Z");
    batch(&path, &[todo, naming], "2026-01-03T00:00:00Z");
    let text = std::fs::read_to_string(&path).expect("read");
    let all = summaries(&text);
    let outline: Vec<(u32, &str, &str, usize, Option<&str>)> = all
        .iter()
        .map(|b| {
            (
                b.seq,
                b.timestamp.as_str(),
                b.verdict.as_str(),
                b.consensus.len(),
                b.disposition.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        outline,
        vec![
            (
                1,
                "2026-01-01T00:00:00Z",
                "CONDITIONAL",
                2,
                Some("CONDITIONAL-TRACKED")
            ),
            (
                2,
                "2026-01-02T00:00:00Z",
                "CONDITIONAL",
                1,
                Some("CONDITIONAL-TRACKED")
            ),
            (3, "2026-01-03T00:00:00Z", "NO-GO", 2, Some("ESCALATED")),
        ]
    );
    let resolved = all[1].resolved.as_ref().expect("resolved since B1");
    assert_eq!(
        (resolved.0, resolved.1[0].location.as_str()),
        (1, "src/a.rs:3")
    );
    let back = &all[2].consensus[0];
    assert_eq!(
        (
            back.severity,
            back.regression_of,
            back.description.as_str(),
            back.freq.as_str()
        ),
        (Severity::High, Some(Severity::Medium), "TODO | left", "3"),
        "the escaped pipe is text again"
    );
    assert_eq!(all[0].tracked.len(), 2);
    assert_eq!(all[2].consensus[1].regression_of, None);
}

#[test]
fn a_file_without_batches_or_with_a_stray_heading_in_a_fence_has_none() {
    assert!(summaries("").is_empty());
    assert!(summaries("# Verdicts: x\n\n```\n## [B9] impl | t\n```\n").is_empty());
}
