//! The `script` executor: a configured script run in the repository with the task in
//! environment variables (stdin closed); its standard output is judged like an agent's.

use super::process::{self, Extra};
use super::{outcome_of, ExecOutcome, ExecRequest, Executor};
use std::time::Duration;

/// Runs a script command (an argv, no shell) per iteration.
#[derive(Debug, Clone)]
pub struct ScriptExecutor {
    command: Vec<String>,
    timeout: Duration,
}

impl ScriptExecutor {
    /// A script run as `command`, killed with its process group after `timeout`.
    pub fn new(command: Vec<String>, timeout: Duration) -> ScriptExecutor {
        ScriptExecutor { command, timeout }
    }
}

impl Executor for ScriptExecutor {
    fn kind(&self) -> &str {
        "script"
    }

    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome {
        let extra = Extra {
            stdin: None,
            env: task_env(request),
        };
        outcome_of(
            process::run(&self.command, request.repo, self.timeout, &extra),
            self.timeout,
        )
    }
}

/// The task as environment variables: `RETAKE_TASK_ID`, `RETAKE_TASK_SUBJECT`,
/// `RETAKE_TASK_DESCRIPTION`, `RETAKE_TASK_OWNS` (one path a line), `RETAKE_ITERATION` and
/// `RETAKE_MODIFICATION` (the previous REJECT's modification prompt, empty at first).
pub(crate) fn task_env(request: &ExecRequest<'_>) -> Vec<(String, String)> {
    let task = request.task;
    [
        ("RETAKE_TASK_ID", task.id.to_string()),
        ("RETAKE_TASK_SUBJECT", task.subject.clone()),
        ("RETAKE_TASK_DESCRIPTION", task.description.clone()),
        ("RETAKE_TASK_OWNS", task.owns.join("\n")),
        ("RETAKE_ITERATION", request.iteration.to_string()),
        (
            "RETAKE_MODIFICATION",
            request.modification.unwrap_or("").to_string(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_sees_the_task_in_its_environment() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut task = crate::testing::task("Fix the parser");
        task.owns = vec!["src/a.rs".into(), "src/b.rs".into()];
        let request = ExecRequest {
            repo: dir.path(),
            task: &task,
            prompt: "ignored by scripts",
            iteration: 2,
            modification: Some("fix the TODO"),
        };
        let command = ["sh", "-c", "printf '%s|%s|%s|%s|%s' \"$RETAKE_TASK_ID\" \"$RETAKE_TASK_SUBJECT\" \"$RETAKE_TASK_OWNS\" \"$RETAKE_ITERATION\" \"$RETAKE_MODIFICATION\"; cat"];
        let mut script =
            ScriptExecutor::new(command.map(String::from).to_vec(), Duration::from_secs(10));
        assert_eq!(
            script.execute(&request),
            ExecOutcome::success("7|Fix the parser|src/a.rs\nsrc/b.rs|2|fix the TODO")
        );
    }
}
