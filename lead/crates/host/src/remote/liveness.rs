//! Keeping the pool honest about its workers: an idle worker and the Lead exchange heartbeats —
//! the Lead sends one to every idle worker each interval, and drops an idle worker it has not
//! heard from for [`SILENT_AFTER`] intervals (paused, cut off the network, hung), closing its
//! connection. Without this a stale worker counted as idle and ready until a job claimed it.
//!
//! The counts the service shows come from here too: per role and kind, the live connections
//! (idle or working) and the workers lost while idle.

use super::pool::{lock, WorkerPool};
use protocol::message::{Envelope, LEAD};
use protocol::Body;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Intervals of silence after which an idle worker is dropped (a worker gives up on a silent
/// Lead after as many).
pub use protocol::session::process::SILENT_AFTER;

/// When the Lead last heard from one worker connection.
#[derive(Debug, Clone)]
pub(super) struct Heard(Arc<Mutex<Instant>>);

impl Heard {
    /// Heard just now.
    pub(super) fn now() -> Heard {
        Heard(Arc::new(Mutex::new(Instant::now())))
    }

    /// Something arrived.
    pub(super) fn touch(&self) {
        *lock(&self.0) = Instant::now();
    }

    /// How long since something arrived.
    pub(super) fn silence(&self) -> Duration {
        lock(&self.0).elapsed()
    }
}

/// Live connections and losses by `role/kind`.
#[derive(Debug, Default)]
pub(super) struct Census {
    live: Mutex<BTreeMap<String, usize>>,
    lost: Mutex<BTreeMap<String, u64>>,
}

/// One live connection, counted for as long as it is held (its reading task holds it, so an
/// aborted task uncounts it too).
pub(super) struct LiveGuard {
    census: Arc<Census>,
    key: String,
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        if let Some(n) = lock(&self.census.live).get_mut(&self.key) {
            *n = n.saturating_sub(1);
        }
    }
}

impl Census {
    /// Counts a connection of `role`/`kind` while the guard lives.
    pub(super) fn live(self: &Arc<Self>, role: &str, kind: &str) -> LiveGuard {
        let key = format!("{role}/{kind}");
        *lock(&self.live).entry(key.clone()).or_insert(0) += 1;
        LiveGuard {
            census: Arc::clone(self),
            key,
        }
    }

    /// Counts an idle worker of `role`/`kind` lost.
    pub(super) fn lose(&self, role: &str, kind: &str) {
        *lock(&self.lost)
            .entry(format!("{role}/{kind}"))
            .or_insert(0) += 1;
    }

    fn live_of(&self, key: &str) -> usize {
        lock(&self.live).get(key).copied().unwrap_or(0)
    }

    fn lost_of(&self, key: &str) -> u64 {
        lock(&self.lost).get(key).copied().unwrap_or(0)
    }
}

/// What the pool holds of one role and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCount {
    /// `inspector` or `auditor`.
    pub role: String,
    /// The Inspector kind; empty for the Auditor.
    pub kind: String,
    /// Waiting for a job.
    pub idle: usize,
    /// Claimed by a review.
    pub busy: usize,
    /// Dropped while idle since the pool started (silent, or disconnected).
    pub lost: u64,
}

impl WorkerPool {
    /// The counts of every `(role, kind)` in `kinds`, zeros included.
    pub fn worker_counts(&self, kinds: &[(&str, &str)]) -> Vec<WorkerCount> {
        let idle = self.idle_counts();
        kinds
            .iter()
            .map(|(role, kind)| {
                let key = format!("{role}/{kind}");
                let idle = idle.get(&key).copied().unwrap_or(0);
                WorkerCount {
                    role: role.to_string(),
                    kind: kind.to_string(),
                    idle,
                    busy: self.census().live_of(&key).saturating_sub(idle),
                    lost: self.census().lost_of(&key),
                }
            })
            .collect()
    }

    /// One round of upkeep: drops the idle workers silent for longer than `limit`, and sends
    /// the others the Lead's heartbeat. Returns how many were dropped.
    pub(super) fn tend(&self, limit: Duration) -> usize {
        let silent = self.drop_idle_where(|w| w.heard.silence() > limit);
        for worker in &silent {
            tracing::warn!(
                name = worker.name,
                role = worker.role,
                kind = worker.kind,
                silent_ms = u64::try_from(worker.heard.silence().as_millis()).unwrap_or(u64::MAX),
                "an idle worker went silent: dropped from the pool"
            );
            self.census().lose(&worker.role, &worker.kind);
        }
        self.each_idle(|w| {
            let beat = Body::Heartbeat {
                phase: protocol::message::Phase::Idle,
                progress: protocol::message::Progress::default(),
                busy_since_ms: None,
            };
            // A full queue or a closed connection: the silence check decides, not this send.
            let _queued = w.outbox.try_send(Envelope::new(LEAD, &w.name, beat));
        });
        silent.len()
    }
}

/// Tends `pool` every heartbeat interval, for the life of the process.
pub(super) async fn tend_forever(pool: Arc<WorkerPool>) {
    loop {
        let every = pool.heartbeat();
        tokio::time::sleep(every).await;
        pool.tend(every * SILENT_AFTER);
    }
}
