//! Phase A's task registration: one plan task = one task, ids 1, 2, … in plan order, `owns`
//! carried over, `depends` (with V5's additions) turned into `blocked_by` ids, an active form
//! for progress displays, and `plans_mapping` (task id → plan number) so that Phase C can mark
//! the right plan entries `cc:done`.

use super::active_form::active_form;
use super::plan::PlanTask;
use protocol::{Task, TaskOrigin, TaskStatus};
use std::collections::{BTreeMap, HashMap};

/// The registered tasks and the mapping back to the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// The tasks, all pending.
    pub tasks: Vec<Task>,
    /// Task id → the plan's id for it (`4.1`).
    pub plans_mapping: BTreeMap<u32, String>,
}

/// The id the next task joining `tasks` gets: one past the highest.
pub fn next_id(tasks: &[Task]) -> u32 {
    tasks.iter().map(|t| t.id).max().unwrap_or(0) + 1
}

/// Registers validated plan tasks (their `depends` must name tasks of the same slice; others
/// are dropped, as [`super::plan::select`] already removed met ones).
pub fn register(tasks: &[PlanTask]) -> Registration {
    register_more(tasks, &BTreeMap::new(), 1)
}

/// Registers plan tasks that join a run whose tasks `registered` maps to plan ids: ids from
/// `next` on, a dependency on a task of the same slice or on a registered one kept (others
/// dropped).
pub fn register_more(
    tasks: &[PlanTask],
    registered: &BTreeMap<u32, String>,
    next: u32,
) -> Registration {
    // An index, not a scan per dependency: a plan of any size registers in linear time.
    let mut numbers: HashMap<&str, u32> = HashMap::with_capacity(tasks.len() + registered.len());
    for (id, plan_id) in registered {
        numbers.entry(plan_id.as_str()).or_insert(*id);
    }
    for (i, t) in tasks.iter().enumerate() {
        numbers.entry(t.id.as_str()).or_insert(next + i as u32);
    }
    let number_of = |plan_id: &str| numbers.get(plan_id).copied();
    let registered = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut blocked_by: Vec<u32> = t.depends.iter().filter_map(|d| number_of(d)).collect();
            blocked_by.sort_unstable();
            blocked_by.dedup();
            Task {
                id: next + i as u32,
                subject: t.subject(),
                description: description(t),
                owns: t.owns.clone(),
                blocked_by,
                status: TaskStatus::Pending,
                attempts: 0,
                origin: TaskOrigin::Plan,
                active_form: active_form(&t.title),
            }
        })
        .collect();
    let plans_mapping = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (next + i as u32, t.id.clone()))
        .collect();
    Registration {
        tasks: registered,
        plans_mapping,
    }
}

/// The body, then the owned paths, as the source document's TaskCreate entries show them.
fn description(t: &PlanTask) -> String {
    let mut text = if t.description.is_empty() {
        t.title.clone()
    } else {
        t.description.clone()
    };
    if !t.owns.is_empty() {
        text.push_str("\nowns: ");
        text.push_str(&t.owns.join(", "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::task;

    #[test]
    fn plan_tasks_become_numbered_pending_tasks() {
        let mut first = task(
            "4.1",
            "ログイン機能の実装",
            &["src/login.rs", "src/form.rs"],
            &[],
        );
        first.description = "- form\n- validation".into();
        let reg = register(&[
            first,
            task("4.2", "Add auth middleware", &["src/mw.rs"], &["4.1"]),
            task(
                "4.3",
                "Fix session expiry",
                &["src/session.rs"],
                &["4.2", "4.1", "4.1"],
            ),
        ]);
        assert_eq!(
            reg.plans_mapping,
            BTreeMap::from([(1, "4.1".to_string()), (2, "4.2".into()), (3, "4.3".into())])
        );
        let t = &reg.tasks[0];
        assert_eq!(t.id, 1);
        assert_eq!(t.subject, "4.1 ログイン機能の実装");
        assert_eq!(
            t.description,
            "- form\n- validation\nowns: src/login.rs, src/form.rs"
        );
        assert_eq!(t.active_form, "ログイン機能を実装中");
        assert_eq!(
            (t.status.clone(), t.origin, t.attempts),
            (TaskStatus::Pending, TaskOrigin::Plan, 0)
        );
        assert_eq!(reg.tasks[1].blocked_by, vec![1]);
        assert_eq!(
            reg.tasks[1].description,
            "Add auth middleware\nowns: src/mw.rs"
        );
        assert_eq!(reg.tasks[1].active_form, "Adding auth middleware");
        assert_eq!(reg.tasks[2].blocked_by, vec![1, 2]);
        assert_eq!(reg.tasks[2].active_form, "Fixing session expiry");
    }
}
