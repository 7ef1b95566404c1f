//! Staged execution, one group at a time: fix → run the tests → all pass: one commit holding
//! the group's fixes; otherwise roll the group's files back and try again, at most
//! `max_attempts` attempts in all ([`MAX_ATTEMPTS`] by default, the source's
//! `attempts < max_iterations` with 3). A state machine: events in, the next state and the
//! effects the shell must carry out, out.
//!
//! One commit per group rather than per finding: a fixer run (clippy's suggestions, rustfmt,
//! an agent) fixes every finding of the group's files at once, so the fixes cannot be told
//! apart afterwards; the commit message lists each fix id.
//!
//! ```text
//! Pending ─Start→ Fixing(1) ─FixApplied→ Testing(1) ─TestsPassed→ Committed
//!                     │                      │
//!                     └─FixFailed / TestsFailed→ roll back → Fixing(2) … → Failed after 3
//!                     └─Unfixable→ roll back → Failed (no retry can help)
//! ```

use super::planning::{FixGroup, Stage};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Attempts per group, the first included.
pub const MAX_ATTEMPTS: u32 = 3;

/// Where a group is (kept in `active-fix-session.json` so that `--resume` can continue).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum GroupState {
    /// Not started.
    Pending,
    /// The fixer is working on attempt `attempt`.
    Fixing {
        /// 1-based attempt.
        attempt: u32,
    },
    /// The tests run after attempt `attempt`.
    Testing {
        /// 1-based attempt.
        attempt: u32,
    },
    /// Tests passed; the group's commit made.
    Committed {
        /// The attempt that passed.
        attempt: u32,
    },
    /// Every attempt failed; the files are back as they were.
    Failed {
        /// Attempts made.
        attempts: u32,
        /// The last failure.
        reason: String,
    },
}

impl GroupState {
    /// Committed or failed: nothing more happens to it.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            GroupState::Committed { .. } | GroupState::Failed { .. }
        )
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixEvent {
    /// The group's stage began.
    Start,
    /// The fixer changed the files.
    FixApplied,
    /// The fixer could not change them.
    FixFailed(String),
    /// Every test passed.
    TestsPassed,
    /// Some test failed (the summary).
    TestsFailed(String),
    /// No fixer can work on the group (none configured for its findings): retrying is useless.
    Unfixable(String),
}

/// What the shell must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Run the fixer (attempt n; a retry gets the previous failure in its prompt).
    ApplyFix {
        /// 1-based attempt.
        attempt: u32,
        /// Why the previous attempt failed.
        previous_failure: Option<String>,
    },
    /// Run the test command.
    RunTests,
    /// Commit the group's files once, the message listing these fix ids.
    Commit(Vec<String>),
    /// Restore these files to their committed state.
    Rollback(Vec<String>),
}

/// An event that cannot happen in this state (a bug in the shell).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("fix group {group}: event {event:?} cannot happen in state {state:?}")]
pub struct BadTransition {
    /// The group.
    pub group: String,
    /// The state.
    pub state: GroupState,
    /// The event.
    pub event: FixEvent,
}

/// One transition; a group gets at most `max_attempts` attempts (0 is taken as 1).
pub fn advance(
    group: &FixGroup,
    state: &GroupState,
    event: FixEvent,
    max_attempts: u32,
) -> Result<(GroupState, Vec<Effect>), BadTransition> {
    let retry = |attempt: u32, reason: String| {
        let rollback = Effect::Rollback(group.files.clone());
        if attempt < max_attempts.max(1) {
            (
                GroupState::Fixing {
                    attempt: attempt + 1,
                },
                vec![
                    rollback,
                    Effect::ApplyFix {
                        attempt: attempt + 1,
                        previous_failure: Some(reason),
                    },
                ],
            )
        } else {
            (
                GroupState::Failed {
                    attempts: attempt,
                    reason,
                },
                vec![rollback],
            )
        }
    };
    Ok(match (state, &event) {
        (GroupState::Pending, FixEvent::Start) => (
            GroupState::Fixing { attempt: 1 },
            vec![Effect::ApplyFix {
                attempt: 1,
                previous_failure: None,
            }],
        ),
        (GroupState::Fixing { attempt }, FixEvent::FixApplied) => (
            GroupState::Testing { attempt: *attempt },
            vec![Effect::RunTests],
        ),
        (GroupState::Fixing { attempt }, FixEvent::FixFailed(r))
        | (GroupState::Testing { attempt }, FixEvent::TestsFailed(r)) => retry(*attempt, r.clone()),
        (GroupState::Fixing { attempt }, FixEvent::Unfixable(r)) => (
            GroupState::Failed {
                attempts: *attempt,
                reason: r.clone(),
            },
            vec![Effect::Rollback(group.files.clone())],
        ),
        (GroupState::Testing { attempt }, FixEvent::TestsPassed) => (
            GroupState::Committed { attempt: *attempt },
            vec![Effect::Commit(group.fix_ids.clone())],
        ),
        _ => {
            return Err(BadTransition {
                group: group.id.clone(),
                state: state.clone(),
                event,
            })
        }
    })
}

/// The first stage with a group not yet final, if any: the one to run (or wait for).
pub fn current_stage<'a>(
    timeline: &'a [Stage],
    state_of: &dyn Fn(&str) -> GroupState,
) -> Option<&'a Stage> {
    timeline
        .iter()
        .find(|s| s.groups.iter().any(|g| !state_of(g).is_final()))
}

/// `fix-progress-<n>.json` for a group.
pub fn progress_json(
    group: &FixGroup,
    state: &GroupState,
    max_attempts: u32,
    last_update: &str,
) -> Value {
    let (status, phase, attempts) = match state {
        GroupState::Pending => ("pending", "waiting", 0),
        GroupState::Fixing { attempt } => ("in-progress", "fixing", *attempt),
        GroupState::Testing { attempt } => ("in-progress", "testing", *attempt),
        GroupState::Committed { attempt } => ("completed", "done", *attempt),
        GroupState::Failed { attempts, .. } => ("failed", "done", *attempts),
    };
    let result = match state {
        GroupState::Committed { .. } => "fixed",
        GroupState::Failed { .. } => "failed",
        _ => "pending",
    };
    let error = match state {
        GroupState::Failed { reason, .. } => json!(reason),
        _ => Value::Null,
    };
    json!({
        "group_id": group.id,
        "status": status,
        "phase": phase,
        "attempts": attempts,
        "max_attempts": max_attempts,
        "files": group.files,
        "findings": group.fix_ids.iter().map(|id| json!({"id": id, "result": result})).collect::<Vec<_>>(),
        "error": error,
        "last_update": last_update,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group() -> FixGroup {
        FixGroup {
            id: "G1".into(),
            batch: 1,
            files: vec!["src/a.rs".into()],
            fix_ids: vec!["FIX-001".into(), "FIX-002".into()],
        }
    }

    fn run(events: Vec<FixEvent>) -> (GroupState, Vec<Effect>) {
        let g = group();
        let mut state = GroupState::Pending;
        let mut effects = Vec::new();
        for e in events {
            let (next, mut out) = advance(&g, &state, e, MAX_ATTEMPTS).unwrap();
            state = next;
            effects.append(&mut out);
        }
        (state, effects)
    }

    #[test]
    fn a_passing_group_commits_its_fixes_once() {
        let (state, effects) = run(vec![
            FixEvent::Start,
            FixEvent::FixApplied,
            FixEvent::TestsPassed,
        ]);
        assert_eq!(state, GroupState::Committed { attempt: 1 });
        assert_eq!(
            effects,
            vec![
                Effect::ApplyFix {
                    attempt: 1,
                    previous_failure: None
                },
                Effect::RunTests,
                Effect::Commit(vec!["FIX-001".into(), "FIX-002".into()])
            ]
        );
    }

    #[test]
    fn a_failing_group_rolls_back_and_retries_then_gives_up_after_three() {
        use FixEvent::*;
        let fail = |s: &str| TestsFailed(s.to_string());
        let (state, effects) = run(vec![
            Start,
            FixApplied,
            fail("t1"),
            FixApplied,
            fail("t2"),
            FixFailed("no change".into()),
        ]);
        assert_eq!(
            state,
            GroupState::Failed {
                attempts: 3,
                reason: "no change".into()
            }
        );
        let rollbacks = effects
            .iter()
            .filter(|e| matches!(e, Effect::Rollback(_)))
            .count();
        assert_eq!(rollbacks, 3, "every failed attempt is rolled back");
        assert!(effects.contains(&Effect::ApplyFix {
            attempt: 3,
            previous_failure: Some("t2".into())
        }));
        assert!(!effects.iter().any(|e| matches!(e, Effect::Commit(_))));
        let (state, _) = run(vec![Start, FixApplied, fail("t1"), FixApplied, TestsPassed]);
        assert_eq!(state, GroupState::Committed { attempt: 2 });
    }

    #[test]
    fn the_attempt_limit_is_a_parameter_and_unfixable_fails_at_once() {
        let g = group();
        let (s, _) = advance(&g, &GroupState::Pending, FixEvent::Start, 1).unwrap();
        let (s, effects) = advance(&g, &s, FixEvent::FixFailed("no change".into()), 1).unwrap();
        assert_eq!(
            s,
            GroupState::Failed {
                attempts: 1,
                reason: "no change".into()
            }
        );
        assert_eq!(effects, vec![Effect::Rollback(vec!["src/a.rs".into()])]);
        let (s, _) = advance(&g, &GroupState::Pending, FixEvent::Start, 5).unwrap();
        let (s, effects) = advance(&g, &s, FixEvent::Unfixable("no executor".into()), 5).unwrap();
        assert_eq!(
            s,
            GroupState::Failed {
                attempts: 1,
                reason: "no executor".into()
            }
        );
        assert_eq!(effects, vec![Effect::Rollback(vec!["src/a.rs".into()])]);
        let (s, _) = advance(&g, &GroupState::Pending, FixEvent::Start, 4).unwrap();
        let mut state = s;
        for _ in 0..3 {
            state = advance(&g, &state, FixEvent::FixApplied, 4).unwrap().0;
            state = advance(&g, &state, FixEvent::TestsFailed("t".into()), 4)
                .unwrap()
                .0;
        }
        assert_eq!(state, GroupState::Fixing { attempt: 4 });
    }

    #[test]
    fn impossible_events_are_errors() {
        let err = advance(&group(), &GroupState::Pending, FixEvent::TestsPassed, 3).unwrap_err();
        assert_eq!(
            err.to_string(),
            "fix group G1: event TestsPassed cannot happen in state Pending"
        );
        assert!(advance(
            &group(),
            &GroupState::Committed { attempt: 1 },
            FixEvent::Start,
            3
        )
        .is_err());
    }

    #[test]
    fn stages_advance_when_all_their_groups_are_final_and_progress_reads_back() {
        let timeline = vec![
            Stage {
                stage: 1,
                groups: vec!["G1".into(), "G2".into()],
            },
            Stage {
                stage: 2,
                groups: vec!["G3".into()],
            },
        ];
        let done = |g: &str| {
            if g == "G3" {
                GroupState::Pending
            } else {
                GroupState::Committed { attempt: 1 }
            }
        };
        assert_eq!(current_stage(&timeline, &done).map(|s| s.stage), Some(2));
        let busy = |g: &str| {
            if g == "G2" {
                GroupState::Testing { attempt: 1 }
            } else {
                GroupState::Pending
            }
        };
        assert_eq!(current_stage(&timeline, &busy).map(|s| s.stage), Some(1));
        let all = |_: &str| GroupState::Failed {
            attempts: 3,
            reason: "x".into(),
        };
        assert_eq!(current_stage(&timeline, &all), None);
        let v = progress_json(
            &group(),
            &GroupState::Failed {
                attempts: 3,
                reason: "tests failed".into(),
            },
            MAX_ATTEMPTS,
            "t",
        );
        assert_eq!(
            v,
            json!({"group_id": "G1", "status": "failed", "phase": "done", "attempts": 3, "max_attempts": 3,
                   "files": ["src/a.rs"], "findings": [{"id": "FIX-001", "result": "failed"}, {"id": "FIX-002", "result": "failed"}],
                   "error": "tests failed", "last_update": "t"})
        );
    }
}
