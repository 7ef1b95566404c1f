//! Phase B's claims: an Implementer gets the lowest-id pending task whose `blocked_by` are all
//! completed. The Lead's coordinator is one actor handling one message at a time, so calling
//! [`claim`] there is atomic: two Implementers can never get one task.

use protocol::{Task, TaskStatus};

/// The answer to a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// This task is now the claimer's (status set to in progress).
    Assigned(u32),
    /// Nothing is claimable now, but tasks in progress may unblock some: ask again later.
    Wait,
    /// Every task is completed: the Implementer reports done.
    AllDone,
    /// Pending tasks remain that can never start (a task they wait for failed); the ids.
    Stuck(Vec<u32>),
}

/// The lowest-id claimable task, without claiming it.
pub fn next_claimable(tasks: &[Task]) -> Option<u32> {
    let completed = |id: &u32| {
        tasks
            .iter()
            .any(|t| t.id == *id && t.status == TaskStatus::Completed)
    };
    tasks
        .iter()
        .filter(|t| t.status == TaskStatus::Pending && t.blocked_by.iter().all(completed))
        .map(|t| t.id)
        .min()
}

/// Claims the lowest-id claimable task for `claimer`.
pub fn claim(tasks: &mut [Task], claimer: &str) -> ClaimOutcome {
    if let Some(id) = next_claimable(tasks) {
        if let Some(task) = tasks.iter_mut().find(|t| t.id == id) {
            task.status = TaskStatus::InProgress {
                claimer: claimer.to_string(),
            };
            task.attempts += 1;
        }
        return ClaimOutcome::Assigned(id);
    }
    if tasks.iter().all(|t| t.status == TaskStatus::Completed) {
        return ClaimOutcome::AllDone;
    }
    if tasks
        .iter()
        .any(|t| matches!(t.status, TaskStatus::InProgress { .. }))
    {
        return ClaimOutcome::Wait;
    }
    let mut stuck: Vec<u32> = tasks
        .iter()
        .filter(|t| t.status == TaskStatus::Pending)
        .map(|t| t.id)
        .collect();
    stuck.sort_unstable();
    if stuck.is_empty() {
        // Only completed and failed tasks are left: nothing more will ever be claimable.
        ClaimOutcome::AllDone
    } else {
        ClaimOutcome::Stuck(stuck)
    }
}

/// Puts a claimed task back to pending (its Implementer died, or the Lead reassigns it).
pub fn release(tasks: &mut [Task], id: u32) -> bool {
    match tasks.iter_mut().find(|t| t.id == id) {
        Some(t) if matches!(t.status, TaskStatus::InProgress { .. }) => {
            t.status = TaskStatus::Pending;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registration::register;
    use crate::testing::task;

    fn tasks() -> Vec<Task> {
        register(&[
            task("1", "Add a", &["a"], &[]),
            task("2", "Add b", &["b"], &["1"]),
            task("3", "Add c", &["c"], &[]),
        ])
        .tasks
    }

    #[test]
    fn lowest_unblocked_id_goes_first_and_never_twice() {
        let mut t = tasks();
        assert_eq!(claim(&mut t, "implementer-1"), ClaimOutcome::Assigned(1));
        assert_eq!(
            claim(&mut t, "implementer-2"),
            ClaimOutcome::Assigned(3),
            "2 waits for 1"
        );
        assert_eq!(
            t[0].status,
            TaskStatus::InProgress {
                claimer: "implementer-1".into()
            }
        );
        assert_eq!(t[0].attempts, 1);
        assert_eq!(claim(&mut t, "implementer-3"), ClaimOutcome::Wait);
        t[0].status = TaskStatus::Completed;
        assert_eq!(claim(&mut t, "implementer-3"), ClaimOutcome::Assigned(2));
        t[1].status = TaskStatus::Completed;
        t[2].status = TaskStatus::Completed;
        assert_eq!(claim(&mut t, "implementer-1"), ClaimOutcome::AllDone);
    }

    #[test]
    fn a_failed_blocker_leaves_its_dependents_stuck() {
        let mut t = tasks();
        t[0].status = TaskStatus::Failed;
        t[2].status = TaskStatus::Completed;
        assert_eq!(claim(&mut t, "implementer-1"), ClaimOutcome::Stuck(vec![2]));
    }

    #[test]
    fn release_puts_a_claim_back() {
        let mut t = tasks();
        assert_eq!(claim(&mut t, "implementer-1"), ClaimOutcome::Assigned(1));
        assert!(release(&mut t, 1));
        assert!(!release(&mut t, 1), "already pending");
        assert_eq!(claim(&mut t, "implementer-2"), ClaimOutcome::Assigned(1));
        assert_eq!(t[0].attempts, 2);
    }
}
