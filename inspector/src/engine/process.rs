//! Running an external command for an Inspector (the test command, git, a linter, an agent
//! backend) through the one process runner every crate shares, [`protocol::exec`]: argv (no
//! shell), in the repository root, its own process group under a guard (it dies with the
//! Inspector), a timeout that kills the whole group. What the Inspectors read is text, so the
//! output comes back as (lossy) UTF-8.

use std::path::Path;
use std::time::Duration;

use protocol::exec::sandbox;
pub(crate) use protocol::exec::{Extra, RunError};

/// A command that ran to completion.
#[derive(Debug)]
pub(crate) struct Finished {
    /// Its exit code; `None` when a signal ended it.
    pub(crate) code: Option<i32>,
    /// What it wrote to stdout (lossy UTF-8, capped).
    pub(crate) stdout: String,
    /// What it wrote to stderr (lossy UTF-8, capped).
    pub(crate) stderr: String,
}

/// Runs `argv` in `cwd` with stdin closed, killing its process group after `timeout`.
pub(crate) fn run(argv: &[String], cwd: &Path, timeout: Duration) -> Result<Finished, RunError> {
    run_with(argv, cwd, timeout, &Extra::default())
}

/// Runs `argv` in `cwd` with `extra` (its variables win over the sandbox's), killing its
/// process group after `timeout`.
pub(crate) fn run_with(
    argv: &[String],
    cwd: &Path,
    timeout: Duration,
    extra: &Extra,
) -> Result<Finished, RunError> {
    let mut env = sandbox::build_env(cwd);
    env.extend(extra.env.iter().cloned());
    let sandboxed = Extra {
        stdin: extra.stdin.clone(),
        env,
    };
    let locks = sandbox::LockGuard::before(cwd);
    let ran = protocol::exec::run(argv, cwd, timeout, &sandboxed);
    locks.restore();
    let done = ran?;
    Ok(Finished {
        code: done.code,
        stdout: String::from_utf8_lossy(&done.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&done.stderr).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_text_and_a_missing_program_is_a_spawn_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let argv = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let done = run(
            &argv(&["sh", "-c", "printf 'out\\377'; echo err >&2; exit 3"]),
            dir.path(),
            Duration::from_secs(10),
        )
        .expect("ran");
        assert_eq!(
            (done.code, done.stdout.as_str(), done.stderr.as_str()),
            (Some(3), "out\u{FFFD}", "err\n")
        );
        let missing = run(
            &argv(&["retake-no-such-tool"]),
            dir.path(),
            Duration::from_secs(1),
        );
        assert!(
            matches!(missing, Err(RunError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound)
        );
    }
}
