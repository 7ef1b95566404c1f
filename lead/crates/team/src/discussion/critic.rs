//! The built-in Critic: it red-teams a proposal with Phase A's own granularity checks (so the
//! two never disagree) and says each problem as a point the Planner can act on or the user
//! must: tasks without owns (V2), overlapping owns without a dependency (V5), oversized tasks
//! (V3), dependency cycles (V4).

use crate::granularity::{find_cycle, shared_path, validate, Check, Limits};
use crate::plan::PlanTask;
use serde::Serialize;

/// One of the Critic's points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Flag {
    /// The task declares no owns and the Planner found none in its text.
    NoOwns {
        /// The task.
        task: String,
    },
    /// Two tasks own one path and neither waits for the other.
    Overlap {
        /// The earlier task.
        earlier: String,
        /// The later task (it should wait for the earlier one).
        later: String,
        /// The path both own.
        path: String,
    },
    /// The task is too big for one Implementer.
    Oversized {
        /// The task.
        task: String,
        /// Why, with the limit.
        reason: String,
    },
    /// The dependencies form a cycle: none of its tasks can ever start.
    Cycle {
        /// The ids around the cycle, the first repeated at the end.
        tasks: Vec<String>,
    },
    /// A point the Critic agent made about a task, in its words (one line).
    Agent {
        /// The task.
        task: String,
        /// The problem it sees.
        problem: String,
    },
}

impl Flag {
    /// The point in one line.
    pub fn message(&self) -> String {
        match self {
            Flag::NoOwns { task } => {
                format!("{task} declares no owns and its text names no file: Implementers cannot be kept off each other's files")
            }
            Flag::Overlap {
                earlier,
                later,
                path,
            } => format!("{earlier} and {later} both own {path} and neither waits for the other"),
            Flag::Oversized { reason, .. } => reason.clone(),
            Flag::Cycle { tasks } => format!(
                "dependency cycle {}: none of these tasks can ever start",
                tasks.join(" → ")
            ),
            Flag::Agent { task, problem } => format!("{task}: {problem} (agent)"),
        }
    }
}

/// The Critic's answer: its points, and the proposal as it would be with every overlap
/// settled by a dependency (the later task waits for the nearest earlier owner).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Critique {
    /// The points, in the order of the checks (per task, then cycles, then overlaps).
    pub flags: Vec<Flag>,
    /// The tasks with the dependencies the overlap points ask for.
    pub settled: Vec<PlanTask>,
}

/// Reviews `tasks`.
pub fn critique(tasks: &[PlanTask], limits: &Limits) -> Critique {
    let validation = validate(tasks.to_vec(), limits);
    let mut flags = Vec::new();
    for p in &validation.problems {
        match p.check {
            Check::V2 => flags.push(Flag::NoOwns {
                task: p.task.clone(),
            }),
            Check::V3 => flags.push(Flag::Oversized {
                task: p.task.clone(),
                reason: p.message.clone(),
            }),
            Check::V4 => flags.push(Flag::Cycle {
                tasks: find_cycle(tasks).unwrap_or_else(|| vec![p.task.clone()]),
            }),
            Check::V1 | Check::V5 => {}
        }
    }
    for (before, after) in tasks.iter().zip(&validation.tasks) {
        for on in after.depends.iter().filter(|d| !before.depends.contains(d)) {
            let Some(earlier) = tasks.iter().find(|t| &t.id == on) else {
                continue;
            };
            flags.push(Flag::Overlap {
                earlier: on.clone(),
                later: after.id.clone(),
                path: shared_path(earlier, after).unwrap_or_default(),
            });
        }
    }
    Critique {
        flags,
        settled: validation.tasks,
    }
}
