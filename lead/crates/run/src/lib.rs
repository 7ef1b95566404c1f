//! `retake run`: a plan driven end to end by the team loop of the loops spec.
//!
//! Step 0 writes the state file; Phase 0 (`phase_a::discuss`) lets the built-in Planner and
//! Critic refine the plan; Phase A checks the environment, reads the plan and its range,
//! validates and registers the tasks and counts the Implementers (`phase_a`). The loop
//! (`drive`) runs team phases (`phase`: a hub actor and its Implementers, supervised, claiming
//! from the `board`) until every task is settled, then reviews everything the run changed
//! through the review pipeline (`review_round`); the gate decides: accept, fix tasks from the
//! findings and another round, or escalate / stop with a report (exit 5). Phase C verifies,
//! marks the plan done, commits once and reports (`complete`). `retake resume` restores an
//! interrupted run from its state files (`resume`) and enters the same loop. The Lead
//! coordinates only: executors run inside the Implementers.

pub mod advisor;
pub mod author;
pub mod board;
pub mod complete;
pub mod config;
pub mod drive;
pub mod environment;
pub mod fix_findings;
pub mod live;
pub mod phase;
pub mod phase_a;
pub mod report;
pub mod resume;
pub mod review_round;
pub mod spec_cascade;
pub mod state;
pub mod team_hub;

pub use board::{Board, Escalated, Returned};
pub use state::{ActiveRun, RunState};

use config::RunConfig;
use host::Runtime;
use outputs::ExitCode;
use protocol::chaos::FaultPlan;
use std::path::PathBuf;

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
    /// The run's configuration.
    pub config: RunConfig,
    /// Faults to inject (empty unless chaos is enabled).
    pub faults: FaultPlan,
    /// The dashboard's feed, when one watches the run.
    pub live: Option<host::live::Feed>,
}

/// How a run ended: its exit code (0 committed, 5 escalated to a human) and its report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunEnd {
    /// The exit code.
    pub code: ExitCode,
    /// The completion, escalation or stop report.
    pub report: String,
}

/// Why a run could not go on (exit 2); the message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Refused or failed, with the reason.
    #[error("{0}")]
    Refused(String),
    /// Another Lead holds the repository.
    #[error(transparent)]
    Locked(#[from] host::lock::LockError),
    /// The run's state could not be written.
    #[error("cannot write {what}: {source}")]
    State {
        /// What was being written.
        what: String,
        /// Why.
        source: std::io::Error,
    },
    /// The team's actors cannot be hosted as asked.
    #[error(transparent)]
    Hosting(#[from] host::remote::HostingError),
    /// The team phase could not run (its actors or its state failed).
    #[error("the team could not run: {0}")]
    Team(std::io::Error),
    /// A review round had no outcome.
    #[error(transparent)]
    Review(#[from] review_round::RoundError),
    /// Phase C could not finish.
    #[error(transparent)]
    Complete(#[from] complete::CompleteError),
}

/// Drives a new run to its end: Step 0 and Phase A, then the loop.
pub fn execute(req: RunRequest) -> Result<RunEnd, RunError> {
    let ready = phase_a::start(&req).inspect_err(|_| {
        // Best effort: an early abort leaves no trace when the state folder held nothing else.
        let _empty = std::fs::remove_dir(req.repo.join(".retake"));
    })?;
    drive::drive(&req, ready)
}

/// Continues the interrupted run recorded in `repo`'s state file to its end (`retake resume`),
/// with `retake resume`'s `--yes` / `--no-discuss` added to the options it was started with.
pub fn resume(
    repo: PathBuf,
    config: RunConfig,
    unattended: resume::Unattended,
) -> Result<RunEnd, RunError> {
    let (req, ready) = resume::restore(repo, config, unattended)?;
    drive::drive(&req, ready)
}
