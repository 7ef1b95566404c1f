//! The `sdd` gate, by the Auditor's verdict:
//!
//! | verdict | counters | action |
//! |---|---|---|
//! | GO / CONDITIONAL | both reset to 0 | accept (CONDITIONAL: its M/L issues are tracked) |
//! | NO-GO | `retry_count` + 1 (max 3) | fix tasks; a 4th NO-GO escalates |
//! | SPEC-UPDATE-NEEDED | `spec_update_count` + 1 (max 2) | spec cascade when its agents are configured, else escalate; a 3rd escalates |
//!
//! and whenever `retry_count + spec_update_count` would reach 4, the loop escalates instead.
//! An escalation leaves the counters as they were: they record rounds actually run.

use super::{EscalationReason, GateAction, GateState};
use protocol::Verdict;

/// Most NO-GO fix rounds.
pub const MAX_RETRIES: u32 = 3;
/// Most spec-update cascades.
pub const MAX_SPEC_UPDATES: u32 = 2;
/// The two counters together escalate when they reach this.
pub const AGGREGATE_CAP: u32 = 4;

/// One sdd step.
pub fn step(
    state: GateState,
    verdict: Verdict,
    spec_cascade_available: bool,
) -> (GateState, GateAction) {
    let escalate = |reason| (state, GateAction::Escalate(reason));
    match verdict {
        Verdict::Go | Verdict::Conditional => (
            GateState {
                retry_count: 0,
                spec_update_count: 0,
                ..state
            },
            GateAction::Accept {
                track_issues: verdict == Verdict::Conditional,
            },
        ),
        Verdict::NoGo => {
            if state.retry_count >= MAX_RETRIES {
                return escalate(EscalationReason::RetriesExhausted);
            }
            let next = GateState {
                retry_count: state.retry_count + 1,
                ..state
            };
            if next.retry_count + next.spec_update_count >= AGGREGATE_CAP {
                return escalate(EscalationReason::AggregateCap);
            }
            (next, GateAction::Fix)
        }
        Verdict::SpecUpdateNeeded => {
            if state.spec_update_count >= MAX_SPEC_UPDATES {
                return escalate(EscalationReason::SpecUpdatesExhausted);
            }
            let next = GateState {
                spec_update_count: state.spec_update_count + 1,
                ..state
            };
            if next.retry_count + next.spec_update_count >= AGGREGATE_CAP {
                return escalate(EscalationReason::AggregateCap);
            }
            if !spec_cascade_available {
                return escalate(EscalationReason::NoSpecCascade);
            }
            (next, GateAction::SpecCascade)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(verdicts: &[Verdict], cascade: bool) -> (GateState, Vec<GateAction>) {
        let mut state = GateState::default();
        let mut actions = Vec::new();
        for v in verdicts {
            let (next, action) = step(state, *v, cascade);
            state = next;
            actions.push(action);
        }
        (state, actions)
    }

    #[test]
    fn three_fix_rounds_then_the_fourth_no_go_escalates() {
        let (state, actions) = run(&[Verdict::NoGo; 4], true);
        assert_eq!(
            actions,
            vec![
                GateAction::Fix,
                GateAction::Fix,
                GateAction::Fix,
                GateAction::Escalate(EscalationReason::RetriesExhausted)
            ]
        );
        assert_eq!((state.retry_count, state.spec_update_count), (3, 0));
    }

    #[test]
    fn two_spec_updates_then_the_third_escalates() {
        let (state, actions) = run(&[Verdict::SpecUpdateNeeded; 3], true);
        assert_eq!(
            actions,
            vec![
                GateAction::SpecCascade,
                GateAction::SpecCascade,
                GateAction::Escalate(EscalationReason::SpecUpdatesExhausted)
            ]
        );
        assert_eq!(state.spec_update_count, 2);
    }

    #[test]
    fn the_aggregate_cap_escalates_at_four() {
        use Verdict::*;
        let (state, actions) = run(&[SpecUpdateNeeded, SpecUpdateNeeded, NoGo, NoGo], true);
        assert_eq!(actions[2], GateAction::Fix);
        assert_eq!(
            actions[3],
            GateAction::Escalate(EscalationReason::AggregateCap)
        );
        assert_eq!((state.retry_count, state.spec_update_count), (1, 2));
        let (_, actions) = run(&[NoGo, NoGo, NoGo, SpecUpdateNeeded], true);
        assert_eq!(
            actions[3],
            GateAction::Escalate(EscalationReason::AggregateCap)
        );
    }

    #[test]
    fn go_and_conditional_accept_and_reset_both_counters() {
        use Verdict::*;
        let (state, actions) = run(&[NoGo, SpecUpdateNeeded, Conditional], true);
        assert_eq!(actions[2], GateAction::Accept { track_issues: true });
        assert_eq!((state.retry_count, state.spec_update_count), (0, 0));
        let (_, actions) = run(&[NoGo, NoGo, NoGo, Go, NoGo], true);
        assert_eq!(
            actions[3],
            GateAction::Accept {
                track_issues: false
            }
        );
        assert_eq!(
            actions[4],
            GateAction::Fix,
            "the reset gives three rounds again"
        );
    }

    #[test]
    fn without_cascade_agents_a_spec_update_escalates() {
        let (state, actions) = run(&[Verdict::SpecUpdateNeeded], false);
        assert_eq!(
            actions,
            vec![GateAction::Escalate(EscalationReason::NoSpecCascade)]
        );
        assert_eq!(state.spec_update_count, 0);
    }
}
