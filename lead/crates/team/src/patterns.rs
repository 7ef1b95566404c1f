//! Phase B's message patterns, as plain types whose shape carries the rules (on the wire: B as
//! `TaskAssigned` of a fix task, C as `Escalation`, D as `PeerNote`, handed on inside the
//! recipients' next `TaskAssigned`; A has no wire form yet — the review pipeline asks no
//! questions):
//!
//! | pattern | message | from → to | rule |
//! |---|---|---|---|
//! | A | `Question` / `Answer` | Reviewer ↔ Implementer | direct (routed and journaled by the Lead), no code change |
//! | B | `FixInstruction` | Lead → Implementer | code changes only ever arrive as Lead tasks |
//! | C | `Escalation` | Implementer → Lead | after 3 failed attempts |
//! | D | `PeerNote` | Implementer → Implementer | information only: it carries no work, so it cannot ask for a change |

use protocol::Task;
use std::fmt;

/// Failed attempts after which an Implementer escalates a task to the Lead (pattern C).
pub const ESCALATE_AFTER_FAILURES: u32 = 3;

/// Who sends or receives a team message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Party {
    /// The Lead.
    Lead,
    /// The review pipeline (the Reviewer of the source documents).
    Reviewer,
    /// An Implementer, by actor name.
    Implementer(String),
}

impl fmt::Display for Party {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Party::Lead => f.write_str("lead"),
            Party::Reviewer => f.write_str("reviewer"),
            Party::Implementer(name) => f.write_str(name),
        }
    }
}

pub use protocol::message::{PeerNote, PeerNoteKind};

/// A team message of one of the four patterns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamMessage {
    /// A: a reviewer's question about a task.
    Question {
        /// The task asked about.
        task: u32,
        /// The question.
        text: String,
    },
    /// A: the Implementer's answer.
    Answer {
        /// The task.
        task: u32,
        /// The answer.
        text: String,
    },
    /// B: a fix task for an Implementer.
    FixInstruction(Task),
    /// C: a task the Implementer could not finish.
    Escalation {
        /// The task.
        task: u32,
        /// Why it failed.
        reason: String,
        /// Attempts made.
        attempts: u32,
    },
    /// D: news for the other Implementers.
    PeerNote(PeerNote),
}

/// The four patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Direct question and answer.
    A,
    /// Fix instructions through the Lead.
    B,
    /// Escalation to the Lead.
    C,
    /// Peer knowledge sharing.
    D,
}

/// A message sent along a route its pattern does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pattern {pattern:?} message from {from} to {to} refused: {rule}")]
pub struct RouteViolation {
    /// The message's pattern.
    pub pattern: Pattern,
    /// Sender.
    pub from: String,
    /// Addressee.
    pub to: String,
    /// The rule it breaks.
    pub rule: &'static str,
}

/// The message's pattern.
pub fn pattern(msg: &TeamMessage) -> Pattern {
    match msg {
        TeamMessage::Question { .. } | TeamMessage::Answer { .. } => Pattern::A,
        TeamMessage::FixInstruction(_) => Pattern::B,
        TeamMessage::Escalation { .. } => Pattern::C,
        TeamMessage::PeerNote(_) => Pattern::D,
    }
}

/// Checks a message's route against its pattern; the Lead routes (and journals) what passes.
pub fn check_route(from: &Party, to: &Party, msg: &TeamMessage) -> Result<Pattern, RouteViolation> {
    let p = pattern(msg);
    let rule = match (msg, from, to) {
        (TeamMessage::Question { .. }, Party::Reviewer, Party::Implementer(_))
        | (TeamMessage::Answer { .. }, Party::Implementer(_), Party::Reviewer)
        | (TeamMessage::FixInstruction(_), Party::Lead, Party::Implementer(_))
        | (TeamMessage::Escalation { .. }, Party::Implementer(_), Party::Lead) => return Ok(p),
        (TeamMessage::PeerNote(_), Party::Implementer(a), Party::Implementer(b)) if a != b => {
            return Ok(p)
        }
        (TeamMessage::Question { .. } | TeamMessage::Answer { .. }, ..) => {
            "questions go from the reviewer to an Implementer and answers back"
        }
        (TeamMessage::FixInstruction(_), ..) => {
            "fix instructions come only from the Lead, as tasks"
        }
        (TeamMessage::Escalation { .. }, ..) => "escalations go from an Implementer to the Lead",
        (TeamMessage::PeerNote(_), ..) => "peer notes go from one Implementer to another",
    };
    Err(RouteViolation {
        pattern: p,
        from: from.to_string(),
        to: to.to_string(),
        rule,
    })
}

/// The notes an Implementer receives, as the lines of its next executor prompt's "Notes from
/// other Implementers" section (`implementer-1 (utility-created) src/util.rs: …`).
pub fn note_lines(notes: &[(String, PeerNote)]) -> Vec<String> {
    notes.iter().map(|(from, n)| n.prompt_line(from)).collect()
}

/// What the Lead does with an escalated task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EscalationAction {
    /// Give it to another Implementer.
    Reassign,
    /// Have the planner agent split it into smaller tasks.
    Split,
    /// Stop and ask a human.
    EscalateToUser,
}

/// The Lead's answer to an escalation: another Implementer first (once), then a split when a
/// planner agent is configured (once), then a human.
pub fn on_escalation(
    reassigned_before: bool,
    split_before: bool,
    other_implementers: usize,
    planner_configured: bool,
) -> EscalationAction {
    if !reassigned_before && other_implementers > 0 {
        EscalationAction::Reassign
    } else if planner_configured && !split_before {
        EscalationAction::Split
    } else {
        EscalationAction::EscalateToUser
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imp(n: u32) -> Party {
        Party::Implementer(format!("implementer-{n}"))
    }

    fn note() -> TeamMessage {
        TeamMessage::PeerNote(PeerNote {
            task: 1,
            kind: PeerNoteKind::UtilityCreated,
            about: "src/utils/auth.rs".into(),
            text: "extract_auth_token() added".into(),
        })
    }

    #[test]
    fn allowed_routes_name_their_pattern() {
        let q = TeamMessage::Question {
            task: 1,
            text: "why sync?".into(),
        };
        let a = TeamMessage::Answer {
            task: 1,
            text: "no I/O".into(),
        };
        let esc = TeamMessage::Escalation {
            task: 2,
            reason: "type error".into(),
            attempts: 3,
        };
        assert_eq!(check_route(&Party::Reviewer, &imp(1), &q), Ok(Pattern::A));
        assert_eq!(check_route(&imp(1), &Party::Reviewer, &a), Ok(Pattern::A));
        assert_eq!(check_route(&imp(1), &Party::Lead, &esc), Ok(Pattern::C));
        assert_eq!(check_route(&imp(1), &imp(2), &note()), Ok(Pattern::D));
    }

    #[test]
    fn forbidden_routes_are_refused_with_the_rule() {
        let task =
            crate::registration::register(&[crate::testing::task("1", "Fix a", &["a"], &[])])
                .tasks
                .remove(0);
        let fix = TeamMessage::FixInstruction(task);
        let err = check_route(&Party::Reviewer, &imp(1), &fix).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pattern B message from reviewer to implementer-1 refused: fix instructions come only from the Lead, as tasks"
        );
        assert_eq!(
            check_route(&imp(2), &imp(1), &fix).unwrap_err().pattern,
            Pattern::B
        );
        assert!(
            check_route(&imp(1), &imp(1), &note()).is_err(),
            "not to itself"
        );
        assert!(check_route(&Party::Lead, &imp(1), &note()).is_err());
    }

    #[test]
    fn notes_join_the_next_prompt() {
        let TeamMessage::PeerNote(n) = note() else {
            unreachable!()
        };
        assert!(note_lines(&[]).is_empty());
        assert_eq!(
            note_lines(&[("implementer-1".into(), n)]),
            ["implementer-1 (utility-created) src/utils/auth.rs: extract_auth_token() added"]
        );
    }

    #[test]
    fn escalations_reassign_then_split_then_ask_a_human() {
        assert_eq!(
            on_escalation(false, false, 1, true),
            EscalationAction::Reassign
        );
        assert_eq!(on_escalation(true, false, 1, true), EscalationAction::Split);
        assert_eq!(
            on_escalation(true, true, 1, true),
            EscalationAction::EscalateToUser
        );
        assert_eq!(
            on_escalation(false, false, 0, false),
            EscalationAction::EscalateToUser
        );
    }
}
