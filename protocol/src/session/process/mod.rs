//! The actor-process shell every role shares: the common arguments, connecting to the Lead
//! over TCP (once, as the local runtime's child, or again and again as a worker), the health
//! endpoint, the probe, logging and the binaries' `main`. Each role supplies only how to start
//! its actor for a session.
//!
//! This is the one place in `protocol` that opens sockets: everything below `session` and
//! `wire` still runs on streams handed to it.

mod args;
mod binary;
mod health;
mod logging;
mod probe;
mod secret;
mod worker;

pub use args::{ProcessArgs, HEALTH_LISTEN_ENV};
pub use binary::actor_main;
pub use health::HealthServer;
pub use logging::{init_logging, LogFormat};
pub use probe::{fetch, healthz_url, probe, HealthCheckArgs, ProbeError};
pub use secret::{take_secret, SECRET_STDIN_ENV};
pub use worker::SILENT_AFTER;

use super::{run_actor, ActorError, ActorSetup, Session};
use crate::message::Envelope;
use crate::wire::Secret;
use tokio::net::TcpStream;

/// Who an actor process is: what its handshake announces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The role (`inspector`, `auditor`, `implementer`).
    pub role: String,
    /// The kind within the role (`quality`), empty when the role has none.
    pub kind: String,
    /// The actor name (`inspector-quality`); a worker appends `@HOST-PID` to it.
    pub name: String,
}

/// Runs an actor process as `args` ask: serves the health endpoint if asked, connects to the
/// Lead and serves sessions, calling `on_start` for each (it starts the role's actor and
/// returns where incoming envelopes go). Without `--worker` it serves one session and returns,
/// as the local runtime's children always did; with it, see the `worker` module. Call it
/// inside the role's actix `System`.
pub async fn serve<F, M>(
    args: ProcessArgs,
    who: Identity,
    secret: Secret,
    on_start: F,
) -> Result<(), ActorError>
where
    F: FnMut(Session) -> M,
    M: FnMut(Envelope),
{
    let name = if args.worker {
        worker::worker_name(&who.name)
    } else {
        who.name.clone()
    };
    let (wire, heartbeat, faults) = (args.wire(), args.heartbeat(), args.faults());
    let setup = ActorSetup::new(&who.role, &who.kind, &name, wire, heartbeat, faults);
    let _health = args
        .health_listen
        .map(|addr| HealthServer::start(addr, setup.metrics.clone()))
        .transpose()?;
    if args.worker {
        let mut setup = setup;
        // The Lead heartbeats idle workers at the interval they share.
        setup.lead_silence = Some(heartbeat * worker::SILENT_AFTER);
        stop_on_signals(&setup)?;
        return worker::run(&args.lead, &secret, setup, Default::default(), on_start).await;
    }
    let stream = connect(&args.lead).await?;
    run_actor(stream, &secret, setup, on_start).await
}

/// Opens the TCP connection to the Lead (no Nagle delay: heartbeats are small and timely).
async fn connect(lead: &str) -> Result<TcpStream, ActorError> {
    let failed = |source| ActorError::Connect {
        addr: lead.to_string(),
        source,
    };
    let stream = TcpStream::connect(lead).await.map_err(failed)?;
    stream.set_nodelay(true).map_err(failed)?;
    Ok(stream)
}

/// On SIGTERM or SIGINT: readiness fails at once, and the session ends with a `Goodbye`.
fn stop_on_signals(setup: &ActorSetup) -> Result<(), ActorError> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).map_err(ActorError::Signals)?;
    let mut int = signal(SignalKind::interrupt()).map_err(ActorError::Signals)?;
    let (stop, metrics) = (setup.stop.clone(), setup.metrics.clone());
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        tracing::info!("termination signal: leaving the Lead");
        metrics.set_stopping();
        stop.cancel();
    });
    Ok(())
}
