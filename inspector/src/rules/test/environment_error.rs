//! `test/environment-error`: a test command that could not run — missing tool, timeout, or a
//! failure before any test ran (a compile error) — reported as such, never as "0 tests failed".

use super::{Outcome, Shared};
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use protocol::{Category, Dimension, Severity};
use std::sync::Arc;

static META: RuleMeta = RuleMeta {
    id: "test/environment-error",
    category: Category::EnvironmentError,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::ActionItems],
    explanation: "The test command could not run, timed out, or failed before any test ran.",
};

/// The test run's environment error, when it had one → one finding.
pub(crate) struct EnvironmentError(Arc<Shared>);

impl EnvironmentError {
    /// The rule, reading the run `test-failure` shares through `shared`.
    pub(super) fn new(shared: Arc<Shared>) -> EnvironmentError {
        EnvironmentError(shared)
    }
}

impl Rule for EnvironmentError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let outcome = self.0.outcome(ctx);
        if let Outcome::EnvironmentError {
            location,
            description,
            key,
            ..
        } = outcome.as_ref()
        {
            out.hit(
                Hit::new(location.clone(), description.clone(), key.clone()).suggest(
                    "install the tool or fix the build, or configure [test] command and timeout",
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context_with, described, project, repo};
    use protocol::message::InspectOptions;
    use protocol::Scope;
    use std::time::{Duration, Instant};

    fn sink_for(files: &[(&str, &str)], argv: &[&str], timeout_ms: u64) -> Sink {
        let dir = repo(files);
        let options = InspectOptions {
            test_command: Some(argv.iter().map(|w| w.to_string()).collect()),
            test_timeout_ms: timeout_ms,
            ..InspectOptions::default()
        };
        let ctx = context_with(&dir, Scope::repository(), options);
        project(&EnvironmentError::new(Arc::default()), &ctx)
    }

    #[test]
    fn a_timeout_is_an_environment_error() {
        let started = Instant::now();
        let sink = sink_for(&[], &["sleep", "5"], 300);
        assert!(started.elapsed() < Duration::from_secs(3));
        assert_eq!(
            described(&sink),
            vec![(
                String::new(),
                "test command timed out after 0.3s: sleep 5".to_string()
            )]
        );
    }

    #[test]
    fn a_missing_tool_is_an_environment_error() {
        let sink = sink_for(&[], &["retake-no-such-runner", "test"], 5_000);
        assert_eq!(sink.hits.len(), 1);
        assert!(
            sink.hits[0]
                .description
                .starts_with("test command could not run: retake-no-such-runner test: "),
            "{}",
            sink.hits[0].description
        );
    }

    #[test]
    fn a_build_failure_is_an_environment_error() {
        let sink = sink_for(
            &[],
            &["sh", "-c", "echo '   Compiling a v0.1.0' >&2; echo 'error[E0425]: cannot find value `x`' >&2; exit 101"],
            20_000,
        );
        assert_eq!(
            described(&sink),
            vec![(
                String::new(),
                "tests did not build or run: error[E0425]: cannot find value `x`".to_string()
            )]
        );
    }

    #[test]
    fn quiet_when_the_command_runs_even_with_failures() {
        let failing = "echo 'test a::b ... FAILED'; echo 'test result: FAILED. 0 passed; 1 failed; 0 ignored'; exit 101";
        assert!(sink_for(&[], &["sh", "-c", failing], 20_000)
            .hits
            .is_empty());
        let passing = "echo 'test result: ok. 3 passed; 0 failed; 0 ignored'";
        assert!(sink_for(&[], &["sh", "-c", passing], 20_000)
            .hits
            .is_empty());
    }
}
