//! The actor side of a connection to the Lead, shared by every actor role: handshake, a
//! dedicated heartbeat task, the receive loop that hands messages to the actor, and the hooks
//! where injected faults strike (`inject`).
//!
//! Heartbeats run as their own task and read the actor's published [`Status`], so an actor
//! whose mailbox is busy (its work runs on a blocking thread) keeps heartbeating; an actor that
//! hangs its whole runtime stops heartbeating, which is exactly what the Lead must notice.
//!
//! The session counts what it sends and receives in [`Metrics`]; `process/` is the shell that
//! every actor binary shares (arguments, connecting, worker mode, logs, the health endpoint).

mod inject;
mod metrics;
pub mod process;
mod status;

pub use metrics::{AgentUsage, Metrics, METRICS_CONTENT_TYPE};
pub use status::Status;

use crate::chaos::{ActorFaults, Fault};
use crate::message::{now_ms, Body, Envelope, LEAD};
use crate::wire::{client_handshake_kind, LinkReader, Outbox, Secret, WireConfig, WireError};
use inject::{Injector, Stop, Strike};
use metrics::Tally;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How long a `drop-after` close may take to flush what was queued before it.
const DROP_FLUSH: Duration = Duration::from_secs(5);

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
    /// The health endpoint could not listen (`--health-listen`).
    #[error("cannot serve health and metrics on {addr}: {reason} (check --health-listen / RETAKE_HEALTH_LISTEN)")]
    Health {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why binding failed.
        reason: String,
    },
    /// A worker could not install its SIGTERM/SIGINT handler.
    #[error("cannot handle termination signals: {0}")]
    Signals(std::io::Error),
    /// The wire failed (handshake refused, bad frame, connection lost).
    #[error(transparent)]
    Wire(#[from] WireError),
    /// An injected fault ended the actor: an in-process crash, exit code or hang, or a
    /// `drop-after` close (a process aborts, exits or blocks instead of returning).
    #[error("injected fault {fault} stopped the actor (fault injection is enabled)")]
    Injected {
        /// The fault.
        fault: Fault,
    },
    /// A worker waiting for work heard nothing from the Lead for this long (the Lead or the
    /// network between them is gone, though the connection was never closed).
    #[error("the Lead sent nothing for {} ms while this worker waited for work", .0.as_millis())]
    LeadSilent(Duration),
}

/// Who an actor is and how its connection behaves.
#[derive(Debug, Clone)]
pub struct ActorSetup {
    /// The role it authenticates as (`inspector`, `auditor`, `implementer`).
    pub role: String,
    /// Its kind within the role (`quality`), empty when the role has none.
    pub kind: String,
    /// Its instance name (`inspector-quality`, or `inspector-quality-r1` for a re-spawn).
    pub name: String,
    /// Wire limits and deadlines.
    pub wire: WireConfig,
    /// How often it heartbeats.
    pub heartbeat: Duration,
    /// The faults it applies (none unless the Lead enabled fault injection).
    pub faults: ActorFaults,
    /// Where the session counts what it does (shared with the health endpoint).
    pub metrics: Arc<Metrics>,
    /// Cancelled to end the session from outside (a worker's SIGTERM): the actor says
    /// `Goodbye`, flushes, and [`run_actor`] returns `Ok`.
    pub stop: CancellationToken,
    /// A worker's limit on the Lead's silence while it waits for work (the Lead heartbeats idle
    /// workers): past it the session ends with [`ActorError::LeadSilent`]. `None` (an actor
    /// the Lead started) waits as long as the connection lasts. Once work arrived the Lead's
    /// supervision, not this, decides.
    pub lead_silence: Option<Duration>,
}

impl ActorSetup {
    /// A setup with fresh metrics and a stop nobody cancels (in-process actors, tests).
    pub fn new(
        role: &str,
        kind: &str,
        name: &str,
        wire: WireConfig,
        heartbeat: Duration,
        faults: ActorFaults,
    ) -> ActorSetup {
        let metrics = Arc::new(Metrics::new(role, kind, name, faults.spawn_no));
        ActorSetup {
            role: role.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
            wire,
            heartbeat,
            faults,
            metrics,
            stop: CancellationToken::new(),
            lead_silence: None,
        }
    }
}

/// A connected, authenticated actor: where to send, and its published status.
#[derive(Debug, Clone)]
pub struct Session {
    /// The actor's name.
    pub name: String,
    /// Sends envelopes to the Lead (which routes them on), bypassing injected faults: actors
    /// use [`Session::send`].
    pub outbox: Outbox,
    /// The actor's status, read by the heartbeat task.
    pub status: Status,
    injector: Arc<Injector>,
    metrics: Arc<Metrics>,
}

impl Session {
    /// Counts what an agent backend cost in a piece of work (`/metrics`).
    pub fn on_agent(&self, usage: AgentUsage) {
        self.metrics.on_agent(usage);
    }

    /// Sends `body` to `to` (through the Lead); errors only when the connection is gone.
    ///
    /// Injected faults act here: a report or verdict may be swallowed (`stall-output`), delayed
    /// (`delay`) or replaced by a garbage frame (`garbage-frame`); every envelope counts for
    /// `drop-after`; after a hang this never completes.
    pub async fn send(&self, to: &str, body: Body) -> Result<(), WireError> {
        let output = inject::is_output(&body).then(|| Tally::of(&body));
        let env = Envelope::new(self.name.clone(), to, body);
        if !self.injector.send(&self.outbox, env).await? {
            return Ok(());
        }
        self.metrics.on_sent();
        if let Some(tally) = output {
            let since = self.status.busy_since_ms().unwrap_or_else(now_ms);
            self.metrics
                .on_output(&tally, now_ms().saturating_sub(since));
        }
        Ok(())
    }
}

/// Connects an actor: handshake as `setup.role`/`setup.kind`/`setup.name`, heartbeat every
/// `setup.heartbeat`, then call `on_message` for every envelope until the Lead says `Shutdown`
/// (answered with `ShutdownAck`), the connection ends, or `setup.stop` is cancelled (answered
/// with `Goodbye`). `on_start` receives the session once it is authenticated. Injected faults
/// strike before the handshake, in [`Status::set`] and in [`Session::send`]; one that stops the
/// actor in-process returns [`ActorError::Injected`].
pub async fn run_actor<S, F, M>(
    stream: S,
    secret: &Secret,
    setup: ActorSetup,
    on_start: F,
) -> Result<(), ActorError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    F: FnOnce(Session) -> M,
    M: FnMut(Envelope),
{
    let injector = Arc::new(Injector::new(setup.faults));
    if let Some(strike) = injector.handshake_strike() {
        return before_handshake(&injector, strike, stream).await;
    }
    let handshake = client_handshake_kind(
        stream,
        secret,
        &setup.role,
        &setup.kind,
        &setup.name,
        &setup.wire,
    );
    let (mut reader, writer): (LinkReader, _) = tokio::select! {
        biased;
        () = setup.stop.cancelled() => return Ok(()),
        done = handshake => done?,
    };
    let metrics = setup.metrics.clone();
    let _up = metrics.session_started();
    let (outbox, writer_task) = Outbox::spawn(writer);
    let session = Session {
        name: setup.name.clone(),
        outbox,
        status: Status::new(injector.clone()),
        injector: injector.clone(),
        metrics: metrics.clone(),
    };
    let mut stopped = injector.subscribe();
    let beat = tokio::spawn(heartbeats(session.clone(), setup.heartbeat));
    let mut on_message = on_start(session.clone());
    // Until work arrives, the Lead must be heard from within `lead_silence`.
    let mut waiting = setup.lead_silence;
    let stop = loop {
        let early = async {
            // Copied out at once: the watch guard must not live across an await.
            stopped
                .wait_for(Option::is_some)
                .await
                .ok()
                .and_then(|s| *s)
        };
        tokio::select! {
            biased;
            Some(stop) = early => break stop,
            () = setup.stop.cancelled() => {
                beat.abort();
                finish(&session, Body::Goodbye, writer_task, DROP_FLUSH).await;
                return Ok(());
            }
            got = recv_within(&mut reader, waiting) => {
                let env = match got {
                    Ok(Some(env)) => env,
                    Ok(None) => {
                        beat.abort();
                        return Ok(());
                    }
                    Err(e) => {
                        beat.abort();
                        return Err(e);
                    }
                };
                metrics.on_received();
                match env.body {
                    // The Lead's heartbeat to an idle worker: it is there.
                    Body::Heartbeat { .. } => {}
                    Body::Shutdown { grace_ms } => {
                        beat.abort();
                        let grace = Duration::from_millis(grace_ms).min(DROP_FLUSH);
                        finish(&session, Body::ShutdownAck, writer_task, grace).await;
                        return Ok(());
                    }
                    Body::Goodbye => {
                        beat.abort();
                        return Ok(());
                    }
                    _ => {
                        waiting = None;
                        on_message(env);
                    }
                }
            }
        }
    };
    beat.abort();
    let fault = match stop {
        Stop::Crash(fault) => {
            // A crash sends nothing more: queued frames die with the writer.
            writer_task.abort();
            fault
        }
        Stop::Hang(fault) => {
            // Silent but connected, ignoring everything, until the Lead gives up on it.
            while let Ok(Some(_ignored)) = reader.recv().await {}
            writer_task.abort();
            fault
        }
        Stop::Dropped(fault) => {
            // The writer is closing behind the last counted envelope; let it finish.
            let _flushed = tokio::time::timeout(DROP_FLUSH, writer_task).await;
            fault
        }
    };
    Err(ActorError::Injected { fault })
}

/// The next envelope, within `limit` when there is one ([`ActorError::LeadSilent`] past it).
async fn recv_within(
    reader: &mut LinkReader,
    limit: Option<Duration>,
) -> Result<Option<Envelope>, ActorError> {
    match limit {
        None => Ok(reader.recv().await?),
        Some(limit) => match tokio::time::timeout(limit, reader.recv()).await {
            Ok(got) => Ok(got?),
            Err(_) => Err(ActorError::LeadSilent(limit)),
        },
    }
}

/// A fault before the handshake: in its own process this aborts or blocks for good; in-process
/// a crash closes the stream unanswered, and a hang keeps it open, silent, until the Lead drops it.
async fn before_handshake<S>(
    injector: &Injector,
    strike: Strike,
    mut stream: S,
) -> Result<(), ActorError>
where
    S: AsyncRead + Unpin,
{
    injector.strike(strike);
    if let Strike::Hang(_) = strike {
        let mut sink = [0u8; 1024];
        while let Ok(n @ 1..) = stream.read(&mut sink).await {
            tracing::trace!(bytes = n, "hung before the handshake: ignored");
        }
    }
    drop(stream);
    Err(ActorError::Injected {
        fault: strike.fault(),
    })
}

/// Ends a session with a `last` word (`ShutdownAck`, `Goodbye`), then closes once everything
/// queued is sent, waiting up to `within` for the writer: the Lead hears it even when the
/// process exits right after.
async fn finish(
    session: &Session,
    last: Body,
    writer_task: JoinHandle<Result<(), WireError>>,
    within: Duration,
) {
    let _gone = session.send(LEAD, last).await;
    let _closed = session.outbox.close().await;
    let _flushed = tokio::time::timeout(within, writer_task).await;
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
        session.metrics.on_heartbeat();
    }
}

#[cfg(test)]
mod tests;
