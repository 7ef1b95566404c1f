//! The command transport: the configured argv runs in the repository root (no shell, its own
//! process group, the parent-death signal set), reads the prompt on stdin and writes CPF on
//! stdout. A timeout kills the whole group.

use super::AttemptError;
use crate::engine::process::{run_with, Extra, RunError};
use std::path::Path;
use std::time::Duration;

/// Runs the agent command once; its stdout on success. The exit code is not judged — a reviewer
/// may exit non-zero to say it found problems — only whether stdout reads as CPF.
pub(super) fn ask(
    argv: &[String],
    root: &Path,
    prompt: &str,
    timeout: Duration,
) -> Result<String, AttemptError> {
    let extra = Extra {
        stdin: Some(prompt.as_bytes().to_vec()),
        env: Vec::new(),
    };
    let program = argv.first().map_or("", String::as_str);
    match run_with(argv, root, timeout, &extra) {
        Ok(done) => {
            if done.stdout.trim().is_empty() && !done.stderr.trim().is_empty() {
                let first = done.stderr.lines().next().unwrap_or_default().trim();
                Err(AttemptError::Retry(format!(
                    "empty output (exit {:?}; stderr: {first})",
                    done.code
                )))
            } else {
                Ok(done.stdout)
            }
        }
        Err(RunError::TimedOut) => Err(AttemptError::Fatal(format!(
            "agent command '{program}' timed out after {} s; its process group was killed",
            timeout.as_secs_f64()
        ))),
        Err(RunError::Spawn(e)) => Err(AttemptError::Fatal(format!(
            "agent command '{program}' could not run: {e}"
        ))),
    }
}
