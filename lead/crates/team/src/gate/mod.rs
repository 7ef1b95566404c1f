//! The review gate of Phase B (`[loop] gate = "sdd" | "breezing"`, default `sdd`): what the Lead
//! does after each review, with the counters and caps that keep the loop from running forever.
//! `sdd` reads the Auditor's verdict (GO / CONDITIONAL / NO-GO / SPEC-UPDATE-NEEDED); `breezing`
//! reads the team-loop decision (APPROVE / REQUEST_CHANGES / REJECT / STOP).

pub mod breezing;
pub mod sdd;

use protocol::{Decision, Disposition, Verdict};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// Which gate a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GateKind {
    /// Verdict-driven, with retry and spec-update counters (the default).
    #[default]
    Sdd,
    /// Decision-driven, with the retake counter.
    Breezing,
}

impl GateKind {
    /// The name `[loop] gate` and the state file spell it with.
    pub fn name(self) -> &'static str {
        match self {
            GateKind::Sdd => "sdd",
            GateKind::Breezing => "breezing",
        }
    }
}

impl FromStr for GateKind {
    type Err = protocol::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "sdd" => Ok(GateKind::Sdd),
            "breezing" => Ok(GateKind::Breezing),
            other => Err(protocol::UnknownValue {
                kind: "gate",
                value: other.to_string(),
                expected: "sdd, breezing",
            }),
        }
    }
}

/// The counters, persisted in active.json (`review.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateState {
    /// sdd: NO-GO fix rounds since the last GO/CONDITIONAL.
    pub retry_count: u32,
    /// sdd: spec-update cascades since the last GO/CONDITIONAL.
    pub spec_update_count: u32,
    /// breezing: REQUEST_CHANGES rounds.
    pub retake_count: u32,
    /// breezing: the retake cap.
    pub max_retakes: u32,
}

impl Default for GateState {
    fn default() -> Self {
        GateState {
            retry_count: 0,
            spec_update_count: 0,
            retake_count: 0,
            max_retakes: breezing::MAX_RETAKES,
        }
    }
}

/// Why the loop hands over to a human.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EscalationReason {
    /// sdd: NO-GO after the last allowed fix round.
    RetriesExhausted,
    /// sdd: SPEC-UPDATE-NEEDED after the last allowed spec update.
    SpecUpdatesExhausted,
    /// sdd: retry_count + spec_update_count reached the aggregate cap.
    AggregateCap,
    /// sdd: the spec must change and no agents are configured to change it.
    NoSpecCascade,
    /// breezing: more REQUEST_CHANGES rounds than max_retakes.
    RetakesExhausted,
}

impl EscalationReason {
    /// The report's headline.
    pub fn headline(self) -> String {
        match self {
            EscalationReason::RetriesExhausted => format!(
                "NO-GO after {} fix rounds (retry limit reached)",
                sdd::MAX_RETRIES
            ),
            EscalationReason::SpecUpdatesExhausted => format!(
                "SPEC-UPDATE-NEEDED after {} spec updates (spec update limit reached)",
                sdd::MAX_SPEC_UPDATES
            ),
            EscalationReason::AggregateCap => format!(
                "fix rounds and spec updates together reached {} (aggregate limit)",
                sdd::AGGREGATE_CAP
            ),
            EscalationReason::NoSpecCascade => "SPEC-UPDATE-NEEDED, and no Architect, TaskGenerator and Builder agents are configured to update the spec".to_string(),
            EscalationReason::RetakesExhausted => format!(
                "retake limit ({}) reached",
                breezing::MAX_RETAKES
            ),
        }
    }
}

/// Why the loop stops at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopKind {
    /// REJECT (a Critical): manual intervention required.
    ManualIntervention,
    /// STOP (build, test or environment failure): verification failed.
    VerificationFailed,
}

/// What the Lead does after a review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateAction {
    /// Accept the change; `track_issues` when a CONDITIONAL's M/L issues are to be tracked.
    Accept {
        /// Whether remaining issues are tracked (CONDITIONAL).
        track_issues: bool,
    },
    /// Turn the findings into fix tasks and review again.
    Fix,
    /// Reset the phase to `design-generated` and run Architect → TaskGenerator → Builder.
    SpecCascade,
    /// Hand over to a human with the escalation report.
    Escalate(EscalationReason),
    /// Stop at once with the stop report.
    Stop(StopKind),
}

impl GateAction {
    /// The verdicts.md disposition of the batch this action closes.
    pub fn disposition(self) -> Disposition {
        match self {
            GateAction::Accept {
                track_issues: false,
            } => Disposition::GoAccepted,
            GateAction::Accept { track_issues: true } => Disposition::ConditionalTracked,
            GateAction::Fix => Disposition::NoGoFixed,
            GateAction::SpecCascade => Disposition::SpecUpdateCascaded,
            GateAction::Escalate(_) | GateAction::Stop(_) => Disposition::Escalated,
        }
    }
}

/// One gate step: the new counters and the action for a review's verdict and decision.
/// `spec_cascade_available` says whether the agents a spec update needs are configured.
pub fn step(
    kind: GateKind,
    state: GateState,
    verdict: Verdict,
    decision: Decision,
    spec_cascade_available: bool,
) -> (GateState, GateAction) {
    match kind {
        GateKind::Sdd => sdd::step(state, verdict, spec_cascade_available),
        GateKind::Breezing => breezing::step(state, decision),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_actions_map_to_dispositions() {
        assert_eq!("breezing".parse::<GateKind>(), Ok(GateKind::Breezing));
        assert_eq!(
            "strict".parse::<GateKind>().unwrap_err().to_string(),
            "unknown gate 'strict' (expected one of: sdd, breezing)"
        );
        assert_eq!(GateKind::default(), GateKind::Sdd);
        let accept = GateAction::Accept { track_issues: true };
        assert_eq!(accept.disposition(), Disposition::ConditionalTracked);
        assert_eq!(GateAction::Fix.disposition(), Disposition::NoGoFixed);
        let stop = GateAction::Stop(StopKind::ManualIntervention);
        assert_eq!(stop.disposition(), Disposition::Escalated);
        assert_eq!(
            serde_json::to_value(GateState::default()).unwrap(),
            serde_json::json!({"retry_count": 0, "spec_update_count": 0, "retake_count": 0, "max_retakes": 3})
        );
    }

    #[test]
    fn step_dispatches_on_the_kind() {
        let s = GateState::default();
        let (_, a) = step(GateKind::Sdd, s, Verdict::NoGo, Decision::Approve, false);
        assert_eq!(a, GateAction::Fix);
        let (_, a) = step(
            GateKind::Breezing,
            s,
            Verdict::NoGo,
            Decision::Approve,
            false,
        );
        assert_eq!(
            a,
            GateAction::Accept {
                track_issues: false
            }
        );
    }
}
