//! The `agent` executor: a coding agent's CLI, run in the repository with the prompt on stdin;
//! its standard output is what the judge reads.

use super::process::{self, Extra};
use super::script::task_env;
use super::{outcome_of, ExecOutcome, ExecRequest, Executor};
use std::time::Duration;

/// Runs an agent command (an argv, no shell) per iteration.
#[derive(Debug, Clone)]
pub struct AgentExecutor {
    command: Vec<String>,
    timeout: Duration,
}

impl AgentExecutor {
    /// An agent run as `command`, killed with its process group after `timeout`.
    pub fn new(command: Vec<String>, timeout: Duration) -> AgentExecutor {
        AgentExecutor { command, timeout }
    }
}

impl Executor for AgentExecutor {
    fn kind(&self) -> &str {
        "agent"
    }

    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome {
        let extra = Extra {
            stdin: Some(request.prompt.as_bytes().to_vec()),
            env: task_env(request),
        };
        outcome_of(
            process::run(&self.command, request.repo, self.timeout, &extra),
            self.timeout,
        )
    }
}
