//! Worker mode, for the remote runtime: the actor connects to a Lead that did not start it,
//! waits for work, and after each session (one job) connects again, until SIGTERM.
//!
//! A worker announces its role, its kind and a name unique to the process (`NAME@HOST-PID`), so
//! several replicas of one kind can serve the same Lead. While the Lead is unreachable it
//! retries with a bounded, jittered backoff; a refusal (`Reject`: wrong secret, other major
//! version) is final, so the orchestrator's restart policy and logs show it.

use super::connect;
use crate::message::Envelope;
use crate::session::{run_actor, ActorError, ActorSetup, Session};
use crate::wire::{Secret, WireError};
use rand::Rng;
use std::time::Duration;

/// Heartbeat intervals of the Lead's silence after which a worker waiting for work drops the
/// connection and connects again (the Lead drops a silent idle worker after as many).
pub const SILENT_AFTER: u32 = 3;

/// How long a worker waits between attempts to reach the Lead: doubling from `first` up to
/// `max`, each wait jittered into its upper half so that many workers do not return to a
/// restarted Lead in step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Backoff {
    pub(super) first: Duration,
    pub(super) max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            first: Duration::from_millis(250),
            max: Duration::from_secs(10),
        }
    }
}

impl Backoff {
    /// The delay after `current` failed again.
    fn next(&self, current: Duration) -> Duration {
        current.saturating_mul(2).min(self.max)
    }

    /// `delay` jittered: somewhere in `[delay/2, delay]`.
    fn jittered(delay: Duration) -> Duration {
        let half = delay / 2;
        half + half.mul_f64(rand::thread_rng().gen_range(0.0..=1.0))
    }
}

/// The name a worker announces: `name@HOST-PID`, unique per process.
pub(super) fn worker_name(name: &str) -> String {
    format!("{name}@{}-{}", hostname(), std::process::id())
}

/// `HOSTNAME` (set by Docker and Kubernetes to the container or pod name), else the kernel's.
fn hostname() -> String {
    if let Some(host) = std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()) {
        return host;
    }
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into a buffer this frame owns.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match String::from_utf8_lossy(&buf[..end]) {
        host if rc == 0 && !host.is_empty() => host.into_owned(),
        _ => "unknown-host".into(),
    }
}

/// Serves `setup` as a worker of the Lead at `lead` until `setup.stop` is cancelled (then
/// `Ok`), or a refusal or an injected fault ends it (then that error).
pub(super) async fn run<F, M>(
    lead: &str,
    secret: &Secret,
    setup: ActorSetup,
    backoff: Backoff,
    mut on_start: F,
) -> Result<(), ActorError>
where
    F: FnMut(Session) -> M,
    M: FnMut(Envelope),
{
    let stop = setup.stop.clone();
    let mut delay = backoff.first;
    loop {
        let connected = tokio::select! {
            biased;
            () = stop.cancelled() => return Ok(()),
            connected = connect(lead) => connected,
        };
        let problem = match connected {
            Err(e) => Some(e),
            Ok(stream) => {
                let before = setup.metrics.sessions();
                let ended = run_actor(stream, secret, setup.clone(), &mut on_start).await;
                if stop.is_cancelled() {
                    return Ok(());
                }
                if setup.metrics.sessions() > before {
                    // A session was established: the Lead is back, start the backoff over.
                    delay = backoff.first;
                }
                match ended {
                    Ok(()) => None,
                    Err(e) if is_final(&e) => return Err(e),
                    Err(e) => Some(e),
                }
            }
        };
        let wait = Backoff::jittered(delay);
        match problem {
            None => {
                tracing::info!(retry_in = ?wait, "session ended: connecting again for the next job")
            }
            Some(e) => tracing::warn!(error = %e, retry_in = ?wait, "no session with the Lead"),
        }
        tokio::select! {
            biased;
            () = stop.cancelled() => return Ok(()),
            () = tokio::time::sleep(wait) => {}
        }
        delay = backoff.next(delay);
    }
}

/// Whether retrying cannot help: the Lead refused this worker, or an injected fault ended it.
fn is_final(e: &ActorError) -> bool {
    matches!(
        e,
        ActorError::Wire(WireError::Rejected(_) | WireError::VersionMismatch { .. })
            | ActorError::Injected { .. }
    )
}

#[cfg(test)]
mod tests;
