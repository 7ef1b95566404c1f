//! Step 0, Phase 0 and Phase A of a run: the state file first, then the environment check, the
//! plan and its range, the planning discussion (unless `--no-discuss`; its refined plan and
//! recommended parallelism are Phase A's reference), granularity validation (V5 repaired), the
//! scope confirmation (`--yes`, or a question on a terminal; without either the run stops), and
//! the team's registration in the state file. Any stop before the team starts removes the
//! state file, so that `resume` never restores a half-made run.

use super::drive::Ready;
use super::state::{ActiveRun, ReviewCounters, RunOptions, RunState, TeamInfo};
use super::{environment, RunError, RunRequest};
use host::lock::RepoLock;
use protocol::exec::git::work_tree;
use protocol::live::RunPhase;
use protocol::message::ExecutorSpec;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use team::discussion::{self, Discussion, DiscussionMode};
use team::gate::GateState;
use team::granularity::Limits;
use team::plan::{parse_range, select, source, Plan, Range, RangeError};
use team::prepare::{prepare, Parallelism, Prepared};
use team::session::session_id;

/// Step 0, Phase 0 and Phase A: the run, ready for its loop.
pub fn start(req: &RunRequest) -> Result<Ready, RunError> {
    let state_dir = req.repo.join(".retake");
    let state = RunState::new(&state_dir);
    if let Some(kind) = state.active_kind() {
        return Err(RunError::Refused(format!(
            "an interrupted {kind} is recorded in {}: continue it with `retake resume`, or remove the file to start over",
            state.active_path().display()
        )));
    }
    let lock = RepoLock::acquire(&state_dir)?;
    req.show_phase(RunPhase::Prepare, 0);
    let head = protocol::exec::git::head_commit(&req.repo);
    let c = &req.config;
    let mut active = new_run(req, head.as_deref());
    state
        .write_active(&active)
        .map_err(|source| RunError::State {
            what: "the state file".into(),
            source,
        })?;
    let abort = |message: String| {
        state.clear_active();
        // Best effort: the state folder goes too when the aborted run was all it held.
        let _empty = std::fs::remove_dir(state_dir.join("state"));
        RunError::Refused(message)
    };
    let dirty = work_tree::uncommitted(&req.repo).unwrap_or_default();
    let problems = environment::check(
        &req.repo,
        c.executor.as_ref(),
        c.executor_key,
        c.test_command.as_deref(),
        head.as_deref(),
        &dirty,
    );
    if !problems.is_empty() {
        return Err(abort(format!(
            "the environment is not ready for a run:\n  - {}",
            problems.join("\n  - ")
        )));
    }
    let executor = c
        .executor
        .clone()
        .ok_or_else(|| abort("no executor is configured".into()))?;
    let plan = source::load(&req.repo).map_err(|e| abort(e.to_string()))?;
    let range = parse_range(Some(&req.range));
    let (reference, planner_max_parallel) = if req.no_discuss {
        (plan.clone(), None)
    } else {
        let agent = (c.discussion == DiscussionMode::Agent).then_some(&executor);
        req.show_phase(RunPhase::Discussion, 0);
        let discussion = discuss(&req.repo, &plan, &range, agent, &c.prompts)
            .map_err(|e| abort(e.to_string()))?;
        eprint!("{}", discussion.render());
        (discussion.reference(&plan), discussion.bound())
    };
    let parallelism = Parallelism {
        parallel: req.parallel,
        planner_max_parallel,
    };
    let prepared = prepare(&reference, &range, parallelism, &Limits::default())
        .map_err(|e| abort(e.to_string()))?;
    req.show_phase(RunPhase::Prepare, 0);
    for p in &prepared.problems {
        eprintln!("retake run: {:?} {:?}: {}", p.check, p.level, p.message);
    }
    confirm_scope(req, &prepared).map_err(abort)?;
    active.team = Some(TeamInfo {
        implementer_count: prepared.implementers,
        reviewer_count: 1,
        runtime: review::state::ActiveReview::runtime_name(req.runtime).into(),
    });
    active.plans_mapping = prepared.registration.plans_mapping.clone();
    active.options = Some(RunOptions {
        parallel: req.parallel,
        no_discuss: req.no_discuss,
        yes: req.yes,
        gate: c.gate.name().into(),
    });
    state
        .write_active(&active)
        .and_then(|()| state.write_tasks(&active.session_id, &prepared.registration.tasks))
        .and_then(|()| state.reset_timeline())
        .map_err(|e| abort(format!("cannot write the run's state: {e}")))?;
    req.show_board(&prepared.registration.tasks);
    Ok(Ready {
        active,
        state,
        lock: Some(lock),
        plan,
        executor,
        test: team::verification::test_command(&req.repo, c.test_command.as_deref()),
        tasks: prepared.registration.tasks,
        implementers: prepared.implementers,
        history: Vec::new(),
        fresh: true,
    })
}

/// The state of a run that starts now from `head`, before Phase A.
fn new_run(req: &RunRequest, head: Option<&str>) -> ActiveRun {
    let now = chrono::Utc::now();
    let c = &req.config;
    ActiveRun {
        kind: "run".into(),
        session_id: session_id(now),
        started_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        impl_mode: c
            .executor
            .as_ref()
            .map_or("none", |e| e.mode.as_str())
            .into(),
        task_range: req.range.clone(),
        base_commit: head.unwrap_or_default().to_string(),
        team: None,
        plans_mapping: Default::default(),
        options: None,
        review: ReviewCounters::from(GateState {
            max_retakes: c.max_retakes,
            ..GateState::default()
        }),
        accepted: None,
    }
}

/// Lists the tasks and asks to proceed, unless `--yes`; the reason to stop otherwise.
fn confirm_scope(req: &RunRequest, prepared: &Prepared) -> Result<(), String> {
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
    if req.yes {
        return Ok(());
    }
    if !std::io::stdin().is_terminal() {
        return Err(format!(
            "{question} — no terminal to answer on: pass --yes to confirm the scope"
        ));
    }
    if !confirmed(&question) {
        return Err("run cancelled: the scope was not confirmed".into());
    }
    Ok(())
}

/// Why Phase 0 could not be held.
#[derive(Debug, thiserror::Error)]
pub enum DiscussError {
    /// The range selects nothing or names what the plan does not have.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// The agent changed files while it was only asked to plan.
    #[error("the planning agent changed the work tree ({0}): a planning answer must change no file; undo its changes (git stash) and start the run again")]
    Changed(String),
}

/// Phase 0 over the tasks of `range`: the built-in Planner and Critic — and `agent`, the
/// executor's agent, when the discussion is the agent's too — with the repository's files
/// (git's list, or a walk outside a work tree) to resolve the paths the tasks mention.
pub fn discuss(
    repo: &Path,
    plan: &Plan,
    range: &Range,
    agent: Option<&ExecutorSpec>,
    templates: &protocol::prompt::Templates,
) -> Result<Discussion, DiscussError> {
    let selection = select(plan, range)?;
    let known = work_tree::files(repo).unwrap_or_else(|_| walk(repo));
    let Some(spec) = agent else {
        return Ok(discussion::discuss(
            &selection,
            &known,
            &Limits::default(),
            None,
        ));
    };
    let before = work_tree::uncommitted(repo).unwrap_or_default();
    let mut advisor = crate::advisor::ExecutorAdvisor::new(spec, repo, templates);
    let held = discussion::discuss(&selection, &known, &Limits::default(), Some(&mut advisor));
    let after = work_tree::uncommitted(repo).unwrap_or_default();
    let changed: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
    if !changed.is_empty() {
        let shown: Vec<&str> = changed.iter().take(5).map(|p| p.as_str()).collect();
        return Err(DiscussError::Changed(shown.join(", ")));
    }
    Ok(held)
}

/// Most files a walk outside a work tree lists (the Planner only resolves mentions with them).
const MAX_WALKED: usize = 100_000;

/// The files under `repo` outside a git work tree, `.gitignore` respected, retake's state left
/// out.
fn walk(repo: &Path) -> Vec<String> {
    let mut files: Vec<String> = ignore::WalkBuilder::new(repo)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git" && e.file_name() != ".retake")
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(repo).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
        .take(MAX_WALKED)
        .collect();
    files.sort();
    files
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
