//! What a fix session is configured with: typed values the application derives from the
//! repository's settings (`[executor]`, `[test]`, `[loop] rules`), so that this crate never sees
//! a configuration file.

use protocol::message::ExecutorSpec;
use std::time::Duration;

/// A fix session's configuration.
#[derive(Debug, Clone)]
pub struct FixConfig {
    /// The executor that fixes a group and, when it is a coding agent, plans the batches;
    /// `None`: the built-in fixers and planner.
    pub executor: Option<ExecutorSpec>,
    /// The time limit of a built-in fixer's run.
    pub executor_timeout: Duration,
    /// The configured test command (`[test] command`), before steering and detection.
    pub test_command: Option<Vec<String>>,
    /// The test command's time limit.
    pub test_timeout: Duration,
    /// House rules added to every fixer prompt.
    pub rules: Vec<String>,
    /// The agent's prompt templates (`[agent] prompt_dir`, else built in): the fix planner's.
    pub prompts: protocol::prompt::Templates,
}

/// Reads the configuration of the repository a session fixes (known only once the review
/// folder is located); its error is the one line to print.
pub type Configure<'a> = &'a dyn Fn(&std::path::Path) -> Result<FixConfig, String>;
