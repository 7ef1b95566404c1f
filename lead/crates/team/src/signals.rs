//! Phase B's signals (`.retake/state/signals.jsonl`): `partial_review_recommended` once half the
//! tasks are complete (never for runs of 1–2 tasks, where the full review is enough), and
//! `next_batch_recommended` once 60 % of a batch is. Each carries the session id and is
//! deduplicated per session, so an earlier session's signals never suppress this one's.
//!
//! A batch is a dependency level of the run's plan tasks: batch 1 holds the tasks that wait for
//! no other task of the run, batch n+1 the tasks whose deepest dependency is in batch n. Every
//! task is registered up front and `blocked_by` holds a batch back until its dependencies are
//! complete, so `next_batch_recommended` marks the point where the next level is about to open;
//! a plan of one level has no batches. Fix tasks are the review loop's, not the plan's: they
//! count for neither signal.

use protocol::{Task, TaskOrigin, TaskStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalKind {
    /// Half the tasks are complete: review the finished ones.
    PartialReviewRecommended,
    /// 60 % of the current batch is complete: register the next one.
    NextBatchRecommended,
}

/// One line of signals.jsonl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signal {
    /// Which signal.
    pub signal: SignalKind,
    /// The run's session id.
    pub session_id: String,
    /// The batch it is about (next_batch only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
    /// Completed tasks (of the run, or of the batch) when it fired.
    pub completed: u32,
    /// Total tasks (of the run, or of the batch).
    pub total: u32,
    /// When it fired (RFC 3339, UTC).
    pub timestamp: String,
}

/// A batch's progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchProgress {
    /// Batch number (1-based).
    pub number: u32,
    /// Tasks in it.
    pub total: u32,
    /// Completed ones.
    pub completed: u32,
}

/// Smallest run for which a partial review is recommended.
pub const PARTIAL_REVIEW_MIN_TASKS: u32 = 3;

/// The signals due now that `emitted` does not already hold for this session.
pub fn due_signals(
    session_id: &str,
    total: u32,
    completed: u32,
    batch: Option<BatchProgress>,
    emitted: &[Signal],
    now: &str,
) -> Vec<Signal> {
    let seen = |kind: SignalKind, batch: Option<u32>| {
        emitted
            .iter()
            .any(|s| s.signal == kind && s.session_id == session_id && s.batch == batch)
    };
    let mut due = Vec::new();
    if total >= PARTIAL_REVIEW_MIN_TASKS
        && completed * 2 >= total
        && completed < total
        && !seen(SignalKind::PartialReviewRecommended, None)
    {
        due.push(Signal {
            signal: SignalKind::PartialReviewRecommended,
            session_id: session_id.to_string(),
            batch: None,
            completed,
            total,
            timestamp: now.to_string(),
        });
    }
    if let Some(b) = batch {
        if b.total > 0
            && b.completed * 10 >= b.total * 6
            && !seen(SignalKind::NextBatchRecommended, Some(b.number))
        {
            due.push(Signal {
                signal: SignalKind::NextBatchRecommended,
                session_id: session_id.to_string(),
                batch: Some(b.number),
                completed: b.completed,
                total: b.total,
                timestamp: now.to_string(),
            });
        }
    }
    due
}

/// Each plan task's batch (dependency level, from 1), by task id; dependencies outside the
/// plan's tasks do not count.
pub fn batches(tasks: &[Task]) -> BTreeMap<u32, u32> {
    let plan: BTreeMap<u32, &Task> = tasks
        .iter()
        .filter(|t| t.origin == TaskOrigin::Plan)
        .map(|t| (t.id, t))
        .collect();
    let mut level: BTreeMap<u32, u32> = BTreeMap::new();
    // Relaxation bounded by the task count: terminates on a cycle too (V4 refuses those).
    for _ in 0..plan.len() {
        let mut changed = false;
        for (id, t) in &plan {
            let deepest = t
                .blocked_by
                .iter()
                .filter(|d| plan.contains_key(*d))
                .map(|d| level.get(d).copied().unwrap_or(1))
                .max();
            let mine = deepest.map_or(1, |d| d + 1);
            if level.get(id) != Some(&mine) {
                level.insert(*id, mine);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    level
}

/// The signals due now that task `completed_task` is complete, over the run's plan tasks
/// (`tasks` with their current status), that `emitted` does not already hold for this session.
pub fn on_completion(
    session_id: &str,
    tasks: &[Task],
    completed_task: u32,
    emitted: &[Signal],
    now: &str,
) -> Vec<Signal> {
    let plan: Vec<&Task> = tasks
        .iter()
        .filter(|t| t.origin == TaskOrigin::Plan)
        .collect();
    let done = |t: &Task| t.status == TaskStatus::Completed;
    let total = plan.len() as u32;
    let completed = plan.iter().filter(|t| done(t)).count() as u32;
    let levels = batches(tasks);
    let last = levels.values().copied().max().unwrap_or(1);
    // Only a batch with one after it can recommend the next.
    let batch = levels
        .get(&completed_task)
        .copied()
        .filter(|b| *b < last)
        .map(|number| {
            let members: Vec<&Task> = plan
                .iter()
                .copied()
                .filter(|t| levels.get(&t.id) == Some(&number))
                .collect();
            BatchProgress {
                number,
                total: members.len() as u32,
                completed: members.iter().filter(|t| done(t)).count() as u32,
            }
        });
    due_signals(session_id, total, completed, batch, emitted, now)
}

/// Whether the Lead should act on a signal: a partial review of everything but one task makes
/// no sense; the full review comes next anyway.
pub fn worth_acting(signal: &Signal, remaining_tasks: u32) -> bool {
    match signal.signal {
        SignalKind::PartialReviewRecommended => remaining_tasks > 1,
        SignalKind::NextBatchRecommended => true,
    }
}

/// The signals of a signals.jsonl text; lines that are not signals are skipped.
pub fn parse_signals(text: &str) -> Vec<Signal> {
    text.lines()
        .filter_map(|l| serde_json::from_str(l.trim()).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: &str = "2026-02-22T14:30:00Z";

    #[test]
    fn partial_review_at_half_once_per_session() {
        assert!(due_signals("s1", 4, 1, None, &[], NOW).is_empty());
        let due = due_signals("s1", 4, 2, None, &[], NOW);
        assert_eq!(
            serde_json::to_string(&due).unwrap(),
            r#"[{"signal":"partial_review_recommended","session_id":"s1","completed":2,"total":4,"timestamp":"2026-02-22T14:30:00Z"}]"#
        );
        assert!(
            due_signals("s1", 4, 3, None, &due, NOW).is_empty(),
            "deduplicated"
        );
        assert_eq!(
            due_signals("s2", 4, 3, None, &due, NOW).len(),
            1,
            "another session"
        );
        assert!(
            due_signals("s1", 4, 4, None, &[], NOW).is_empty(),
            "all done: full review"
        );
    }

    #[test]
    fn no_partial_review_for_one_or_two_tasks() {
        assert!(due_signals("s", 2, 1, None, &[], NOW).is_empty());
        assert!(due_signals("s", 1, 0, None, &[], NOW).is_empty());
        assert_eq!(due_signals("s", 3, 2, None, &[], NOW).len(), 1);
    }

    #[test]
    fn next_batch_at_sixty_percent_per_batch() {
        let b = |number, completed| {
            Some(BatchProgress {
                number,
                total: 5,
                completed,
            })
        };
        assert!(due_signals("s", 20, 2, b(1, 2), &[], NOW).is_empty());
        let due = due_signals("s", 20, 3, b(1, 3), &[], NOW);
        assert_eq!(due.len(), 1);
        assert_eq!(
            (due[0].signal, due[0].batch),
            (SignalKind::NextBatchRecommended, Some(1))
        );
        assert!(due_signals("s", 20, 4, b(1, 4), &due, NOW).is_empty());
        assert_eq!(due_signals("s", 20, 8, b(2, 3), &due, NOW).len(), 1);
    }

    fn plan(deps: &[(u32, &[u32])]) -> Vec<Task> {
        let mut tasks = crate::registration::register(
            &deps
                .iter()
                .map(|(id, on)| {
                    let on: Vec<String> = on.iter().map(u32::to_string).collect();
                    let on: Vec<&str> = on.iter().map(String::as_str).collect();
                    crate::testing::task(
                        &id.to_string(),
                        &format!("Add t{id}"),
                        &[&format!("src/t{id}.rs")],
                        &on,
                    )
                })
                .collect::<Vec<_>>(),
        )
        .tasks;
        for t in &mut tasks {
            t.status = TaskStatus::Pending;
        }
        tasks
    }

    #[test]
    fn batches_are_dependency_levels_of_plan_tasks() {
        let mut tasks = plan(&[(1, &[]), (2, &[]), (3, &[1]), (4, &[3, 2])]);
        let levels: Vec<(u32, u32)> = batches(&tasks).into_iter().collect();
        assert_eq!(levels, [(1, 1), (2, 1), (3, 2), (4, 3)]);
        tasks[3].origin = TaskOrigin::Fix;
        assert_eq!(batches(&tasks).get(&4), None, "fix tasks are no batch");
    }

    #[test]
    fn completions_signal_half_the_plan_and_sixty_percent_of_a_batch() {
        let mut tasks = plan(&[(1, &[]), (2, &[]), (3, &[]), (4, &[1])]);
        tasks[0].status = TaskStatus::Completed;
        assert!(
            on_completion("s", &tasks, 1, &[], NOW).is_empty(),
            "1 of 4, 1 of 3"
        );
        tasks[1].status = TaskStatus::Completed;
        let due = on_completion("s", &tasks, 2, &[], NOW);
        let seen: Vec<(SignalKind, Option<u32>, u32, u32)> = due
            .iter()
            .map(|s| (s.signal, s.batch, s.completed, s.total))
            .collect();
        assert_eq!(
            seen,
            [
                (SignalKind::PartialReviewRecommended, None, 2, 4),
                (SignalKind::NextBatchRecommended, Some(1), 2, 3)
            ]
        );
        tasks[2].status = TaskStatus::Completed;
        assert!(
            on_completion("s", &tasks, 3, &due, NOW).is_empty(),
            "deduplicated"
        );
        tasks[3].status = TaskStatus::Completed;
        assert!(
            on_completion("s", &tasks, 4, &due, NOW).is_empty(),
            "the last batch has no next one"
        );
        let flat = plan(&[(1, &[]), (2, &[]), (3, &[])]);
        let mut flat = flat;
        flat[0].status = TaskStatus::Completed;
        flat[1].status = TaskStatus::Completed;
        let due = on_completion("s", &flat, 2, &[], NOW);
        assert_eq!(due.len(), 1, "one level: no batches");
        assert_eq!(due[0].signal, SignalKind::PartialReviewRecommended);
    }

    #[test]
    fn acting_and_reading_back() {
        let due = due_signals("s", 4, 2, None, &[], NOW);
        assert!(worth_acting(&due[0], 2));
        assert!(!worth_acting(&due[0], 1));
        let text = format!("{}\nnot json\n", serde_json::to_string(&due[0]).unwrap());
        assert_eq!(parse_signals(&text), due);
    }
}
