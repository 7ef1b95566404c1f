//! `retake run`: a plan driven end to end by the team loop of chapter 04.1.
//!
//! Step 0 writes the state file; Phase A checks the environment, reads the plan and its range,
//! validates and registers the tasks and counts the Implementers (`phase_a`). Phase B runs team
//! phases (`phase`: a hub actor and its Implementers, supervised, claiming from the `board`)
//! until every task is settled, then reviews everything the run changed through the review
//! pipeline (`review_round`); the gate decides: accept, fix tasks from the findings and another
//! round, or escalate / stop with a report (exit 5). Phase C verifies, marks the plan done,
//! commits once and reports (`complete`). The Lead coordinates only: executors run inside the
//! Implementers.

pub mod board;
pub mod command;
pub mod complete;
pub mod environment;
pub mod git;
pub mod hub;
pub mod link;
pub mod phase;
pub mod phase_a;
pub mod report;
pub mod review_round;
pub mod spawner;
pub mod state;

pub use board::{Board, Escalated, Returned};
pub use state::{ActiveRun, RunState};

use crate::config::Settings;
use crate::review::supervisor::Policy;
use crate::runtime::Runtime;
use crate::team::escalation::{
    escalation_report, manual_intervention_report, verification_failed_report, RetakeRound,
};
use crate::team::gate::{self, GateAction, GateKind, GateState, StopKind};
use crate::team::team_size::{implementer_count, independent_tasks};
use complete::{complete, CompleteInput, Completed};
use hub::{AssignmentBase, HubConfig};
use phase::{run_phase, PhaseInput};
use protocol::chaos::FaultPlan;
use protocol::wire::WireConfig;
use protocol::TaskStatus;
use review_round::{fix_round, record, review_changes, ReviewInput};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A run as the command line asks for it.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The work tree's root.
    pub repo: PathBuf,
    /// The range as typed (`all`, `"auth to users"`, `login`, `a, b`).
    pub range: String,
    /// `--parallel N`.
    pub parallel: Option<u32>,
    /// `--no-discuss`.
    pub no_discuss: bool,
    /// `--yes`.
    pub yes: bool,
    /// Where the actors run.
    pub runtime: Runtime,
    /// Effective configuration.
    pub settings: Settings,
    /// Faults to inject (empty unless chaos is enabled).
    pub faults: FaultPlan,
}

/// How a run ended: its exit code (0 committed, 5 escalated to a human) and its report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunEnd {
    /// The exit code.
    pub code: u8,
    /// The completion, escalation or stop report.
    pub report: String,
}

/// Why a run could not go on (exit 2); the message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Refused or failed, with the reason.
    #[error("{0}")]
    Refused(String),
}

fn escalated(report: String) -> Result<RunEnd, RunError> {
    Ok(RunEnd { code: 5, report })
}

/// Drives the run to its end.
pub fn execute(req: RunRequest) -> Result<RunEnd, RunError> {
    let clock = Instant::now();
    let mut s = phase_a::start(&req).inspect_err(|_| {
        // Best effort: an early abort leaves no trace when the state folder held nothing else.
        let _empty = std::fs::remove_dir(req.repo.join(".retake"));
    })?;
    let settings = &req.settings;
    let sup = &settings.supervision;
    let runner = settings
        .team_loop
        .spec(s.test.clone(), settings.test.timeout_secs);
    // An attempt may use every iteration and retry, each an executor run and the checks.
    let per_iteration = s.executor.timeout_secs + 3 * settings.test.timeout_secs;
    let iterations = u64::from(runner.max_iterations + runner.max_retries);
    let base = AssignmentBase {
        root: req.repo.display().to_string(),
        executor: s.executor.clone(),
        runner,
        rules: settings.team_loop.rules.clone(),
    };
    let policy = Policy {
        heartbeat: Duration::from_millis(sup.local_heartbeat_interval_ms),
        suspect_after: sup.suspect_after,
        connect_timeout: Duration::from_millis(sup.connect_timeout_ms),
        nudge_timeout: Duration::from_millis(sup.nudge_timeout_ms),
        max_restarts: sup.max_restarts,
        restart_window: Duration::from_secs(sup.restart_window_secs),
        respawns_per_slot: 1,
    };
    let wire = WireConfig {
        max_frame: settings.wire.max_frame_bytes,
        handshake_timeout: Duration::from_millis(settings.wire.handshake_timeout_ms),
    };
    let session = s.active.session_id.clone();
    let mut board = Board::new(
        s.prepared.registration.tasks.clone(),
        settings.team_loop.max_attempts,
    );
    let gate_kind: GateKind = settings.team_loop.gate.parse().unwrap_or_default();
    let mut gate_state = GateState {
        max_retakes: settings.team_loop.max_retakes,
        ..GateState::default()
    };
    let mut history: Vec<RetakeRound> = Vec::new();
    let mut implementers = s.prepared.implementers;
    let outcome = loop {
        let input = PhaseInput {
            hub: HubConfig {
                session_id: session.clone(),
                base: base.clone(),
                implementers,
                policy: policy.clone(),
                task_budget: Duration::from_secs(per_iteration * iterations + 60),
                grace: Duration::from_millis(sup.shutdown_grace_ms),
            },
            runtime: req.runtime,
            wire: wire.clone(),
            heartbeat: policy.heartbeat,
            faults: req.faults.clone(),
        };
        eprintln!(
            "retake run: {} task(s) open, {implementers} Implementer(s)",
            board
                .tasks
                .iter()
                .filter(|t| t.status == TaskStatus::Pending)
                .count()
        );
        let result = run_phase(input, board, s.state.clone()).map_err(|e| {
            if history.is_empty() {
                // The team never started: an early abort leaves nothing to resume.
                s.state.clear_active();
            }
            RunError::Refused(format!("the team could not run: {e}"))
        })?;
        board = result.board;
        for (slot, n) in result.restarts.iter().filter(|(_, n)| *n > 0) {
            eprintln!("retake run: {slot} was re-spawned {n} time(s)");
        }
        let escalations = board.escalations();
        if !escalations.is_empty() {
            return escalated(report::task_escalation_report(
                &escalations,
                &board.tasks,
                &history,
            ));
        }
        eprintln!("retake run: every task passed; reviewing the changes");
        let input = ReviewInput {
            repo: &req.repo,
            base: &s.active.base_commit,
            settings,
            runtime: req.runtime,
            faults: &req.faults,
        };
        let outcome = review_changes(&input).map_err(RunError::Refused)?;
        let round = history.len() as u32 + 1;
        history.push(RetakeRound::from_outcome(round, &outcome));
        let head = crate::commands::head_commit(&req.repo).unwrap_or_default();
        let (next, action) = gate::step(
            gate_kind,
            gate_state,
            outcome.verdict,
            outcome.decision,
            false,
        );
        gate_state = next;
        s.active.review = gate_state.into();
        // The review pipeline wrote and removed a state file of its own: the run's comes back.
        s.state
            .write_active(&s.active)
            .and_then(|()| record(&s.state, &outcome, &head, &session, round))
            .map_err(|e| RunError::Refused(format!("cannot write the run's state: {e}")))?;
        eprintln!(
            "retake run: review round {round}: {} ({}, grade {})",
            outcome.verdict, outcome.decision, outcome.grade
        );
        match action {
            GateAction::Accept { .. } => break outcome,
            GateAction::Fix => {
                let fixes = fix_round(&outcome, &board.tasks);
                if fixes.is_empty() {
                    return escalated(format!(
                        "⚠ retake: the review asks for changes ({}) but names no finding to turn into a fix task\n\n\
                         Fix the problem by hand, then continue with `retake resume`.\n",
                        outcome.verdict
                    ));
                }
                implementers = implementer_count(independent_tasks(&fixes), req.parallel, None);
                board.tasks.extend(fixes);
                s.state
                    .write_tasks(&session, &board.tasks)
                    .map_err(|e| RunError::Refused(format!("cannot write tasks.json: {e}")))?;
            }
            GateAction::Escalate(reason) => {
                return escalated(escalation_report(reason, &outcome.findings, &history))
            }
            GateAction::SpecCascade => {
                return escalated(escalation_report(
                    gate::EscalationReason::NoSpecCascade,
                    &outcome.findings,
                    &history,
                ))
            }
            GateAction::Stop(StopKind::ManualIntervention) => {
                return escalated(manual_intervention_report(&outcome.findings))
            }
            GateAction::Stop(StopKind::VerificationFailed) => {
                return escalated(verification_failed_report(&outcome.findings, None))
            }
        }
    };
    let done = complete(&CompleteInput {
        repo: &req.repo,
        state: &s.state,
        session_id: &session,
        range: &req.range,
        duration_secs: clock.elapsed().as_secs(),
        implementers: s.prepared.implementers,
        retakes: history.len().saturating_sub(1) as u32,
        tasks: &board.tasks,
        plans_mapping: &s.active.plans_mapping,
        plan: &s.plan,
        review: (outcome.decision, outcome.grade),
        verify_timeout: Duration::from_secs(settings.test.timeout_secs),
    })
    .map_err(RunError::Refused)?;
    drop(s.lock.take());
    Ok(match done {
        Completed::Done(report) => RunEnd { code: 0, report },
        Completed::VerificationFailed(report) => RunEnd { code: 5, report },
    })
}
