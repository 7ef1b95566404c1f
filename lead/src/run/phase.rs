//! One team phase: an actix System with the team hub, the Implementers it starts (child
//! processes connecting over loopback TCP, or Arbiters over in-memory streams), until every
//! task is settled; then the team is shut down and reaped, and the board comes back. Each
//! phase is its own System so that the review in between runs on the same thread.

use super::board::Board;
use super::hub::{HubConfig, PhaseResult, StopHub, TeamHub};
use super::link::accept_loop;
use super::spawner::TeamSpawner;
use super::state::RunState;
use crate::runtime::inproc::InprocSpawner;
use crate::runtime::local::LocalSpawner;
use crate::runtime::Runtime;
use actix::Actor;
use protocol::chaos::FaultPlan;
use protocol::wire::{Secret, WireConfig};
use std::time::Duration;

/// Everything a team phase needs.
#[derive(Debug, Clone)]
pub struct PhaseInput {
    /// The hub's settings.
    pub hub: HubConfig,
    /// Where the Implementers run.
    pub runtime: Runtime,
    /// Wire limits.
    pub wire: WireConfig,
    /// Their heartbeat interval.
    pub heartbeat: Duration,
    /// Faults to inject (empty unless chaos is enabled).
    pub faults: FaultPlan,
}

/// Runs a phase over `board` until it settles.
pub fn run_phase(input: PhaseInput, board: Board, state: RunState) -> std::io::Result<PhaseResult> {
    let exe = std::env::current_exe()?;
    let grace = input.hub.grace;
    actix::System::new().block_on(async move {
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let secret = Secret::generate();
        let addr = match input.runtime {
            Runtime::Local => {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let at = listener.local_addr()?;
                let spawner = TeamSpawner::Local(LocalSpawner::new(
                    exe,
                    at,
                    secret.clone(),
                    input.heartbeat,
                    input.wire.max_frame,
                    input.faults.clone(),
                ));
                let hub = TeamHub::new(input.hub, board, state, spawner, done_tx).start();
                actix::spawn(accept_loop(listener, secret, input.wire, hub.clone()));
                hub
            }
            Runtime::Inproc => {
                let spawner = TeamSpawner::Inproc {
                    spawner: InprocSpawner::new(
                        secret.clone(),
                        input.wire.clone(),
                        input.heartbeat,
                        input.faults.clone(),
                    ),
                    secret,
                    wire: input.wire,
                };
                TeamHub::new(input.hub, board, state, spawner, done_tx).start()
            }
            Runtime::Remote => return Err(std::io::Error::other(
                "the team loop runs its Implementers in the local or inproc runtime, not remote",
            )),
        };
        let result = match done_rx.await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(why)) => Err(std::io::Error::other(why)),
            Err(_) => Err(std::io::Error::other(
                "the team hub stopped before the tasks settled",
            )),
        };
        if let Ok(Some(spawner)) = addr.send(StopHub).await {
            spawner.reap(grace).await;
        }
        result
    })
}
