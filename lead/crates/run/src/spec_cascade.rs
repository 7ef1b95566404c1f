//! The spec-update cascade in a run ([`team::cascade`]): on SPEC-UPDATE-NEEDED the Architect's
//! and the TaskGenerator's tasks join the board; after the team phase that carries them out the
//! plan is read again and the tasks the updated task list adds join the board too (registered
//! and mapped like Phase A's), for another team phase before the next review. That the import
//! is due lives in memory: a run resumed between the two reviews the work without the new
//! tasks, and the review's gate decides again.

use super::RunEnd;
use outputs::ExitCode;
use protocol::{AuditOutcome, Task};
use std::collections::BTreeMap;
use std::path::Path;
use team::cascade::{cascade_tasks, new_tasks, SpecFiles};
use team::plan::{source, Plan};
use team::registration::{next_id, register_more};

/// The cascade's two tasks for `outcome`, numbered after `tasks`.
pub fn start(outcome: &AuditOutcome, spec: &SpecFiles, tasks: &[Task]) -> Vec<Task> {
    cascade_tasks(&outcome.spec_feedback, spec, next_id(tasks))
}

/// What reading the updated plan gave.
pub enum Imported {
    /// New tasks joined the board: another team phase.
    Tasks(usize),
    /// The task list adds nothing: on to the review.
    Nothing,
    /// The task list cannot be read: the run stops for a person (exit 5).
    End(RunEnd),
}

/// Reads the plan in `repo` again and adds the tasks the run does not have to `board`, mapped
/// in `mapping` (task id → plan id); the caller writes the run's state.
pub fn import(
    repo: &Path,
    board: &mut Vec<Task>,
    mapping: &mut BTreeMap<u32, String>,
    plan: &mut Plan,
) -> Imported {
    let read = match source::load(repo) {
        Ok(read) => read,
        Err(e) => {
            return Imported::End(RunEnd {
                code: ExitCode::Escalated,
                report: format!(
                "⚠ retake: the spec-update cascade left a task list that cannot be read ({e})\n\n\
                     Fix the task list by hand, then continue with `retake resume`.\n"
            ),
            })
        }
    };
    let added = new_tasks(&read, mapping);
    if added.is_empty() {
        return Imported::Nothing;
    }
    let joined = register_more(&added, mapping, next_id(board));
    let count = joined.tasks.len();
    board.extend(joined.tasks);
    mapping.extend(joined.plans_mapping);
    *plan = read;
    Imported::Tasks(count)
}
