//! The Lead row of the supervision spec: a run scenario with `lead_crash = { after_event, after_ms }` has
//! its Lead (the `retake run` process, alone: its children must die by themselves) killed with
//! SIGKILL when the trigger is due; then no process of the run may be left, and `retake resume`
//! must finish the run.
//!
//! To make the moment of the kill deterministic, the runner creates a file named by
//! `RETAKE_SCENARIO_HOLD` before `retake run` and removes it before `retake resume`: a
//! fixture's executor can wait while it exists, so that a task is surely in progress — and its
//! executor surely running — when the Lead dies.

use super::leftovers::{self, Leftover};
use super::run_check;
use super::run_kind::LeadCrash;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The environment variable naming the hold file.
pub const HOLD_ENV: &str = "RETAKE_SCENARIO_HOLD";

/// How long the processes of a killed Lead get to die with it (parent-death signals, reaping).
const ORPHAN_GRACE: Duration = Duration::from_secs(2);

/// The trigger of one run: polled while the Lead runs.
#[derive(Debug)]
pub struct Watch<'a> {
    crash: &'a LeadCrash,
    timeline: PathBuf,
    started: Instant,
    seen: Option<Instant>,
}

impl<'a> Watch<'a> {
    /// A trigger for the run in `repo`, started now.
    pub fn new(crash: &'a LeadCrash, repo: &Path, started: Instant) -> Watch<'a> {
        Watch {
            crash,
            timeline: repo.join(".retake/state/timeline.jsonl"),
            started,
            seen: None,
        }
    }

    /// Whether the Lead is to be killed now: `after_ms` past the first matching event (or past
    /// the start, without `after_event`).
    pub fn due(&mut self, now: Instant) -> bool {
        let since = match (&self.crash.after_event, self.seen) {
            (None, _) => self.started,
            (Some(_), Some(seen)) => seen,
            (Some(pattern), None) => {
                let text = std::fs::read_to_string(&self.timeline).unwrap_or_default();
                if !run_check::happened(&text, pattern) {
                    return false;
                }
                self.seen = Some(now);
                now
            }
        };
        now.duration_since(since) >= Duration::from_millis(self.crash.after_ms)
    }

    /// The trigger, for messages: `TASK_CLAIMED:2 + 300 ms`.
    pub fn describe(&self) -> String {
        match &self.crash.after_event {
            Some(event) => format!("{event} + {} ms", self.crash.after_ms),
            None => format!("{} ms", self.crash.after_ms),
        }
    }
}

/// After the kill: the processes of the run that did not die with their Lead (killed then, so
/// that the resume starts clean), as a failed check unless leftovers are allowed.
pub fn orphans(tag: &str, checked: bool) -> Option<String> {
    let left: Vec<Leftover> = leftovers::wait_gone(tag, ORPHAN_GRACE);
    if left.is_empty() {
        return None;
    }
    leftovers::kill(&left);
    let list: Vec<String> = left.iter().map(ToString::to_string).collect();
    checked.then(|| {
        format!(
            "{} outlived the killed Lead: {}",
            list.len(),
            list.join(", ")
        )
    })
}

/// Creates the hold file `path` (the run's executors may wait on it).
pub fn hold(path: &Path) -> std::io::Result<()> {
    std::fs::write(path, "the Lead is to be killed while this file exists\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trigger_waits_for_its_event_then_for_its_delay() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = dir.path().join(".retake/state");
        std::fs::create_dir_all(&state).expect("mkdir");
        let crash = LeadCrash {
            after_event: Some("TASK_CLAIMED:2".into()),
            after_ms: 100,
        };
        let t0 = Instant::now();
        let mut watch = Watch::new(&crash, dir.path(), t0);
        assert!(!watch.due(t0), "no timeline yet");
        let line = |task: u32| {
            format!("{{\"event_type\":\"TASK_CLAIMED\",\"visibility\":\"summary\",\"content\":{{\"task\":{task},\"actor\":\"implementer-1\"}}}}\n")
        };
        std::fs::write(state.join("timeline.jsonl"), line(1)).expect("write");
        assert!(!watch.due(t0 + Duration::from_millis(500)), "task 1 only");
        std::fs::write(state.join("timeline.jsonl"), line(1) + &line(2)).expect("write");
        let seen = t0 + Duration::from_millis(600);
        assert!(!watch.due(seen), "seen now, due 100 ms later");
        assert!(!watch.due(seen + Duration::from_millis(99)));
        assert!(watch.due(seen + Duration::from_millis(100)));
        assert_eq!(watch.describe(), "TASK_CLAIMED:2 + 100 ms");
        let timer = LeadCrash {
            after_event: None,
            after_ms: 50,
        };
        let mut watch = Watch::new(&timer, dir.path(), t0);
        assert!(!watch.due(t0 + Duration::from_millis(49)));
        assert!(watch.due(t0 + Duration::from_millis(50)));
    }
}
