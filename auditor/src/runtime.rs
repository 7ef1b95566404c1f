//! Connecting the Auditor to the Lead: over TCP as its own process (the shared process shell of
//! `protocol::session::process`), or over any stream in-process.

use crate::actor::{AuditorActor, Incoming};
use actix::Actor;
use protocol::chaos::{ActorFaults, ProcessMode};
use protocol::session::process::{self, Identity, ProcessArgs};
use protocol::session::{run_actor, ActorError, ActorSetup, Session};
use protocol::wire::{Secret, WireConfig};
use protocol::Envelope;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// The role the Auditor authenticates as.
const ROLE: &str = protocol::ActorKind::Auditor.role();

/// How an Auditor process is started (`retake actor auditor …`, `retake-auditor …`).
#[derive(Debug, Clone, clap::Args)]
pub struct AuditorArgs {
    /// The actor name.
    #[arg(long, default_value = "auditor")]
    pub name: String,
    /// What every actor process takes: the Lead, heartbeats, faults, health, worker mode.
    #[command(flatten)]
    pub process: ProcessArgs,
}

/// Starts the Auditor actor for one session; incoming envelopes go to its mailbox.
fn start(session: Session) -> impl FnMut(Envelope) {
    let addr = AuditorActor::new(session).start();
    move |env| addr.do_send(Incoming(env))
}

/// Serves as the Auditor named `name` over `stream` until the Lead shuts it down, applying
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
    let setup = ActorSetup::new(ROLE, "", name, wire.clone(), heartbeat, faults);
    run_actor(stream, secret, setup, start).await
}

/// [`serve_with_faults`] without faults, in-process. Temporary: kept with its old signature
/// until the Lead's in-process runtime passes faults.
pub async fn serve<S>(
    stream: S,
    name: &str,
    secret: &Secret,
    wire: &WireConfig,
    heartbeat: Duration,
) -> Result<(), ActorError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let faults = ActorFaults::none(ProcessMode::InProcess);
    serve_with_faults(stream, name, secret, wire, heartbeat, faults).await
}

/// Runs an Auditor process: connect to the Lead over TCP and serve (once, or as a worker),
/// applying `--fault`s as a process would suffer them. The secret comes from the Lead on
/// standard input, or from the environment for a worker (`RETAKE_SECRET`, hex), never from
/// the command line (`protocol::session::process::take_secret`).
pub fn run_process(args: AuditorArgs, secret: Secret) -> Result<(), ActorError> {
    let who = Identity {
        role: ROLE.into(),
        kind: String::new(),
        name: args.name,
    };
    actix::System::new().block_on(process::serve(args.process, who, secret, start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use protocol::chaos::{Fault, Phase};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: AuditorArgs,
    }

    #[test]
    fn faults_and_the_spawn_number_are_arguments() {
        let cli = Cli::try_parse_from([
            "retake-auditor",
            "--lead",
            "127.0.0.1:1",
            "--fault",
            "hang-at=verdict",
            "--fault",
            "delay=250",
            "--spawn",
            "2",
        ])
        .expect("valid arguments");
        assert_eq!(
            cli.args.process.faults,
            [Fault::HangAt(Phase::Verdict), Fault::Delay(250)]
        );
        assert_eq!(cli.args.process.spawn, 2);
        let plain = Cli::try_parse_from(["retake-auditor", "--lead", "x"]).expect("valid");
        assert_eq!(plain.args.name, "auditor");
        assert_eq!(
            (plain.args.process.faults.len(), plain.args.process.spawn),
            (0, 1)
        );
        assert!(Cli::try_parse_from(["retake-auditor", "--lead", "x", "--spawn", "0"]).is_err());
        let err = Cli::try_parse_from([
            "retake-auditor",
            "--lead",
            "x",
            "--fault",
            "auditor:stall-output",
        ])
        .err()
        .expect("the actor prefix belongs to the Lead's --fault")
        .to_string();
        assert!(
            err.contains("unknown fault 'auditor:stall-output'"),
            "{err}"
        );
    }
}
