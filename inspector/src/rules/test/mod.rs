//! The test Inspector's rules: run the project's tests once, report each failing test, and
//! report a command that could not run as an environment error — never as "0 tests failed".
//!
//! Both rules report from one run: the rules of one review are built together by [`rules`],
//! which gives them a shared slot. `test-failure` (first in catalog order) runs the command and
//! leaves the outcome there; `environment-error` takes it, or runs the command itself when
//! `test-failure` is disabled.

mod command;
mod conventions;
mod coverage;
mod environment_error;
mod false_positive_risk;
mod gotest;
mod jest;
mod libtest;
mod locate;
mod missing_integration_tests;
mod missing_test_file;
mod outcome;
mod pytest;
mod regression;
mod runner;
mod test_failure;
mod test_run;
mod weak_assertion;

use crate::engine::{Context, Rule};
use outcome::{run_tests, Outcome};
use std::sync::{Arc, Mutex};

/// Every test rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    let shared = Arc::new(Shared::default());
    vec![
        Box::new(test_failure::TestFailure::new(Arc::clone(&shared))),
        Box::new(environment_error::EnvironmentError::new(Arc::clone(&shared))),
        Box::new(regression::Regression::new(shared)),
        Box::new(missing_test_file::MissingTestFile),
        Box::new(weak_assertion::WeakAssertion),
        Box::new(false_positive_risk::FalsePositiveRisk),
        Box::new(missing_integration_tests::MissingIntegrationTests),
        Box::new(coverage::Coverage),
    ]
}

/// The outcome of this review's test run, passed from the rule that ran it to the other.
#[derive(Debug, Default)]
struct Shared(Mutex<Option<Arc<Outcome>>>);

impl Shared {
    /// The outcome of this review's run: the one an earlier rule left, or a new run (left for
    /// the rules after it). Rules run one after another, so the tests run once.
    fn outcome(&self, ctx: &Context) -> Arc<Outcome> {
        let mut slot = self.slot();
        Arc::clone(slot.get_or_insert_with(|| Arc::new(run_tests(ctx))))
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Arc<Outcome>>> {
        // A panic while holding the lock leaves at worst a stale outcome; still usable.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
