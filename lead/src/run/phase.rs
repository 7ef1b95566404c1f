//! One team phase: an actix System with the team hub and the Implementers it starts — child
//! processes connecting over loopback TCP, Arbiters over in-memory streams, or workers claimed
//! from the remote runtime's pool — until every task is settled; then the team is shut down and
//! reaped, and the board comes back. Each phase is its own System so that the review in between
//! runs on the same thread. [`Team`] is what every phase of a run shares: the assignments' base,
//! the supervision policy, the budgets and how the Implementers are started.

use super::board::Board;
use super::drive::Ready;
use super::state::RunState;
use super::team_hub::{AssignmentBase, HubConfig, PhaseBConfig, PhaseResult, StopHub, TeamHub};
use super::RunRequest;
use actix::Actor;
use host::setup::Setup;
use host::supervisor::Policy;
use host::ActorKind;
use std::sync::Arc;
use std::time::Duration;

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

/// What every team phase of a run shares.
pub(super) struct Team {
    base: AssignmentBase,
    policy: Policy,
    task_budget: Duration,
    grace: Duration,
    setup: Setup,
}

impl Team {
    pub(super) fn new(req: &RunRequest, r: &Ready) -> Result<Team, host::remote::HostingError> {
        let settings = &req.settings;
        let sup = &settings.supervision;
        let setup = settings.hosting().open(req.runtime, &req.faults)?;
        let runner = settings
            .team_loop
            .spec(r.test.clone(), settings.test.timeout_secs);
        // An attempt may use every iteration and retry, each an executor run and the checks.
        let per_iteration = r.executor.timeout_secs + 3 * settings.test.timeout_secs;
        let iterations = u64::from(runner.max_iterations + runner.max_retries);
        Ok(Team {
            base: AssignmentBase {
                root: req.repo.display().to_string(),
                executor: r.executor.clone(),
                runner,
                rules: settings.team_loop.rules.clone(),
                template: settings.team_loop.evaluator.map(|e| e.template_id()),
            },
            policy: Policy {
                heartbeat: setup.heartbeat,
                suspect_after: sup.suspect_after,
                connect_timeout: Duration::from_millis(sup.connect_timeout_ms),
                nudge_timeout: Duration::from_millis(sup.nudge_timeout_ms),
                max_restarts: sup.max_restarts,
                restart_window: Duration::from_secs(sup.restart_window_secs),
                respawns_per_slot: 1,
            },
            task_budget: Duration::from_secs(per_iteration * iterations + 60),
            grace: Duration::from_millis(sup.shutdown_grace_ms),
            setup,
        })
    }

    pub(super) fn phase(
        &self,
        session: &str,
        implementers: u32,
        phase_b: &PhaseBConfig,
    ) -> PhaseInput {
        PhaseInput {
            hub: HubConfig {
                session_id: session.to_string(),
                base: self.base.clone(),
                implementers,
                policy: self.policy.clone(),
                task_budget: self.task_budget,
                grace: self.grace,
                phase_b: phase_b.clone(),
            },
            setup: self.setup.clone(),
        }
    }
}
