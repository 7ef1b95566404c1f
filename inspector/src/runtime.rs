//! Connecting an Inspector to the Lead: over TCP as its own process (the shared process shell
//! of `protocol::session::process`), or over any stream in-process.

use crate::actor::{Incoming, InspectorActor};
use actix::Actor;
use protocol::chaos::{ActorFaults, ProcessMode};
use protocol::session::process::{self, Identity, ProcessArgs};
use protocol::session::{run_actor, ActorError, ActorSetup, Session};
use protocol::wire::{Secret, WireConfig};
use protocol::{ActorKind, Envelope, InspectorKind};
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
    /// What every actor process takes: the Lead, heartbeats, faults, health, worker mode.
    #[command(flatten)]
    pub process: ProcessArgs,
}

/// Starts the Inspector actor for one session; incoming envelopes go to its mailbox.
fn start(kind: InspectorKind, session: Session) -> impl FnMut(Envelope) {
    let addr = InspectorActor::new(kind, session).start();
    move |env| addr.do_send(Incoming(env))
}

/// Serves as Inspector `kind` named `name` over `stream` until the Lead shuts it down,
/// applying `faults` (in-process: [`ProcessMode::InProcess`]).
pub async fn serve_with_faults<S>(
    stream: S,
    kind: InspectorKind,
    name: &str,
    secret: &Secret,
    wire: &WireConfig,
    heartbeat: Duration,
    faults: ActorFaults,
) -> Result<(), ActorError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let setup = ActorSetup::new(
        ActorKind::Inspector(kind).role(),
        kind.as_str(),
        name,
        wire.clone(),
        heartbeat,
        faults,
    );
    run_actor(stream, secret, setup, |session| start(kind, session)).await
}

/// [`serve_with_faults`] without faults, in-process. Temporary: kept with its old signature
/// until the Lead's in-process runtime passes faults.
pub async fn serve<S>(
    stream: S,
    kind: InspectorKind,
    name: &str,
    secret: &Secret,
    wire: &WireConfig,
    heartbeat: Duration,
) -> Result<(), ActorError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let faults = ActorFaults::none(ProcessMode::InProcess);
    serve_with_faults(stream, kind, name, secret, wire, heartbeat, faults).await
}

/// Runs an Inspector process: connect to the Lead over TCP and serve (once, or as a worker),
/// applying `--fault`s as a process would suffer them. The secret comes from the Lead on
/// standard input, or from the environment for a worker (`RETAKE_SECRET`, hex), never from
/// the command line (`protocol::session::process::take_secret`).
pub fn run_process(args: InspectorArgs, secret: Secret) -> Result<(), ActorError> {
    let kind = args.kind;
    let who = Identity {
        role: ActorKind::Inspector(kind).role().into(),
        kind: kind.as_str().into(),
        name: args.name.unwrap_or_else(|| kind.actor_name()),
    };
    let served = process::serve(args.process, who, secret, move |s| start(kind, s));
    actix::System::new().block_on(served)
}
