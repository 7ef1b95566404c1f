//! What the team hub is configured with, what it hands back, and the messages it handles.

use super::super::board::Board;
use actix::prelude::*;
use host::supervisor::Policy;
use host::Spawner;
use protocol::message::{ExecutorSpec, LoopSpec};
use std::time::Duration;

/// What every assignment of a phase shares.
#[derive(Debug, Clone)]
pub struct AssignmentBase {
    /// The repository root (absolute).
    pub root: String,
    /// The executor.
    pub executor: ExecutorSpec,
    /// The task runner's settings.
    pub runner: LoopSpec,
    /// House rules for the prompt.
    pub rules: Vec<String>,
    /// The template evaluator every task is judged by as well (its template id).
    pub template: Option<String>,
    /// The prompt templates `[agent] prompt_dir` configures for the Implementers.
    pub prompts: protocol::prompt::Templates,
}

/// One team phase's settings.
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// The session id, for `tasks.json`.
    pub session_id: String,
    /// What assignments carry.
    pub base: AssignmentBase,
    /// Implementers to start (`implementer-1` …).
    pub implementers: u32,
    /// Liveness timing and restart limits.
    pub policy: Policy,
    /// How long one task may take an Implementer before it is overdue.
    pub task_budget: Duration,
    /// Grace of `Shutdown`.
    pub grace: Duration,
    /// Signals, scoped reviews and high-priority tasks.
    pub phase_b: super::PhaseBConfig,
    /// The dashboard's feed, when one watches the run.
    pub live: Option<host::live::Feed>,
}

/// How a team phase ended.
#[derive(Debug)]
pub struct PhaseResult {
    /// The board: every task completed or failed.
    pub board: Board,
    /// Re-spawns per Implementer slot.
    pub restarts: Vec<(String, u32)>,
}

/// Ends the hub and hands its spawner back for reaping.
#[derive(Message)]
#[rtype(result = "Option<Box<dyn Spawner>>")]
pub struct StopHub;
