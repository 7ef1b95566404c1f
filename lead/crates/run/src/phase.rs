//! One team phase: an actix System with the team hub and the Implementers it starts — child
//! processes connecting over loopback TCP, Arbiters over in-memory streams, or workers claimed
//! from the remote runtime's pool — until every task is settled; then the team is shut down and
//! reaped, and the board comes back. Each phase is its own System so that the review in between
//! runs on the same thread. [`Team`] is what every phase of a run shares: the assignments' base,
//! the supervision policy, the budgets and how the Implementers are started.

use super::board::Board;
use super::state::RunState;
use super::team_hub::{AssignmentBase, HubConfig, PhaseBConfig, PhaseResult, StopHub, TeamHub};
use super::RunRequest;
use actix::Actor;
use host::setup::Setup;
use host::supervisor::Policy;
use host::ActorKind;
use protocol::message::ExecutorSpec;
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
    live: Option<host::live::Feed>,
}

impl Team {
    /// The team of `req`, its tasks carried out by `executor` and tested with `test`.
    pub(super) fn new(
        req: &RunRequest,
        executor: &ExecutorSpec,
        test: Option<Vec<String>>,
    ) -> Result<Team, host::remote::HostingError> {
        let config = &req.config;
        let sup = &config.review.supervision;
        let setup = config.review.hosting.open(req.runtime, &req.faults)?;
        let runner = protocol::message::LoopSpec {
            test,
            ..config.runner.clone()
        };
        // An attempt may use every iteration and retry, each an executor run and the checks.
        let per_iteration = executor.timeout_secs + 3 * runner.check_timeout_secs;
        let iterations = u64::from(runner.max_iterations + runner.max_retries);
        Ok(Team {
            base: AssignmentBase {
                root: req.repo.display().to_string(),
                executor: executor.clone(),
                runner,
                rules: config.rules.clone(),
                template: config.template.clone(),
                prompts: config.prompts.clone(),
            },
            policy: Policy {
                heartbeat: setup.heartbeat,
                suspect_after: sup.suspect_after,
                connect_timeout: sup.connect_timeout,
                nudge_timeout: sup.nudge_timeout,
                max_restarts: sup.max_restarts,
                restart_window: sup.restart_window,
                respawns_per_slot: 1,
            },
            task_budget: Duration::from_secs(per_iteration * iterations + 60),
            grace: sup.shutdown_grace,
            setup,
            live: req.live.clone(),
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
                live: self.live.clone(),
            },
            setup: self.setup.clone(),
        }
    }
}
