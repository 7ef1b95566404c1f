//! The Auditor's result: a verdict, the decision and grade beside it, and the verified findings.

use super::finding::Finding;
use super::verdict::{Decision, Grade, Verdict};
use serde::{Deserialize, Serialize};

/// A finding the Auditor dropped as a false positive (a CPF `REMOVED` row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Removed {
    /// The reporting agent(s), joined with `+`.
    pub agent: String,
    /// Why it was dropped.
    pub reason: String,
    /// The original issue, as text.
    pub original: String,
}

/// A contradiction the Auditor resolved (a CPF `RESOLVED` row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolved {
    /// The agents involved.
    pub agents: Vec<String>,
    /// How it was resolved.
    pub resolution: String,
    /// The conflicting findings, as text.
    pub conflicting: String,
}

/// A spec defect to feed back (a CPF `SPEC_FEEDBACK` row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecFeedback {
    /// `specifications` or `design`.
    pub phase: String,
    /// The spec item.
    pub spec: String,
    /// What is wrong with it.
    pub description: String,
}

/// Whether a steering decision is applied or proposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SteeringAction {
    /// Document an implicit pattern (applied automatically).
    #[serde(rename = "CODIFY")]
    Codify,
    /// A new constraint for the user to approve.
    #[serde(rename = "PROPOSE")]
    Propose,
}

impl SteeringAction {
    /// The exact text form.
    pub fn as_str(self) -> &'static str {
        match self {
            SteeringAction::Codify => "CODIFY",
            SteeringAction::Propose => "PROPOSE",
        }
    }
}

/// A steering decision suggestion (a CPF `STEERING` row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Steering {
    /// CODIFY or PROPOSE.
    pub action: SteeringAction,
    /// The steering file it targets.
    pub target: String,
    /// The decision text.
    pub text: String,
}

/// The Auditor's verdict with everything the outputs show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditOutcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The scope label.
    pub scope: String,
    /// Inspectors that answered.
    pub answered: u32,
    /// Inspectors expected.
    pub expected: u32,
    /// The team-loop decision.
    pub decision: Decision,
    /// Its grade.
    pub grade: Grade,
    /// Verified findings, most severe first.
    pub findings: Vec<Finding>,
    /// Dropped false positives.
    pub removed: Vec<Removed>,
    /// Resolved contradictions.
    pub resolved: Vec<Resolved>,
    /// Spec defects.
    pub spec_feedback: Vec<SpecFeedback>,
    /// Steering suggestions.
    pub steering: Vec<Steering>,
    /// Synthesis notes, CPF note form (`PARTIAL:{name}|{reason}` …).
    pub notes: Vec<String>,
    /// Wave-scoped advisories.
    pub roadmap_advisory: Vec<String>,
}

impl AuditOutcome {
    /// "partial coverage (k/n)" when fewer Inspectors answered than were expected.
    pub fn coverage_qualifier(&self) -> Option<String> {
        (self.answered < self.expected)
            .then(|| format!("partial coverage ({}/{})", self.answered, self.expected))
    }
}
