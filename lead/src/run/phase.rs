//! One team phase: an actix System with the team hub and the Implementers it starts — child
//! processes connecting over loopback TCP, Arbiters over in-memory streams, or workers claimed
//! from the remote runtime's pool — until every task is settled; then the team is shut down and
//! reaped, and the board comes back. Each phase is its own System so that the review in between
//! runs on the same thread.

use super::board::Board;
use super::hub::{HubConfig, PhaseResult, StopHub, TeamHub};
use super::state::RunState;
use actix::Actor;
use host::setup::Setup;
use host::ActorKind;
use std::sync::Arc;

/// Everything a team phase needs.
#[derive(Clone)]
pub struct PhaseInput {
    /// The hub's settings.
    pub hub: HubConfig,
    /// Where and how the Implementers are started.
    pub setup: Setup,
}

/// Runs a phase over `board` until it settles.
pub fn run_phase(input: PhaseInput, board: Board, state: RunState) -> std::io::Result<PhaseResult> {
    let grace = input.hub.grace;
    actix::System::new().block_on(async move {
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let team = vec![ActorKind::Implementer; input.hub.implementers.max(1) as usize];
        let (spawner, accepting) = input.setup.spawner(&team).await?;
        let addr = TeamHub::new(input.hub, board, state, spawner, done_tx).start();
        if let Some(accepting) = accepting {
            accepting.serve(Arc::new(addr.clone()));
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
