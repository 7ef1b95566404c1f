//! Connecting an Implementer to the Lead: over TCP as its own process, or over any stream
//! in-process.

use crate::actor::{ImplementerActor, Incoming};
use actix::Actor;
use protocol::chaos::{ActorFaults, Fault, ProcessMode};
use protocol::session::{run_actor, ActorError, ActorSetup};
use protocol::wire::{Secret, WireConfig};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// How an Implementer process is started (`retake actor implementer …`).
#[derive(Debug, Clone, clap::Args)]
pub struct ImplementerArgs {
    /// The actor name (`implementer-1`).
    #[arg(long, default_value = "implementer-1")]
    pub name: String,
    /// The Lead's address (host:port).
    #[arg(long)]
    pub lead: String,
    /// Heartbeat interval in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub heartbeat_ms: u64,
    /// Largest frame accepted, in bytes.
    #[arg(long, default_value_t = 8 * 1024 * 1024)]
    pub max_frame: usize,
    /// An injected fault (repeatable), e.g. `crash-at=execute`; the Lead passes these only
    /// when fault injection is enabled (`--chaos`, `[chaos] enabled`).
    #[arg(long = "fault", value_name = "FAULT")]
    pub faults: Vec<Fault>,
    /// Which spawn of this logical Implementer this is (1 is the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub spawn: u32,
}

/// Serves as the Implementer named `name` over `stream` until the Lead shuts it down, applying
/// `faults` (in-process: [`ProcessMode::InProcess`]).
pub async fn serve_with_faults<S>(
    stream: S,
    name: &str,
    secret: &Secret,
    wire: &WireConfig,
    heartbeat: Duration,
    faults: ActorFaults,
) -> Result<(), ActorError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let setup = ActorSetup {
        role: "implementer".into(),
        name: name.to_string(),
        wire: wire.clone(),
        heartbeat,
        faults,
    };
    run_actor(stream, secret, setup, |session| {
        let addr = ImplementerActor::new(session).start();
        move |env| addr.do_send(Incoming(env))
    })
    .await
}

/// Runs an Implementer process: connect to the Lead over TCP and serve, applying `--fault`s as
/// a process would suffer them. The secret comes from the environment (`RETAKE_SECRET`, hex),
/// never from the command line.
pub fn run_process(args: ImplementerArgs, secret: Secret) -> Result<(), ActorError> {
    let wire = WireConfig {
        max_frame: args.max_frame,
        ..WireConfig::default()
    };
    actix::System::new().block_on(async move {
        let connect_error = |source| ActorError::Connect {
            addr: args.lead.clone(),
            source,
        };
        let stream = tokio::net::TcpStream::connect(&args.lead)
            .await
            .map_err(connect_error)?;
        stream.set_nodelay(true).map_err(connect_error)?;
        let faults = ActorFaults {
            mode: ProcessMode::OwnProcess,
            spawn_no: args.spawn,
            faults: args.faults.clone(),
        };
        let heartbeat = Duration::from_millis(args.heartbeat_ms);
        serve_with_faults(stream, &args.name, &secret, &wire, heartbeat, faults).await
    })
}
