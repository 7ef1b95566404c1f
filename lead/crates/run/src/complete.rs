//! Phase C: after the review's approval — the APPROVE fast path check, integration
//! verification (stopping at the first failure), the plan's tasks marked done, one Conventional
//! Commit of the run's changes, the state cleaned up, and the completion report.

use super::state::RunState;
use host::journal::write_atomic;
use protocol::exec::git::work_tree;
use protocol::exec::sandbox::{self, Ran};
use protocol::exec::{Extra, RunError};
use protocol::{Decision, Grade, Task, TaskStatus};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;
use team::commit_message::{commit_message, CommitInput};
use team::completion::{
    completion_report, parse_timeline, team_activity, CompletionInput, TestRun,
};
use team::plan::{local_id, mark_done_plans_md, mark_done_tasks_yaml, Plan, PlanFormat};
use team::review_result::approve_fast_path;
use team::verification::{project_facts, verification_steps};

/// What Phase C works with.
#[derive(Debug, Clone)]
pub struct CompleteInput<'a> {
    /// The repository root.
    pub repo: &'a Path,
    /// The run's state folder.
    pub state: &'a RunState,
    /// The session id.
    pub session_id: &'a str,
    /// The range as typed.
    pub range: &'a str,
    /// The accepted review's repository-wide findings, as notes for the report.
    pub repository_wide: &'a [String],
    /// Seconds since the run started.
    pub duration_secs: u64,
    /// Implementers started.
    pub implementers: u32,
    /// Review rounds that asked for changes.
    pub retakes: u32,
    /// Every task of the run (plan tasks and fix tasks).
    pub tasks: &'a [Task],
    /// Task id → plan number, for the plan's tasks.
    pub plans_mapping: &'a BTreeMap<u32, String>,
    /// The plan as read in Phase A.
    pub plan: &'a Plan,
    /// The final review's decision and grade.
    pub review: (Decision, Grade),
    /// Time limit of each verification command.
    pub verify_timeout: Duration,
    /// The run's test command (`environment::test_command`): verified first, its result is the
    /// report's test line.
    pub test: Option<&'a [String]>,
}

/// How Phase C ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completed {
    /// Committed and cleaned up; the completion report.
    Done(String),
    /// A verification command failed: nothing was committed; the report.
    VerificationFailed(String),
}

/// Why Phase C could not finish (a failed verification is a [`Completed`], not an error).
#[derive(Debug, thiserror::Error)]
pub enum CompleteError {
    /// A verification command could not be started.
    #[error("cannot run {command}: {source}")]
    Verify {
        /// The command, as shown.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// A plan file could not be read or written.
    #[error("cannot {action} {file}: {source}")]
    PlanFile {
        /// `read` or `write`.
        action: &'static str,
        /// The plan file, relative to the repository.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// A plan file no longer holds the run's tasks as they were read.
    #[error(transparent)]
    Plan(#[from] team::plan::PlanError),
    /// The run's commit failed.
    #[error(transparent)]
    Commit(#[from] work_tree::WorkTreeError),
}

/// Runs Phase C.
pub fn complete(input: &CompleteInput<'_>) -> Result<Completed, CompleteError> {
    let head = protocol::exec::git::head_commit(input.repo);
    let fast = approve_fast_path(input.state.review_result().as_ref(), head.as_deref());
    tracing::info!(fast_path = fast, "Phase C");
    let tests = match verify(input)? {
        Ok(tests) => tests,
        Err(report) => return Ok(Completed::VerificationFailed(report)),
    };
    let shown_test = input.test.map(|t| t.join(" "));
    mark_plan_done(input)?;
    let completed: Vec<Task> = input
        .tasks
        .iter()
        .filter(|t| t.status == TaskStatus::Completed)
        .cloned()
        .collect();
    let message = commit_message(&CommitInput {
        tasks: &completed,
        plans_mapping: input.plans_mapping,
        session_id: input.session_id,
        review: Some(input.review),
    });
    let mut header = message.lines().next().unwrap_or_default().to_string();
    let mut hash = work_tree::commit_all(input.repo, &message)?;
    if hash.is_none() {
        // Nothing left to commit: a resumed run whose Lead stopped after its commit.
        if let Some((made, subject)) = work_tree::session_commit(input.repo, input.session_id)? {
            hash = Some(made);
            header = subject;
        }
    }
    let activity = team_activity(&parse_timeline(&input.state.timeline()));
    input.state.clean_up();
    let short = hash
        .as_deref()
        .map(|h| h.chars().take(7).collect::<String>());
    let report = completion_report(&CompletionInput {
        range: input.range,
        duration_secs: input.duration_secs,
        implementers: input.implementers,
        retakes: input.retakes,
        tasks: input.tasks,
        activity: &activity,
        review: Some(input.review),
        build_ok: Some(true),
        tests: tests
            .zip(shown_test.as_deref())
            .map(|((passed, counts), command)| TestRun {
                command,
                passed,
                counts,
            }),
        commit: short.as_deref().map(|h| (h, header.as_str())),
        repository_wide: input.repository_wide,
    });
    Ok(Completed::Done(report))
}

/// Whether the test run passed and the counts its output gives.
type TestOutcome = (bool, Option<(u32, u32)>);

/// Runs the verification steps — the test command first, then the detected steps it does not
/// repeat — up to the first failure: the test command's outcome, or the failure's report.
fn verify(input: &CompleteInput<'_>) -> Result<Result<Option<TestOutcome>, String>, CompleteError> {
    let mut tests = None;
    let detected = verification_steps(&project_facts(input.repo, Vec::new()));
    let steps: Vec<Vec<String>> = input
        .test
        .map(<[String]>::to_vec)
        .into_iter()
        .chain(
            detected
                .into_iter()
                .filter(|s| Some(s.as_slice()) != input.test),
        )
        .collect();
    for argv in &steps {
        let shown = argv.join(" ");
        eprintln!("retake run: verifying: {shown}");
        let ran = match sandbox::run(argv, input.repo, input.verify_timeout, &Extra::default()) {
            Ok(ran) => Some(ran),
            Err(RunError::TimedOut) => None,
            Err(RunError::Spawn(source)) => {
                return Err(CompleteError::Verify {
                    command: shown,
                    source,
                })
            }
        };
        if Some(argv.as_slice()) == input.test {
            tests = Some((
                ran.as_ref().is_some_and(Ran::ok),
                ran.as_ref()
                    .and_then(|r| cargo_test_counts(&format!("{}\n{}", r.stdout, r.stderr))),
            ));
        }
        match ran {
            Some(ran) if ran.ok() => {}
            Some(ran) => return Ok(Err(verification_failed(&shown, &ran.last_line(), false))),
            None => return Ok(Err(verification_failed(&shown, "", true))),
        }
    }
    Ok(Ok(tests))
}

/// Marks the plan's tasks of this run done, in each plan file they come from.
fn mark_plan_done(input: &CompleteInput<'_>) -> Result<(), CompleteError> {
    let mut by_file: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for plan_id in input.plans_mapping.values() {
        if let Some(task) = input.plan.task(plan_id) {
            let id = match input.plan.format {
                PlanFormat::PlansMd => task.id.as_str(),
                PlanFormat::TasksYaml => local_id(task),
            };
            by_file.entry(task.file.as_str()).or_default().push(id);
        }
    }
    for (file, ids) in by_file {
        let path = input.repo.join(file);
        let plan_file = |action| {
            move |source| CompleteError::PlanFile {
                action,
                file: file.to_string(),
                source,
            }
        };
        let text = std::fs::read_to_string(&path).map_err(plan_file("read"))?;
        let done = match input.plan.format {
            PlanFormat::PlansMd => mark_done_plans_md(&text, file, &ids),
            PlanFormat::TasksYaml => mark_done_tasks_yaml(&text, file, &ids),
        }?;
        write_atomic(&path, done.as_bytes()).map_err(plan_file("write"))?;
    }
    Ok(())
}

/// Total (passed, run) of a test command's output, when it says (the `test result:` lines of
/// `cargo test`, or any other runner's summary the test Inspector reads): the workspace's one
/// reading of test output, [`inspector::rules::summarise`].
fn cargo_test_counts(output: &str) -> Option<(u32, u32)> {
    let summary = inspector::rules::summarise(output);
    summary
        .summarised
        .then_some((summary.passed, summary.passed + summary.failed))
}

fn verification_failed(command: &str, last_line: &str, timed_out: bool) -> String {
    let kind = if command.contains("lint") {
        "lint_failure"
    } else {
        "test_failure"
    };
    let why = if timed_out {
        "it ran past its time limit".to_string()
    } else {
        last_line.to_string()
    };
    format!(
        "### Verification Failed\n\n**Decision**: STOP\n**Grade**: N/A (blocked)\n**Failure Type**: {kind}\n\
         **Failed Command**: {command}\n\n**Required Fixes**:\n1. {why}\n\n\
         The run has stopped before its commit. Fix the problem, then continue with `retake resume`.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_counts_add_up_over_test_binaries() {
        let out = "running 2 tests\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
                   test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n";
        assert_eq!(cargo_test_counts(out), Some((5, 6)));
        assert_eq!(cargo_test_counts("no tests here"), None);
    }
}
