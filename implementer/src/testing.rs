//! Test helpers shared by the unit tests.

use protocol::domain::{Task, TaskOrigin, TaskStatus};

/// A pending plan task numbered 7 with `subject` and no owns.
pub(crate) fn task(subject: &str) -> Task {
    Task {
        id: 7,
        subject: subject.to_string(),
        description: String::new(),
        owns: Vec::new(),
        blocked_by: Vec::new(),
        status: TaskStatus::Pending,
        attempts: 0,
        origin: TaskOrigin::Plan,
        active_form: String::new(),
    }
}
