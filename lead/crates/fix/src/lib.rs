//! `retake fix REVIEW-DIR` (and `retake review --fix`): the fix pipeline of the review-cycle spec, the
//! imperative shell around `team::fix`. It reads the review's findings, batches them, plans
//! the batches in parallel, exports `.task/FIX-*.json` and `plan.json`, then runs the plan
//! stage by stage — fix, test, commit one group at a time or roll it back and retry — and
//! closes with `fix-summary.md` and `fix-history.json`. Everything it writes goes into the
//! review folder; the repository gets only the groups' commits.
//!
//! Before any change it checks that the repository is a git work tree with a commit, that git
//! knows the committer, that a test command is known, and that the work tree is clean (a
//! rollback must not take a user's edit with it): each failure is one line and exit 2.

pub mod artifacts;
pub mod config;
pub mod execute;
pub mod files;
pub mod planner;
pub mod preflight;
pub mod resume;
pub mod review_dir;
pub mod session;
pub mod test_gate;

use config::{Configure, FixConfig};
use host::lock::{LockError, RepoLock};
use outputs::ExitCode;
use planner::Planner;
use protocol::message::ExecutorMode;
use session::{ActiveSession, ACTIVE_FILE};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use team::fix::summary::{outcomes, FixResult, SessionInfo};
use team::fix::{batches, FixFinding, FixPlan, GroupState};

/// What `retake fix` was asked to do.
#[derive(Debug, Clone)]
pub struct FixOptions {
    /// The review folder.
    pub review_dir: PathBuf,
    /// The repository (default: the one whose `.retake` holds the review folder, else the
    /// current directory).
    pub repo: Option<PathBuf>,
    /// Continue the interrupted session, or after the fixes fix-history.json records.
    pub resume: bool,
    /// Attempts per group, the first included.
    pub max_attempts: u32,
    /// Findings per planner batch.
    pub batch_size: usize,
    /// Plan and export only: no fixer, no test, no commit.
    pub dry_run: bool,
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixReport {
    /// 0: every group fixed (or nothing to fix); 5: some group failed every attempt.
    pub code: ExitCode,
    /// Findings fixed in this session.
    pub fixed: usize,
    /// Findings planned in this session.
    pub planned: usize,
    /// One line per failed group: id, files, attempts, last failure.
    pub failed_groups: Vec<String>,
}

/// Why a session could not run; every variant is exit 2.
#[derive(Debug, thiserror::Error)]
pub enum FixError {
    /// The review folder, a file in it, or the repository is not usable.
    #[error("{0}")]
    BadInput(String),
    /// The configuration could not be read.
    #[error("{0}")]
    Config(String),
    /// Another retake holds the repository.
    #[error(transparent)]
    Locked(#[from] LockError),
    /// A git command failed.
    #[error("{0}")]
    Git(protocol::exec::git::work_tree::WorkTreeError),
    /// Local I/O failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: std::io::Error,
    },
    /// A bug: the state machine refused an event.
    #[error("internal error: {0}")]
    Internal(String),
}

pub use review::state::now;

/// Runs a fix session with the configuration `configure` reads for its repository; `log` gets
/// one line per step.
pub fn run(
    opts: &FixOptions,
    configure: Configure<'_>,
    log: &mut dyn FnMut(String),
) -> Result<FixReport, FixError> {
    let (dir, repo) = locate(opts)?;
    // The fixer and the test gate run commands: the repository's file as committed at HEAD.
    let config = configure(&repo).map_err(FixError::Config)?;
    let review = review_dir::load(&dir)?;
    for note in &review.notes {
        log(format!("left out: {note}"));
    }
    let active = ActiveSession::load(&dir)?;
    if active.is_some() && !opts.resume {
        return Err(FixError::BadInput(format!(
            "{} holds an interrupted fix session: continue it with --resume, or delete {ACTIVE_FILE} to start over",
            dir.display()
        )));
    }
    let batch_size = active.as_ref().map_or(opts.batch_size, |s| s.batch_size);
    let mut all = batches(&review.findings, batch_size);
    let entries: Vec<FixFinding> = all.iter().flat_map(|b| b.findings.clone()).collect();
    match &active {
        Some(s) => still_matches(s, &entries)?,
        None if opts.resume => all = resume::after_history(&dir, all, log)?,
        None => {}
    }
    if active.is_none() && all.is_empty() {
        log(format!(
            "nothing to fix: the review ({}) has no open finding on a file",
            review.source
        ));
        return Ok(FixReport::empty(0));
    }
    let work = Work {
        repo: &repo,
        dir: &dir,
        all: &all,
        entries: &entries,
        planner: planner_of(&config),
        summary: format!(
            "{} findings from {} in {}",
            entries.len(),
            review.source,
            dir.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ),
        excluded: dir
            .strip_prefix(&repo)
            .ok()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .filter(|p| !p.is_empty()),
    };
    if opts.dry_run {
        return dry_run(&work, log);
    }
    let test = preflight::preflight(&repo, &config, active.as_ref(), work.excluded.as_deref())?;
    let _lock = RepoLock::acquire(&repo.join(".retake"))?;
    let mut session = match active {
        Some(mut s) => {
            resume::reconcile(&repo, &mut s, log)?;
            s.save(&dir)?;
            log(format!("resuming fix session {}", s.fix_session_id));
            s
        }
        None => open_session(&work, batch_size, opts.max_attempts)?,
    };
    let planned: usize = session.plan.groups.iter().map(|g| g.fix_ids.len()).sum();
    log(format!(
        "fix session {}: {planned} finding(s) in {} group(s), {} stage(s), planned by {}",
        session.fix_session_id,
        session.plan.groups.len(),
        session.plan.timeline.len(),
        session.planning_mode
    ));
    planner::describe(&session.plan.timeline, &session.plan)
        .into_iter()
        .for_each(&mut *log);
    let ctx = execute::Context {
        repo: &repo,
        dir: &dir,
        entries: &entries,
        test_command: &test,
        test_timeout: config.test_timeout,
        executor: config
            .executor
            .as_ref()
            .map(implementer::assignment::executor_config),
        builtin_timeout: config.executor_timeout,
        rules: &config.rules,
        prompts: &config.prompts,
        excluded: work.excluded.clone(),
    };
    execute::run_stages(&ctx, &mut session, log)?;
    finish(&work, &session, &review.notes, planned, log)
}

/// What one fix run works on, once the review is read.
struct Work<'a> {
    repo: &'a Path,
    dir: &'a Path,
    all: &'a [team::fix::Batch],
    entries: &'a [FixFinding],
    planner: Planner,
    /// `N findings from SOURCE in DIR`, for the exported tasks.
    summary: String,
    /// The review folder relative to the repository, when it is inside it (left out of the
    /// fixer's commits and the dirty-tree checks).
    excluded: Option<String>,
}

impl Work<'_> {
    /// Writes the task files of `plan` (session `id`, at `at`); how many.
    fn export(&self, plan: &FixPlan, id: &str, at: &str) -> Result<usize, FixError> {
        artifacts::export(
            self.dir,
            plan,
            self.entries,
            id,
            self.planner.mode(),
            &self.summary,
            at,
        )
    }
}

impl FixReport {
    fn empty(planned: usize) -> FixReport {
        FixReport {
            code: ExitCode::Success,
            fixed: 0,
            planned,
            failed_groups: Vec::new(),
        }
    }
}

/// The review folder and the repository of `opts`, canonical.
fn locate(opts: &FixOptions) -> Result<(PathBuf, PathBuf), FixError> {
    let dir = std::fs::canonicalize(&opts.review_dir)
        .ok()
        .filter(|d| d.is_dir())
        .ok_or_else(|| {
            FixError::BadInput(format!(
                "cannot fix from '{}': no such review folder",
                opts.review_dir.display()
            ))
        })?;
    let cwd = std::env::current_dir().map_err(|source| FixError::Io {
        context: "cannot read the current directory".into(),
        source,
    })?;
    let repo = match &opts.repo {
        Some(r) => r.clone(),
        None => review_dir::repository_of(&dir, &cwd),
    };
    let repo = std::fs::canonicalize(&repo)
        .ok()
        .filter(|r| r.is_dir())
        .ok_or_else(|| {
            FixError::BadInput(format!("no such repository folder '{}'", repo.display()))
        })?;
    Ok((dir, repo))
}

/// An interrupted session can go on only while every finding it planned is still in the review.
fn still_matches(session: &ActiveSession, entries: &[FixFinding]) -> Result<(), FixError> {
    match session
        .plan
        .groups
        .iter()
        .flat_map(|g| &g.fix_ids)
        .find(|id| !entries.iter().any(|e| &e.id == *id))
    {
        Some(id) => Err(FixError::BadInput(format!(
            "the review's findings no longer match session {} ({id} is gone): delete {ACTIVE_FILE} to start over",
            session.fix_session_id
        ))),
        None => Ok(()),
    }
}

/// `--dry-run`: plans and exports the task files, changes nothing else.
fn dry_run(work: &Work<'_>, log: &mut dyn FnMut(String)) -> Result<FixReport, FixError> {
    let id = session_id();
    artifacts::clear_previous(work.dir)?;
    let plan = planner::plan_all(work.repo, work.dir, work.all, &work.planner, &id, &now())?;
    let n = work.export(&plan, &id, &now())?;
    log(format!(
        "dry run: {n} finding(s) in {} group(s), {} stage(s), planned by {}",
        plan.groups.len(),
        plan.timeline.len(),
        work.planner.mode()
    ));
    planner::describe(&plan.timeline, &plan)
        .into_iter()
        .for_each(&mut *log);
    log(format!(
        "exported {n} task file(s) to {}",
        work.dir.join(".task").display()
    ));
    Ok(FixReport::empty(n))
}

/// A new session: planned, its task files exported, saved before anything is changed.
fn open_session(
    work: &Work<'_>,
    batch_size: usize,
    max_attempts: u32,
) -> Result<ActiveSession, FixError> {
    let id = session_id();
    let started = now();
    artifacts::clear_previous(work.dir)?;
    let plan = planner::plan_all(work.repo, work.dir, work.all, &work.planner, &id, &started)?;
    // Planning must not edit: an agent planner that did leaves the session nothing clean to
    // roll back to.
    let touched = preflight::dirty_paths(work.repo, work.excluded.as_deref(), &[])?;
    if !touched.is_empty() {
        return Err(FixError::BadInput(format!(
            "the planner changed files ({}): planning must not edit; restore them and run again",
            preflight::listed(&touched)
        )));
    }
    work.export(&plan, &id, &started)?;
    let session = ActiveSession {
        fix_session_id: id,
        started_at: started,
        planning_mode: work.planner.mode().to_string(),
        batch_size,
        max_attempts: max_attempts.max(1),
        plan,
        groups: BTreeMap::new(),
    };
    session.save(work.dir)?;
    Ok(session)
}

/// Writes the summary, ends the session and says what was fixed (exit 5 when a group failed).
fn finish(
    work: &Work<'_>,
    session: &ActiveSession,
    notes: &[String],
    planned: usize,
    log: &mut dyn FnMut(String),
) -> Result<FixReport, FixError> {
    let shown_dir = work
        .excluded
        .clone()
        .unwrap_or_else(|| work.dir.display().to_string());
    let completed = now();
    let info = SessionInfo {
        fix_session_id: &session.fix_session_id,
        review_dir: &shown_dir,
        started_at: &session.started_at,
        completed_at: &completed,
    };
    let results = outcomes(
        &session.plan,
        work.entries,
        &|g| session.state_of(g),
        &|g| session.commit_of(g),
    );
    artifacts::finish(work.dir, &info, &session.plan, &results, notes)?;
    ActiveSession::clear(work.dir)?;
    let fixed = results
        .iter()
        .filter(|o| matches!(o.result, FixResult::Fixed { .. }))
        .count();
    let failed_groups: Vec<String> = session
        .plan
        .groups
        .iter()
        .filter_map(|g| match session.state_of(&g.id) {
            GroupState::Failed { attempts, reason } => Some(format!(
                "{} ({}) after {attempts} attempt{}: {reason}",
                g.id,
                g.files.join(", "),
                if attempts == 1 { "" } else { "s" }
            )),
            _ => None,
        })
        .collect();
    log(format!(
        "fixed {fixed} of {planned} finding(s); summary: {}",
        work.dir.join("fix-summary.md").display()
    ));
    Ok(FixReport {
        code: if failed_groups.is_empty() {
            ExitCode::Success
        } else {
            ExitCode::Escalated
        },
        fixed,
        planned,
        failed_groups,
    })
}

/// `fix-YYYYMMDD-HHMMSS`.
fn session_id() -> String {
    chrono::Utc::now().format("fix-%Y%m%d-%H%M%S").to_string()
}

fn planner_of(config: &FixConfig) -> Planner {
    match &config.executor {
        Some(spec) if spec.mode == ExecutorMode::Agent && !spec.command.is_empty() => {
            Planner::Agent {
                command: spec.command.clone(),
                timeout: Duration::from_secs(spec.timeout_secs.max(1)),
                templates: config.prompts.clone(),
            }
        }
        _ => Planner::Builtin,
    }
}
