//! A run's state under `.retake/state/`: `active.json` (what the run is, written first — Step 0 —
//! and completed in Phase A), `tasks.json` (the source of truth for task status),
//! `timeline.jsonl` (the Implementers' task-runner events and the team's own events, one JSON
//! line each), `signals.jsonl` (Phase B's signals, kept across sessions: each line names its
//! session) and `review-result.json` (after every review decision). The Lead is the only
//! writer; whole files are written atomically, the timeline is appended a line at a time with
//! a sync (a torn last line is skipped by its readers).

mod check;

use host::journal::write_atomic;
use protocol::{Decision, Grade, Task};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use team::gate::GateState;
use team::review_result::ReviewResult;
use team::signals::{parse_signals, Signal};

/// The team of a run, as Phase A started it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamInfo {
    /// Implementers started.
    pub implementer_count: u32,
    /// Review pipelines (one: six Inspectors and an Auditor).
    pub reviewer_count: u32,
    /// `local` or `inproc`.
    pub runtime: String,
}

/// The options a run was started with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOptions {
    /// `--parallel N`.
    pub parallel: Option<u32>,
    /// `--no-discuss`.
    pub no_discuss: bool,
    /// `--yes`.
    pub yes: bool,
    /// `sdd` or `breezing`.
    pub gate: String,
}

/// The review loop's counters, persisted so that a resumed run keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewCounters {
    /// breezing: REQUEST_CHANGES rounds.
    pub retake_count: u32,
    /// breezing: the cap.
    pub max_retakes: u32,
    /// sdd: NO-GO fix rounds.
    pub retry_count: u32,
    /// sdd: spec updates.
    pub spec_update_count: u32,
}

impl From<ReviewCounters> for GateState {
    fn from(c: ReviewCounters) -> Self {
        GateState {
            retry_count: c.retry_count,
            spec_update_count: c.spec_update_count,
            retake_count: c.retake_count,
            max_retakes: c.max_retakes,
        }
    }
}

/// A review the gate accepted, recorded before Phase C: a run resumed before its commit goes
/// straight to Phase C, unless the work tree changed since (then it is reviewed again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepted {
    /// The review round.
    pub round: u32,
    /// Its decision.
    pub decision: Decision,
    /// Its grade.
    pub grade: Grade,
    /// The work tree's content when it was accepted (`work_tree::work_tree_id`).
    pub tree: String,
}

impl From<GateState> for ReviewCounters {
    fn from(g: GateState) -> Self {
        ReviewCounters {
            retake_count: g.retake_count,
            max_retakes: g.max_retakes,
            retry_count: g.retry_count,
            spec_update_count: g.spec_update_count,
        }
    }
}

/// `.retake/state/active.json` of a run (`kind` = `run`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveRun {
    /// Always `run` (a review's state file says `review`).
    pub kind: String,
    /// `retake-YYYYMMDD-HHMMSS`.
    pub session_id: String,
    /// RFC 3339, UTC.
    pub started_at: String,
    /// The executor kind (`agent`, `script`, `builtin`).
    pub impl_mode: String,
    /// The range as the user typed it.
    pub task_range: String,
    /// HEAD when the run started: the base of its reviews and of its commit.
    pub base_commit: String,
    /// Phase A: the team.
    pub team: Option<TeamInfo>,
    /// Phase A: task id → the plan's number for it.
    pub plans_mapping: BTreeMap<u32, String>,
    /// Phase A: the options.
    pub options: Option<RunOptions>,
    /// The review counters.
    pub review: ReviewCounters,
    /// The accepted review, once the gate accepted one (Phase C's input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Accepted>,
}

/// The state folder of a run and the writes into it.
#[derive(Debug, Clone)]
pub struct RunState {
    dir: PathBuf,
}

impl RunState {
    /// The state of the repository whose state folder is `state_dir` (`.retake`).
    pub fn new(state_dir: &Path) -> RunState {
        RunState {
            dir: state_dir.join("state"),
        }
    }

    /// The folder (`.retake/state`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `active.json`.
    pub fn active_path(&self) -> PathBuf {
        self.dir.join("active.json")
    }

    /// `timeline.jsonl`.
    pub fn timeline_path(&self) -> PathBuf {
        self.dir.join("timeline.jsonl")
    }

    /// `tasks.json`.
    pub fn tasks_path(&self) -> PathBuf {
        self.dir.join("tasks.json")
    }

    /// `review-result.json`.
    pub fn review_result_path(&self) -> PathBuf {
        self.dir.join("review-result.json")
    }

    /// `signals.jsonl`.
    pub fn signals_path(&self) -> PathBuf {
        self.dir.join("signals.jsonl")
    }

    /// Every signal in `signals.jsonl`, of any session (none when there is no file).
    pub fn signals(&self) -> Vec<Signal> {
        parse_signals(&std::fs::read_to_string(self.signals_path()).unwrap_or_default())
    }

    /// Appends signals to `signals.jsonl` and syncs them.
    pub fn append_signals(&self, signals: &[Signal]) -> std::io::Result<()> {
        let lines = signals
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<String>, _>>()
            .map_err(std::io::Error::other)?;
        append_lines(&self.signals_path(), &lines)
    }

    /// The kind of the state file present (`run`, `review`), if there is one.
    pub fn active_kind(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.active_path()).ok()?;
        let value: serde_json::Value = serde_json::from_str(&text).ok()?;
        Some(value.get("kind")?.as_str()?.to_string())
    }

    /// Writes `active.json` atomically.
    pub fn write_active(&self, run: &ActiveRun) -> std::io::Result<()> {
        write_json(&self.active_path(), run)
    }

    /// Reads `active.json` of a run, checked (`check`).
    pub fn read_active(&self) -> std::io::Result<ActiveRun> {
        let text = std::fs::read_to_string(self.active_path())?;
        let run: ActiveRun = serde_json::from_str(&text)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        check::active(&run).map_err(invalid)?;
        Ok(run)
    }

    /// Reads `tasks.json`: its session id and its tasks.
    pub fn read_tasks(&self) -> std::io::Result<(String, Vec<Task>)> {
        #[derive(Deserialize)]
        struct Doc {
            session_id: String,
            tasks: Vec<Task>,
        }
        let text = std::fs::read_to_string(self.tasks_path())?;
        let doc: Doc = serde_json::from_str(&text)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        review::state::check_name("session_id", &doc.session_id).map_err(invalid)?;
        check::tasks(&doc.tasks).map_err(invalid)?;
        Ok((doc.session_id, doc.tasks))
    }

    /// Writes `tasks.json` atomically.
    pub fn write_tasks(&self, session_id: &str, tasks: &[Task]) -> std::io::Result<()> {
        let doc = serde_json::json!({ "session_id": session_id, "tasks": tasks });
        write_json(&self.tasks_path(), &doc)
    }

    /// Writes `review-result.json` atomically.
    pub fn write_review_result(&self, result: &ReviewResult) -> std::io::Result<()> {
        write_json(&self.review_result_path(), result)
    }

    /// Reads `review-result.json`, when there is a readable one.
    pub fn review_result(&self) -> Option<ReviewResult> {
        let text = std::fs::read_to_string(self.review_result_path()).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Starts a fresh timeline for a new session (an earlier run's lines would be misread as
    /// this one's team activity).
    pub fn reset_timeline(&self) -> std::io::Result<()> {
        write_atomic(&self.timeline_path(), b"")
    }

    /// Appends lines (without newlines) to `timeline.jsonl` and syncs them.
    pub fn append_timeline(&self, lines: &[String]) -> std::io::Result<()> {
        append_lines(&self.timeline_path(), lines)
    }

    /// The timeline's text (empty when there is none).
    pub fn timeline(&self) -> String {
        std::fs::read_to_string(self.timeline_path()).unwrap_or_default()
    }

    /// Removes the state file: an early abort (nothing to resume) or a finished run.
    pub fn clear_active(&self) {
        // Best effort: a leftover file is reported by the next `retake run`.
        let _removed = std::fs::remove_file(self.active_path());
    }

    /// Phase C's cleanup: `active.json`, `review-result.json`, `signals.jsonl` and the attempt
    /// records go;
    /// `tasks.json` and `timeline.jsonl` stay as the record of the finished run.
    pub fn clean_up(&self) {
        for name in ["active.json", "review-result.json", "signals.jsonl"] {
            let _removed = std::fs::remove_file(self.dir.join(name));
        }
        let _removed = std::fs::remove_dir_all(self.dir.join(ATTEMPTS));
    }
}

/// The folder of the attempt records, in the state folder (`team_hub::attempts`).
pub const ATTEMPTS: &str = "attempts";

/// Appends lines (without newlines) to a JSON-lines file, creating its folder, and syncs.
fn append_lines(path: &Path, lines: &[String]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = String::new();
    for line in lines {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

/// A state file's content that parsed but is not what retake writes.
fn invalid(reason: review::state::FieldError) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, reason)
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    let mut json = serde_json::to_vec_pretty(value).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomic(path, &json)
}

/// A team event of the timeline (`TASK_COMPLETED`, `REVIEW_COMPLETED`, …), as one JSON line in
/// the shape of the task runner's events.
pub fn team_event(event_type: &str, content: serde_json::Value) -> String {
    let timestamp = chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    serde_json::json!({
        "event_type": event_type,
        "timestamp": timestamp,
        "visibility": "summary",
        "content": content,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_files_are_written_read_and_cleaned_up() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = RunState::new(dir.path());
        assert_eq!(state.active_kind(), None);
        let run = ActiveRun {
            kind: "run".into(),
            session_id: "retake-20260222-143000".into(),
            started_at: "2026-02-22T14:30:00Z".into(),
            impl_mode: "agent".into(),
            task_range: "all".into(),
            base_commit: "abc".into(),
            team: None,
            plans_mapping: BTreeMap::from([(1, "4.1".to_string())]),
            options: None,
            review: GateState::default().into(),
            accepted: None,
        };
        state.write_active(&run).expect("write");
        assert_eq!(state.active_kind().as_deref(), Some("run"));
        let text = std::fs::read_to_string(state.active_path()).expect("read");
        assert!(
            !text.contains("accepted"),
            "absent until a review is accepted"
        );
        assert_eq!(state.read_active().expect("read"), run);
        let accepted = ActiveRun {
            accepted: Some(Accepted {
                round: 2,
                decision: Decision::Approve,
                grade: Grade::B,
                tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904".into(),
            }),
            ..run.clone()
        };
        state.write_active(&accepted).expect("write");
        assert_eq!(state.read_active().expect("read"), accepted);
        let tasks =
            team::registration::register(&[team::testing::task("1", "Add a", &["a"], &[])]).tasks;
        state
            .write_tasks("retake-20260222-143000", &tasks)
            .expect("write");
        assert_eq!(
            state.read_tasks().expect("read"),
            ("retake-20260222-143000".to_string(), tasks)
        );
        state.reset_timeline().expect("reset");
        state
            .append_timeline(&[team_event("TASK_COMPLETED", serde_json::json!({"task": 1}))])
            .expect("append");
        let events = team::completion::parse_timeline(&state.timeline());
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].event_type, "TASK_COMPLETED");
        std::fs::write(state.dir.join("signals.jsonl"), "{}\n").expect("write");
        state.clean_up();
        assert_eq!(state.active_kind(), None);
        assert!(!state.dir.join("signals.jsonl").exists());
        assert!(state.timeline_path().exists(), "the timeline stays");
    }
}
