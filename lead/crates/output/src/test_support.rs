//! Fixtures for the renderers' unit tests: findings, an outcome, and a summary around them.

use super::Summary;
use protocol::{
    AuditOutcome, Coverage, Decision, Finding, Grade, InspectorKind, InspectorReport, Location,
    Severity, Skipped, Verdict,
};
use std::collections::BTreeMap;

/// A finding of the quality Inspector at `path:line`; the fingerprint follows path and line.
pub(crate) fn finding(severity: Severity, path: &str, line: u32) -> Finding {
    let mut f = Finding::new(
        "inspector-quality",
        "quality/todo-marker",
        "incomplete",
        severity,
        Location::at(path, line),
        format!("TODO left in {path}"),
        &format!("{path}:{line}"),
    );
    f.suggestion = Some("finish it".into());
    f
}

/// An outcome with this verdict and these findings, six of six Inspectors answering.
pub(crate) fn outcome(verdict: Verdict, findings: Vec<Finding>) -> AuditOutcome {
    AuditOutcome {
        verdict,
        scope: "repository".into(),
        answered: 6,
        expected: 6,
        decision: Decision::Approve,
        grade: Grade::A,
        findings,
        removed: Vec::new(),
        resolved: Vec::new(),
        spec_feedback: Vec::new(),
        steering: Vec::new(),
        notes: Vec::new(),
        roadmap_advisory: Vec::new(),
    }
}

/// Calls `f` with a summary of `outcome`: a quality report holding its findings and one skipped
/// file, and the interface Inspector expected but unavailable.
pub(crate) fn summary_of(outcome: &AuditOutcome, f: impl FnOnce(&Summary<'_>)) {
    summary_with_reports(outcome, Vec::new(), f);
}

/// [`summary_of`] whose quality report also holds `preexisting`: findings already there before
/// a session's change.
pub(crate) fn summary_with_reports(
    outcome: &AuditOutcome,
    preexisting: Vec<Finding>,
    f: impl FnOnce(&Summary<'_>),
) {
    let report = InspectorReport {
        review: "r".into(),
        inspector: "inspector-quality".into(),
        kind: Some(InspectorKind::Quality),
        scope: "repository".into(),
        findings: outcome.findings.clone(),
        notes: Vec::new(),
        claims: Vec::new(),
        coverage: Coverage {
            files_reviewed: 4,
            skipped: vec![Skipped {
                path: "big.bin".into(),
                reason: "binary".into(),
            }],
        },
        preexisting,
    };
    let reports = BTreeMap::from([("inspector-quality".to_string(), report)]);
    let expected = vec![
        "inspector-quality".to_string(),
        "inspector-interface".to_string(),
    ];
    let restarts = BTreeMap::new();
    let summary = Summary {
        run_id: Some("20260101T000000Z-abc123"),
        outcome,
        reports: &reports,
        expected: &expected,
        restarts: &restarts,
        round: 2,
        head: Some("0123abcd"),
        baseline: None,
    };
    f(&summary);
}
