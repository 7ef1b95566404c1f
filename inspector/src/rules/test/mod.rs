//! The test Inspector's rules: run the project's tests once, report each failing test, and
//! report a command that could not run as an environment error — never as "0 tests failed".
//!
//! Both rules report from one run: the rules of one review are built together by [`rules`],
//! which gives them a shared slot. `test-failure` (first in catalog order) runs the command and
//! leaves the outcome there; `environment-error` takes it, or runs the command itself when
//! `test-failure` is disabled.

mod command;
mod environment_error;
mod gotest;
mod jest;
mod libtest;
mod locate;
mod outcome;
mod pytest;
mod runner;
mod test_failure;
mod test_run;

use crate::engine::{Context, Rule};
use outcome::{run_tests, Outcome};
use std::sync::{Arc, Mutex};

/// Every test rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    let shared = Arc::new(Shared::default());
    vec![
        Box::new(test_failure::TestFailure::new(Arc::clone(&shared))),
        Box::new(environment_error::EnvironmentError::new(shared)),
    ]
}

/// The outcome of this review's test run, passed from the rule that ran it to the other.
#[derive(Debug, Default)]
struct Shared(Mutex<Option<Arc<Outcome>>>);

impl Shared {
    /// Runs the tests and leaves the outcome for the other rule.
    fn run_and_share(&self, ctx: &Context) -> Arc<Outcome> {
        let outcome = Arc::new(run_tests(ctx));
        *self.slot() = Some(Arc::clone(&outcome));
        outcome
    }

    /// Takes the outcome the other rule left, or runs the tests.
    fn take_or_run(&self, ctx: &Context) -> Arc<Outcome> {
        let left = self.slot().take();
        left.unwrap_or_else(|| Arc::new(run_tests(ctx)))
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Arc<Outcome>>> {
        // A panic while holding the lock leaves at worst a stale outcome; still usable.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
