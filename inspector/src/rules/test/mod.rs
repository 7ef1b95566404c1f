//! The test Inspector's rules: run the tests, and judge the tests.
//!
//! Running: the project's test command runs once per review; each failing test is reported
//! (`test-failure`, or `regression` when a session's change broke a file it did not touch), and
//! a command that could not run is an environment error — never "0 tests failed". A configured
//! coverage command's total is noted (`coverage`).
//!
//! Judging, statically: implementation files without tests by their language's convention,
//! tests that cannot fail, mocks that never check arguments, projects without integration
//! tests, acceptance criteria the `AC:` markers leave uncovered or name wrongly, and test
//! categories design.md's Testing Strategy promises but the tests lack.
//!
//! The rules of one review are built together by [`rules`] and share a [`Shared`]: whichever
//! runs first runs the tests (or reads the markers) and leaves the result for the others.

mod ac_coverage;
mod black_box;
mod command;
mod conventions;
mod coverage;
mod environment_error;
mod false_positive_risk;
mod gotest;
mod imports;
mod jest;
mod libtest;
mod locate;
mod missing_integration_tests;
mod missing_test_file;
mod outcome;
mod pytest;
mod regression;
mod runner;
mod stale_ac_marker;
mod strategy_gap;
mod test_failure;
pub(crate) mod test_run;
mod weak_assertion;
pub(crate) use weak_assertion::vocabulary;

use crate::engine::{Context, Rule};
use crate::rules::ac_markers::{repository_markers, Marker};
use crate::rules::repository_files::RepositoryFiles;
use outcome::{run_tests, Outcome};
use std::sync::{Arc, Mutex, MutexGuard};

/// Every test rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    let shared = Arc::new(Shared::default());
    vec![
        Box::new(test_failure::TestFailure::new(Arc::clone(&shared))),
        Box::new(environment_error::EnvironmentError::new(Arc::clone(
            &shared,
        ))),
        Box::new(regression::Regression::new(Arc::clone(&shared))),
        Box::new(missing_test_file::MissingTestFile),
        Box::new(weak_assertion::WeakAssertion::CANNOT_FAIL),
        Box::new(weak_assertion::WeakAssertion::FREE),
        Box::new(false_positive_risk::FalsePositiveRisk),
        Box::new(missing_integration_tests::MissingIntegrationTests),
        Box::new(coverage::Coverage),
        Box::new(ac_coverage::AcCoverage::new(Arc::clone(&shared))),
        Box::new(stale_ac_marker::StaleAcMarker::new(shared)),
        Box::new(strategy_gap::StrategyGap),
    ]
}

/// What the rules of one review compute once and share: the test run's outcome and the
/// repository's AC markers.
#[derive(Debug, Default)]
struct Shared {
    outcome: Mutex<Option<Arc<Outcome>>>,
    markers: Mutex<Option<Arc<Vec<Marker>>>>,
}

impl Shared {
    /// The outcome of this review's run: the one an earlier rule left, or a new run (left for
    /// the rules after it). The lock is held while the tests run, so they run once.
    fn outcome(&self, ctx: &Context) -> Arc<Outcome> {
        let mut slot = lock(&self.outcome);
        Arc::clone(slot.get_or_insert_with(|| Arc::new(run_tests(ctx))))
    }

    /// The repository's AC markers, read once.
    fn markers(&self, ctx: &Context) -> Arc<Vec<Marker>> {
        let mut slot = lock(&self.markers);
        Arc::clone(
            slot.get_or_insert_with(|| Arc::new(repository_markers(&RepositoryFiles::of(ctx)))),
        )
    }
}

/// A slot's guard; a panic while it was held leaves at worst a stale value, still usable.
fn lock<T>(slot: &Mutex<T>) -> MutexGuard<'_, T> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
