//! The outputs of the outputs spec: terminal, Markdown, JSON, SARIF, rdjson/rdjsonl, JUnit and GitLab
//! Code Quality. Every format renders a [`Summary`] as a pure function, so `retake review` and
//! `retake audit` print the same way; `gate` turns it into the exit code. `progress` is the live
//! display of a review on a terminal, `suppressed` what a report says about findings the rules'
//! suppressions and the change itself set aside.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod already_there;
pub mod baseline;
pub mod exit;
pub mod gate;
pub mod gitlab;
pub mod headline;
pub mod issues;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod notes;
pub mod progress;
pub mod rdjson;
pub mod sarif;
pub mod suppressed;
pub mod terminal;
#[cfg(test)]
pub(crate) mod test_support;

pub use exit::ExitCode;

use baseline::{Baseline, BaselineEntry, BaselineState};
use protocol::{AuditOutcome, Finding, InspectorReport, Verdict};
use std::collections::{BTreeMap, BTreeSet};

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
    /// The verdicts.md batch number of this review (1 when nothing was appended).
    pub round: u32,
    /// The reviewed repository's `HEAD` commit, when it is a git work tree.
    pub head: Option<&'a str>,
    /// The previous output given with `--baseline`, set by the output step.
    pub baseline: Option<&'a Baseline>,
}

impl<'a> Summary<'a> {
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

    /// Why an agent without a report sent none, from its `PARTIAL:{name}|{reason}` note
    /// (`no report` when no note says); `None` for an agent that reported.
    pub fn lost_reason(&self, agent: &str) -> Option<&'a str> {
        if self.reports.contains_key(agent) {
            return None;
        }
        let noted = self
            .outcome
            .notes
            .iter()
            .filter_map(|n| auditor::parse_partial_note(n))
            .find(|(name, _)| *name == agent)
            .map(|(_, reason)| reason);
        Some(noted.unwrap_or(auditor::NO_REPORT))
    }

    /// "{agent} sent no report: {reason}" for an agent without a report (no reason when none
    /// was recorded); `None` for an agent that reported.
    pub fn lost_message(&self, agent: &str) -> Option<String> {
        self.lost_reason(agent).map(|reason| {
            if reason == auditor::NO_REPORT {
                format!("{agent} sent no report")
            } else {
                format!("{agent} sent no report: {reason}")
            }
        })
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

    /// The findings that count: the verified ones that are not suppressed.
    pub fn active(&self) -> impl Iterator<Item = &'a Finding> {
        self.outcome
            .findings
            .iter()
            .filter(|f| f.suppression.is_none())
    }

    /// Suppressed findings, from the outcome and the reports, once per fingerprint and never one
    /// that is also active: SARIF lists them with their suppression, other formats leave them out.
    pub fn suppressed(&self) -> Vec<&'a Finding> {
        let active: BTreeSet<&str> = self.active().map(|f| f.fingerprint.as_str()).collect();
        let mut seen = BTreeSet::new();
        self.outcome
            .findings
            .iter()
            .chain(self.reports.values().flat_map(|r| r.findings.iter()))
            .filter(|f| f.suppression.is_some() && !active.contains(f.fingerprint.as_str()))
            .filter(|f| seen.insert(f.fingerprint.as_str()))
            .collect()
    }

    /// The findings already there before a session's change (see [`already_there`]): never
    /// counted, never gating, shown apart.
    pub fn already_there(&self) -> Vec<&'a Finding> {
        let active: BTreeSet<&str> = self.active().map(|f| f.fingerprint.as_str()).collect();
        already_there::collect(self.reports, &active)
    }

    /// A finding's state against the baseline, when one was given.
    pub fn baseline_state(&self, finding: &Finding) -> Option<BaselineState> {
        self.baseline.map(|b| b.state(&finding.fingerprint))
    }

    /// The baseline's findings that no current finding (active, suppressed or already there)
    /// carries.
    pub fn absent(&self) -> Vec<&'a BaselineEntry> {
        let current: Vec<&Finding> = self
            .outcome
            .findings
            .iter()
            .chain(self.suppressed())
            .chain(self.already_there())
            .collect();
        self.baseline
            .map(|b| b.absent(&current))
            .unwrap_or_default()
    }

    /// With a baseline: how many active findings are new, unchanged, and how many are absent.
    pub fn baseline_counts(&self) -> Option<(usize, usize, usize)> {
        self.baseline?;
        let (new, unchanged) =
            self.active()
                .fold((0, 0), |(n, u), f| match self.baseline_state(f) {
                    Some(BaselineState::Unchanged) => (n, u + 1),
                    _ => (n + 1, u),
                });
        Some((new, unchanged, self.absent().len()))
    }

    /// The agent a finding is filed under (its first reporter; `retake` when it names none).
    pub fn owner(finding: &Finding) -> &str {
        finding.agents.first().map_or("retake", String::as_str)
    }
}

/// The process exit code for a verdict (the outputs spec): GO 0; NO-GO 1; CONDITIONAL 0, or 3 with
/// `--strict`; SPEC-UPDATE-NEEDED 4.
pub fn exit_code(verdict: Verdict, strict: bool) -> ExitCode {
    match verdict {
        Verdict::Go => ExitCode::Success,
        Verdict::Conditional if strict => ExitCode::Conditional,
        Verdict::Conditional => ExitCode::Success,
        Verdict::NoGo => ExitCode::Failed,
        Verdict::SpecUpdateNeeded => ExitCode::SpecUpdateNeeded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_chapter_07() {
        assert_eq!(exit_code(Verdict::Go, true).code(), 0);
        assert_eq!(exit_code(Verdict::NoGo, false).code(), 1);
        assert_eq!(exit_code(Verdict::Conditional, false).code(), 0);
        assert_eq!(exit_code(Verdict::Conditional, true).code(), 3);
        assert_eq!(exit_code(Verdict::SpecUpdateNeeded, false).code(), 4);
    }
}
