//! The `agent` executor: a coding agent's CLI, run in the repository with the prompt on stdin;
//! its standard output is what the judge reads. With a fallback list (Claude-Code-Workflow's
//! CLI chain, e.g. Gemini → Qwen → Codex), a run that fails as a tool — the CLI cannot start,
//! times out or exits non-zero (quota, network) — is run again with the next CLI, and the
//! executor keeps to that one for the rest of the task. A run that finishes is the judge's to
//! reject: a REJECT never switches CLIs.

use super::process::{self, Extra};
use super::script::task_env;
use super::{outcome_of, ExecOutcome, ExecRequest, Executor};
use std::time::Duration;

/// Runs an agent command (an argv, no shell) per iteration, with the fallbacks in turn.
#[derive(Debug, Clone)]
pub struct AgentExecutor {
    /// The command, then each fallback.
    commands: Vec<Vec<String>>,
    /// The one runs start with: the first that has not failed as a tool.
    current: usize,
    timeout: Duration,
}

impl AgentExecutor {
    /// An agent run as `command`, killed with its process group after `timeout`.
    pub fn new(command: Vec<String>, timeout: Duration) -> AgentExecutor {
        AgentExecutor {
            commands: vec![command],
            current: 0,
            timeout,
        }
    }

    /// The same, trying `fallback`'s commands in turn when one fails as a tool.
    pub fn with_fallback(mut self, fallback: Vec<Vec<String>>) -> AgentExecutor {
        self.commands
            .extend(fallback.into_iter().filter(|c| !c.is_empty()));
        self
    }

    fn run(&self, command: &[String], request: &ExecRequest<'_>) -> ExecOutcome {
        let extra = Extra {
            stdin: Some(request.prompt.as_bytes().to_vec()),
            env: task_env(request),
        };
        outcome_of(
            process::run(command, request.repo, self.timeout, &extra),
            self.timeout,
        )
    }
}

impl Executor for AgentExecutor {
    fn kind(&self) -> &str {
        "agent"
    }

    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome {
        let mut tried: Vec<String> = Vec::new();
        loop {
            let command = &self.commands[self.current];
            let outcome = self.run(command, request);
            let Some(problem) = outcome.transient_problem() else {
                return outcome;
            };
            let Some(next) = self.commands.get(self.current + 1) else {
                return with_tried(outcome, &tried);
            };
            let name = command.first().cloned().unwrap_or_default();
            tracing::warn!(
                agent = name,
                next = next.first().map(String::as_str).unwrap_or_default(),
                problem,
                "agent CLI failed: falling back to the next"
            );
            tried.push(format!("{name}: {problem}"));
            self.current += 1;
        }
    }
}

/// A failed outcome whose error also names the CLIs that failed before it.
fn with_tried(outcome: ExecOutcome, tried: &[String]) -> ExecOutcome {
    if tried.is_empty() {
        return outcome;
    }
    let before = format!("after {}", tried.join("; "));
    match outcome {
        ExecOutcome::Failed(e) => ExecOutcome::Failed(format!("{e} ({before})")),
        ExecOutcome::Finished {
            code,
            stdout,
            stderr,
        } => ExecOutcome::Finished {
            code,
            stdout,
            stderr: format!("{stderr}\n{before}"),
        },
        timed_out => timed_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::domain::{Task, TaskOrigin, TaskStatus};

    fn task() -> Task {
        Task {
            id: 1,
            subject: "Add a".into(),
            description: String::new(),
            owns: vec!["a.txt".into()],
            blocked_by: Vec::new(),
            status: TaskStatus::Pending,
            attempts: 0,
            origin: TaskOrigin::Plan,
            active_form: "Adding a".into(),
        }
    }

    /// The first iteration of `task` in `repo`, prompt "add a".
    fn request<'a>(repo: &'a std::path::Path, task: &'a Task) -> ExecRequest<'a> {
        ExecRequest {
            repo,
            task,
            prompt: "add a",
            iteration: 1,
            modification: None,
        }
    }

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn a_cli_that_fails_as_a_tool_hands_over_to_the_next_and_the_task_keeps_it() {
        let repo = tempfile::tempdir().expect("repo");
        let task = task();
        let request = request(repo.path(), &task);
        let mut agent =
            AgentExecutor::new(vec!["retake-no-such-cli".into()], Duration::from_secs(10))
                .with_fallback(vec![
                    sh("echo quota exceeded >&2; exit 3"),
                    sh("echo \"$(cat) done by the third\""),
                ]);
        let outcome = agent.execute(&request);
        assert_eq!(outcome.transient_problem(), None);
        assert_eq!(outcome.stdout(), b"add a done by the third\n");
        assert_eq!(agent.current, 2);
        // The next iteration starts with the CLI that worked.
        let again = agent.execute(&request);
        assert_eq!(again.stdout(), b"add a done by the third\n");
        assert_eq!(agent.current, 2);
    }

    #[test]
    fn when_every_cli_fails_the_last_failure_names_the_others() {
        let repo = tempfile::tempdir().expect("repo");
        let task = task();
        let request = request(repo.path(), &task);
        let mut agent =
            AgentExecutor::new(vec!["retake-no-such-cli".into()], Duration::from_secs(10))
                .with_fallback(vec![sh("echo rate limited >&2; exit 4")]);
        let problem = agent.execute(&request).transient_problem().expect("failed");
        assert!(
            problem.starts_with(
                "executor error (exit 4): after retake-no-such-cli: executor could not run: "
            ),
            "{problem}"
        );
        // A run that finishes is never retried elsewhere: the judge decides about its work.
        let mut judged = AgentExecutor::new(sh("echo not really done"), Duration::from_secs(10))
            .with_fallback(vec![sh("exit 9")]);
        assert_eq!(judged.execute(&request).stdout(), b"not really done\n");
        assert_eq!(judged.current, 0);
    }
}
