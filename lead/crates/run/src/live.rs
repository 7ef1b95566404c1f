//! What a run tells the dashboard's feed (`host::live`): its phase and position in the loop, its
//! task board, and the lines of what happened. The team hub adds its actors and the task
//! runners' judgments (`team_hub`).

use super::RunRequest;
use protocol::live::{LiveEvent, PhaseLine, RunPhase, TaskLine};
use protocol::{Task, TaskStatus};

/// The board as a page lists it.
pub fn board(tasks: &[Task]) -> LiveEvent {
    LiveEvent::Tasks {
        tasks: tasks
            .iter()
            .map(|t| {
                let (status, owner) = match &t.status {
                    TaskStatus::Pending => ("pending", None),
                    TaskStatus::InProgress { claimer } => ("in progress", Some(claimer.clone())),
                    TaskStatus::Completed => ("completed", None),
                    TaskStatus::Failed => ("failed", None),
                };
                TaskLine {
                    id: t.id,
                    subject: t.subject.clone(),
                    status: status.into(),
                    owner,
                    attempts: t.attempts,
                }
            })
            .collect(),
    }
}

impl RunRequest {
    /// Tells the feed, if any, where the loop is: `phase`, after `rounds` review rounds.
    pub(crate) fn show_phase(&self, phase: RunPhase, rounds: usize) {
        if let Some(feed) = &self.live {
            let rounds = rounds as u32;
            feed.publish(LiveEvent::Phase(PhaseLine {
                phase,
                iteration: if phase == RunPhase::Complete {
                    rounds
                } else {
                    rounds + 1
                },
                retakes: if phase == RunPhase::Complete {
                    rounds.saturating_sub(1)
                } else {
                    rounds
                },
                max_retakes: self.config.max_retakes,
            }));
        }
    }

    /// A line of what happened, on the feed if any.
    pub(crate) fn tell(&self, text: impl Into<String>) {
        if let Some(feed) = &self.live {
            feed.happened(text);
        }
    }

    /// The task board, on the feed if any.
    pub(crate) fn show_board(&self, tasks: &[Task]) {
        if let Some(feed) = &self.live {
            feed.publish(board(tasks));
        }
    }
}
