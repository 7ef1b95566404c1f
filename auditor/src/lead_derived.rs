//! The Lead's conservative verdict when no Auditor could answer (the Auditor spec, "Lead-derived
//! verdict"): the journaled reports, exact duplicates removed and nothing else judged, then
//!
//! ```text
//! any Critical or test failure → NO-GO
//! else any High                → CONDITIONAL
//! else                         → GO
//! ```
//! noted `AUDITOR_UNAVAILABLE|lead-derived verdict`, with the decision and grade computed as
//! always — and bounded by coverage as the Auditor's are (a missing Inspector: never GO, never
//! APPROVE). No severity is re-rated and no close variant merged: the Lead does not audit.
//!
//! Suppressed findings are still dropped (with REMOVED rows): a suppression is the user's
//! decision, recorded before any audit, and never counts toward a verdict.

use crate::attendance::{attendance, covered_decision, covered_verdict};
use crate::audit::collect;
use crate::category::Category;
use crate::decision::{agent_only_note, decide};
use crate::dedup::sort_by_severity;
use crate::false_positives::drop_suppressed;
use protocol::{AuditOutcome, Finding, InspectorReport, Severity, Verdict};

/// The note every lead-derived outcome carries.
pub const AUDITOR_UNAVAILABLE: &str = "AUDITOR_UNAVAILABLE|lead-derived verdict";

/// The conservative verdict over the journaled reports; the scope is the first report's.
pub fn lead_derived(
    reports: &[InspectorReport],
    expected: &[String],
    unavailable: &[(String, String)],
) -> AuditOutcome {
    let attendance = attendance(reports, expected, unavailable);
    let unsuppressed = drop_suppressed(collect(reports));
    let mut findings: Vec<Finding> = Vec::new();
    for f in unsuppressed.kept {
        match findings.iter_mut().find(|k| exact_duplicate(k, &f)) {
            Some(kept) => {
                for a in f.agents {
                    if !kept.agents.contains(&a) {
                        kept.agents.push(a);
                    }
                }
            }
            None => findings.push(f),
        }
    }
    sort_by_severity(&mut findings);

    let (verdict, coverage_note) = covered_verdict(
        conservative_verdict(&findings),
        attendance.answered,
        attendance.expected,
    );
    let (decision, grade) = covered_decision(decide(&findings), attendance.partial());
    let mut notes = attendance.notes;
    notes.push(AUDITOR_UNAVAILABLE.to_string());
    notes.extend(coverage_note);
    notes.extend(agent_only_note(&findings));
    AuditOutcome {
        verdict,
        scope: reports
            .iter()
            .map(|r| r.scope.as_str())
            .find(|s| !s.is_empty())
            .unwrap_or_default()
            .to_string(),
        answered: attendance.answered,
        expected: attendance.expected,
        decision,
        grade,
        findings,
        removed: unsuppressed.removed,
        resolved: Vec::new(),
        spec_feedback: Vec::new(),
        steering: Vec::new(),
        notes,
        roadmap_advisory: Vec::new(),
    }
}

/// The conservative table.
pub fn conservative_verdict(findings: &[Finding]) -> Verdict {
    if findings
        .iter()
        .any(|f| f.severity == Severity::Critical || f.category_is(Category::TestFailure))
    {
        Verdict::NoGo
    } else if findings.iter().any(|f| f.severity == Severity::High) {
        Verdict::Conditional
    } else {
        Verdict::Go
    }
}

/// The same row of CPF: category, severity, location and description all equal.
fn exact_duplicate(a: &Finding, b: &Finding) -> bool {
    a.category == b.category
        && a.severity == b.severity
        && a.location == b.location
        && a.description == b.description
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::category::Category;
    use crate::fixtures::{finding, report};
    use protocol::{Decision, Grade, Removed};

    #[test]
    fn only_exact_duplicates_are_merged_and_nothing_is_re_rated() {
        let a = finding("quality", "dead-code", Severity::High, "src/a.rs", 1);
        let twin = finding("holistic", "dead-code", Severity::High, "src/a.rs", 1);
        let near = finding("holistic", "dead-code", Severity::Medium, "src/a.rs", 1);
        let in_tests = finding("quality", "weak-assertion", Severity::High, "tests/a.rs", 2);
        let reports = [
            report("quality", vec![a, in_tests]),
            report("holistic", vec![twin, near]),
        ];
        let out = lead_derived(&reports, &[], &[]);
        assert_eq!(out.findings.len(), 3);
        assert_eq!(out.findings[0].agents, vec!["quality", "holistic"]);
        // The severity table would lower a High in test code; the Lead does not.
        assert_eq!(out.findings[1].severity, Severity::High);
        assert_eq!(out.verdict, Verdict::Conditional);
        assert_eq!(
            (out.decision, out.grade),
            (Decision::RequestChanges, Grade::C)
        );
        assert_eq!(out.notes, vec![AUDITOR_UNAVAILABLE]);
        assert_eq!(out.scope, "repository");
    }

    #[test]
    fn a_critical_or_a_test_failure_is_no_go_and_low_only_is_go() {
        let critical = report(
            "interface",
            vec![finding(
                "interface",
                Category::SignatureMismatch,
                Severity::Critical,
                "src/a.rs",
                1,
            )],
        );
        assert_eq!(lead_derived(&[critical], &[], &[]).verdict, Verdict::NoGo);
        let failing = report(
            "test",
            vec![finding(
                "test",
                Category::TestFailure,
                Severity::Medium,
                "tests/a.rs",
                1,
            )],
        );
        let out = lead_derived(&[failing], &[], &[]);
        assert_eq!(out.verdict, Verdict::NoGo);
        assert_eq!(
            (out.decision, out.grade),
            (Decision::Stop, Grade::NotApplicable)
        );
        let low = report(
            "quality",
            vec![finding("quality", "todo", Severity::Low, "a.rs", 1)],
        );
        let out = lead_derived(&[low], &[], &[]);
        assert_eq!(out.verdict, Verdict::Go);
        assert_eq!((out.decision, out.grade), (Decision::Approve, Grade::A));
    }

    #[test]
    fn missing_inspectors_and_suppressions_are_recorded() {
        let mut suppressed = finding("quality", "todo", Severity::Critical, "src/a.rs", 1);
        suppressed.suppression = Some("decisions.yaml: accepted".into());
        let reports = [report("quality", vec![suppressed])];
        let expected = vec!["quality".to_string(), "test".to_string()];
        let unavailable = [("test".to_string(), "crashed 3 times".to_string())];
        let out = lead_derived(&reports, &expected, &unavailable);
        // The suppressed Critical does not count, but the lost Inspector does: never GO.
        assert_eq!(out.verdict, Verdict::Conditional);
        assert_eq!(
            (out.decision, out.grade),
            (Decision::Stop, Grade::NotApplicable)
        );
        assert!(out.findings.is_empty());
        assert_eq!(
            out.removed,
            vec![Removed {
                agent: "quality".into(),
                reason: "suppressed: decisions.yaml: accepted".into(),
                original: "C|todo|src/a.rs:1|todo at src/a.rs:1".into(),
            }]
        );
        assert_eq!(
            out.notes,
            vec![
                "PARTIAL:test|crashed 3 times",
                AUDITOR_UNAVAILABLE,
                "verdict: CONDITIONAL (partial coverage (1/2): GO needs every Inspector's report)",
            ]
        );
        assert_eq!(
            out.coverage_qualifier().as_deref(),
            Some("partial coverage (1/2)")
        );
    }
}
