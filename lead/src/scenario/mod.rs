//! Recovery scenarios (the supervision spec, "Scenarios"): run the real `retake review` on a copy of a
//! repository with faults injected, and check the outcome — verdict, notes, restarts, journaled
//! reports, time, and that no process outlives the review.
//!
//! The checks are pure functions over what a run left behind (`check`); the process work —
//! copying, spawning, timing, looking for leftovers — is in `runner` and `leftovers`, and for
//! container scenarios (a job of `retake serve` in a Compose stack) in `compose`. Run scenarios
//! (`retake run` of the team loop, and its Lead killed and resumed) are `run_kind`'s.

pub mod check;
pub mod compose;
pub mod file;
pub mod lead_crash;
pub mod leftovers;
pub mod prng;
pub mod report;
pub mod run_check;
pub mod run_exec;
pub mod run_kind;
pub mod runner;
pub mod soak;

pub use check::{check, Observed};
pub use file::{load, Expect, Scenario};

use std::path::PathBuf;

/// Why a scenario could not be loaded or run (as opposed to running and failing its checks).
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file is not a valid scenario; the message names the key.
    #[error("{}: {message}", file.display())]
    Invalid {
        /// The scenario file.
        file: PathBuf,
        /// What is wrong, naming the key.
        message: String,
    },
    /// What a scenario needs is not on this machine (Docker Compose for a container scenario).
    #[error("{message}")]
    Environment {
        /// What is missing and how to provide it.
        message: String,
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
