//! What a run is configured with, as the run reads it: typed values the application derives
//! from its settings (`[executor]`, `[loop]`, `[test]` and, for its review rounds and its team's
//! hosting and supervision, a review's configuration), so that this crate never sees a
//! configuration file.

use protocol::message::{ExecutorSpec, LoopSpec};
use review::config::ReviewConfig;
use team::cascade::SpecUpdate;
use team::discussion::DiscussionMode;
use team::gate::GateKind;

/// A run's configuration.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The executor the Implementers carry tasks out with; `None` when none is configured.
    pub executor: Option<ExecutorSpec>,
    /// The setting that names the executor's programs, for a message that says what to fix
    /// (`[executor] command`, or `[executor] preset (or fallback)`).
    pub executor_key: &'static str,
    /// The configured test command (`[test] command`), before steering and detection.
    pub test_command: Option<Vec<String>>,
    /// Who holds Phase 0's discussion besides the built-in pair.
    pub discussion: DiscussionMode,
    /// The review gate.
    pub gate: GateKind,
    /// What the sdd gate's SPEC-UPDATE-NEEDED does.
    pub spec_update: SpecUpdate,
    /// Claims of one task (attempts) before it is escalated to the user.
    pub max_attempts: u32,
    /// breezing: REQUEST_CHANGES rounds before escalation.
    pub max_retakes: u32,
    /// The task runner's settings; its test command (Q7) is the run's, resolved when it starts.
    pub runner: LoopSpec,
    /// House rules added to every executor prompt.
    pub rules: Vec<String>,
    /// The template evaluator every task is judged by as well (its template id), if any.
    pub template: Option<String>,
    /// The agent's prompt templates (`[agent] prompt_dir`, else built in): Phase 0's Planner
    /// and Critic.
    pub prompts: protocol::prompt::Templates,
    /// Every review round's configuration; its hosting and supervision host the team too, and
    /// its test timeout is every test and check command's.
    pub review: ReviewConfig,
}
