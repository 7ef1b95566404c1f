//! The actor side of a connection to the Lead, shared by every actor role: handshake, a
//! dedicated heartbeat task, and the receive loop that hands messages to the actor.
//!
//! Heartbeats run as their own task and read the actor's published [`Status`], so an actor
//! whose mailbox is busy (its work runs on a blocking thread) keeps heartbeating; an actor that
//! hangs its whole runtime stops heartbeating, which is exactly what the Lead must notice.

use crate::message::{Body, Envelope, LEAD};
use crate::wire::{client_handshake, LinkReader, Outbox, Secret, WireConfig, WireError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// Why an actor process stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ActorError {
    /// The Lead's address could not be reached.
    #[error("cannot reach the Lead at {addr}: {source}")]
    Connect {
        /// The address tried.
        addr: String,
        /// The connection error.
        source: std::io::Error,
    },
    /// The wire failed (handshake refused, bad frame, connection lost).
    #[error(transparent)]
    Wire(#[from] WireError),
}

/// What an actor publishes about itself for its heartbeats.
#[derive(Debug, Clone, Default)]
pub struct Status {
    inner: Arc<Mutex<StatusInner>>,
}

#[derive(Debug, Clone, Default)]
struct StatusInner {
    phase: String,
    progress: String,
    busy_since_ms: Option<u64>,
}

impl Status {
    /// Publishes the current phase (`idle`, `inspect`, `audit`, …) and progress text; a phase
    /// other than `idle` marks the actor busy since now (unless it already was).
    pub fn set(&self, phase: &str, progress: &str) {
        let mut s = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        s.busy_since_ms = match (phase, s.busy_since_ms) {
            ("idle", _) => None,
            (_, Some(since)) => Some(since),
            (_, None) => Some(crate::message::now_ms()),
        };
        s.phase = phase.to_string();
        s.progress = progress.to_string();
    }

    fn heartbeat(&self) -> Body {
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

/// A connected, authenticated actor: where to send, and its published status.
#[derive(Debug, Clone)]
pub struct Session {
    /// The actor's name.
    pub name: String,
    /// Sends envelopes to the Lead (which routes them on).
    pub outbox: Outbox,
    /// The actor's status, read by the heartbeat task.
    pub status: Status,
}

impl Session {
    /// Sends `body` to `to` (through the Lead); errors only when the connection is gone.
    pub async fn send(&self, to: &str, body: Body) -> Result<(), WireError> {
        self.outbox
            .send(Envelope::new(self.name.clone(), to, body))
            .await
    }
}

/// Connects an actor: handshake as `role`/`name`, start heartbeats every `heartbeat`, then call
/// `on_message` for every envelope until the Lead says `Shutdown` (answered with `ShutdownAck`)
/// or the connection ends. `on_start` receives the session once it is authenticated.
pub async fn run_actor<S, F, M>(
    stream: S,
    secret: &Secret,
    role: &str,
    name: &str,
    wire: &WireConfig,
    heartbeat: Duration,
    on_start: F,
) -> Result<(), WireError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    F: FnOnce(Session) -> M,
    M: FnMut(Envelope),
{
    let (mut reader, writer): (LinkReader, _) =
        client_handshake(stream, secret, role, name, wire).await?;
    let (outbox, _writer_task) = Outbox::spawn(writer);
    let session = Session {
        name: name.to_string(),
        outbox: outbox.clone(),
        status: Status::default(),
    };
    let beat = tokio::spawn(heartbeats(session.clone(), heartbeat));
    let mut on_message = on_start(session.clone());
    let result = loop {
        match reader.recv().await {
            Ok(Some(env)) => match env.body {
                Body::Shutdown { .. } => {
                    let _sent = session.send(LEAD, Body::ShutdownAck).await;
                    break Ok(());
                }
                Body::Goodbye => break Ok(()),
                _ => on_message(env),
            },
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    beat.abort();
    result
}

async fn heartbeats(session: Session, every: Duration) {
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        if session
            .send(LEAD, session.status.heartbeat())
            .await
            .is_err()
        {
            return;
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
