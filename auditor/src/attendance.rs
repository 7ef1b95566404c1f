//! Which Inspectors answered: the "partial coverage (5/6)" qualifier and its `PARTIAL` notes.
//!
//! A missing Inspector never blocks the verdict (the verdict output guarantee); it is named in a
//! `PARTIAL:{name}|{reason}` note so that nobody mistakes five reports for six. What it does
//! block is a clean result (the supervision spec): a review with partial coverage is never GO — GO becomes
//! CONDITIONAL ([`covered_verdict`]) — and its decision is never APPROVE ([`covered_decision`]);
//! with no report at all there is no verdict ([`unreported`], exit 2 in the Lead). These rules
//! live here, in the pure core, so the Auditor, the Lead-derived verdict, consensus and every
//! output and exit code follow them alike.

use protocol::{AuditOutcome, Decision, Grade, InspectorReport, Verdict};
use std::fmt;

/// The reason noted for an expected Inspector that sent no report and was not declared unavailable.
pub const NO_REPORT: &str = "no report";

/// How many Inspectors answered out of how many were expected, and the notes for the missing ones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Attendance {
    /// Distinct expected Inspectors that sent a report.
    pub answered: u32,
    /// Inspectors expected.
    pub expected: u32,
    /// One `PARTIAL:{name}|{reason}` note per missing Inspector.
    pub notes: Vec<String>,
}

/// Counts the answers and notes every unavailable Inspector, then every expected one without a report.
///
/// With no expected list (an offline audit of whatever CPF files were given) every report counts,
/// and coverage is full by definition.
pub fn attendance(
    reports: &[InspectorReport],
    expected: &[String],
    unavailable: &[(String, String)],
) -> Attendance {
    let mut notes: Vec<String> = Vec::new();
    let mut noted: Vec<&str> = Vec::new();
    for (name, reason) in unavailable {
        if noted.contains(&name.as_str()) {
            continue;
        }
        let reason = if reason.trim().is_empty() {
            NO_REPORT
        } else {
            reason.as_str()
        };
        notes.push(partial_note(name, reason));
        noted.push(name);
    }
    let reported = |name: &str| reports.iter().any(|r| r.inspector == name);
    let mut answered: Vec<&str> = Vec::new();
    for name in expected {
        if reported(name) {
            if !answered.contains(&name.as_str()) {
                answered.push(name);
            }
        } else if !noted.contains(&name.as_str()) {
            notes.push(partial_note(name, NO_REPORT));
            noted.push(name);
        }
    }
    let (answered, expected) = if expected.is_empty() {
        (reports.len(), reports.len())
    } else {
        (answered.len(), expected.len())
    };
    Attendance {
        answered: saturating_u32(answered),
        expected: saturating_u32(expected),
        notes,
    }
}

impl Attendance {
    /// Whether an expected Inspector sent no report.
    pub fn partial(&self) -> bool {
        self.answered < self.expected
    }
}

/// The note prefix of a missing Inspector.
pub const PARTIAL_PREFIX: &str = "PARTIAL:";

/// The verdict a review may end with given its coverage: GO needs every expected report, so a
/// partial GO is CONDITIONAL; any worse verdict stands. Returns the note that says so, if it applied.
pub fn covered_verdict(
    verdict: Verdict,
    answered: u32,
    expected: u32,
) -> (Verdict, Option<String>) {
    if verdict != Verdict::Go || answered >= expected {
        return (verdict, None);
    }
    let note = format!(
        "verdict: {} (partial coverage ({answered}/{expected}): GO needs every Inspector's report)",
        Verdict::Conditional
    );
    (Verdict::Conditional, Some(note))
}

/// The team-loop decision a review may end with given its coverage. A partial review is a
/// verification that could not run in full, the decision table's "environment error" row: below
/// REJECT (a Critical that was found still rejects), above REQUEST_CHANGES and APPROVE, so it is
/// STOP (N/A) — never an approval or a grade for code nobody fully checked.
pub fn covered_decision(decided: (Decision, Grade), partial: bool) -> (Decision, Grade) {
    match decided.0 {
        Decision::Approve | Decision::RequestChanges if partial => {
            (Decision::Stop, Grade::NotApplicable)
        }
        _ => decided,
    }
}

/// No Inspector reported: the review checked nothing, so it has no verdict (exit 2). Names every
/// missing Inspector with the reason its `PARTIAL` note gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct NoReport {
    /// (name, reason) of each expected Inspector, in note order.
    pub missing: Vec<(String, String)>,
}

impl fmt::Display for NoReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no Inspector reported: ")?;
        for (i, (name, reason)) in self.missing.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{name} ({reason})")?;
        }
        Ok(())
    }
}

/// `Err` when the outcome expected Inspectors and none of them reported.
pub fn unreported(outcome: &AuditOutcome) -> Result<(), NoReport> {
    if outcome.expected == 0 || outcome.answered > 0 {
        return Ok(());
    }
    let missing = outcome
        .notes
        .iter()
        .filter_map(|n| parse_partial_note(n))
        .map(|(name, reason)| (name.to_string(), reason.to_string()))
        .collect();
    Err(NoReport { missing })
}

/// The (name, reason) of a `PARTIAL:{name}|{reason}` note; `None` for any other note
/// (`PARTIAL_VERIFICATION|…` included).
pub fn parse_partial_note(note: &str) -> Option<(&str, &str)> {
    let rest = note.strip_prefix(PARTIAL_PREFIX)?;
    let (name, reason) = rest.split_once('|')?;
    Some((name, reason))
}

/// The recovery protocol's note for a missing Inspector.
pub fn partial_note(name: &str, reason: &str) -> String {
    format!("PARTIAL:{name}|{reason}")
}

fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::report;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn everyone_answered_means_no_notes() {
        let reports = vec![report("quality", vec![]), report("test", vec![])];
        let out = attendance(&reports, &names(&["quality", "test"]), &[]);
        assert_eq!(
            out,
            Attendance {
                answered: 2,
                expected: 2,
                notes: vec![]
            }
        );
    }

    #[test]
    fn unavailable_and_silent_inspectors_are_noted_once_each() {
        let reports = vec![report("quality", vec![]), report("quality", vec![])];
        let unavailable = vec![
            ("test".to_string(), "crashed twice".to_string()),
            ("holistic".to_string(), String::new()),
        ];
        let out = attendance(
            &reports,
            &names(&["quality", "test", "holistic", "interface"]),
            &unavailable,
        );
        assert_eq!(out.answered, 1);
        assert_eq!(out.expected, 4);
        assert_eq!(
            out.notes,
            vec![
                "PARTIAL:test|crashed twice",
                "PARTIAL:holistic|no report",
                "PARTIAL:interface|no report",
            ]
        );
    }

    #[test]
    fn reports_from_unexpected_inspectors_do_not_count_as_answers() {
        let reports = vec![report("stranger", vec![])];
        let out = attendance(&reports, &names(&["quality"]), &[]);
        assert_eq!((out.answered, out.expected), (0, 1));
        assert_eq!(out.notes, vec!["PARTIAL:quality|no report"]);
    }

    #[test]
    fn partial_coverage_turns_go_into_conditional_and_nothing_else() {
        assert_eq!(covered_verdict(Verdict::Go, 6, 6), (Verdict::Go, None));
        assert_eq!(
            covered_verdict(Verdict::Go, 5, 6),
            (
                Verdict::Conditional,
                Some("verdict: CONDITIONAL (partial coverage (5/6): GO needs every Inspector's report)".into())
            )
        );
        for v in [
            Verdict::Conditional,
            Verdict::NoGo,
            Verdict::SpecUpdateNeeded,
        ] {
            assert_eq!(covered_verdict(v, 0, 6), (v, None));
        }
    }

    #[test]
    fn partial_coverage_stops_an_approval_or_a_request_for_changes_but_not_a_reject() {
        let stop = (Decision::Stop, Grade::NotApplicable);
        assert_eq!(covered_decision((Decision::Approve, Grade::A), true), stop);
        assert_eq!(
            covered_decision((Decision::RequestChanges, Grade::C), true),
            stop
        );
        assert_eq!(
            covered_decision((Decision::Reject, Grade::D), true),
            (Decision::Reject, Grade::D)
        );
        assert_eq!(
            covered_decision((Decision::Approve, Grade::B), false),
            (Decision::Approve, Grade::B)
        );
    }

    #[test]
    fn no_report_at_all_names_every_missing_inspector_and_why() {
        let reports: Vec<InspectorReport> = Vec::new();
        let unavailable = vec![("quality".to_string(), "exited with code 2".to_string())];
        let att = attendance(&reports, &names(&["quality", "test"]), &unavailable);
        let mut outcome = AuditOutcome {
            verdict: Verdict::Conditional,
            scope: "repository".into(),
            answered: att.answered,
            expected: att.expected,
            decision: Decision::Stop,
            grade: Grade::NotApplicable,
            findings: vec![],
            removed: vec![],
            resolved: vec![],
            spec_feedback: vec![],
            steering: vec![],
            notes: att.notes,
            roadmap_advisory: vec![],
        };
        outcome
            .notes
            .push("PARTIAL_VERIFICATION|steps completed: none".into());
        let err = unreported(&outcome).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no Inspector reported: quality (exited with code 2); test (no report)"
        );
        outcome.answered = 1;
        assert_eq!(unreported(&outcome), Ok(()));
        outcome.answered = 0;
        outcome.expected = 0;
        assert_eq!(unreported(&outcome), Ok(()));
    }

    #[test]
    fn without_an_expected_list_every_report_counts() {
        let reports = vec![report("a", vec![]), report("b", vec![])];
        let out = attendance(&reports, &[], &[]);
        assert_eq!((out.answered, out.expected), (2, 2));
        assert!(out.notes.is_empty());
    }
}
