//! Connecting an Implementer to the Lead: over TCP as its own process (the shared process shell
//! of `protocol::session::process`), or over any stream in-process.

use crate::actor::{ImplementerActor, Incoming};
use actix::Actor;
use protocol::chaos::ActorFaults;
use protocol::session::process::{self, Identity, ProcessArgs};
use protocol::session::{run_actor, ActorError, ActorSetup, Session};
use protocol::wire::{Secret, WireConfig};
use protocol::Envelope;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// The role an Implementer authenticates as.
const ROLE: &str = protocol::ActorKind::Implementer.role();

/// How an Implementer process is started (`retake actor implementer …`).
#[derive(Debug, Clone, clap::Args)]
pub struct ImplementerArgs {
    /// The actor name (`implementer-1`).
    #[arg(long, default_value = "implementer-1")]
    pub name: String,
    /// What every actor process takes: the Lead, heartbeats, faults, health, worker mode.
    #[command(flatten)]
    pub process: ProcessArgs,
}

/// Starts the Implementer actor for one session; incoming envelopes go to its mailbox.
fn start(session: Session) -> impl FnMut(Envelope) {
    let addr = ImplementerActor::new(session).start();
    move |env| addr.do_send(Incoming(env))
}

/// Serves as the Implementer named `name` over `stream` until the Lead shuts it down, applying
/// `faults` (in-process: [`protocol::chaos::ProcessMode::InProcess`]).
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
    let setup = ActorSetup::new(ROLE, "", name, wire.clone(), heartbeat, faults);
    run_actor(stream, secret, setup, start).await
}

/// Runs an Implementer process: connect to the Lead over TCP and serve (once, or as a worker),
/// applying `--fault`s as a process would suffer them. The secret comes from the Lead on
/// standard input, or from the environment for a worker (`RETAKE_SECRET`, hex), never from
/// the command line (`protocol::session::process::take_secret`).
pub fn run_process(args: ImplementerArgs, secret: Secret) -> Result<(), ActorError> {
    let who = Identity {
        role: ROLE.into(),
        kind: String::new(),
        name: args.name,
    };
    actix::System::new().block_on(process::serve(args.process, who, secret, start))
}
