//! A unit of work for an Implementer.

use serde::{Deserialize, Serialize};

/// Where a task came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskOrigin {
    /// From the plan (Plans.md or tasks.yaml).
    Plan,
    /// From review findings.
    Fix,
}

/// A task's status; `InProgress` names its claimer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskStatus {
    /// Waiting to be claimed.
    Pending,
    /// Claimed by the named Implementer.
    InProgress {
        /// The claiming Implementer's actor name.
        claimer: String,
    },
    /// Done and judged PASS.
    Completed,
    /// Given up on.
    Failed,
}

/// A task: ascending numeric id, what to do, which paths it owns, what it waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// Ascending numeric id.
    pub id: u32,
    /// One-line subject.
    pub subject: String,
    /// Full description.
    pub description: String,
    /// Paths the task may change.
    pub owns: Vec<String>,
    /// Ids of tasks that must complete first.
    pub blocked_by: Vec<u32>,
    /// Current status.
    pub status: TaskStatus,
    /// Attempts made so far.
    pub attempts: u32,
    /// Plan or fix.
    pub origin: TaskOrigin,
    /// Progress text ("Fixing src/auth/login.rs").
    pub active_form: String,
}
