//! The `breezing` gate, by the team-loop decision:
//!
//! | decision | action |
//! |---|---|
//! | APPROVE | accept |
//! | REQUEST_CHANGES | `retake_count` + 1 (persisted); above `max_retakes` (3) → escalate, else fix tasks |
//! | REJECT | stop at once: manual-intervention report |
//! | STOP | stop at once: verification-failed report, continue with `retake resume` |

use super::{EscalationReason, GateAction, GateState, StopKind};
use protocol::Decision;

/// The default retake cap.
pub const MAX_RETAKES: u32 = 3;

/// One breezing step.
pub fn step(state: GateState, decision: Decision) -> (GateState, GateAction) {
    match decision {
        Decision::Approve => (
            state,
            GateAction::Accept {
                track_issues: false,
            },
        ),
        Decision::RequestChanges => {
            let next = GateState {
                retake_count: state.retake_count + 1,
                ..state
            };
            if next.retake_count > next.max_retakes {
                (
                    next,
                    GateAction::Escalate(EscalationReason::RetakesExhausted),
                )
            } else {
                (next, GateAction::Fix)
            }
        }
        Decision::Reject => (state, GateAction::Stop(StopKind::ManualIntervention)),
        Decision::Stop => (state, GateAction::Stop(StopKind::VerificationFailed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_retakes_then_the_fourth_request_escalates() {
        let mut state = GateState::default();
        let mut actions = Vec::new();
        for _ in 0..4 {
            let (next, action) = step(state, Decision::RequestChanges);
            state = next;
            actions.push(action);
        }
        assert_eq!(
            actions,
            vec![
                GateAction::Fix,
                GateAction::Fix,
                GateAction::Fix,
                GateAction::Escalate(EscalationReason::RetakesExhausted)
            ]
        );
        assert_eq!(state.retake_count, 4);
    }

    #[test]
    fn approve_accepts_and_reject_and_stop_stop_at_once() {
        let state = GateState {
            retake_count: 2,
            ..GateState::default()
        };
        assert_eq!(
            step(state, Decision::Approve),
            (
                state,
                GateAction::Accept {
                    track_issues: false
                }
            )
        );
        assert_eq!(
            step(state, Decision::Reject).1,
            GateAction::Stop(StopKind::ManualIntervention)
        );
        assert_eq!(
            step(state, Decision::Stop).1,
            GateAction::Stop(StopKind::VerificationFailed)
        );
        assert_eq!(
            step(GateState::default(), Decision::Reject).0.retake_count,
            0
        );
    }

    #[test]
    fn a_configured_cap_is_honoured() {
        let state = GateState {
            max_retakes: 1,
            ..GateState::default()
        };
        let (state, first) = step(state, Decision::RequestChanges);
        let (_, second) = step(state, Decision::RequestChanges);
        assert_eq!(
            (first, second),
            (
                GateAction::Fix,
                GateAction::Escalate(EscalationReason::RetakesExhausted)
            )
        );
    }
}
