//! The judge: a pure function from one iteration's evidence (output, change, repository state,
//! check results, template result) to PASS, REJECT or RETRY. It fails closed: PASS needs every
//! mandatory criterion, every configured check and the template evaluator to have passed;
//! empty or unparseable output is a REJECT; a timeout or executor error is a RETRY while
//! retries are left and a REJECT after that. A task that owns no file cannot pass (no change
//! can be told to be its own); a fix task passes only when the findings it was made for are
//! confirmed gone by their rules (`recheck`); an attempt that only suppresses findings or
//! weakens tests is not evidence of completion (`evasion`).

pub mod evasion;
mod markers;
mod quality;
mod syntax;

pub use syntax::syntax_problem;

use crate::change::{ChangeSet, Snapshot};
use crate::config::LoopConfig;
use crate::criteria::{Criterion, CriterionResult, Issue};
use crate::evaluator::TemplateOutcome;
use crate::executor::ExecOutcome;
use crate::recheck::Recheck;
use protocol::domain::{Judgment, Task, TaskOrigin};
use protocol::Finding;
use serde::{Deserialize, Serialize};

/// What the task must leave behind (Q1, Q5).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Expectations {
    /// Files that must exist afterwards.
    pub expected_files: Vec<String>,
    /// Files that must differ from the baseline afterwards.
    pub must_change: Vec<String>,
    /// Whether some file must change at all (evidence for Q5).
    pub requires_change: bool,
    /// The task owns no file: nothing it changes can be told to be its own, so Q1 fails.
    pub owns_nothing: bool,
    /// The findings a fix task was made for: each must be confirmed gone by a re-check (Q5).
    pub findings: Vec<Finding>,
    /// A test-writing task: the change must add or change test code (Q5).
    pub writes_tests: bool,
}

impl Expectations {
    /// From a task: its owned paths that name files (no glob, no trailing `/`) must exist; a
    /// fix task must change them; every task must change something, and a task that owns
    /// nothing cannot pass. A fix task that owns test code is a test-writing task (the Lead
    /// makes missing-test findings into tasks that own the conventional test file): it must
    /// add test code, anywhere it owns, and no particular file has to exist or change.
    pub fn from_task(task: &Task) -> Expectations {
        let files = owned_files(task);
        let writes_tests = task.origin == TaskOrigin::Fix
            && task.owns.iter().any(|p| {
                let p = p.trim_start_matches("./");
                !p.contains(['*', '?', '[']) && inspector::engine::is_test_path(p)
                    || p.trim_end_matches('/').rsplit('/').next() == Some("tests")
            });
        let (expected_files, must_change) = if writes_tests {
            (Vec::new(), Vec::new())
        } else if task.origin == TaskOrigin::Fix {
            (files.clone(), files)
        } else {
            (files, Vec::new())
        };
        Expectations {
            expected_files,
            must_change,
            requires_change: true,
            owns_nothing: task.owns.is_empty(),
            findings: Vec::new(),
            writes_tests,
        }
    }
}

/// The task's owned paths that name files (no glob, no trailing `/`), without `./`.
pub fn owned_files(task: &Task) -> Vec<String> {
    task.owns
        .iter()
        .filter(|p| !p.ends_with('/') && !p.contains(['*', '?', '[']))
        .map(|p| p.trim_start_matches("./").to_string())
        .collect()
}

/// How an optional check command ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckResult {
    /// Exit 0.
    Passed,
    /// Another exit, with the end of its output.
    Failed {
        /// The exit code; `None` when a signal ended it.
        code: Option<i32>,
        /// The last lines of its output.
        tail: String,
    },
    /// It ran past its time limit.
    TimedOut,
    /// It could not be started.
    NotStarted(String),
}

/// One optional criterion's command and how it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRun {
    /// Q7, Q8 or Q9.
    pub criterion: Criterion,
    /// The argv that ran.
    pub command: Vec<String>,
    /// How it ended.
    pub result: CheckResult,
}

/// The executor's standard output as the judge reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// UTF-8 text without NUL bytes.
    Text(String),
    /// Anything else: not something the judge can read.
    Unparseable,
}

impl Output {
    /// Decodes captured bytes.
    pub fn decode(bytes: &[u8]) -> Output {
        match std::str::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => Output::Text(text.to_string()),
            _ => Output::Unparseable,
        }
    }

    fn text(&self) -> &str {
        match self {
            Output::Text(t) => t,
            Output::Unparseable => "",
        }
    }
}

/// Everything the judge looks at for one iteration.
#[derive(Debug, Clone, Copy)]
pub struct JudgeInput<'a> {
    /// How the executor ended.
    pub outcome: &'a ExecOutcome,
    /// Whether a timeout or executor error may still be retried.
    pub retries_left: bool,
    /// What changed since the loop began.
    pub change: &'a ChangeSet,
    /// The repository now.
    pub now: &'a Snapshot,
    /// What the task must leave behind.
    pub expectations: &'a Expectations,
    /// The optional criteria's command results.
    pub checks: &'a [CheckRun],
    /// The template evaluator's result, when the task has a template.
    pub template: Option<&'a TemplateOutcome>,
    /// The re-check of `expectations.findings`, when they were run again.
    pub recheck: Option<&'a Recheck>,
    /// Patterns and limits.
    pub config: &'a LoopConfig,
}

/// The judge's decision for one iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    /// PASS, REJECT or RETRY.
    pub judgment: Judgment,
    /// Every criterion judged (Q1–Q6, then Q7–Q9 when configured, then template criteria).
    pub criteria_results: Vec<CriterionResult>,
    /// The problems found, for the modification prompt.
    pub issues: Vec<Issue>,
    /// The template evaluator's result, when one ran.
    pub template: Option<TemplateOutcome>,
    /// One line for the QUALITY_JUDGMENT event.
    pub summary: String,
}

impl Judgement {
    /// The ids of the failed criteria, in judging order.
    pub fn criteria_failed(&self) -> Vec<String> {
        self.criteria_results
            .iter()
            .filter(|c| !c.passed)
            .map(|c| c.criteria_id.clone())
            .collect()
    }
}

/// Whether this outcome asks for a RETRY instead of a judgement (a timeout or executor error
/// with retries left); the result carries the reason.
pub fn retry_for(outcome: &ExecOutcome, retries_left: bool) -> Option<Judgement> {
    let reason = outcome.transient_problem().filter(|_| retries_left)?;
    Some(Judgement {
        judgment: Judgment::Retry,
        criteria_results: Vec::new(),
        issues: Vec::new(),
        template: None,
        summary: format!("executor did not finish ({reason}); retrying with the same prompt"),
    })
}

/// The judge on a change alone, for a caller that runs its own executor and checks (the
/// Lead's `retake fix`): Q4 (every changed file still parses) and Q5's change part (no
/// evasion, tests written when asked for, every finding confirmed gone by `recheck`). Empty
/// means the change holds up.
pub fn change_issues(
    change: &ChangeSet,
    expectations: &Expectations,
    recheck: Option<&Recheck>,
) -> Vec<Issue> {
    let (_, mut issues) = quality::q4_syntax(change);
    issues.extend(quality::change_evidence(change, expectations, recheck));
    issues
}

/// Judges one iteration.
pub fn judge(input: &JudgeInput<'_>) -> Judgement {
    if let Some(retry) = retry_for(input.outcome, input.retries_left) {
        return retry;
    }
    let output = Output::decode(input.outcome.stdout());
    let text = output.text();
    let problem = input.outcome.transient_problem();
    let mut checked = vec![
        quality::q1_files(input.now, input.change, input.expectations),
        quality::q2_todo(input.change, text),
        quality::q3_omission(input.change, text, input.config),
        quality::q4_syntax(input.change),
        quality::q5_evidence(
            &output,
            (problem.as_deref(), input.outcome.refusal()),
            input.change,
            input.expectations,
            input.recheck,
        ),
        quality::q6_early_termination(text, input.config),
    ];
    checked.extend(input.checks.iter().map(quality::optional_check));
    let mut criteria_results = Vec::new();
    let mut issues = Vec::new();
    for (result, found) in checked {
        criteria_results.push(result);
        issues.extend(found);
    }
    if let Some(template) = input.template {
        criteria_results.extend(template.criteria_results());
    }
    let mandatory_judged = Criterion::MANDATORY
        .iter()
        .all(|c| criteria_results.iter().any(|r| r.criteria_id == c.id()));
    let all_passed = criteria_results.iter().all(|r| r.passed)
        && input.template.is_none_or(TemplateOutcome::passed);
    let judgment = if mandatory_judged && all_passed {
        Judgment::Pass
    } else {
        Judgment::Reject
    };
    let summary = match judgment {
        Judgment::Pass => format!("all {} criteria met", criteria_results.len()),
        _ => criteria_results
            .iter()
            .filter(|r| !r.passed)
            .map(|r| match &r.details {
                Some(d) => format!("{}: {d}", r.criteria_id),
                None => r.criteria_id.clone(),
            })
            .collect::<Vec<_>>()
            .join("; "),
    };
    Judgement {
        judgment,
        criteria_results,
        issues,
        template: input.template.cloned(),
        summary,
    }
}

#[cfg(test)]
mod tests;
