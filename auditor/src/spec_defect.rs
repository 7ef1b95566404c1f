//! Step 1 of the audit, the spec-defect signal: when several agents judge the same spec item
//! unimplementable, the spec — not the code — has to change.
//!
//! Inspectors say so with category `spec-defect`. Two or more distinct agents at one place make a
//! `SPEC_FEEDBACK` row and the findings leave the finding list (they are about the spec, not the
//! code); a `spec-defect` only one agent reports is one opinion, so it stays a High finding.

use crate::category::Category;
use crate::place::Place;
use protocol::{Finding, Severity, SpecFeedback};

/// The phase every spec defect is fed back to: `specifications` is chosen before `design` when
/// the evidence cannot tell them apart, and a finding never can.
pub const SPEC_DEFECT_PHASE: &str = "specifications";

/// The findings after step 1, and the spec defects it found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpecDefects {
    /// Every other finding, in input order; lone `spec-defect` findings are now High.
    pub findings: Vec<Finding>,
    /// One row per place where two or more agents reported `spec-defect`.
    pub feedback: Vec<SpecFeedback>,
}

impl SpecDefects {
    /// Whether a spec defect was detected (the verdict table's SPEC-UPDATE-NEEDED row).
    pub fn detected(&self) -> bool {
        !self.feedback.is_empty()
    }
}

/// Splits the confirmed spec defects (two or more distinct agents at one place) off the findings.
pub fn spec_defects(findings: Vec<Finding>) -> SpecDefects {
    // Groups of spec-defect findings by place, in first-seen order; small lists, so a linear
    // search keeps the order without a second index.
    let mut groups: Vec<(Place<'_>, Vec<usize>)> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        if !f.category_is(Category::SpecDefect) {
            continue;
        }
        let place = Place::of(&f.location);
        match groups.iter_mut().find(|(p, _)| *p == place) {
            Some((_, members)) => members.push(i),
            None => groups.push((place, vec![i])),
        }
    }

    let mut confirmed = vec![false; findings.len()];
    let mut feedback = Vec::new();
    for (_, members) in &groups {
        let mut agents: Vec<&str> = Vec::new();
        for &i in members {
            for a in &findings[i].agents {
                if !agents.contains(&a.as_str()) {
                    agents.push(a);
                }
            }
        }
        if agents.len() < 2 {
            continue;
        }
        let first = &findings[members[0]];
        let description = members
            .iter()
            .map(|&i| findings[i].description.as_str())
            .fold("", longest_first);
        feedback.push(SpecFeedback {
            phase: SPEC_DEFECT_PHASE.to_string(),
            spec: first.location.to_string(),
            description: description.to_string(),
        });
        for &i in members {
            confirmed[i] = true;
        }
    }

    let findings = findings
        .into_iter()
        .zip(confirmed)
        .filter(|(_, confirmed)| !confirmed)
        .map(|(mut f, _)| {
            if f.category_is(Category::SpecDefect) {
                f.severity = Severity::High;
            }
            f
        })
        .collect();
    SpecDefects { findings, feedback }
}

/// The longer of two texts; the earlier one on a tie.
pub(crate) fn longest_first<'a>(kept: &'a str, next: &'a str) -> &'a str {
    if next.chars().count() > kept.chars().count() {
        next
    } else {
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;
    use protocol::Location;

    #[test]
    fn two_agents_at_one_place_make_one_feedback_row_and_leave_the_findings() {
        let mut a = finding(
            "quality",
            Category::SpecDefect,
            Severity::Medium,
            "design.md",
            10,
        );
        a.description = "Spec 3 cannot be built".into();
        let mut b = finding(
            "holistic",
            Category::SpecDefect,
            Severity::High,
            "design.md",
            10,
        );
        b.description = "Spec 3 contradicts Spec 1 on ordering".into();
        let other = finding("quality", "dead-code", Severity::Low, "src/a.rs", 1);
        let out = spec_defects(vec![a, other.clone(), b]);
        assert!(out.detected());
        assert_eq!(
            out.feedback,
            vec![SpecFeedback {
                phase: "specifications".into(),
                spec: "design.md:10".into(),
                description: "Spec 3 contradicts Spec 1 on ordering".into(),
            }]
        );
        assert_eq!(out.findings, vec![other]);
    }

    #[test]
    fn anchored_places_group_too() {
        let mut a = finding("rulebase", Category::SpecDefect, Severity::High, "x", 1);
        a.location = Location::anchored("specs/f/design.md", "Spec 2");
        let mut b = a.clone();
        b.agents = vec!["interface".into()];
        let out = spec_defects(vec![a, b]);
        assert_eq!(out.feedback.len(), 1);
        assert_eq!(out.feedback[0].spec, "specs/f/design.md#Spec 2");
        assert!(out.findings.is_empty());
    }

    #[test]
    fn a_lone_spec_defect_stays_a_high_finding() {
        let lone = finding(
            "quality",
            Category::SpecDefect,
            Severity::Medium,
            "design.md",
            10,
        );
        // The same agent twice is still one agent; another agent elsewhere is another place.
        let again = finding(
            "quality",
            Category::SpecDefect,
            Severity::Low,
            "design.md",
            10,
        );
        let elsewhere = finding(
            "holistic",
            Category::SpecDefect,
            Severity::Critical,
            "design.md",
            11,
        );
        let out = spec_defects(vec![lone, again, elsewhere]);
        assert!(!out.detected());
        assert_eq!(out.findings.len(), 3);
        assert!(out.findings.iter().all(|f| f.severity == Severity::High));
    }

    #[test]
    fn one_finding_already_carrying_two_agents_is_confirmed() {
        let mut f = finding(
            "quality",
            Category::SpecDefect,
            Severity::High,
            "design.md",
            4,
        );
        f.agents.push("holistic".into());
        let out = spec_defects(vec![f]);
        assert_eq!(out.feedback.len(), 1);
        assert!(out.findings.is_empty());
    }

    #[test]
    fn longest_first_keeps_the_earlier_text_on_a_tie() {
        assert_eq!(longest_first("abc", "xyz"), "abc");
        assert_eq!(longest_first("ab", "xyz"), "xyz");
    }
}
