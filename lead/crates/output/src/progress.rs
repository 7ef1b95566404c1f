//! The progress display of a running review (the outputs spec, terminal): on a terminal's standard error,
//! a header and one line per actor — its phase, its progress and for how long it has been busy —
//! rewritten in place from the actors' heartbeats, and erased before the report is printed.
//! Nothing at all when standard error is not a terminal.
//!
//! [`ProgressState`] and [`render`] are the pure part (heartbeats in, lines out); [`Display`] is the
//! shell: a thread that owns the state, redraws a few times a second and erases its lines when the
//! review ends. The hub hands heartbeats to a [`Reporter`], which never blocks it.

use protocol::message::{Phase, Progress};
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the display is redrawn at most (and at least, for the clock).
pub const REDRAW: Duration = Duration::from_millis(250);

/// Where the hub says an actor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// In the phase its heartbeat names.
    At(Phase),
    /// Its report or verdict just arrived: it shows as `done` even when no heartbeat ever caught
    /// it busy.
    Delivered,
}

/// What one heartbeat says about one actor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Update {
    /// The actor's logical name, prefixed `p{K}/` in consensus mode.
    pub actor: String,
    /// Where it is.
    pub stage: Stage,
    /// How far its work has got (`3 reports`).
    pub progress: Progress,
    /// When its current work started, ms since the epoch.
    pub busy_since_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Actor {
    name: String,
    phase: Phase,
    progress: Progress,
    busy_since_ms: Option<u64>,
    was_busy: bool,
}

/// What the display knows: each actor's last heartbeat, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProgressState {
    actors: Vec<Actor>,
}

impl ProgressState {
    /// Takes in one heartbeat.
    pub fn apply(&mut self, u: Update) {
        let (phase, busy) = match u.stage {
            Stage::At(Phase::Idle) => (Phase::Idle, false),
            Stage::At(phase) => (phase, true),
            Stage::Delivered => (Phase::Idle, true),
        };
        match self.actors.binary_search_by(|a| a.name.cmp(&u.actor)) {
            Ok(i) => {
                let a = &mut self.actors[i];
                a.was_busy |= busy;
                a.phase = phase;
                a.progress = u.progress;
                a.busy_since_ms = u.busy_since_ms;
            }
            Err(i) => self.actors.insert(
                i,
                Actor {
                    name: u.actor,
                    phase,
                    progress: u.progress,
                    busy_since_ms: u.busy_since_ms,
                    was_busy: busy,
                },
            ),
        }
    }
}

/// The lines to show at `now_ms` for a review started at `started_ms`, each at most `width`
/// characters: `retake review · {done}/{n} done · {s}s`, then per actor its name, its state
/// (`waiting` before its first work, `done` idle after it, else the phase), its progress and how
/// long it has been busy.
pub fn render(state: &ProgressState, started_ms: u64, now_ms: u64, width: usize) -> Vec<String> {
    let done = state
        .actors
        .iter()
        .filter(|a| a.was_busy && a.phase == Phase::Idle)
        .count();
    let mut lines = vec![format!(
        "retake review · {done}/{} done · {}s",
        state.actors.len(),
        now_ms.saturating_sub(started_ms) / 1000
    )];
    let name_width = state.actors.iter().map(|a| a.name.len()).max().unwrap_or(0);
    for a in &state.actors {
        let what = match (a.phase, a.was_busy) {
            (Phase::Idle, false) => "waiting",
            (Phase::Idle, true) => "done",
            (phase, _) => phase.as_str(),
        };
        let mut line = format!("  {:<name_width$}  {what:<8}", a.name);
        if a.phase != Phase::Idle {
            if !a.progress.is_empty() {
                line.push_str(&format!("  {}", a.progress));
            }
            if let Some(since) = a.busy_since_ms {
                line.push_str(&format!("  {}s", now_ms.saturating_sub(since) / 1000));
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
        .into_iter()
        .map(|l| l.chars().take(width).collect())
        .collect()
}

/// The bytes that erase `lines` lines drawn last (the cursor is left where the first one began).
pub fn erase(lines: usize) -> String {
    "\x1b[1A\x1b[2K".repeat(lines)
}

enum Msg {
    Update(Update),
    Stop,
}

/// Hands heartbeats to the display; cheap to clone, never blocks.
#[derive(Debug, Clone)]
pub struct Reporter {
    tx: Sender<Msg>,
    prefix: String,
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Msg::Update(_) => "Update",
            Msg::Stop => "Stop",
        })
    }
}

impl Reporter {
    /// One heartbeat of `actor` (its logical name), or its delivery ([`Stage::Delivered`]).
    pub fn heartbeat(
        &self,
        actor: &str,
        stage: Stage,
        progress: Progress,
        busy_since_ms: Option<u64>,
    ) {
        // The display may have stopped already: a late heartbeat has nowhere to go.
        let _gone = self.tx.send(Msg::Update(Update {
            actor: format!("{}{actor}", self.prefix),
            stage,
            progress,
            busy_since_ms,
        }));
    }
}

/// The running display; dropping it erases it.
#[derive(Debug)]
pub struct Display {
    tx: Sender<Msg>,
    thread: Option<JoinHandle<()>>,
}

impl Display {
    /// A display on standard error, or `None` when standard error is not a terminal.
    pub fn on_terminal() -> Option<Display> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse::<usize>().ok())
            .unwrap_or(80);
        // One column spare: a line filling the width would wrap on some terminals and the
        // erase would miss it.
        let width = width.saturating_sub(1).max(20);
        let (tx, rx) = channel();
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || draw_loop(&rx, width))
            .map_err(|e| tracing::warn!(error = %e, "no progress display"))
            .ok()?;
        Some(Display {
            tx,
            thread: Some(thread),
        })
    }

    /// A reporter for one pipeline (`Some(k)` prefixes its actors `p{k}/` in consensus mode).
    pub fn reporter(&self, pipeline: Option<u32>) -> Reporter {
        Reporter {
            tx: self.tx.clone(),
            prefix: pipeline.map(|k| format!("p{k}/")).unwrap_or_default(),
        }
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _gone = self.tx.send(Msg::Stop);
        if let Some(thread) = self.thread.take() {
            let _joined = thread.join();
        }
    }
}

fn draw_loop(rx: &Receiver<Msg>, width: usize) {
    let started = protocol::message::now_ms();
    let mut state = ProgressState::default();
    let mut drawn = 0usize;
    let mut last = Instant::now();
    let mut stderr = std::io::stderr();
    loop {
        // Heartbeats may stream in without a pause (many pipelines): the clock, not silence,
        // decides when to draw.
        match rx.recv_timeout(REDRAW.saturating_sub(last.elapsed())) {
            Ok(Msg::Update(u)) => state.apply(u),
            Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {}
        }
        if last.elapsed() < REDRAW || state == ProgressState::default() {
            continue;
        }
        last = Instant::now();
        let lines = render(&state, started, protocol::message::now_ms(), width);
        let mut out = erase(drawn);
        for l in &lines {
            out.push_str(l);
            out.push('\n');
        }
        drawn = lines.len();
        let _shown = stderr
            .write_all(out.as_bytes())
            .and_then(|()| stderr.flush());
    }
    let _erased = stderr
        .write_all(erase(drawn).as_bytes())
        .and_then(|()| stderr.flush());
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::message::{Count, Unit};

    fn beat(actor: &str, phase: Phase, progress: Progress, since: Option<u64>) -> Update {
        Update {
            actor: actor.into(),
            stage: Stage::At(phase),
            progress,
            busy_since_ms: since,
        }
    }

    fn about(text: &str) -> Progress {
        Progress::about(text)
    }

    fn counted(n: u64, unit: Unit) -> Progress {
        Progress::counted(Count::tally(n, unit))
    }

    fn none() -> Progress {
        Progress::default()
    }

    #[test]
    fn each_actor_shows_its_phase_progress_and_busy_time() {
        let mut state = ProgressState::default();
        state.apply(beat(
            "inspector-quality",
            Phase::Inspect,
            about("repository"),
            Some(1_000),
        ));
        state.apply(beat(
            "auditor",
            Phase::Collect,
            counted(2, Unit::Reports),
            Some(3_000),
        ));
        state.apply(beat("inspector-test", Phase::Idle, none(), None));
        assert_eq!(
            render(&state, 0, 12_500, 80),
            vec![
                "retake review · 0/3 done · 12s",
                "  auditor            collect   2 reports  9s",
                "  inspector-quality  inspect   repository  11s",
                "  inspector-test     waiting",
            ]
        );
    }

    #[test]
    fn counted_progress_shows_after_what_the_work_is_on() {
        let mut state = ProgressState::default();
        let steps = about("module:**").with_count(Some(Count::of(120, 300, Unit::Steps)));
        state.apply(beat("inspector-quality", Phase::Inspect, steps, Some(0)));
        assert_eq!(
            render(&state, 0, 4_000, 80),
            vec![
                "retake review · 0/1 done · 4s",
                "  inspector-quality  inspect   module:** 120/300  4s",
            ]
        );
    }

    #[test]
    fn idle_after_work_is_done_and_counts() {
        let mut state = ProgressState::default();
        state.apply(beat(
            "inspector-quality",
            Phase::Inspect,
            about("repository"),
            Some(0),
        ));
        state.apply(beat(
            "inspector-quality",
            Phase::Report,
            counted(4, Unit::Findings),
            Some(0),
        ));
        state.apply(beat("inspector-quality", Phase::Idle, none(), None));
        state.apply(beat("auditor", Phase::Idle, none(), None));
        // A report that arrives before any heartbeat caught its Inspector busy is still done.
        state.apply(Update {
            stage: Stage::Delivered,
            ..beat("inspector-test", Phase::Idle, none(), None)
        });
        state.apply(beat("inspector-test", Phase::Idle, none(), None));
        assert_eq!(
            render(&state, 0, 2_000, 80),
            vec![
                "retake review · 2/3 done · 2s",
                "  auditor            waiting",
                "  inspector-quality  done",
                "  inspector-test     done",
            ]
        );
    }

    #[test]
    fn lines_are_cut_to_the_width() {
        let mut state = ProgressState::default();
        state.apply(beat("a", Phase::Inspect, about(&"x".repeat(100)), None));
        let lines = render(&state, 0, 0, 20);
        assert_eq!(lines, vec!["retake review · 0/1 ", "  a  inspect   xxxxx"]);
        assert!(
            render(&ProgressState::default(), 0, 0, 80) == vec!["retake review · 0/0 done · 0s"]
        );
    }

    #[test]
    fn erasing_moves_up_and_clears_each_line() {
        assert_eq!(erase(2), "\x1b[1A\x1b[2K\x1b[1A\x1b[2K");
        assert_eq!(erase(0), "");
    }

    #[test]
    fn a_reporter_prefixes_its_pipeline() {
        let (tx, rx) = channel();
        let reporter = Reporter {
            tx,
            prefix: "p2/".into(),
        };
        let six = counted(6, Unit::Reports);
        reporter.heartbeat(
            "auditor-impl-2",
            Stage::At(Phase::Audit),
            six.clone(),
            Some(5),
        );
        match rx.try_recv() {
            Ok(Msg::Update(u)) => {
                assert_eq!(u, beat("p2/auditor-impl-2", Phase::Audit, six, Some(5)))
            }
            other => panic!("expected an update, got {other:?}"),
        }
    }
}
