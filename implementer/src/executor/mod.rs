//! Executors: what carries a task out. `agent` runs a coding agent with the prompt on stdin,
//! `script` runs a configured script with the task in environment variables, `builtin` makes
//! the mechanical fixes the compiler, clippy and rustfmt know, `chat` asks an OpenAI-compatible
//! endpoint for new contents of the owned files and writes them itself. None of them decides
//! whether the task is done; the judge does.

mod agent;
pub mod builtin;
pub mod chat;
pub mod presets;
// One process runner for every crate: `protocol::exec`.
pub(crate) use protocol::exec as process;
mod script;

pub use agent::AgentExecutor;
pub use builtin::BuiltinExecutor;
pub use chat::{ChatEndpoint, ChatExecutor};
pub use script::ScriptExecutor;

use protocol::domain::Task;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// One run of an executor: the task, the prompt for this iteration, where to work.
#[derive(Debug, Clone, Copy)]
pub struct ExecRequest<'a> {
    /// The repository root; executors run there.
    pub repo: &'a Path,
    /// The task.
    pub task: &'a Task,
    /// The assembled prompt (task, rules, notes, or the modification prompt).
    pub prompt: &'a str,
    /// The iteration number, from 1.
    pub iteration: u32,
    /// The previous REJECT's modification prompt, if any.
    pub modification: Option<&'a str>,
}

/// How an executor run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecOutcome {
    /// The executor exited (with any code).
    Finished {
        /// Its exit code; `None` when a signal ended it.
        code: Option<i32>,
        /// Its standard output: what the judge reads.
        stdout: Vec<u8>,
        /// Its standard error, for logs.
        stderr: String,
    },
    /// It ran past its time limit; its process group was killed.
    TimedOut {
        /// The limit in seconds.
        secs: u64,
    },
    /// It could not run (not found, not executable, no Cargo.toml for `builtin`, an endpoint
    /// that cannot be reached for `chat`).
    Failed(String),
    /// It answered, but the answer could not be carried out and nothing was written (`chat`:
    /// a path outside the owned files, a diff that does not apply, no answer in a known form).
    /// Not a tool failure to retry as is: the judge REJECTs it with the reason.
    Refused {
        /// The answer, what the judge reads.
        answer: Vec<u8>,
        /// Why it was not carried out.
        reason: String,
    },
}

impl ExecOutcome {
    /// A successful run with `stdout`.
    pub fn success(stdout: impl Into<Vec<u8>>) -> ExecOutcome {
        ExecOutcome::Finished {
            code: Some(0),
            stdout: stdout.into(),
            stderr: String::new(),
        }
    }

    /// The standard output (empty when there is none); a refused answer's text.
    pub fn stdout(&self) -> &[u8] {
        match self {
            ExecOutcome::Finished { stdout, .. } => stdout,
            ExecOutcome::Refused { answer, .. } => answer,
            _ => &[],
        }
    }

    /// Why the executor's answer was not carried out, when it was refused.
    pub fn refusal(&self) -> Option<&str> {
        match self {
            ExecOutcome::Refused { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// Why this run counts as a timeout or executor error (RETRY material), if it does.
    pub fn transient_problem(&self) -> Option<String> {
        match self {
            ExecOutcome::Finished { code: Some(0), .. } | ExecOutcome::Refused { .. } => None,
            ExecOutcome::Finished { code, stderr, .. } => {
                let how = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
                let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
                Some(match last {
                    Some(line) => format!("executor error ({how}): {}", line.trim()),
                    None => format!("executor error ({how})"),
                })
            }
            ExecOutcome::TimedOut { secs } => Some(format!("executor timed out after {secs} s")),
            ExecOutcome::Failed(e) => Some(format!("executor could not run: {e}")),
        }
    }
}

/// Something that carries a task out.
pub trait Executor: Send {
    /// `agent`, `script`, `builtin` or `chat` (or a test's own name).
    fn kind(&self) -> &str;
    /// Runs once for `request`.
    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome;
}

/// Which executor `[executor] kind` selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExecutorKind {
    /// A coding agent: the prompt on stdin, its stdout judged.
    Agent,
    /// A script with the task in environment variables.
    Script,
    /// Built-in mechanical fixes.
    Builtin,
    /// An OpenAI-compatible chat endpoint's whole-file replacements or diff, applied here.
    Chat,
}

/// The `[executor]` table: `kind`, `command` (an argv list), `timeout_secs`; for `chat`, `url`,
/// `model`, `api_key_env` and `max_tokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecutorConfig {
    /// Which executor.
    pub kind: ExecutorKind,
    /// The argv for `agent` and `script`; unused by `builtin`.
    #[serde(default)]
    pub command: Vec<String>,
    /// Time limit per run (per cargo command for `builtin`).
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
    /// `agent` only: the commands tried in turn, after `command`, when a run fails as a tool
    /// (cannot start, times out, exits non-zero) — never because the judge rejected its work.
    #[serde(default)]
    pub fallback: Vec<Vec<String>>,
    /// `chat`: the OpenAI-compatible endpoint (a base URL or the full chat completions URL).
    #[serde(default)]
    pub url: String,
    /// `chat`: the model name sent to the endpoint.
    #[serde(default)]
    pub model: String,
    /// `chat`: the environment variable holding the API key, if the endpoint needs one.
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// `chat`: the most tokens an answer may have.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// `chat`: each part of the streamed answer after the first must arrive within this many
    /// seconds; 0 waits for the whole answer.
    #[serde(default)]
    pub idle_timeout_secs: u64,
}

fn default_timeout() -> u64 {
    600
}

fn default_max_tokens() -> u32 {
    4096
}

/// The `[executor]` table cannot make an executor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecutorConfigError {
    /// `agent` or `script` without a command.
    #[error("[executor] kind = \"{0}\" needs `command`, an argv list such as [\"my-agent\", \"--print\"]")]
    MissingCommand(&'static str),
    /// A zero time limit.
    #[error("[executor] timeout_secs must be at least 1")]
    ZeroTimeout,
    /// `chat` without an endpoint or a model.
    #[error("[executor] kind = \"chat\" needs `{0}`")]
    MissingEndpoint(&'static str),
}

impl ExecutorConfig {
    /// Makes the configured executor.
    pub fn build(&self) -> Result<Box<dyn Executor>, ExecutorConfigError> {
        if self.timeout_secs == 0 {
            return Err(ExecutorConfigError::ZeroTimeout);
        }
        let timeout = Duration::from_secs(self.timeout_secs);
        let command = || match self.command.first() {
            Some(p) if !p.is_empty() => Ok(self.command.clone()),
            _ => Err(ExecutorConfigError::MissingCommand(match self.kind {
                ExecutorKind::Agent => "agent",
                _ => "script",
            })),
        };
        Ok(match self.kind {
            ExecutorKind::Agent => Box::new(
                AgentExecutor::new(command()?, timeout).with_fallback(self.fallback.clone()),
            ),
            ExecutorKind::Script => Box::new(ScriptExecutor::new(command()?, timeout)),
            ExecutorKind::Builtin => Box::new(BuiltinExecutor::new(timeout)),
            ExecutorKind::Chat => {
                if self.url.trim().is_empty() {
                    return Err(ExecutorConfigError::MissingEndpoint("url"));
                }
                if self.model.trim().is_empty() {
                    return Err(ExecutorConfigError::MissingEndpoint("model"));
                }
                Box::new(ChatExecutor::new(
                    ChatEndpoint {
                        url: self.url.clone(),
                        model: self.model.clone(),
                        api_key_env: self.api_key_env.clone(),
                        max_tokens: self.max_tokens.max(1),
                        idle_timeout: (self.idle_timeout_secs > 0)
                            .then(|| Duration::from_secs(self.idle_timeout_secs)),
                    },
                    timeout,
                ))
            }
        })
    }
}

/// Maps a process run to an executor outcome.
pub(crate) fn outcome_of(
    run: Result<process::Finished, process::RunError>,
    timeout: Duration,
) -> ExecOutcome {
    match run {
        Ok(done) => ExecOutcome::Finished {
            code: done.code,
            stdout: done.stdout,
            stderr: String::from_utf8_lossy(&done.stderr).into_owned(),
        },
        Err(process::RunError::TimedOut) => ExecOutcome::TimedOut {
            secs: timeout.as_secs(),
        },
        Err(process::RunError::Spawn(e)) => ExecOutcome::Failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_executor_table_builds_each_kind() {
        let parse = |s: &str| toml::from_str::<ExecutorConfig>(s).expect("toml");
        let agent = parse("kind = \"agent\"\ncommand = [\"my-agent\", \"-p\"]\ntimeout_secs = 60");
        assert_eq!(agent.build().expect("agent").kind(), "agent");
        assert_eq!(parse("kind = \"builtin\"").timeout_secs, 600);
        assert_eq!(
            parse("kind = \"builtin\"").build().expect("b").kind(),
            "builtin"
        );
        assert_eq!(
            parse("kind = \"script\"").build().err(),
            Some(ExecutorConfigError::MissingCommand("script"))
        );
        assert_eq!(
            parse("kind = \"agent\"\ncommand = [\"a\"]\ntimeout_secs = 0")
                .build()
                .err(),
            Some(ExecutorConfigError::ZeroTimeout)
        );
        assert!(toml::from_str::<ExecutorConfig>("kind = \"llm\"").is_err());
        assert_eq!(
            parse("kind = \"chat\"\nurl = \"http://127.0.0.1:1\"\nmodel = \"m\"")
                .build()
                .expect("chat")
                .kind(),
            "chat"
        );
        assert_eq!(
            parse("kind = \"chat\"\nmodel = \"m\"").build().err(),
            Some(ExecutorConfigError::MissingEndpoint("url"))
        );
    }

    #[test]
    fn only_a_clean_exit_is_not_transient() {
        assert_eq!(ExecOutcome::success("ok").transient_problem(), None);
        let failed = ExecOutcome::Finished {
            code: Some(1),
            stdout: Vec::new(),
            stderr: "warming up\nrate limited\n\n".into(),
        };
        assert_eq!(
            failed.transient_problem().as_deref(),
            Some("executor error (exit 1): rate limited")
        );
        assert_eq!(
            ExecOutcome::TimedOut { secs: 5 }
                .transient_problem()
                .as_deref(),
            Some("executor timed out after 5 s")
        );
    }
}
