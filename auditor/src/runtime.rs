//! Connecting the Auditor to the Lead: over TCP as its own process, or over any stream in-process.

use crate::actor::{AuditorActor, Incoming};
use actix::Actor;
use protocol::chaos::{ActorFaults, Fault, ProcessMode};
use protocol::session::{run_actor, ActorError, ActorSetup};
use protocol::wire::{Secret, WireConfig};
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
    /// An injected fault (repeatable), e.g. `stall-output`; the Lead passes these only when
    /// fault injection is enabled (`--chaos`, `[chaos] enabled`).
    #[arg(long = "fault", value_name = "FAULT")]
    pub faults: Vec<Fault>,
    /// Which spawn of the Auditor this is (1 is the first; `fail-times` counts them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub spawn: u32,
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
    let setup = ActorSetup {
        role: "auditor".into(),
        name: name.to_string(),
        wire: wire.clone(),
        heartbeat,
        faults,
    };
    run_actor(stream, secret, setup, |session| {
        let addr = AuditorActor::new(session).start();
        move |env| addr.do_send(Incoming(env))
    })
    .await
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

/// Runs an Auditor process: connect to the Lead over TCP and serve, applying `--fault`s as a
/// process would suffer them (abort, exit, a blocked thread). The secret comes from the
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
        let faults = ActorFaults {
            mode: ProcessMode::OwnProcess,
            spawn_no: args.spawn,
            faults: args.faults.clone(),
        };
        let heartbeat = Duration::from_millis(args.heartbeat_ms);
        serve_with_faults(stream, &args.name, &secret, &wire, heartbeat, faults).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use protocol::chaos::Phase;

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
            cli.args.faults,
            [Fault::HangAt(Phase::Verdict), Fault::Delay(250)]
        );
        assert_eq!(cli.args.spawn, 2);
        let plain = Cli::try_parse_from(["retake-auditor", "--lead", "x"]).expect("valid");
        assert_eq!((plain.args.faults.len(), plain.args.spawn), (0, 1));
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
