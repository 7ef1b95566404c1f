//! The audit as one pure function: reports in, one [`AuditOutcome`] out, no actors, no I/O, so
//! the Auditor actor, `retake audit`, recovery mode and consensus all run the very same code.
//!
//! The pipeline runs the steps of chapter 03 in order, each a separately tested function:
//! 1 spec defects ([`spec_defects`]) → 5 dedup ([`dedup`]) → 6 severity table ([`rerate`]) →
//! 10 verdict table ([`verdict_table`]), with the team-loop decision ([`decide`]) beside it.
//! Steps 2–4 and 7–9 (contradictions, false positives, coverage, conflicts, over-implementation,
//! steering) are not part of it yet; their outputs (`removed`, `resolved`, `steering`) stay empty.

use crate::attendance::attendance;
use crate::decision::{agent_only_note, decide};
use crate::dedup::{dedup, sort_by_severity};
use crate::severity_table::rerate;
use crate::spec_defect::spec_defects;
use crate::verdict_table::{test_failure_note, verdict_table};
use protocol::message::TestFailurePolicy;
use protocol::{AuditOutcome, Finding, InspectorReport};

/// The audit's settings (`[audit]` in the configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AuditConfig {
    /// What test failures do to the verdict; NO-GO by default.
    pub test_failure: TestFailurePolicy,
}

/// Everything one audit looks at.
#[derive(Debug, Clone, Copy)]
pub struct AuditInput<'a> {
    /// The scope label, copied into the outcome.
    pub scope: &'a str,
    /// The Inspectors' reports, in arrival order.
    pub reports: &'a [InspectorReport],
    /// Names of the Inspectors whose reports are expected; empty in an offline audit.
    pub expected: &'a [String],
    /// Inspectors the Lead declared unavailable: (name, reason).
    pub unavailable: &'a [(String, String)],
    /// Settings.
    pub config: &'a AuditConfig,
}

/// Audits the reports: verified findings most severe first, spec feedback, verdict, decision and
/// notes (`PARTIAL:…`, `verdict: NO-GO (2 Critical)`, the test-failure policy).
///
/// The Inspectors' own notes are advisory input, not synthesis, and are not copied.
pub fn audit(input: &AuditInput<'_>) -> AuditOutcome {
    let attendance = attendance(input.reports, input.expected, input.unavailable);

    let step1 = spec_defects(collect(input.reports));
    let spec_defect = step1.detected();
    let mut findings = rerate(dedup(step1.findings));
    // Re-rating changes severities, so the order dedup produced no longer holds.
    sort_by_severity(&mut findings);

    let (verdict, reason) = verdict_table(&findings, spec_defect, input.config);
    let (decision, grade) = decide(&findings);

    let mut notes = attendance.notes;
    if let Some(reason) = reason {
        notes.push(format!("verdict: {verdict} ({reason})"));
    }
    notes.extend(test_failure_note(&findings, input.config.test_failure));
    notes.extend(agent_only_note(&findings));

    AuditOutcome {
        verdict,
        scope: input.scope.to_string(),
        answered: attendance.answered,
        expected: attendance.expected,
        decision,
        grade,
        findings,
        removed: Vec::new(),
        resolved: Vec::new(),
        spec_feedback: step1.feedback,
        steering: Vec::new(),
        notes,
        roadmap_advisory: Vec::new(),
    }
}

/// Every report's findings in arrival order; a finding that names no agent is the reporter's.
pub(crate) fn collect(reports: &[InspectorReport]) -> Vec<Finding> {
    reports
        .iter()
        .flat_map(|r| {
            r.findings.iter().cloned().map(move |mut f| {
                if f.agents.is_empty() {
                    f.agents.push(r.inspector.clone());
                }
                f
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
