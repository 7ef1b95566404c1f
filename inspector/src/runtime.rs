//! Connecting an Inspector to the Lead: over TCP as its own process, or over any stream in-process.

use crate::actor::{Incoming, InspectorActor};
use actix::Actor;
use protocol::session::{run_actor, ActorError};
use protocol::wire::{Secret, WireConfig, WireError};
use protocol::InspectorKind;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// How an Inspector process is started (`retake actor inspector …`, `retake-inspector …`).
#[derive(Debug, Clone, clap::Args)]
pub struct InspectorArgs {
    /// The Inspector kind: rulebase, interface, test, quality, consistency or holistic.
    #[arg(long)]
    pub kind: InspectorKind,
    /// The actor name (defaults to inspector-KIND).
    #[arg(long)]
    pub name: Option<String>,
    /// The Lead's address (host:port).
    #[arg(long)]
    pub lead: String,
    /// Heartbeat interval in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub heartbeat_ms: u64,
    /// Largest frame accepted, in bytes.
    #[arg(long, default_value_t = 8 * 1024 * 1024)]
    pub max_frame: usize,
}

/// Serves as Inspector `kind` named `name` over `stream` until the Lead shuts it down.
pub async fn serve<S>(
    stream: S,
    kind: InspectorKind,
    name: &str,
    secret: &Secret,
    wire: &WireConfig,
    heartbeat: Duration,
) -> Result<(), WireError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    run_actor(
        stream,
        secret,
        "inspector",
        name,
        wire,
        heartbeat,
        |session| {
            let addr = InspectorActor::new(kind, session).start();
            move |env| addr.do_send(Incoming(env))
        },
    )
    .await
}

/// Runs an Inspector process: connect to the Lead over TCP and serve. The secret comes from
/// the environment (`RETAKE_SECRET`, hex), never from the command line.
pub fn run_process(args: InspectorArgs, secret: Secret) -> Result<(), ActorError> {
    let name = args.name.clone().unwrap_or_else(|| args.kind.actor_name());
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
        serve(
            stream,
            args.kind,
            &name,
            &secret,
            &wire,
            Duration::from_millis(args.heartbeat_ms),
        )
        .await?;
        Ok(())
    })
}
