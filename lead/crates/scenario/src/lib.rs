//! Recovery scenarios (the supervision spec, "Scenarios"): run the real `retake` on a copy of a
//! repository with faults injected, and check the outcome — verdict, notes, restarts, journaled
//! reports, time, and that no process outlives the run.
//!
//! The entry points, in the order a caller uses them: [`load`] reads and checks a scenario file
//! (every mistake is one line naming the file and the key); [`execute`] runs it against the
//! `retake` binary it is given and returns what the run left behind ([`Observed`]); [`check()`]
//! turns that into the list of failed expectations; `report` renders the table and the JUnit
//! XML; `soak` plans a chaos soak over scenarios' reviews and checks its invariants.
//!
//! The checks are pure functions over what a run left behind (`check`, `run_check`); the process
//! work — copying, spawning, timing, looking for leftovers — is in `runner` (review scenarios),
//! `run_exec` (run scenarios: `retake run` of the team loop, and its Lead killed and resumed,
//! `run_kind`, `lead_crash`) and `compose` (container scenarios: a job of `retake serve` in a
//! Compose stack), with `leftovers` and `history` beside them.
//!
//! This crate never knows the Lead: not its configuration (a scenario's `config` keys are
//! checked by the [`ConfigCheck`] its caller passes to [`load`]), not its commands or its code —
//! it drives the `retake` binary as a user would, through its command line, output and files.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod check;
pub mod compose;
pub mod expect;
pub mod file;
pub mod file_error;
mod history;
pub mod lead_crash;
pub mod leftovers;
pub mod observed;
pub mod prng;
pub mod report;
pub mod run_check;
pub mod run_exec;
pub mod run_kind;
pub mod runner;
pub mod soak;
#[cfg(test)]
mod testing;

pub use check::check;
pub use compose::{ComposeMissing, DockerError};
pub use expect::Expect;
pub use file::{load, ConfigCheck, Scenario};
pub use file_error::{EventPatternError, ScenarioFileError};
pub use observed::Observed;
pub use runner::Execution;

use std::path::{Path, PathBuf};

/// Runs `scenario` with `exe` (the `retake` binary) and observes the outcome: a review scenario
/// through `retake review` (`runner`), a run scenario through `retake run` (`run_exec`), a
/// container scenario in its Compose stack (`compose`). `keep` keeps the reviewed copy.
pub fn execute(scenario: &Scenario, exe: &Path, keep: bool) -> Result<Execution, ScenarioError> {
    if let Some(stack) = &scenario.compose {
        return compose::execute(scenario, stack, keep);
    }
    if let Some(run) = &scenario.run {
        return run_exec::execute(scenario, run, exe, keep);
    }
    runner::review(scenario, exe, keep)
}

/// Why a scenario could not be loaded or run (as opposed to running and failing its checks).
///
/// `Invalid` and `Git` show their inner error in their own message and do not also give it as
/// their `source()`: an error chain (`retake: error: {e:#}`) prints it once.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file is not a valid scenario; the message names the file, then the key.
    #[error("{}: {error}", file.display())]
    Invalid {
        /// The scenario file.
        file: PathBuf,
        /// What is wrong, naming the key (boxed: a `Result` of this error stays small).
        error: Box<ScenarioFileError>,
    },
    /// A container scenario needs Docker Compose, which is not on this machine.
    #[error(transparent)]
    NoCompose(#[from] ComposeMissing),
    /// git, which prepares the reviewed copy and counts a run's commits, is missing or refused.
    #[error("{error} (in {})", repo.display())]
    Git {
        /// The repository git ran in.
        repo: PathBuf,
        /// What git said.
        error: protocol::exec::git::GitError,
    },
    /// Local I/O failed while preparing or running a scenario.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: std::io::Error,
    },
}

pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> ScenarioError {
    let context = context.into();
    move |source| ScenarioError::Io { context, source }
}
