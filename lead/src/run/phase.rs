//! One team phase: an actix System with the team hub and the Implementers it starts — child
//! processes connecting over loopback TCP, Arbiters over in-memory streams, or workers claimed
//! from the remote runtime's pool — until every task is settled; then the team is shut down and
//! reaped, and the board comes back. Each phase is its own System so that the review in between
//! runs on the same thread.

use super::board::Board;
use super::hub::{HubConfig, PhaseResult, StopHub, TeamHub};
use super::state::RunState;
use actix::Actor;
use host::hub::accept_loop;
use host::inproc::InprocSpawner;
use host::local::LocalSpawner;
use host::remote::{RemoteSpawner, WorkerPool};
use host::{ActorKind, Runtime, Spawner};
use protocol::chaos::FaultPlan;
use protocol::wire::{Secret, WireConfig};
use std::sync::Arc;
use std::time::Duration;

/// Everything a team phase needs.
#[derive(Clone)]
pub struct PhaseInput {
    /// The hub's settings.
    pub hub: HubConfig,
    /// Where the Implementers run.
    pub runtime: Runtime,
    /// The remote runtime's worker pool (`None` in the others).
    pub pool: Option<Arc<WorkerPool>>,
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
        let mut listener = None;
        let spawner: Box<dyn Spawner> = match input.runtime {
            Runtime::Local => {
                let bound = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let at = bound.local_addr()?;
                listener = Some(bound);
                Box::new(LocalSpawner::new(
                    exe,
                    at,
                    secret.clone(),
                    input.heartbeat,
                    input.wire.max_frame,
                    input.faults.clone(),
                ))
            }
            Runtime::Inproc => Box::new(InprocSpawner::new(
                secret.clone(),
                input.wire.clone(),
                input.heartbeat,
                input.faults.clone(),
            )),
            Runtime::Remote => {
                let pool = input.pool.clone().ok_or_else(|| {
                    std::io::Error::other("the remote runtime has no worker pool")
                })?;
                let team = vec![ActorKind::Implementer; input.hub.implementers.max(1) as usize];
                let wait = input.hub.policy.connect_timeout;
                Box::new(RemoteSpawner::reserving(pool, &team, wait).await)
            }
        };
        let addr = TeamHub::new(input.hub, board, state, spawner, done_tx).start();
        if let Some(listener) = listener {
            actix::spawn(accept_loop(
                listener,
                secret,
                input.wire,
                Arc::new(addr.clone()),
            ));
        }
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
