//! Connecting the Auditor to the Lead: over TCP as its own process, or over any stream in-process.

use crate::actor::{AuditorActor, Incoming};
use actix::Actor;
use protocol::session::{run_actor, ActorError};
use protocol::wire::{Secret, WireConfig, WireError};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// How an Auditor process is started (`retake actor auditor …`, `retake-auditor …`).
#[derive(Debug, Clone, clap::Args)]
pub struct AuditorArgs {
    /// The actor name.
    #[arg(long, default_value = "auditor")]
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
}

/// Serves as the Auditor named `name` over `stream` until the Lead shuts it down.
pub async fn serve<S>(
    stream: S,
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
        "auditor",
        name,
        wire,
        heartbeat,
        |session| {
            let addr = AuditorActor::new(session).start();
            move |env| addr.do_send(Incoming(env))
        },
    )
    .await
}

/// Runs an Auditor process: connect to the Lead over TCP and serve. The secret comes from the
/// environment (`RETAKE_SECRET`, hex), never from the command line.
pub fn run_process(args: AuditorArgs, secret: Secret) -> Result<(), ActorError> {
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
            &args.name,
            &secret,
            &wire,
            Duration::from_millis(args.heartbeat_ms),
        )
        .await?;
        Ok(())
    })
}
