//! Step 1 of the audit, cross-check between agents: a problem several Inspectors report gains
//! confidence, a problem one Inspector alone reports is marked for verification. (The other half
//! of step 1, the spec-defect signal, is [`crate::spec_defects`].)
//!
//! "The same problem" is dedup's grouping (same fingerprint, or same place and category), so
//! steps 1 and 5 can never disagree on what was confirmed. A suppressed finding lends no support:
//! the user has already judged it.
//!
//! The marks reach the outputs as notes on the verified findings, with fixed prefixes:
//! - `CONFIRMED|{location}|{category}|confirmed by N agents: a+b`, for every finding two or more
//!   distinct Inspectors report;
//! - `VERIFY|{location}|{category}|{sev} reported by {agent} only`, for a Critical or High finding
//!   from one Inspector — the ones that move the verdict. When only one Inspector reported at all
//!   (an offline audit of one file), nothing could have confirmed anything and no VERIFY is noted.

use crate::budget::{Budget, Ticker};
use crate::dedup::group_within;
use crate::evidence::AUDITOR;
use protocol::{Confidence, Finding, Severity};

/// Raises to [`Confidence::High`] every finding whose problem two or more distinct agents report.
pub fn cross_check(findings: Vec<Finding>) -> Vec<Finding> {
    let mut unlimited = Ticker::new(&Budget::Unlimited);
    // An unlimited budget is never spent: `Err` cannot come back, and would carry the input.
    cross_check_within(findings, &mut unlimited).unwrap_or_else(|findings| findings)
}

/// As [`cross_check`], giving the findings back untouched (`Err`) when the budget runs out while
/// grouping them.
pub(crate) fn cross_check_within(
    mut findings: Vec<Finding>,
    ticker: &mut Ticker<'_, '_>,
) -> Result<Vec<Finding>, Vec<Finding>> {
    let Some(groups) = group_within(&findings, ticker) else {
        return Err(findings);
    };
    for members in groups {
        let mut agents: Vec<&str> = Vec::new();
        for &i in &members {
            if findings[i].suppression.is_some() {
                continue;
            }
            for a in &findings[i].agents {
                if !agents.contains(&a.as_str()) {
                    agents.push(a);
                }
            }
        }
        if agents.len() >= 2 {
            for &i in &members {
                findings[i].confidence = Confidence::High;
            }
        }
    }
    Ok(findings)
}

/// The CONFIRMED and VERIFY notes for the verified (deduplicated) findings; `reporters` is how
/// many Inspector reports the audit saw.
pub fn cross_check_notes(verified: &[Finding], reporters: usize) -> Vec<String> {
    let mut notes = Vec::new();
    for f in verified {
        let agents: Vec<&str> = f
            .agents
            .iter()
            .map(String::as_str)
            .filter(|a| *a != AUDITOR)
            .collect();
        if agents.len() >= 2 {
            notes.push(format!(
                "CONFIRMED|{}|{}|confirmed by {} agents: {}",
                f.location,
                f.category,
                agents.len(),
                agents.join("+")
            ));
        } else if let [agent] = agents.as_slice() {
            if reporters >= 2 && f.severity >= Severity::High {
                notes.push(format!(
                    "VERIFY|{}|{}|{} reported by {agent} only",
                    f.location,
                    f.category,
                    f.severity.word()
                ));
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;

    #[test]
    fn a_problem_two_agents_report_gains_confidence_before_dedup() {
        let a = finding("quality", "resource-leak", Severity::Medium, "src/io.rs", 8);
        let b = finding("holistic", "resource-leak", Severity::High, "src/io.rs", 8);
        let lone = finding("quality", "dead-code", Severity::Low, "src/io.rs", 9);
        let out = cross_check(vec![a, lone, b]);
        let confidence: Vec<Confidence> = out.iter().map(|f| f.confidence).collect();
        assert_eq!(
            confidence,
            vec![Confidence::High, Confidence::Normal, Confidence::High]
        );
        // Nothing is merged or dropped: that is step 5's job.
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn one_agent_twice_or_a_suppressed_twin_confirms_nothing() {
        let a = finding("quality", "todo", Severity::Low, "src/a.rs", 3);
        let again = finding("quality", "todo", Severity::Low, "src/a.rs", 3);
        let mut suppressed = finding("holistic", "todo", Severity::Low, "src/a.rs", 3);
        suppressed.suppression = Some("retake-ignore: accepted".into());
        let out = cross_check(vec![a, again, suppressed]);
        assert!(out.iter().all(|f| f.confidence == Confidence::Normal));
    }

    #[test]
    fn notes_confirm_multi_agent_findings_and_mark_lone_high_ones() {
        let mut confirmed = finding("quality", "resource-leak", Severity::High, "src/io.rs", 8);
        confirmed.agents = vec!["quality".into(), "holistic".into(), AUDITOR.into()];
        let lone_high = finding(
            "holistic",
            "race-condition",
            Severity::Critical,
            "src/a.rs",
            2,
        );
        let lone_medium = finding(
            "quality",
            "naming-violation",
            Severity::Medium,
            "src/a.rs",
            4,
        );
        let raised = finding(
            AUDITOR,
            "false-positive-risk",
            Severity::High,
            "src/b.rs",
            1,
        );
        let notes = cross_check_notes(&[confirmed, lone_high, lone_medium, raised], 6);
        assert_eq!(
            notes,
            vec![
                "CONFIRMED|src/io.rs:8|resource-leak|confirmed by 2 agents: quality+holistic",
                "VERIFY|src/a.rs:2|race-condition|Critical reported by holistic only",
            ]
        );
    }

    #[test]
    fn a_single_reporter_is_not_asked_to_verify_anything() {
        let lone_high = finding("quality", "dead-code", Severity::High, "src/a.rs", 2);
        assert!(cross_check_notes(&[lone_high], 1).is_empty());
    }
}
