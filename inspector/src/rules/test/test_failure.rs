//! `test/test-failure`: each failing test of the test run, named, with its first message line.
//! In a session review, a failing test outside the changed files is a regression instead
//! (`test/regression`).

use super::regression::is_regression;
use super::{Outcome, Shared};
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use protocol::{Category, Claim, Dimension, Location, Severity};
use std::sync::Arc;

static META: RuleMeta = RuleMeta {
    id: "test/test-failure",
    category: Category::TestFailure,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation: "A test fails when the project's test command runs.",
};

/// Runs the tests; each failing test → one finding at its function; claims the counts.
pub(crate) struct TestFailure(Arc<Shared>);

impl TestFailure {
    /// The rule, sharing its run with `environment-error` through `shared`.
    pub(super) fn new(shared: Arc<Shared>) -> TestFailure {
        TestFailure(shared)
    }
}

impl Rule for TestFailure {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let outcome = self.0.outcome(ctx);
        report(ctx, &outcome, out);
    }
}

fn report(ctx: &Context, outcome: &Outcome, out: &mut Sink) {
    match outcome {
        Outcome::NotRun { note, reason } => {
            out.note(note.clone());
            out.claims.push(Claim::TestsNotRun {
                reason: reason.clone(),
            });
        }
        Outcome::EnvironmentError {
            reason, partial, ..
        } => out.claims.push(match partial {
            Some(run) => Claim::TestsRun {
                passed: run.passed,
                failed: run.failed,
                skipped: run.skipped,
            },
            None => Claim::TestsNotRun {
                reason: reason.clone(),
            },
        }),
        Outcome::Ran {
            run,
            failures,
            command,
            location,
        } => {
            for (at, failure) in failures.iter().filter(|(at, _)| !is_regression(ctx, at)) {
                let description = match &failure.message {
                    Some(message) => format!("test `{}` failed: {message}", failure.name),
                    None => format!("test `{}` failed", failure.name),
                };
                out.hit(
                    Hit::new(at.clone(), description, failure.name.clone())
                        .suggest(format!("run `{command}` and fix the code or the test")),
                );
            }
            let unnamed = run.failed.saturating_sub(failures.len() as u32);
            if failures.is_empty() && unnamed > 0 {
                out.hit(Hit::new(
                    Location::clone(location),
                    format!("{unnamed} tests failed in `{command}`, but its output names none"),
                    command.clone(),
                ));
            }
            out.claims.push(Claim::TestsRun {
                passed: run.passed,
                failed: run.failed,
                skipped: run.skipped,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test::rules;
    use crate::spec::testing::{context_with, described, project, repo};
    use protocol::message::InspectOptions;
    use protocol::Scope;

    fn options(argv: &[&str]) -> InspectOptions {
        InspectOptions {
            test_command: Some(argv.iter().map(|w| w.to_string()).collect()),
            test_timeout_ms: 20_000,
            ..InspectOptions::default()
        }
    }

    const FAILING: &str = "echo 'running 2 tests'; echo 'test users::creates ... ok'; echo 'test users::rejects ... FAILED'; echo; echo '---- users::rejects stdout ----'; echo \"thread 'users::rejects' panicked at src/users.rs:9:5:\"; echo 'duplicate accepted'; echo; echo 'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out'; exit 101";

    #[test]
    fn fires_on_each_failing_test_of_a_real_run() {
        let dir = repo(&[
            ("Cargo.toml", "[package]\nname = \"users\"\n"),
            (
                "src/users.rs",
                "#[cfg(test)]\nmod tests {\n    #[test]\n    fn rejects() {}\n}\n",
            ),
        ]);
        let ctx = context_with(&dir, Scope::repository(), options(&["sh", "-c", FAILING]));
        let sink = project(&TestFailure::new(Arc::default()), &ctx);
        assert_eq!(
            described(&sink),
            vec![(
                "src/users.rs:4".to_string(),
                "test `users::rejects` failed: duplicate accepted".to_string()
            )]
        );
        assert_eq!(
            sink.claims,
            vec![Claim::TestsRun {
                passed: 1,
                failed: 1,
                skipped: 0
            }]
        );
    }

    #[test]
    fn quiet_when_the_tests_pass() {
        let dir = repo(&[("Cargo.toml", "[package]\n")]);
        let passing = "echo 'test a::b ... ok'; echo 'test result: ok. 1 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out'";
        let ctx = context_with(&dir, Scope::repository(), options(&["sh", "-c", passing]));
        let sink = project(&TestFailure::new(Arc::default()), &ctx);
        assert!(sink.hits.is_empty());
        assert_eq!(
            sink.claims,
            vec![Claim::TestsRun {
                passed: 1,
                failed: 0,
                skipped: 2
            }]
        );
    }

    #[test]
    fn no_exec_runs_nothing_and_says_so() {
        let dir = repo(&[("Cargo.toml", "[package]\n")]);
        let options = InspectOptions {
            no_exec: true,
            ..options(&["sh", "-c", "touch ran"])
        };
        let ctx = context_with(&dir, Scope::repository(), options);
        let sink = project(&TestFailure::new(Arc::default()), &ctx);
        assert!(sink.hits.is_empty());
        assert_eq!(sink.notes, vec!["test: not run (--no-exec)".to_string()]);
        assert_eq!(
            sink.claims,
            vec![Claim::TestsNotRun {
                reason: "--no-exec".into()
            }]
        );
        assert!(!dir.path().join("ran").exists());
    }

    #[test]
    fn both_rules_share_one_run() {
        let dir = repo(&[("Cargo.toml", "[package]\n")]);
        let ctx = context_with(
            &dir,
            Scope::repository(),
            options(&[
                "sh",
                "-c",
                "echo x >> runs; echo 'test result: ok. 0 passed; 0 failed; 0 ignored'",
            ]),
        );
        for rule in rules() {
            project(rule.as_ref(), &ctx);
        }
        let runs = std::fs::read_to_string(dir.path().join("runs")).expect("runs");
        assert_eq!(runs, "x\n");
    }
}
