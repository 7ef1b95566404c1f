//! `test/regression`: in a session review, a failing test outside the changed files. The change
//! broke code it did not touch, which the changed files alone would never show.

use super::{Outcome, Shared};
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use protocol::{Category, Dimension, Location, Severity};
use std::sync::Arc;

static META: RuleMeta = RuleMeta {
    id: "test/regression",
    category: Category::Regression,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation:
        "A test outside the session's changed files fails: the change broke untouched code.",
};

/// Each failing test located outside a session's changed files → one finding at the test.
pub(crate) struct Regression(Arc<Shared>);

impl Regression {
    /// The rule, reading the run `test-failure` shares through `shared`.
    pub(super) fn new(shared: Arc<Shared>) -> Regression {
        Regression(shared)
    }
}

/// Whether a failing test at `at` is a regression: the review is a session, the test was found
/// in a source file, and that file is not among the changed ones. A test that could not be
/// located (only the manifest is known) stays a plain test failure.
pub(super) fn is_regression(ctx: &Context, at: &Location) -> bool {
    let Some(changes) = &ctx.changes else {
        return false;
    };
    at.line.is_some() && !changes.files.contains_key(&at.path)
}

impl Rule for Regression {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        if ctx.changes.is_none() {
            return;
        }
        let outcome = self.0.outcome(ctx);
        let Outcome::Ran {
            failures, command, ..
        } = outcome.as_ref()
        else {
            return;
        };
        for (at, failure) in failures.iter().filter(|(at, _)| is_regression(ctx, at)) {
            let message = failure
                .message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default();
            out.hit(
                Hit::new(
                    at.clone(),
                    format!(
                        "regression: test `{}` fails outside the changed files{message}",
                        failure.name
                    ),
                    failure.name.clone(),
                )
                .suggest(format!(
                    "run `{command}`: the change broke code it did not touch"
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_failure::TestFailure;
    use super::*;
    use crate::engine::testing::{git, write};
    use crate::spec::testing::{context_with, described, project};
    use protocol::message::InspectOptions;
    use protocol::{DiffFilter, Scope};

    /// Two failing tests: `changed::broken` in the changed file, `untouched::broken` in a file
    /// the branch did not touch.
    const FAILING: &str = "echo 'test changed::tests::broken ... FAILED'; echo 'test untouched::tests::old_case ... FAILED'; echo 'test result: FAILED. 0 passed; 2 failed; 0 ignored'; exit 101";

    fn session() -> (tempfile::TempDir, crate::engine::Context) {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        git(root, &["init", "-q"]);
        let module = |name: &str| {
            format!("pub fn f() {{}}\n#[cfg(test)]\nmod tests {{\n    #[test]\n    fn {name}() {{}}\n}}\n")
        };
        write(root, "src/changed.rs", &module("broken"));
        write(root, "src/untouched.rs", &module("old_case"));
        git(root, &["add", "."]);
        git(root, &["commit", "-q", "-m", "base"]);
        git(root, &["checkout", "-q", "-b", "feature"]);
        write(
            root,
            "src/changed.rs",
            &format!("// changed\n{}", module("broken")),
        );
        let options = InspectOptions {
            test_command: Some(vec!["sh".into(), "-c".into(), FAILING.into()]),
            test_timeout_ms: 20_000,
            ..InspectOptions::default()
        };
        let scope = Scope::Session {
            base: "main".into(),
            filter: DiffFilter::File,
        };
        let ctx = context_with(&dir, scope, options);
        (dir, ctx)
    }

    #[test]
    fn fires_on_failures_outside_the_changed_files() {
        let (_dir, ctx) = session();
        let shared = Arc::new(Shared::default());
        let regressions = project(&Regression::new(Arc::clone(&shared)), &ctx);
        assert_eq!(
            described(&regressions),
            vec![(
                "src/untouched.rs:5".to_string(),
                "regression: test `untouched::tests::old_case` fails outside the changed files"
                    .to_string()
            )]
        );
        let failures = project(&TestFailure::new(shared), &ctx);
        assert_eq!(
            described(&failures),
            vec![(
                "src/changed.rs:6".to_string(),
                "test `changed::tests::broken` failed".to_string()
            )]
        );
    }

    #[test]
    fn quiet_outside_a_session() {
        let (dir, _) = session();
        let options = InspectOptions {
            test_command: Some(vec![
                "sh".into(),
                "-c".into(),
                format!("touch ran; {FAILING}"),
            ]),
            test_timeout_ms: 20_000,
            ..InspectOptions::default()
        };
        let ctx = context_with(&dir, Scope::repository(), options);
        let sink = project(&Regression::new(Arc::default()), &ctx);
        assert!(sink.hits.is_empty() && sink.notes.is_empty());
        // Outside a session it does not even run the tests on its own.
        assert!(!dir.path().join("ran").exists());
    }
}
