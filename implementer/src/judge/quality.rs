//! The mandatory criteria Q1–Q6 and the optional Q7–Q9, one function each, over the output,
//! the change and the repository state: each returns its result and the issues it found.

use super::evasion::evasions;
use super::markers::{early_termination, omission_marker, split_output, todo_marker};
use super::syntax::syntax_problem;
use super::{CheckResult, CheckRun, Expectations, Output};
use crate::change::{ChangeKind, ChangeSet, Snapshot};
use crate::config::LoopConfig;
use crate::criteria::{Criterion, CriterionResult, Issue, IssueType};
use crate::recheck::{Recheck, Status};

/// Issues listed per criterion; the count in the details still covers all of them.
const MAX_ISSUES: usize = 20;

/// One criterion's result and issues.
pub(crate) type Checked = (CriterionResult, Vec<Issue>);

fn finish(criterion: Criterion, mut issues: Vec<Issue>, what: &str) -> Checked {
    if issues.is_empty() {
        return (CriterionResult::pass(criterion.id()), issues);
    }
    let details = format!("{} {what}", issues.len());
    issues.truncate(MAX_ISSUES);
    (CriterionResult::fail(criterion.id(), details), issues)
}

/// Q1: every expected file exists, and each one the task must change did change.
pub(crate) fn q1_files(now: &Snapshot, change: &ChangeSet, expect: &Expectations) -> Checked {
    let mut issues = Vec::new();
    if expect.owns_nothing {
        issues.push(Issue::new(
            IssueType::MissingFile,
            None,
            "the task owns no file, so no change can be judged as its own",
            "Give the task the files it changes (owns); a repository-wide finding is a note, not a task",
        ));
    }
    for path in &expect.expected_files {
        if !now.contains(path) {
            issues.push(Issue::new(
                IssueType::MissingFile,
                Some(path.clone()),
                format!("expected file {path} does not exist"),
                format!("Create {path} with its complete content"),
            ));
        }
    }
    for path in &expect.must_change {
        if now.contains(path) && change.get(path).is_none() {
            issues.push(Issue::new(
                IssueType::MissingFile,
                Some(path.clone()),
                format!("{path} was not changed, but the task is to change it"),
                format!("Make the change the task asks for in {path}"),
            ));
        }
    }
    finish(
        Criterion::Q1,
        issues,
        "expected file(s) missing or unchanged",
    )
}

/// Lines the executor added to changed files, with `path:line` locations.
fn added_lines(change: &ChangeSet) -> Vec<(String, &str)> {
    change
        .files
        .iter()
        .flat_map(|f| {
            f.added_lines()
                .into_iter()
                .map(move |(n, line)| (format!("{}:{n}", f.path), line))
        })
        .collect()
}

/// Added lines and the output's code-block lines, each with its location.
fn code_lines<'a>(change: &'a ChangeSet, output: &'a str) -> Vec<(String, &'a str)> {
    let mut lines = added_lines(change);
    let parts = split_output(output);
    lines.extend(
        parts
            .code
            .into_iter()
            .map(|(n, l)| (format!("output:{n}"), l)),
    );
    lines
}

/// Q2: no TODO, FIXME, TBD, `todo!()` or `unimplemented!()` in what the executor wrote.
pub(crate) fn q2_todo(change: &ChangeSet, output: &str) -> Checked {
    let issues = code_lines(change, output)
        .into_iter()
        .filter_map(|(at, line)| {
            todo_marker(line).map(|m| {
                Issue::new(
                    IssueType::Incomplete,
                    Some(at),
                    format!("{m} marker left: `{}`", clip(line.trim())),
                    "Implement what the marker stands for and remove it",
                )
            })
        })
        .collect();
    finish(Criterion::Q2, issues, "TODO/FIXME/TBD marker(s) left")
}

/// Q3: no omission markers in what the executor wrote.
pub(crate) fn q3_omission(change: &ChangeSet, output: &str, config: &LoopConfig) -> Checked {
    let issues = code_lines(change, output)
        .into_iter()
        .filter_map(|(at, line)| {
            omission_marker(line, &config.omission_patterns).map(|p| {
                Issue::new(
                    IssueType::Omission,
                    Some(at),
                    format!("omission marker `{p}`: `{}`", clip(line.trim())),
                    "Write out the omitted code in full",
                )
            })
        })
        .collect();
    finish(Criterion::Q3, issues, "omission marker(s)")
}

/// Q4: every added or modified text file that has a checkable language parses.
pub(crate) fn q4_syntax(change: &ChangeSet) -> Checked {
    let issues = change
        .files
        .iter()
        .filter(|f| f.kind != ChangeKind::Deleted)
        .filter_map(|f| {
            let text = f.after.as_deref()?;
            let (line, what) = syntax_problem(&f.path, text)?;
            let at = match line {
                Some(n) => format!("{}:{n}", f.path),
                None => f.path.clone(),
            };
            Some(Issue::new(
                IssueType::SyntaxError,
                Some(at),
                what,
                "Complete the code so the file parses (closing brackets, whole items)",
            ))
        })
        .collect();
    finish(
        Criterion::Q4,
        issues,
        "changed file(s) with incomplete syntax",
    )
}

/// Q5: there is evidence of completion — usable output, a finished executor whose answer was
/// carried out (not refused) and, when the task requires one, a change to the repository.
pub(crate) fn q5_evidence(
    output: &Output,
    (executor_problem, refused): (Option<&str>, Option<&str>),
    change: &ChangeSet,
    expect: &Expectations,
    recheck: Option<&Recheck>,
) -> Checked {
    let mut issues = Vec::new();
    let mut add = |description: String, suggestion: &str| {
        issues.push(Issue::new(
            IssueType::Incomplete,
            None,
            description,
            suggestion,
        ));
    };
    if let Some(problem) = executor_problem {
        add(
            format!("the executor did not finish: {problem}"),
            "Finish the task within the time limit and exit successfully",
        );
    }
    if let Some(reason) = refused {
        add(
            format!("the answer could not be applied, so nothing was written: {reason}"),
            "Answer in the form asked for, changing only the files this task owns",
        );
    }
    match output {
        Output::Unparseable => add(
            "the output is not text (invalid UTF-8 or NUL bytes)".into(),
            "Write a plain-text account of the change to standard output",
        ),
        Output::Text(t) if t.trim().is_empty() => add(
            "the executor wrote nothing to standard output".into(),
            "Report what you changed on standard output",
        ),
        Output::Text(_) => {}
    }
    if expect.requires_change && change.is_empty() {
        add(
            "no file in the repository changed".into(),
            "Make the change the task asks for; a claim of completion is not a change",
        );
    }
    issues.extend(change_evidence(change, expect, recheck));
    finish(Criterion::Q5, issues, "missing piece(s) of evidence")
}

/// The change's own part of Q5, whoever ran the executor: no evasion (suppressions only,
/// weakened tests), test code written when the task is to write tests, and every finding a
/// fix task was made for confirmed gone by its rule.
pub(crate) fn change_evidence(
    change: &ChangeSet,
    expect: &Expectations,
    recheck: Option<&Recheck>,
) -> Vec<Issue> {
    let mut issues: Vec<Issue> = evasions(change)
        .into_iter()
        .map(|e| {
            Issue::new(
                IssueType::Evasion,
                Some(e.location),
                format!("the change {}", e.what),
                "Fix the cause; do not suppress findings or delete, skip or weaken tests",
            )
        })
        .collect();
    if expect.writes_tests && !change.files.iter().any(writes_test_code) {
        issues.push(Issue::new(
            IssueType::MissingFile,
            None,
            "the task is to write tests, but no test file or test function was added",
            "Add a test file (or a test module) that exercises the module",
        ));
    }
    if expect.findings.is_empty() {
        return issues;
    }
    let Some(recheck) = recheck else {
        issues.push(Issue::new(
            IssueType::NotFixed,
            None,
            format!(
                "the {} finding(s) the task was made for were not checked again",
                expect.findings.len()
            ),
            "Nothing to change: the runner must re-run the findings' rules before a PASS",
        ));
        return issues;
    };
    for checked in &recheck.findings {
        let f = &checked.finding;
        let was = match f.location.line {
            Some(n) => format!("{}:{n}", f.location.path),
            None => f.location.path.clone(),
        };
        let (at, description) = match &checked.status {
            Status::Gone => continue,
            Status::Remains { line, suppressed } => {
                let at = match line {
                    Some(n) => format!("{}:{n}", f.location.path),
                    None => f.location.path.clone(),
                };
                let how = match suppressed {
                    Some(s) => format!(" (suppressed by {s}: a suppression is not a fix)"),
                    None => String::new(),
                };
                (
                    at,
                    format!("{} still reports `{}`{how}", f.rule, f.description),
                )
            }
            Status::NotChecked(why) => (
                was,
                format!(
                    "{} `{}` could not be confirmed gone: {why}",
                    f.rule, f.description
                ),
            ),
        };
        issues.push(Issue::new(
            IssueType::NotFixed,
            Some(at),
            description,
            f.suggestion
                .clone()
                .unwrap_or_else(|| "Fix the finding at its cause".to_string()),
        ));
    }
    issues
}

/// Whether a changed file adds test code: a new or changed test file, or a Rust file that
/// gained a `#[test]`.
fn writes_test_code(file: &crate::change::ChangedFile) -> bool {
    if file.kind == ChangeKind::Deleted {
        return false;
    }
    inspector::engine::is_test_path(&file.path)
        || file
            .added_lines()
            .iter()
            .any(|(_, l)| l.trim_start().starts_with("#[test]") || l.contains("#[cfg(test)]"))
}

/// Q6: no early termination claim in the output's prose.
pub(crate) fn q6_early_termination(output: &str, config: &LoopConfig) -> Checked {
    let issues = split_output(output)
        .prose
        .into_iter()
        .filter_map(|(n, line)| {
            early_termination(line, &config.early_termination_patterns).map(|p| {
                Issue::new(
                    IssueType::EarlyTermination,
                    Some(format!("output:{n}")),
                    format!("early completion claim \"{p}\""),
                    "Do not declare the task complete; the runner judges completion",
                )
            })
        })
        .collect();
    finish(Criterion::Q6, issues, "early termination claim(s)")
}

/// Q7–Q9: the caller's test, lint and type-check commands exit 0.
pub(crate) fn optional_check(run: &CheckRun) -> Checked {
    let shown = run.command.join(" ");
    let problem = match &run.result {
        CheckResult::Passed => return (CriterionResult::pass(run.criterion.id()), Vec::new()),
        CheckResult::Failed { code, tail } => {
            let code = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
            format!("`{shown}` failed ({code}):\n{tail}")
        }
        CheckResult::TimedOut => format!("`{shown}` did not finish within its time limit"),
        CheckResult::NotStarted(e) => format!("`{shown}` could not be started: {e}"),
    };
    let issue = Issue::new(
        IssueType::CheckFailed,
        None,
        problem,
        format!("Make `{shown}` pass ({})", run.criterion.name()),
    );
    finish(run.criterion, vec![issue], "command failed")
}

fn clip(line: &str) -> String {
    const MAX: usize = 120;
    match line.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}
