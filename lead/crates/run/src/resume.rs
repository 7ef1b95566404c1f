//! `retake resume` of a run: the repository lock first (a dead Lead's stale lock is taken
//! over, a live Lead's respected), then the run as its state files recorded it — session id,
//! base commit, options, team, `plans_mapping`, the gate counters, `tasks.json` — with the
//! tasks a dead Lead's Implementers held put back to pending (their claim already counted the
//! attempt) and the tasks that were escalated given a fresh set of attempts (a human has
//! looked at them); finished tasks are not run again. The retake history comes back from the
//! timeline's `REVIEW_COMPLETED` events.

use super::drive::{team_for, Ready};
use super::state::{team_event, ActiveRun, RunOptions, RunState};
use super::{RunError, RunRequest};
use crate::config::RunConfig;
use host::lock::RepoLock;
use host::Runtime;
use protocol::{Task, TaskStatus};
use serde_json::json;
use std::path::{Path, PathBuf};
use team::completion::{parse_timeline, TimelineEvent, REVIEW_COMPLETED};
use team::escalation::RetakeRound;
use team::plan::source;

/// What resuming did to the tasks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restored {
    /// Tasks that were in progress, with the Implementer that held them: pending again.
    pub released: Vec<(u32, String)>,
    /// Tasks that had failed (escalated to the user): pending again with a fresh set of
    /// attempts.
    pub retried: Vec<u32>,
    /// Tasks already completed: not run again.
    pub completed: Vec<u32>,
}

/// `retake resume`'s `--yes` and `--no-discuss`: the flags `retake run` takes for an
/// unattended run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unattended {
    /// `--yes`.
    pub yes: bool,
    /// `--no-discuss`.
    pub no_discuss: bool,
}

impl Unattended {
    /// The run's options with these flags added: a flag given once stays on for the rest of the
    /// run (and for a later resume); none is taken away.
    pub fn apply(self, options: &RunOptions) -> RunOptions {
        RunOptions {
            yes: options.yes || self.yes,
            no_discuss: options.no_discuss || self.no_discuss,
            ..options.clone()
        }
    }

    /// The flags as `retake run` takes them, for a message that says how to start again.
    fn flags(self) -> String {
        let mut out = String::new();
        if self.yes {
            out.push_str(" --yes");
        }
        if self.no_discuss {
            out.push_str(" --no-discuss");
        }
        out
    }
}

/// Puts `tasks` back in shape for a new team: in progress → pending (the attempt stays
/// counted), failed → pending with no attempts, completed untouched.
pub fn reset_tasks(tasks: &mut [Task]) -> Restored {
    let mut restored = Restored::default();
    for t in tasks.iter_mut() {
        match &t.status {
            TaskStatus::InProgress { claimer } => {
                restored.released.push((t.id, claimer.clone()));
                t.status = TaskStatus::Pending;
            }
            TaskStatus::Failed => {
                restored.retried.push(t.id);
                t.status = TaskStatus::Pending;
                t.attempts = 0;
            }
            TaskStatus::Completed => restored.completed.push(t.id),
            TaskStatus::Pending => {}
        }
    }
    restored
}

/// The review rounds a timeline recorded, in order.
pub fn history(events: &[TimelineEvent]) -> Vec<RetakeRound> {
    events
        .iter()
        .filter(|e| e.event_type == REVIEW_COMPLETED)
        .filter_map(|e| {
            let c = &e.content;
            Some(RetakeRound {
                round: u32::try_from(c.get("round")?.as_u64()?).ok()?,
                decision: serde_json::from_value(c.get("decision")?.clone()).ok()?,
                grade: serde_json::from_value(c.get("grade")?.clone()).ok()?,
                findings: u32::try_from(c.get("findings")?.as_u64()?).ok()?,
            })
        })
        .collect()
}

fn refused(message: String) -> RunError {
    RunError::Refused(message)
}

/// The interrupted run's task list, which must be that run's.
fn tasks_of(state: &RunState, active: &ActiveRun) -> Result<(String, Vec<Task>), RunError> {
    let path = state.active_path();
    let (session, tasks) = state.read_tasks().map_err(|e| {
        refused(format!(
            "{}: cannot restore run {} ({e}); remove {} to start over",
            state.tasks_path().display(),
            active.session_id,
            path.display()
        ))
    })?;
    if session != active.session_id {
        return Err(refused(format!(
            "{} belongs to run {session}, not to the interrupted run {}; remove {} to start over",
            state.tasks_path().display(),
            active.session_id,
            path.display()
        )));
    }
    Ok((session, tasks))
}

/// The timeline's lines for the tasks the interruption released (each interrupted attempt's
/// files restored to what it found) and for the run resuming.
fn released(state: &RunState, repo: &Path, restored: &Restored) -> Vec<String> {
    let store = state.dir().join(crate::state::ATTEMPTS);
    let mut lines: Vec<String> = Vec::new();
    for (task, actor) in &restored.released {
        lines.push(team_event(
            "TASK_RELEASED",
            json!({"task": task, "actor": actor, "returned": "pending", "reason": "the Lead was interrupted"}),
        ));
        // The interrupted attempt may have written its change already: its retry starts from
        // what the attempt found, or the judge would see no change of its own (Q5).
        let files = super::team_hub::attempts::restore_interrupted(&store, repo, *task);
        if !files.is_empty() {
            lines.push(team_event(
                "TASK_RESTORED",
                json!({"task": task, "files": files, "reason": "the Lead was interrupted"}),
            ));
        }
    }
    lines.push(team_event(
        "RUN_RESUMED",
        json!({
            "released": restored.released.iter().map(|(t, _)| t).collect::<Vec<_>>(),
            "retried": restored.retried,
            "completed": restored.completed,
        }),
    ));
    lines
}

/// Restores the interrupted run of `repo`: the request it was started with and the run ready
/// for its loop.
pub fn restore(
    repo: PathBuf,
    mut config: RunConfig,
    unattended: Unattended,
) -> Result<(RunRequest, Ready), RunError> {
    let state_dir = repo.join(".retake");
    let state = RunState::new(&state_dir);
    let lock = RepoLock::acquire(&state_dir).map_err(|e| refused(e.to_string()))?;
    let path = state.active_path();
    let mut active = state.read_active().map_err(|e| {
        refused(format!(
            "{}: not a readable run state file ({e}); remove it to start over",
            path.display()
        ))
    })?;
    let (Some(team), Some(recorded)) = (active.team.clone(), active.options.clone()) else {
        // Phase A never finished: there is no team, no task list, nothing to continue.
        state.clear_active();
        return Err(refused(format!(
            "run {} was interrupted before its team started: nothing to continue; start it again with `retake run {}{}`",
            active.session_id, active.task_range, unattended.flags()
        )));
    };
    let (session, mut tasks) = tasks_of(&state, &active)?;
    let runtime: Runtime = team.runtime.parse().map_err(refused)?;
    let executor = config.executor.clone().ok_or_else(|| {
        refused("no executor is configured: set [executor] kind and command in retake.toml".into())
    })?;
    let plan = source::load(&repo).map_err(|e| refused(e.to_string()))?;
    let options = unattended.apply(&recorded);
    active.options = Some(options.clone());
    let restored = reset_tasks(&mut tasks);
    let lines = released(&state, &repo, &restored);
    state
        .write_tasks(&session, &tasks)
        .and_then(|()| state.write_active(&active))
        .and_then(|()| state.append_timeline(&lines))
        .map_err(|e| refused(format!("cannot write the run's state: {e}")))?;
    let rounds = history(&parse_timeline(&state.timeline()));
    // The run keeps the gate it started with, whatever the configuration says now.
    config.gate = options.gate.parse().unwrap_or_default();
    eprintln!(
        "retake: resuming run {} ({}): {} task(s) done, {} to go{}",
        active.session_id,
        active.task_range,
        restored.completed.len(),
        tasks.len() - restored.completed.len(),
        match rounds.len() {
            0 => String::new(),
            n => format!(", {n} review round(s) so far"),
        }
    );
    let implementers = team_for(&tasks, options.parallel, None, team.implementer_count);
    let req = RunRequest {
        repo: repo.clone(),
        range: active.task_range.clone(),
        parallel: options.parallel,
        no_discuss: options.no_discuss,
        // Phase A, the one place a run asks, is behind it: a resumed run never asks.
        yes: true,
        runtime,
        faults: Default::default(),
        config,
        live: None,
    };
    let test = team::verification::test_command(&repo, req.config.test_command.as_deref());
    Ok((
        req,
        Ready {
            active,
            state,
            lock: Some(lock),
            plan,
            executor,
            test,
            tasks,
            implementers,
            history: rounds,
            fresh: false,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Decision, Grade};
    use team::registration::register;
    use team::testing::task;

    #[test]
    fn in_progress_tasks_go_back_failed_ones_start_over_and_completed_stay() {
        let mut tasks = register(&[
            task("1", "Add a", &["a"], &[]),
            task("2", "Add b", &["b"], &[]),
            task("3", "Add c", &["c"], &[]),
            task("4", "Add d", &["d"], &[]),
        ])
        .tasks;
        tasks[0].status = TaskStatus::Completed;
        tasks[0].attempts = 2;
        tasks[1].status = TaskStatus::InProgress {
            claimer: "implementer-2-r1".into(),
        };
        tasks[1].attempts = 2;
        tasks[2].status = TaskStatus::Failed;
        tasks[2].attempts = 3;
        let restored = reset_tasks(&mut tasks);
        assert_eq!(
            restored,
            Restored {
                released: vec![(2, "implementer-2-r1".to_string())],
                retried: vec![3],
                completed: vec![1],
            }
        );
        let shape: Vec<(TaskStatus, u32)> = tasks
            .iter()
            .map(|t| (t.status.clone(), t.attempts))
            .collect();
        assert_eq!(
            shape,
            vec![
                (TaskStatus::Completed, 2),
                (TaskStatus::Pending, 2),
                (TaskStatus::Pending, 0),
                (TaskStatus::Pending, 0),
            ]
        );
    }

    #[test]
    fn resumes_flags_add_to_the_recorded_options_and_never_take_one_away() {
        let recorded = RunOptions {
            parallel: Some(2),
            no_discuss: false,
            yes: false,
            gate: "breezing".into(),
        };
        let both = Unattended {
            yes: true,
            no_discuss: true,
        };
        assert_eq!(
            both.apply(&recorded),
            RunOptions {
                no_discuss: true,
                yes: true,
                ..recorded.clone()
            }
        );
        assert_eq!(both.flags(), " --yes --no-discuss");
        let already = RunOptions {
            no_discuss: true,
            yes: true,
            ..recorded
        };
        assert_eq!(Unattended::default().apply(&already), already);
        assert_eq!(Unattended::default().flags(), "");
    }

    #[test]
    fn the_retake_history_comes_back_from_the_timeline() {
        let text = [
            team_event("TASK_COMPLETED", json!({"task": 1, "actor": "implementer-1"})),
            team_event(
                REVIEW_COMPLETED,
                json!({"actor": "auditor", "round": 1, "verdict": "NO-GO", "decision": "REQUEST_CHANGES", "grade": "C", "findings": 4}),
            ),
            "{torn".to_string(),
            team_event(
                REVIEW_COMPLETED,
                json!({"actor": "auditor", "round": 2, "verdict": "GO", "decision": "APPROVE", "grade": "A", "findings": 0}),
            ),
        ]
        .join("\n");
        assert_eq!(
            history(&parse_timeline(&text)),
            vec![
                RetakeRound {
                    round: 1,
                    decision: Decision::RequestChanges,
                    grade: Grade::C,
                    findings: 4
                },
                RetakeRound {
                    round: 2,
                    decision: Decision::Approve,
                    grade: Grade::A,
                    findings: 0
                },
            ]
        );
    }
}
