//! The task board of Phase B: the tasks and what happens to them as Implementers claim, finish,
//! fail, escalate or die. Pure: the hub calls it one message at a time, which makes every claim
//! atomic.
//!
//! - A claim gets the lowest-id pending task whose `blocked_by` are complete (`team::claim`),
//!   skipping tasks the claimer already escalated; the claim counts an attempt.
//! - A dead Implementer's or a failed attempt's task goes back to pending, until its attempts
//!   reach `max_attempts`: then it fails, escalated to the user.
//! - An escalated task (the runner's iteration limit) is reassigned to another Implementer once
//!   when there is one (`team::patterns::on_escalation`), else escalated to the user.

use protocol::{Task, TaskStatus};
use std::collections::{BTreeMap, BTreeSet};
use team::claim::{self, ClaimOutcome};
use team::patterns::{on_escalation, EscalationAction};

/// Why a task was handed to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Escalated {
    /// The task id.
    pub task: u32,
    /// The last Implementer's reason.
    pub reason: String,
    /// Claims made.
    pub attempts: u32,
    /// The judge's unresolved issues, one per line.
    pub unresolved: Vec<String>,
}

/// What became of a task given back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returned {
    /// Pending again: another attempt (or another Implementer) will take it.
    Pending,
    /// Failed: escalated to the user.
    Escalated,
}

/// The tasks of a run and their bookkeeping.
#[derive(Debug, Clone)]
pub struct Board {
    /// Every task, in id order.
    pub tasks: Vec<Task>,
    max_attempts: u32,
    /// Task ids each Implementer escalated (it is not given them again).
    excluded: BTreeMap<String, BTreeSet<u32>>,
    reassigned: BTreeSet<u32>,
    escalations: BTreeMap<u32, Escalated>,
}

impl Board {
    /// A board over `tasks`, a task failing for good after `max_attempts` claims.
    pub fn new(tasks: Vec<Task>, max_attempts: u32) -> Board {
        Board {
            tasks,
            max_attempts: max_attempts.max(1),
            excluded: BTreeMap::new(),
            reassigned: BTreeSet::new(),
            escalations: BTreeMap::new(),
        }
    }

    /// The task with this id.
    pub fn task(&self, id: u32) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// The tasks escalated to the user, in id order.
    pub fn escalations(&self) -> Vec<&Escalated> {
        self.escalations.values().collect()
    }

    /// Claims the next task for `who`.
    pub fn claim(&mut self, who: &str) -> ClaimOutcome {
        let excluded = self.excluded.get(who).cloned().unwrap_or_default();
        if excluded.is_empty() {
            return claim::claim(&mut self.tasks, who);
        }
        // Hide the tasks `who` escalated, claim among the rest, and put them back.
        let hidden: Vec<(usize, TaskStatus)> = self
            .tasks
            .iter()
            .enumerate()
            .filter(|(_, t)| excluded.contains(&t.id) && t.status == TaskStatus::Pending)
            .map(|(i, t)| (i, t.status.clone()))
            .collect();
        for (i, _) in &hidden {
            self.tasks[*i].status = TaskStatus::InProgress {
                claimer: String::new(),
            };
        }
        let outcome = claim::claim(&mut self.tasks, who);
        for (i, status) in hidden {
            self.tasks[i].status = status;
        }
        outcome
    }

    /// `who` finished task `id` (judged PASS); false when it did not hold the task.
    pub fn complete(&mut self, id: u32, who: &str) -> bool {
        match self.tasks.iter_mut().find(|t| t.id == id) {
            Some(t) if holds(t, who) => {
                t.status = TaskStatus::Completed;
                true
            }
            _ => false,
        }
    }

    /// `who`'s attempt at `id` ended without a PASS: the runner's iteration limit
    /// (`escalation`, pattern C) or an attempt that could not run or whose Implementer died.
    /// `record` says why, for the report; `others` counts the other live Implementers. `None`
    /// when `who` did not hold the task.
    pub fn give_back(
        &mut self,
        id: u32,
        who: &str,
        escalation: bool,
        record: Escalated,
        others: usize,
    ) -> Option<Returned> {
        let task = self.tasks.iter_mut().find(|t| t.id == id)?;
        if !holds(task, who) {
            return None;
        }
        let attempts = task.attempts;
        let again = !escalation
            || on_escalation(self.reassigned.contains(&id), true, others, false)
                == EscalationAction::Reassign;
        if again && attempts < self.max_attempts {
            if escalation {
                self.reassigned.insert(id);
                self.excluded.entry(who.to_string()).or_default().insert(id);
            }
            task.status = TaskStatus::Pending;
            return Some(Returned::Pending);
        }
        task.status = TaskStatus::Failed;
        self.escalations.insert(
            id,
            Escalated {
                task: id,
                attempts,
                ..record
            },
        );
        Some(Returned::Escalated)
    }

    /// Gives back every task `who` holds (it died); each with what became of it.
    pub fn release_claims_of(&mut self, who: &str, others: usize) -> Vec<(u32, Returned)> {
        let held: Vec<u32> = self
            .tasks
            .iter()
            .filter(|t| holds(t, who))
            .map(|t| t.id)
            .collect();
        held.into_iter()
            .filter_map(|id| {
                let record = Escalated {
                    task: id,
                    reason: format!("{who} was lost while working on it"),
                    attempts: 0,
                    unresolved: Vec::new(),
                };
                Some((id, self.give_back(id, who, false, record, others)?))
            })
            .collect()
    }

    /// Whether the phase is over for the live Implementers `live`: nothing in progress, and no
    /// pending task that one of them could claim (a task only its escalators are left to claim
    /// is not claimable).
    pub fn settled(&self, live: &[String]) -> bool {
        if self
            .tasks
            .iter()
            .any(|t| matches!(t.status, TaskStatus::InProgress { .. }))
        {
            return false;
        }
        let done = |id: &u32| {
            self.tasks
                .iter()
                .any(|t| t.id == *id && t.status == TaskStatus::Completed)
        };
        let excluded = |w: &String, id: u32| self.excluded.get(w).is_some_and(|x| x.contains(&id));
        !self
            .tasks
            .iter()
            .filter(|t| t.status == TaskStatus::Pending && t.blocked_by.iter().all(done))
            .any(|t| live.iter().any(|w| !excluded(w, t.id)))
    }

    /// Pending tasks left when the phase settled (waiting for a failed task, or escalated by
    /// everyone left): they fail, escalated to the user.
    pub fn fail_leftovers(&mut self) -> Vec<u32> {
        let mut left = Vec::new();
        for t in self
            .tasks
            .iter_mut()
            .filter(|t| t.status == TaskStatus::Pending)
        {
            t.status = TaskStatus::Failed;
            left.push(t.id);
            self.escalations.entry(t.id).or_insert_with(|| Escalated {
                task: t.id,
                reason: "never finished: a task it waits for failed, or no Implementer was left to take it".into(),
                attempts: t.attempts,
                unresolved: Vec::new(),
            });
        }
        left
    }
}

fn holds(task: &Task, who: &str) -> bool {
    matches!(&task.status, TaskStatus::InProgress { claimer } if claimer == who)
}

#[cfg(test)]
mod tests {
    use super::*;
    use team::registration::register;
    use team::testing::task;

    fn board(max_attempts: u32) -> Board {
        let tasks = register(&[
            task("1", "Add a", &["a"], &[]),
            task("2", "Add b", &["b"], &["1"]),
        ])
        .tasks;
        Board::new(tasks, max_attempts)
    }

    fn why(id: u32) -> Escalated {
        Escalated {
            task: id,
            reason: "Q2 failed".into(),
            attempts: 0,
            unresolved: vec!["incomplete src/a.rs:3: TODO left".into()],
        }
    }

    fn live(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn claims_follow_dependencies_and_completion_settles_the_board() {
        let mut b = board(3);
        assert_eq!(b.claim("implementer-1"), ClaimOutcome::Assigned(1));
        assert_eq!(b.claim("implementer-2"), ClaimOutcome::Wait);
        assert!(!b.complete(1, "implementer-2"), "not its task");
        assert!(b.complete(1, "implementer-1"));
        assert!(!b.settled(&live(&["implementer-1"])));
        assert_eq!(b.claim("implementer-2"), ClaimOutcome::Assigned(2));
        assert!(b.complete(2, "implementer-2"));
        assert!(b.settled(&live(&["implementer-1"])));
        assert_eq!(b.claim("implementer-1"), ClaimOutcome::AllDone);
    }

    #[test]
    fn an_escalation_is_reassigned_once_then_handed_to_the_user() {
        let mut b = board(3);
        assert_eq!(b.claim("implementer-1"), ClaimOutcome::Assigned(1));
        assert_eq!(
            b.give_back(1, "implementer-1", true, why(1), 1),
            Some(Returned::Pending)
        );
        assert_eq!(
            b.claim("implementer-1"),
            ClaimOutcome::Wait,
            "not to the one that escalated it"
        );
        assert!(
            b.settled(&live(&["implementer-1"])),
            "nobody else can take it"
        );
        assert!(!b.settled(&live(&["implementer-1", "implementer-2"])));
        assert_eq!(b.claim("implementer-2"), ClaimOutcome::Assigned(1));
        assert_eq!(
            b.give_back(1, "implementer-2", true, why(1), 1),
            Some(Returned::Escalated)
        );
        assert_eq!(
            b.task(1).map(|t| t.status.clone()),
            Some(TaskStatus::Failed)
        );
        let e = b.escalations();
        assert_eq!(
            (e[0].task, e[0].attempts, e[0].reason.as_str()),
            (1, 2, "Q2 failed")
        );
        assert!(b.settled(&live(&["implementer-1", "implementer-2"])));
        assert_eq!(
            b.fail_leftovers(),
            vec![2],
            "task 2 waits for the failed task 1"
        );
        assert_eq!(b.escalations().len(), 2);
    }

    #[test]
    fn a_lone_implementer_escalates_at_once() {
        let mut b = board(3);
        assert_eq!(b.claim("implementer-1"), ClaimOutcome::Assigned(1));
        assert_eq!(
            b.give_back(1, "implementer-1", true, why(1), 0),
            Some(Returned::Escalated)
        );
    }

    #[test]
    fn a_dead_implementers_task_goes_back_until_its_attempts_run_out() {
        let mut b = board(2);
        assert_eq!(b.claim("implementer-1"), ClaimOutcome::Assigned(1));
        assert_eq!(
            b.release_claims_of("implementer-1", 0),
            vec![(1, Returned::Pending)]
        );
        assert_eq!(b.task(1).map(|t| t.attempts), Some(1));
        assert_eq!(b.claim("implementer-1-r1"), ClaimOutcome::Assigned(1));
        assert_eq!(
            b.release_claims_of("implementer-1-r1", 0),
            vec![(1, Returned::Escalated)]
        );
        let e = b.escalations();
        assert_eq!(
            (e[0].attempts, e[0].reason.as_str()),
            (2, "implementer-1-r1 was lost while working on it")
        );
        assert_eq!(b.release_claims_of("implementer-1-r1", 0), Vec::new());
    }
}
