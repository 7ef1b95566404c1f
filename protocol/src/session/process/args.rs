//! The arguments every actor process takes, whatever its role: flattened into each role's
//! arguments (`InspectorArgs`, …) so `retake actor ROLE` and the actor binaries agree.

use crate::chaos::{ActorFaults, Fault, ProcessMode};
use crate::wire::{WireConfig, DEFAULT_MAX_FRAME};
use std::net::SocketAddr;
use std::time::Duration;

/// The environment variable that sets `--health-listen` (the local runtime clears it for its
/// children, so several actors never fight over one port).
pub const HEALTH_LISTEN_ENV: &str = "RETAKE_HEALTH_LISTEN";

/// How an actor process connects to the Lead and what it exposes.
#[derive(Debug, Clone, clap::Args)]
pub struct ProcessArgs {
    /// The Lead's address (host:port).
    #[arg(long)]
    pub lead: String,
    /// Heartbeat interval in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub heartbeat_ms: u64,
    /// Largest frame accepted, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FRAME)]
    pub max_frame: usize,
    /// An injected fault (repeatable), e.g. `hang-at=inspect`; the Lead passes these only when
    /// fault injection is enabled (`--chaos`, `[chaos] enabled`).
    #[arg(long = "fault", value_name = "FAULT")]
    pub faults: Vec<Fault>,
    /// Which spawn of this logical actor this is (1 is the first; `fail-times` counts them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub spawn: u32,
    /// Serve /healthz, /readyz and /metrics over HTTP on this address (e.g. 0.0.0.0:9100);
    /// off unless given.
    #[arg(long, value_name = "ADDR", env = HEALTH_LISTEN_ENV)]
    pub health_listen: Option<SocketAddr>,
    /// Worker mode (remote runtime): connect to a Lead that did not start this process,
    /// retrying while it is unreachable, under a unique name (NAME@HOST-PID); after each
    /// session connect again for the next job; exit cleanly on SIGTERM.
    #[arg(long)]
    pub worker: bool,
}

impl ProcessArgs {
    /// The wire limits these arguments ask for.
    pub fn wire(&self) -> WireConfig {
        WireConfig {
            max_frame: self.max_frame,
            ..WireConfig::default()
        }
    }

    /// The heartbeat interval.
    pub fn heartbeat(&self) -> Duration {
        Duration::from_millis(self.heartbeat_ms)
    }

    /// The faults, applied as a process suffers them (abort, exit, a blocked thread).
    pub fn faults(&self) -> ActorFaults {
        ActorFaults {
            mode: ProcessMode::OwnProcess,
            spawn_no: self.spawn,
            faults: self.faults.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chaos::Phase;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ProcessArgs,
    }

    fn parse(argv: &[&str]) -> Result<ProcessArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("actor").chain(argv.iter().copied())).map(|c| c.args)
    }

    #[test]
    fn the_leads_command_line_parses_as_before() {
        let args = parse(&[
            "--lead",
            "127.0.0.1:7700",
            "--heartbeat-ms",
            "50",
            "--max-frame",
            "65536",
            "--spawn",
            "3",
            "--fault",
            "hang-at=inspect",
        ])
        .expect("valid");
        assert_eq!(args.lead, "127.0.0.1:7700");
        assert_eq!(args.heartbeat(), Duration::from_millis(50));
        assert_eq!(args.wire().max_frame, 65536);
        let faults = args.faults();
        assert_eq!(faults.mode, ProcessMode::OwnProcess);
        assert_eq!(faults.spawn_no, 3);
        assert_eq!(faults.faults, [Fault::HangAt(Phase::Inspect)]);
        assert!(!args.worker);
    }

    #[test]
    fn defaults_and_refusals() {
        let plain = parse(&["--lead", "x:1"]).expect("valid");
        assert_eq!(
            (plain.heartbeat_ms, plain.max_frame, plain.spawn),
            (1000, DEFAULT_MAX_FRAME, 1)
        );
        assert!(parse(&["--lead", "x:1", "--spawn", "0"]).is_err());
        assert!(parse(&[]).is_err(), "--lead is required");
        let err = parse(&["--lead", "x:1", "--health-listen", "localhost"])
            .expect_err("not a socket address")
            .to_string();
        assert!(err.contains("--health-listen"), "{err}");
        let worker = parse(&[
            "--lead",
            "x:1",
            "--worker",
            "--health-listen",
            "0.0.0.0:9100",
        ])
        .expect("valid");
        assert!(worker.worker);
        assert_eq!(worker.health_listen, Some("0.0.0.0:9100".parse().unwrap()));
    }
}
