//! What an actor publishes about itself: the heartbeat task reads it, and entering a phase is
//! where injected `crash-at`, `hang-at` and `exit-code` faults strike.

use super::inject::Injector;
use crate::chaos::ActorFaults;
use crate::message::Body;
use std::sync::{Arc, Mutex, PoisonError};

/// What an actor publishes about itself for its heartbeats.
#[derive(Debug, Clone)]
pub struct Status {
    inner: Arc<Mutex<StatusInner>>,
    injector: Arc<Injector>,
}

#[derive(Debug, Clone, Default)]
struct StatusInner {
    phase: String,
    progress: String,
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

    /// Publishes the current phase (`idle`, `inspect`, `audit`, …; the names of
    /// [`crate::chaos::Phase`]) and progress text; a phase other than `idle` marks the actor
    /// busy since now (unless it already was).
    ///
    /// An injected fault for this phase strikes first: in its own process the actor aborts,
    /// exits or blocks this thread forever here; in-process the session closes or falls silent.
    pub fn set(&self, phase: &str, progress: &str) {
        self.injector.on_phase(phase);
        let mut s = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        s.busy_since_ms = match (phase, s.busy_since_ms) {
            ("idle", _) => None,
            (_, Some(since)) => Some(since),
            (_, None) => Some(crate::message::now_ms()),
        };
        s.phase = phase.to_string();
        s.progress = progress.to_string();
    }

    /// Updates the progress text within the current phase (no phase is entered, so no injected
    /// fault strikes).
    pub fn progress(&self, progress: &str) {
        let mut s = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        s.progress = progress.to_string();
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
            phase: if s.phase.is_empty() {
                "idle".into()
            } else {
                s.phase.clone()
            },
            progress: s.progress.clone(),
            busy_since_ms: s.busy_since_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_tracks_busy_since_until_idle() {
        let status = Status::default();
        status.set("inspect", "3/10");
        let Body::Heartbeat {
            phase,
            progress,
            busy_since_ms,
        } = status.heartbeat()
        else {
            panic!("not a heartbeat")
        };
        assert_eq!((phase.as_str(), progress.as_str()), ("inspect", "3/10"));
        let since = busy_since_ms.expect("busy");
        status.progress("7/10");
        assert!(matches!(
            status.heartbeat(),
            Body::Heartbeat { phase, progress, busy_since_ms: Some(s) }
                if phase == "inspect" && progress == "7/10" && s == since
        ));
        status.set("report", "");
        assert!(
            matches!(status.heartbeat(), Body::Heartbeat { busy_since_ms: Some(s), .. } if s == since)
        );
        status.set("idle", "");
        assert!(matches!(
            status.heartbeat(),
            Body::Heartbeat {
                busy_since_ms: None,
                ..
            }
        ));
    }
}
