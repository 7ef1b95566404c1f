//! The spec-update cascade of the sdd gate (SPEC-UPDATE-NEEDED with `[loop] spec_update =
//! "agent"`): the spec-driven seed's Architect → TaskGenerator → Builder, as the team's own
//! tasks. The Architect task updates the feature's design (and requirements) from the Auditor's
//! SPEC_FEEDBACK rows; the TaskGenerator task, after it, brings the feature's `tasks.yaml` in
//! line with the new design; the Builder is the team itself — once both are done the Lead reads
//! the plan again and registers the tasks it does not have yet ([`new_tasks`]), which the next
//! team phase carries out before the next review. Both tasks own only the spec's files, so the
//! task runner's ownership check (Q1) keeps them off the code.
//!
//! A cascade needs a spec to update: a run over one feature's `specs/<feature>/tasks.yaml` whose
//! design exists ([`spec_files`]); a Plans.md run has none, and its SPEC-UPDATE-NEEDED escalates.

use crate::active_form::active_form;
use crate::plan::{Marker, Plan, PlanFormat, PlanTask};
use protocol::{SpecFeedback, Task, TaskOrigin, TaskStatus};
use std::collections::BTreeMap;

/// What SPEC-UPDATE-NEEDED does under the sdd gate (`[loop] spec_update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpecUpdate {
    /// Escalate to a person (the default).
    #[default]
    Escalate,
    /// Cascade through the executor's agent, when the run has a spec to update.
    Agent,
}

/// The spec files of the feature a run implements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecFiles {
    /// `specs/<feature>/design.md`.
    pub design: String,
    /// `specs/<feature>/requirements.md`, when it exists.
    pub requirements: Option<String>,
    /// `specs/<feature>/tasks.yaml`.
    pub tasks: String,
}

/// The spec files of `plan`, when it is one feature's tasks.yaml and the feature has a design;
/// `exists` says whether a repository-relative file exists.
pub fn spec_files(plan: &Plan, exists: impl Fn(&str) -> bool) -> Option<SpecFiles> {
    let [tasks] = plan.files.as_slice() else {
        return None;
    };
    if plan.format != PlanFormat::TasksYaml {
        return None;
    }
    let dir = tasks.strip_suffix("/tasks.yaml")?;
    let design = format!("{dir}/design.md");
    let requirements = format!("{dir}/requirements.md");
    exists(&design).then(|| SpecFiles {
        design,
        requirements: exists(&requirements).then_some(requirements),
        tasks: tasks.clone(),
    })
}

/// The Architect's and the TaskGenerator's tasks for `feedback`, with ids from `next`; the
/// TaskGenerator waits for the Architect.
pub fn cascade_tasks(feedback: &[SpecFeedback], spec: &SpecFiles, next: u32) -> Vec<Task> {
    let mut rows = String::new();
    for f in feedback {
        rows.push_str(&format!("- [{}] {}: {}\n", f.phase, f.spec, f.description));
    }
    let mut architect_owns = vec![spec.design.clone()];
    architect_owns.extend(spec.requirements.iter().cloned());
    let architect = Task {
        id: next,
        subject: format!(
            "Update the design ({}) from the review's spec feedback",
            spec.design
        ),
        description: format!(
            "The review found defects in the spec itself: the code cannot meet it as written. \
             Update {} (and the requirements, where the defect is theirs) so that the spec can \
             be implemented, changing only what the feedback names. Do not change any code.\n\n\
             Spec feedback:\n{rows}\nowns: {}",
            spec.design,
            architect_owns.join(", ")
        ),
        owns: architect_owns,
        blocked_by: Vec::new(),
        status: TaskStatus::Pending,
        attempts: 0,
        origin: TaskOrigin::Spec,
        active_form: active_form("Update the design"),
    };
    let generator = Task {
        id: next + 1,
        subject: format!("Update the task list ({}) to the new design", spec.tasks),
        description: format!(
            "The design ({}) was just updated from this spec feedback:\n{rows}\n\
             Bring {} in line with it: add a task for each change the new design needs that no \
             task covers, with its files (owns) and dependencies, in the file's existing format. \
             Keep the existing tasks and their ids. Do not change any code.\n\nowns: {}",
            spec.design, spec.tasks, spec.tasks
        ),
        owns: vec![spec.tasks.clone()],
        blocked_by: vec![next],
        status: TaskStatus::Pending,
        attempts: 0,
        origin: TaskOrigin::Spec,
        active_form: active_form("Update the task list"),
    };
    vec![architect, generator]
}

/// The tasks of the plan as read again that the run has not registered (`registered`: task id
/// → plan id) and that are not done: the new work the updated task list asks for.
pub fn new_tasks(plan: &Plan, registered: &BTreeMap<u32, String>) -> Vec<PlanTask> {
    plan.tasks
        .iter()
        .filter(|t| t.marker != Marker::Done)
        .filter(|t| !registered.values().any(|id| id == &t.id))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests;
