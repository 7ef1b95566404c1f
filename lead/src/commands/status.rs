//! `retake status [PATH]`: what is in progress in a repository and how the last review ended,
//! read from `.retake/` only — the lock (is a Lead alive?), `state/active.json` (a review or a
//! run of the team loop), `state/tasks.json`, `state/review-result.json` and the newest journal
//! under `runs/`. It changes nothing. A state file it cannot read is an error (exit 2) naming the
//! file, so a damaged state is never shown as "nothing in progress".

use crate::cli::{ConfigFormat, StatusArgs};
use anyhow::Context as _;
use host::journal::Journal;
use outputs::ExitCode;
use protocol::{Task, TaskStatus};
use review::state::{ActiveReview, StateError};
use run::{ActiveRun, RunState};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use team::review_result::ReviewResult;

/// How many of the verdict's notes the text form shows.
const SHOWN_NOTES: usize = 5;

/// Everything `retake status` reports.
#[derive(Debug, Serialize)]
pub struct Status {
    /// The repository.
    pub repository: String,
    /// The pid of the live Lead holding the repository's lock.
    pub lead_pid: Option<u32>,
    /// What `state/active.json` records as in progress.
    pub active: Option<Active>,
    /// The journal of the active review, or the newest one.
    pub journal: Option<JournalStatus>,
    /// `state/review-result.json`: the team loop's last review decision.
    pub last_review: Option<ReviewResult>,
}

/// The review or run in progress (or interrupted: then no Lead is alive).
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Active {
    /// A `retake review`.
    Review(ActiveReview),
    /// A run of the team loop, with its tasks.
    Run {
        /// The run's state file.
        run: Box<ActiveRun>,
        /// `state/tasks.json`, when Phase A has written it.
        tasks: Vec<Task>,
    },
}

/// One run folder under `.retake/runs/`.
#[derive(Debug, Serialize)]
pub struct JournalStatus {
    /// The run id (the folder's name).
    pub run_id: String,
    /// The complete reports journaled so far (`pipeline-K/` prefixes for consensus runs).
    pub reports: Vec<String>,
    /// The journaled verdict (GO, CONDITIONAL, NO-GO, SPEC-UPDATE-NEEDED).
    pub verdict: Option<String>,
    /// The verdict's notes (`PARTIAL:…`, `AUDITOR_UNAVAILABLE` …).
    pub notes: Vec<String>,
}

/// Runs the command.
pub fn run(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let path = args.path.unwrap_or_else(|| ".".into());
    let repo = std::fs::canonicalize(&path).with_context(|| {
        format!(
            "cannot show the status of '{}': no such directory",
            path.display()
        )
    })?;
    let status = gather(&repo)?;
    let text = match args.format {
        ConfigFormat::Text => render(&status),
        ConfigFormat::Json => serde_json::to_string_pretty(&status)? + "\n",
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::Success)
}

/// Reads the status of `repo` from its `.retake/` folder.
pub fn gather(repo: &Path) -> anyhow::Result<Status> {
    let state_dir = repo.join(".retake");
    let run_state = RunState::new(&state_dir);
    let active = match review::state::kind(&state_dir) {
        Err(StateError::Missing(_)) => None,
        Err(e) => return Err(e.into()),
        Ok(kind) if kind == "review" => Some(Active::Review(ActiveReview::read(&state_dir)?)),
        Ok(_) => {
            let unreadable =
                |file: PathBuf| move || format!("{}: not a retake state file", file.display());
            let run = run_state
                .read_active()
                .with_context(unreadable(run_state.active_path()))?;
            let tasks = match run_state.read_tasks() {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                read => read.with_context(unreadable(run_state.tasks_path()))?.1,
            };
            Some(Active::Run {
                run: Box::new(run),
                tasks,
            })
        }
    };
    let runs = state_dir.join("runs");
    let run_id = match &active {
        Some(Active::Review(review)) => Some(review.run_id.clone()),
        _ => newest_run(&runs)?,
    };
    let journal = match run_id {
        Some(id) if runs.join(&id).is_dir() => Some(journal_status(&state_dir, id)?),
        _ => None,
    };
    let result_path = run_state.review_result_path();
    let last_review =
        match optional(std::fs::read(&result_path), &result_path)? {
            Some(bytes) => Some(serde_json::from_slice(&bytes).with_context(|| {
                format!("{}: not a retake review result", result_path.display())
            })?),
            None => None,
        };
    Ok(Status {
        repository: repo.display().to_string(),
        lead_pid: host::lock::holder(&state_dir),
        active,
        journal,
        last_review,
    })
}

/// The newest run folder (run ids begin with their UTC start time, so they sort by age).
fn newest_run(runs: &Path) -> anyhow::Result<Option<String>> {
    let Some(entries) = optional(std::fs::read_dir(runs), runs)? else {
        return Ok(None);
    };
    let mut newest: Option<String> = None;
    for entry in entries {
        let entry = entry.with_context(|| runs.display().to_string())?;
        if entry.path().is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if newest.as_ref().is_none_or(|n| name > *n) {
                newest = Some(name);
            }
        }
    }
    Ok(newest)
}

/// The reports and verdict journaled in one run folder (`pipeline-K/` journals of a consensus
/// run included): the complete reports as `Journal::reports` reads them, and the verdict.
fn journal_status(state_dir: &Path, run_id: String) -> anyhow::Result<JournalStatus> {
    let dir = state_dir.join("runs").join(&run_id);
    let mut journals = vec![(String::new(), run_id.clone())];
    for entry in std::fs::read_dir(&dir).with_context(|| dir.display().to_string())? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.starts_with("pipeline-") {
            journals.push((format!("{name}/"), format!("{run_id}/{name}")));
        }
    }
    let mut reports = Vec::new();
    for (prefix, id) in journals {
        let journaled = match Journal::open(state_dir, &id) {
            Ok(journal) => journal.reports(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => Err(e),
        };
        let names = journaled.with_context(|| format!("the journal of run {id}"))?;
        reports.extend(names.into_keys().map(|name| format!("{prefix}{name}")));
    }
    reports.sort();
    let verdict_path = dir.join("verdict.cpf");
    let (verdict, notes) = match optional(std::fs::read_to_string(&verdict_path), &verdict_path)? {
        Some(text) => {
            let cpf = protocol::cpf::parse_verdict(&text)
                .with_context(|| format!("{}: not a verdict", verdict_path.display()))?;
            (Some(cpf.verdict.to_string()), cpf.notes)
        }
        None => (None, Vec::new()),
    };
    Ok(JournalStatus {
        run_id,
        reports,
        verdict,
        notes,
    })
}

/// A read of `path` that may find nothing there: `None` when it does not exist, an error naming
/// the path for anything else.
fn optional<T>(read: std::io::Result<T>, path: &Path) -> anyhow::Result<Option<T>> {
    match read {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).context(path.display().to_string()),
    }
}

/// The status as lines for people.
pub fn render(status: &Status) -> String {
    let mut out = format!("repository   {}\n", status.repository);
    out += &match status.lead_pid {
        Some(pid) => format!("lead         running (pid {pid})\n"),
        None => "lead         not running\n".to_string(),
    };
    match &status.active {
        None => out += "in progress  nothing\n",
        Some(Active::Review(r)) => {
            let no_exec = if r.no_exec { ", --no-exec" } else { "" };
            out += &format!(
                "in progress  review {} ({}), started {}, runtime {}, {} pipeline(s){no_exec}\n",
                r.run_id,
                r.scope.label(),
                r.started_at,
                r.runtime,
                r.pipelines
            );
        }
        Some(Active::Run { run, tasks }) => {
            out += &format!(
                "in progress  run {} (tasks {}, executor {}), started {}, base {}\n",
                run.session_id,
                run.task_range,
                run.impl_mode,
                run.started_at,
                short(&run.base_commit)
            );
            out += &render_tasks(tasks);
            let c = &run.review;
            out += &format!(
                "review loop  retakes {}/{}, NO-GO retries {}, spec updates {}\n",
                c.retake_count, c.max_retakes, c.retry_count, c.spec_update_count
            );
        }
    }
    if status.active.is_some() && status.lead_pid.is_none() {
        out += "             interrupted: `retake resume` continues it\n";
    }
    if let Some(j) = &status.journal {
        let verdict = j.verdict.as_deref().unwrap_or("no verdict yet");
        let names = if j.reports.is_empty() {
            String::new()
        } else {
            format!(" ({})", j.reports.join(", "))
        };
        out += &format!(
            "journal      .retake/runs/{}: {} report(s){names}, {verdict}\n",
            j.run_id,
            j.reports.len(),
        );
        for note in j.notes.iter().take(SHOWN_NOTES) {
            out += &format!("             note {note}\n");
        }
        if j.notes.len() > SHOWN_NOTES {
            out += &format!(
                "             … and {} more note(s) (--format json lists them all)\n",
                j.notes.len() - SHOWN_NOTES
            );
        }
    }
    if let Some(r) = &status.last_review {
        out += &format!(
            "last review  {} (grade {}) of {}, {}, by {}\n",
            r.verdict,
            r.grade,
            short(&r.commit_hash),
            r.timestamp,
            r.reviewer
        );
    }
    out
}

/// A run's tasks: counts by status, then one line per task.
fn render_tasks(tasks: &[Task]) -> String {
    if tasks.is_empty() {
        return "tasks        none registered yet\n".to_string();
    }
    let count = |f: fn(&TaskStatus) -> bool| tasks.iter().filter(|t| f(&t.status)).count();
    let mut out = format!(
        "tasks        {} done, {} in progress, {} pending, {} failed\n",
        count(|s| *s == TaskStatus::Completed),
        count(|s| matches!(s, TaskStatus::InProgress { .. })),
        count(|s| *s == TaskStatus::Pending),
        count(|s| *s == TaskStatus::Failed),
    );
    for t in tasks {
        let state = match &t.status {
            TaskStatus::Pending => "pending".to_string(),
            TaskStatus::InProgress { claimer } => format!("in progress ({claimer})"),
            TaskStatus::Completed => "done".to_string(),
            TaskStatus::Failed => "failed".to_string(),
        };
        out += &format!(
            "             #{:<3} {:<28} {} [attempts {}]\n",
            t.id, state, t.subject, t.attempts
        );
    }
    out
}

/// The first 12 characters of a commit id.
fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

#[cfg(test)]
mod tests;
