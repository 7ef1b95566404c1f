//! The outputs of chapter 07 that this build writes: the terminal report and the JSON object.
//! Both render a [`Summary`], so `retake review` and `retake audit` print the same way.

pub mod json;
pub mod terminal;

use protocol::{AuditOutcome, InspectorReport, Verdict};
use std::collections::BTreeMap;

/// Everything a report shows about one review.
#[derive(Debug, Clone)]
pub struct Summary<'a> {
    /// The run id, when the review was journaled.
    pub run_id: Option<&'a str>,
    /// The Auditor's outcome.
    pub outcome: &'a AuditOutcome,
    /// The reports, by agent name.
    pub reports: &'a BTreeMap<String, InspectorReport>,
    /// Agents expected (for coverage: those without a report are unavailable).
    pub expected: &'a [String],
    /// Restarts per actor.
    pub restarts: &'a BTreeMap<String, u32>,
}

impl Summary<'_> {
    /// The verdict with its qualifiers ("NO-GO (partial coverage (5/6))").
    pub fn verdict_line(&self) -> String {
        match self.outcome.coverage_qualifier() {
            Some(q) => format!("{} ({q})", self.outcome.verdict),
            None => self.outcome.verdict.to_string(),
        }
    }

    /// Coverage status per agent: `ok`, or `unavailable` without a report.
    pub fn coverage_status(&self, agent: &str) -> &'static str {
        if self.reports.contains_key(agent) {
            "ok"
        } else {
            "unavailable"
        }
    }

    /// Every agent the coverage lists: expected ones first, then any other reporter.
    pub fn agents(&self) -> Vec<&str> {
        let mut agents: Vec<&str> = self.expected.iter().map(String::as_str).collect();
        for name in self.reports.keys() {
            if !agents.contains(&name.as_str()) {
                agents.push(name);
            }
        }
        agents
    }
}

/// The process exit code for a verdict (chapter 07): GO 0; NO-GO 1; CONDITIONAL 0, or 3 with
/// `--strict`; SPEC-UPDATE-NEEDED 4.
pub fn exit_code(verdict: Verdict, strict: bool) -> u8 {
    match verdict {
        Verdict::Go => 0,
        Verdict::Conditional if strict => 3,
        Verdict::Conditional => 0,
        Verdict::NoGo => 1,
        Verdict::SpecUpdateNeeded => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_chapter_07() {
        assert_eq!(exit_code(Verdict::Go, true), 0);
        assert_eq!(exit_code(Verdict::NoGo, false), 1);
        assert_eq!(exit_code(Verdict::Conditional, false), 0);
        assert_eq!(exit_code(Verdict::Conditional, true), 3);
        assert_eq!(exit_code(Verdict::SpecUpdateNeeded, false), 4);
    }
}
