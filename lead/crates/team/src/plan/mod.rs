//! The plan a run drives: tasks read from `Plans.md` or `specs/<feature>/tasks.yaml`, the range
//! a user names, and the `cc:done` write-back of Phase C. Everything here is text in, data out;
//! [`source`] is the one place that reads files.

mod graph;
mod mark_done;
mod plans_md;
#[cfg(test)]
mod properties;
mod range;
pub mod source;
mod tasks_yaml;

pub use graph::DepGraph;
pub use mark_done::{mark_done_plans_md, mark_done_tasks_yaml};
pub use plans_md::parse_plans_md;
pub use range::{matches, parse_range, select, Range, RangeError, Selection};
pub use tasks_yaml::{local_id, parse_tasks_yaml, FeatureTasks};

use serde::Serialize;
use std::collections::HashMap;

/// A task's progress marker in Plans.md (`done` in tasks.yaml maps onto `Done`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Marker {
    /// `cc:TODO` — not started.
    #[serde(rename = "cc:TODO")]
    Todo,
    /// `cc:WIP` — started, not finished (still open).
    #[serde(rename = "cc:WIP")]
    Wip,
    /// `cc:done` (also read: `cc:DONE`, `cc:完了`).
    #[serde(rename = "cc:done")]
    Done,
}

impl Marker {
    /// The text form written into Plans.md.
    pub fn as_str(self) -> &'static str {
        match self {
            Marker::Todo => "cc:TODO",
            Marker::Wip => "cc:WIP",
            Marker::Done => "cc:done",
        }
    }
}

/// Which file format a plan came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PlanFormat {
    /// `Plans.md` at the repository root.
    #[serde(rename = "plans-md")]
    PlansMd,
    /// `specs/<feature>/tasks.yaml`.
    #[serde(rename = "tasks-yaml")]
    TasksYaml,
}

/// One task of the plan, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanTask {
    /// The plan's number for it (`4.1`), or `task-N` (N: its position) when it has none.
    pub id: String,
    /// Whether `id` is the plan's own number (it then prefixes the subject).
    pub numbered: bool,
    /// The subject line, without number, marker or annotations.
    pub title: String,
    /// The body: sub-items and text under the task, one per line, annotations removed.
    pub description: String,
    /// How many list items the body has (V3 counts them).
    pub subtasks: u32,
    /// Paths the task changes (`owns:`; tasks.yaml `files`).
    pub owns: Vec<String>,
    /// Ids of tasks that must be done first (`depends:`; tasks.yaml `depends_on`).
    pub depends: Vec<String>,
    /// Progress marker.
    pub marker: Marker,
    /// Marked high-priority (`[high]` on its Plans.md line, `priority: high` in tasks.yaml):
    /// the Lead reviews it as soon as it is complete.
    pub high_priority: bool,
    /// The file the task is written in (repository-relative).
    pub file: String,
    /// 1-based line of the task's marker line (or `id:` entry).
    pub line: u32,
}

impl PlanTask {
    /// Not done yet (`cc:TODO` or `cc:WIP`).
    pub fn is_open(&self) -> bool {
        self.marker != Marker::Done
    }

    /// The subject as the task list shows it: `4.1 Login form`, or the title alone.
    pub fn subject(&self) -> String {
        if self.numbered {
            format!("{} {}", self.id, self.title).trim().to_string()
        } else {
            self.title.clone()
        }
    }
}

/// A parsed plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// Where it came from.
    pub format: PlanFormat,
    /// The file(s) it was read from, repository-relative.
    pub files: Vec<String>,
    /// Every task, in file order.
    pub tasks: Vec<PlanTask>,
}

impl Plan {
    /// The task with this id.
    pub fn task(&self, id: &str) -> Option<&PlanTask> {
        self.tasks.iter().find(|t| t.id == id)
    }
}

/// Why a plan cannot be used; each message names the file and what to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Neither Plans.md nor any tasks.yaml exists.
    #[error("no plan found: write Plans.md at the repository root (tasks marked cc:TODO) or specs/<feature>/tasks.yaml")]
    NoPlan,
    /// The plan file has no task at all.
    #[error(
        "{file} has no tasks: a task is a heading or list item carrying cc:TODO, cc:WIP or cc:done"
    )]
    Empty {
        /// The plan file.
        file: String,
    },
    /// Two tasks share an id.
    #[error("{file}:{line}: task id {id} is already used on line {first_line}; give each task its own number")]
    DuplicateId {
        /// The plan file.
        file: String,
        /// The id.
        id: String,
        /// Line of the first task with it.
        first_line: u32,
        /// Line of the second.
        line: u32,
    },
    /// A dependency names no task of the plan.
    #[error("{file}:{line}: task {task} depends on {dependency}, which is not a task of the plan")]
    UnknownDependency {
        /// The plan file.
        file: String,
        /// Line of the depending task.
        line: u32,
        /// The depending task.
        task: String,
        /// The id it names.
        dependency: String,
    },
    /// tasks.yaml is not valid.
    #[error("{0}")]
    Malformed(String),
    /// A plan file could not be read.
    #[error("cannot read {file}: {reason}")]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
    /// `mark_done` was asked for a task the text does not have.
    #[error("{file}: no task {id} to mark cc:done")]
    UnknownTask {
        /// The plan file.
        file: String,
        /// The id.
        id: String,
    },
}

/// Checks ids are unique and every dependency names a task; shared by both formats. One
/// index of the ids, so a plan of any size is checked in linear time (a 20,000-task plan took
/// minutes with a scan per task).
pub(crate) fn check_ids(tasks: &[PlanTask]) -> Result<(), PlanError> {
    let mut lines: HashMap<&str, u32> = HashMap::with_capacity(tasks.len());
    for t in tasks {
        if let Some(&first_line) = lines.get(t.id.as_str()) {
            return Err(PlanError::DuplicateId {
                file: t.file.clone(),
                id: t.id.clone(),
                first_line,
                line: t.line,
            });
        }
        lines.insert(&t.id, t.line);
    }
    for t in tasks {
        if let Some(dep) = t.depends.iter().find(|d| !lines.contains_key(d.as_str())) {
            return Err(PlanError::UnknownDependency {
                file: t.file.clone(),
                line: t.line,
                task: t.id.clone(),
                dependency: dep.clone(),
            });
        }
    }
    Ok(())
}
