//! What an actor publishes about itself: the heartbeat task reads it, and entering a phase is
//! where injected `crash-at`, `hang-at` and `exit-code` faults strike.

use super::inject::Injector;
use crate::chaos::ActorFaults;
use crate::message::{Body, Phase, Progress};
use std::sync::{Arc, Mutex, PoisonError};

/// What an actor publishes about itself for its heartbeats.
#[derive(Debug, Clone)]
pub struct Status {
    inner: Arc<Mutex<StatusInner>>,
    injector: Arc<Injector>,
}

#[derive(Debug, Clone, Default)]
struct StatusInner {
    phase: Phase,
    progress: Progress,
    busy_since_ms: Option<u64>,
}

impl Default for Status {
    fn default() -> Self {
        Status::new(Arc::new(Injector::new(ActorFaults::default())))
    }
}

impl Status {
    pub(super) fn new(injector: Arc<Injector>) -> Status {
        Status {
            inner: Arc::default(),
            injector,
        }
    }

    /// Publishes the current phase and progress; a phase other than [`Phase::Idle`] marks the
    /// actor busy since now (unless it already was).
    ///
    /// An injected fault for this phase strikes first: in its own process the actor aborts,
    /// exits or blocks this thread forever here; in-process the session closes or falls silent.
    pub fn set(&self, phase: Phase, progress: Progress) {
        self.injector.on_phase(phase);
        let mut s = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        s.busy_since_ms = match (phase, s.busy_since_ms) {
            (Phase::Idle, _) => None,
            (_, Some(since)) => Some(since),
            (_, None) => Some(crate::message::now_ms()),
        };
        s.phase = phase;
        s.progress = progress;
    }

    /// Whether an injected fault has stopped this actor. In its own process a struck actor never
    /// gets here; in-process its session is closed or silent but its code runs on, so work with
    /// effects beyond the session (an Implementer's executor writing files) checks this after
    /// entering its phase and does nothing — as a crashed process would not.
    pub fn stopped(&self) -> bool {
        self.injector.struck()
    }

    /// Updates the progress within the current phase (no phase is entered, so no injected
    /// fault strikes).
    pub fn progress(&self, progress: Progress) {
        let mut s = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        s.progress = progress;
    }

    /// Since when the actor has been busy (ms since the epoch), `None` while idle.
    pub(super) fn busy_since_ms(&self) -> Option<u64> {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .busy_since_ms
    }

    pub(super) fn heartbeat(&self) -> Body {
        let s = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        Body::Heartbeat {
            phase: s.phase,
            progress: s.progress.clone(),
            busy_since_ms: s.busy_since_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Count, Unit};

    fn steps(done: u64) -> Progress {
        Progress::about("module:**").with_count(Some(Count::of(done, 10, Unit::Steps)))
    }

    #[test]
    fn status_tracks_busy_since_until_idle() {
        let status = Status::default();
        assert!(matches!(
            status.heartbeat(),
            Body::Heartbeat { phase: Phase::Idle, ref progress, busy_since_ms: None }
                if progress.is_empty()
        ));
        status.set(Phase::Inspect, steps(3));
        let Body::Heartbeat {
            phase,
            progress,
            busy_since_ms,
        } = status.heartbeat()
        else {
            panic!("not a heartbeat")
        };
        assert_eq!(
            (phase, progress.to_string().as_str()),
            (Phase::Inspect, "module:** 3/10")
        );
        let since = busy_since_ms.expect("busy");
        status.progress(steps(7));
        assert!(matches!(
            status.heartbeat(),
            Body::Heartbeat { phase: Phase::Inspect, progress, busy_since_ms: Some(s) }
                if progress == steps(7) && s == since
        ));
        status.set(Phase::Report, Progress::default());
        assert!(
            matches!(status.heartbeat(), Body::Heartbeat { busy_since_ms: Some(s), .. } if s == since)
        );
        status.set(Phase::Idle, Progress::default());
        assert!(matches!(
            status.heartbeat(),
            Body::Heartbeat {
                phase: Phase::Idle,
                busy_since_ms: None,
                ..
            }
        ));
    }
}
