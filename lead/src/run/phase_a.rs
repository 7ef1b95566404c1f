//! Step 0 and Phase A of a run: the state file first, then the environment check, the plan and
//! its range, granularity validation (V5 repaired), the scope confirmation (`--yes`, or a
//! question on a terminal; without either the run stops), and the team's registration in the
//! state file. Any stop before the team starts removes the state file, so that `resume` never
//! restores a half-made run.

use super::state::{ActiveRun, ReviewCounters, RunOptions, RunState, TeamInfo};
use super::{environment, git, RunError, RunRequest};
use crate::lock::RepoLock;
use crate::team::gate::GateState;
use crate::team::granularity::Limits;
use crate::team::plan::{parse_range, source, Plan};
use crate::team::prepare::{prepare, Parallelism, Prepared};
use crate::team::session::session_id;
use protocol::message::ExecutorSpec;
use std::io::{BufRead, IsTerminal, Write};

/// A run that passed Phase A.
#[derive(Debug)]
pub struct Started {
    /// The state file's content.
    pub active: ActiveRun,
    /// The state folder.
    pub state: RunState,
    /// The repository lock (released around reviews).
    pub lock: Option<RepoLock>,
    /// The plan.
    pub plan: Plan,
    /// Phase A's plan of the run.
    pub prepared: Prepared,
    /// The executor.
    pub executor: ExecutorSpec,
    /// The test command every task is judged by (Q7).
    pub test: Option<Vec<String>>,
}

/// Step 0 and Phase A.
pub fn start(req: &RunRequest) -> Result<Started, RunError> {
    let state_dir = req.repo.join(".retake");
    let state = RunState::new(&state_dir);
    if let Some(kind) = state.active_kind() {
        return Err(RunError::Refused(format!(
            "an interrupted {kind} is recorded in {}: continue it with `retake resume`, or remove the file to start over",
            state.active_path().display()
        )));
    }
    let lock = RepoLock::acquire(&state_dir).map_err(|e| RunError::Refused(e.to_string()))?;
    let now = chrono::Utc::now();
    let head = crate::commands::head_commit(&req.repo);
    let s = &req.settings;
    let mut active = ActiveRun {
        kind: "run".into(),
        session_id: session_id(now),
        started_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        impl_mode: s.executor.kind.clone().unwrap_or_else(|| "none".into()),
        task_range: req.range.clone(),
        base_commit: head.clone().unwrap_or_default(),
        team: None,
        plans_mapping: Default::default(),
        options: None,
        review: ReviewCounters::from(GateState {
            max_retakes: s.team_loop.max_retakes,
            ..GateState::default()
        }),
    };
    state
        .write_active(&active)
        .map_err(|e| RunError::Refused(format!("cannot write the state file: {e}")))?;
    let abort = |message: String| {
        state.clear_active();
        // Best effort: the state folder goes too when the aborted run was all it held.
        let _empty = std::fs::remove_dir(state_dir.join("state"));
        RunError::Refused(message)
    };
    if !req.no_discuss {
        eprintln!("retake run: the planning discussion (Phase 0) is not in this build; going on as with --no-discuss");
    }
    let dirty = git::uncommitted(&req.repo).unwrap_or_default();
    let problems = environment::check(&req.repo, s, head.as_deref(), &dirty);
    if !problems.is_empty() {
        return Err(abort(format!(
            "the environment is not ready for a run:\n  - {}",
            problems.join("\n  - ")
        )));
    }
    let executor = s
        .executor
        .spec()
        .ok_or_else(|| abort("no executor is configured".into()))?;
    let plan = source::load(&req.repo).map_err(|e| abort(e.to_string()))?;
    let range = parse_range(Some(&req.range));
    let parallelism = Parallelism {
        parallel: req.parallel,
        planner_max_parallel: None,
    };
    let prepared = prepare(&plan, &range, parallelism, &Limits::default())
        .map_err(|e| abort(e.to_string()))?;
    for p in &prepared.problems {
        eprintln!("retake run: {:?} {:?}: {}", p.check, p.level, p.message);
    }
    let n = prepared.registration.tasks.len();
    let question = format!(
        "{n} task{} with {} Implementer{} in parallel, then a review by six Inspectors and the Auditor — proceed?",
        if n == 1 { "" } else { "s" },
        prepared.implementers,
        if prepared.implementers == 1 { "" } else { "s" },
    );
    eprintln!("retake run: range {}:", req.range);
    for t in &prepared.registration.tasks {
        eprintln!("  {} (cc:TODO)", t.subject);
    }
    if !req.yes {
        if !std::io::stdin().is_terminal() {
            return Err(abort(format!(
                "{question} — no terminal to answer on: pass --yes to confirm the scope"
            )));
        }
        if !confirmed(&question) {
            return Err(abort("run cancelled: the scope was not confirmed".into()));
        }
    }
    active.team = Some(TeamInfo {
        implementer_count: prepared.implementers,
        reviewer_count: 1,
        runtime: crate::state::ActiveReview::runtime_name(req.runtime).into(),
    });
    active.plans_mapping = prepared.registration.plans_mapping.clone();
    active.options = Some(RunOptions {
        parallel: req.parallel,
        no_discuss: req.no_discuss,
        yes: req.yes,
        gate: s.team_loop.gate.clone(),
    });
    state
        .write_active(&active)
        .and_then(|()| state.write_tasks(&active.session_id, &prepared.registration.tasks))
        .and_then(|()| state.reset_timeline())
        .map_err(|e| abort(format!("cannot write the run's state: {e}")))?;
    Ok(Started {
        active,
        state,
        lock: Some(lock),
        plan,
        test: environment::test_command(&req.repo, s),
        prepared,
        executor,
    })
}

/// Asks on the terminal; yes only for `y` or `yes`.
fn confirmed(question: &str) -> bool {
    let mut err = std::io::stderr();
    let _shown = write!(err, "{question} [y/N] ").and_then(|()| err.flush());
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim().to_lowercase().as_str(), "y" | "yes")
}
