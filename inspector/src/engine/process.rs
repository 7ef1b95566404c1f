//! Running an external command for an Inspector (the test command, git, a linter, an agent
//! backend) through the one process runner every crate shares, in its sandbox
//! ([`protocol::exec::sandbox::run`]): argv (no shell), in the repository root, its own process
//! group under a guard (it dies with the Inspector), a timeout that kills the whole group. What
//! the Inspectors read is text, so the output comes back as (lossy) UTF-8.

use std::path::Path;
use std::time::Duration;

pub(crate) use protocol::exec::sandbox::{run as run_with, Ran as Finished};
pub(crate) use protocol::exec::{Extra, RunError};

/// Runs `argv` in `cwd` with stdin closed, killing its process group after `timeout`.
pub(crate) fn run(argv: &[String], cwd: &Path, timeout: Duration) -> Result<Finished, RunError> {
    run_with(argv, cwd, timeout, &Extra::default())
}
