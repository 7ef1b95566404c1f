//! Findings → fix tasks, when a review asks for changes: one task per set of files a fix owns
//! (`fix::targets`: the finding's file, or for a missing-test finding the test file its
//! language's convention names) holding all of those findings; tasks whose findings are all
//! auto-fixable first (the built-in executor can do them mechanically), then by their most
//! severe finding, Critical → High → Medium → Low, then by path. Suppressed findings are not
//! work, and repository-wide findings (no file) are no task a judge could ever pass: they are
//! notes for the report ([`repository_wide_notes`]).

use super::active_form::fixing;
use super::fix::targets::{fix_files, is_repository_wide, writes_tests};
use protocol::{Finding, Severity, Task, TaskOrigin, TaskStatus};

/// One file's fix task, before it gets an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixTask {
    /// The file (empty for repository-wide findings).
    pub file: String,
    /// One-line subject.
    pub subject: String,
    /// The numbered findings to fix, then `owns:`.
    pub description: String,
    /// The most severe finding's severity.
    pub priority: Severity,
    /// Whether every finding in it is auto-fixable.
    pub auto_fixable: bool,
    /// The findings' fingerprints, in description order.
    pub fingerprints: Vec<String>,
    /// The files (or folders) the task owns.
    pub owns: Vec<String>,
    /// Whether the task is to write tests (its findings are missing-test findings).
    pub writes_tests: bool,
}

/// One note per unsuppressed repository-wide finding: no file to own, so no task.
pub fn repository_wide_notes(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .filter(|f| f.suppression.is_none() && is_repository_wide(f))
        .map(|f| {
            format!(
                "{} ({}, {}): {} — repository-wide, no file to fix: not a task",
                f.rule,
                f.severity.word(),
                f.category,
                f.description
            )
        })
        .collect()
}

/// Groups findings into fix tasks, ordered as the module says.
pub fn fix_tasks(findings: &[Finding]) -> Vec<FixTask> {
    let open: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.suppression.is_none() && !is_repository_wide(f))
        .collect();
    let mut keys: Vec<(Vec<String>, &str)> = Vec::new();
    for f in &open {
        let key = (fix_files(f), f.location.path.as_str());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let mut tasks: Vec<FixTask> = keys
        .into_iter()
        .map(|(owns, file)| {
            let mut group: Vec<&Finding> = open
                .iter()
                .copied()
                .filter(|f| f.location.path == file && fix_files(f) == owns)
                .collect();
            group.sort_by(|a, b| {
                b.auto_fixable
                    .cmp(&a.auto_fixable)
                    .then(b.severity.cmp(&a.severity))
                    .then(a.location.line.cmp(&b.location.line))
            });
            build(file, owns, &group)
        })
        .collect();
    tasks.sort_by(|a, b| {
        b.auto_fixable
            .cmp(&a.auto_fixable)
            .then(b.priority.cmp(&a.priority))
            .then(a.file.cmp(&b.file))
            .then(a.writes_tests.cmp(&b.writes_tests))
    });
    tasks
}

fn build(file: &str, owns: Vec<String>, group: &[&Finding]) -> FixTask {
    let place = file;
    let tests = group.iter().all(|f| writes_tests(f));
    let subject = match group {
        [one] if tests => format!("Write tests for {place}: {}", one.description),
        [one] => format!("Fix {place}: {}", one.description),
        many => {
            let mut categories: Vec<&str> = Vec::new();
            for f in many {
                if !categories.contains(&f.category.as_str()) {
                    categories.push(&f.category);
                }
            }
            format!(
                "Fix {} findings in {place} ({})",
                many.len(),
                categories.join(", ")
            )
        }
    };
    let mut description = format!(
        "Fix the {} finding{} below:\n",
        group.len(),
        if group.len() == 1 { "" } else { "s" }
    );
    for (i, f) in group.iter().enumerate() {
        description.push_str(&format!("{}. ", i + 1));
        if let Some(line) = f.location.line {
            description.push_str(&format!("L{line}: "));
        }
        description.push_str(&f.description);
        if let Some(s) = &f.suggestion {
            description.push_str(&format!(" → {s}"));
        }
        let auto = if f.auto_fixable { ", auto-fixable" } else { "" };
        description.push_str(&format!(" ({}, {}{auto})\n", f.severity.word(), f.category));
    }
    if tests {
        description.push_str(&format!(
            "Write tests that exercise {file} in {} (one is enough, by the language's convention); \
             the task is done when the finding no longer fires, not when {file} changes.\n",
            owns.join(" or ")
        ));
    }
    description.push_str(&format!("owns: {}", owns.join(", ")));
    FixTask {
        file: file.to_string(),
        subject,
        description: description.trim_end().to_string(),
        priority: group
            .iter()
            .map(|f| f.severity)
            .max()
            .unwrap_or(Severity::Low),
        auto_fixable: group.iter().all(|f| f.auto_fixable),
        fingerprints: group.iter().map(|f| f.fingerprint.clone()).collect(),
        owns,
        writes_tests: tests,
    }
}

/// The findings a fix task was made for: the unsuppressed ones whose fix owns exactly the
/// task's files (how [`fix_tasks`] grouped them). The task's judge re-checks these.
pub fn findings_for(task: &Task, findings: &[Finding]) -> Vec<Finding> {
    findings
        .iter()
        .filter(|f| f.suppression.is_none() && !is_repository_wide(f))
        .filter(|f| fix_files(f) == task.owns)
        .cloned()
        .collect()
}

/// The fix tasks as pending tasks with ids from `first_id` on.
pub fn to_tasks(fixes: &[FixTask], first_id: u32) -> Vec<Task> {
    fixes
        .iter()
        .zip(first_id..)
        .map(|(f, id)| Task {
            id,
            subject: f.subject.clone(),
            description: f.description.clone(),
            owns: f.owns.clone(),
            blocked_by: Vec::new(),
            status: TaskStatus::Pending,
            attempts: 0,
            origin: TaskOrigin::Fix,
            active_form: fixing(&f.file),
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use protocol::Location;

    pub(crate) use crate::testing::finding;

    #[test]
    fn the_source_example_becomes_two_tasks() {
        let mut a = finding(
            "src/auth/login.rs",
            15,
            Severity::Medium,
            "security",
            "Input validation missing",
            true,
        );
        a.suggestion = Some("validate with a schema".into());
        let mut b = finding(
            "src/auth/login.rs",
            42,
            Severity::Medium,
            "quality",
            "Error handling missing",
            true,
        );
        b.suggestion = Some("return the error".into());
        let mut c = finding(
            "src/db/users.rs",
            8,
            Severity::Medium,
            "performance",
            "N+1 query",
            false,
        );
        c.suggestion = Some("fetch in one query".into());
        let tasks = fix_tasks(&[c, b, a]);
        assert_eq!(tasks.len(), 2);
        assert_eq!(
            tasks[0].subject,
            "Fix 2 findings in src/auth/login.rs (security, quality)"
        );
        assert_eq!(
            tasks[0].description,
            "Fix the 2 findings below:\n\
             1. L15: Input validation missing → validate with a schema (Medium, security, auto-fixable)\n\
             2. L42: Error handling missing → return the error (Medium, quality, auto-fixable)\n\
             owns: src/auth/login.rs"
        );
        assert!(tasks[0].auto_fixable);
        assert_eq!(tasks[1].subject, "Fix src/db/users.rs: N+1 query");
        assert_eq!(
            tasks[1].description,
            "Fix the 1 finding below:\n1. L8: N+1 query → fetch in one query (Medium, performance)\nowns: src/db/users.rs"
        );
        let t = to_tasks(&tasks, 7);
        assert_eq!((t[0].id, t[1].id), (7, 8));
        assert_eq!(t[0].owns, vec!["src/auth/login.rs"]);
        assert_eq!(t[0].origin, TaskOrigin::Fix);
        assert_eq!(t[1].active_form, "Fixing src/db/users.rs");
    }

    #[test]
    fn auto_fixable_first_then_severity_then_path() {
        let mut suppressed = finding("src/z.rs", 1, Severity::Critical, "x", "ignored", false);
        suppressed.suppression = Some("retake-ignore".into());
        let tasks = fix_tasks(&[
            finding("src/low.rs", 1, Severity::Low, "naming", "name", false),
            finding(
                "src/crit.rs",
                3,
                Severity::Critical,
                "panic",
                "todo!()",
                false,
            ),
            finding("src/high.rs", 2, Severity::High, "unwrap", "unwrap", false),
            finding(
                "src/auto.rs",
                5,
                Severity::Low,
                "unused-import",
                "unused",
                true,
            ),
            finding("src/b.rs", 9, Severity::High, "unwrap", "unwrap", false),
            suppressed,
        ]);
        let files: Vec<(&str, Severity)> = tasks
            .iter()
            .map(|t| (t.file.as_str(), t.priority))
            .collect();
        assert_eq!(
            files,
            vec![
                ("src/auto.rs", Severity::Low),
                ("src/crit.rs", Severity::Critical),
                ("src/b.rs", Severity::High),
                ("src/high.rs", Severity::High),
                ("src/low.rs", Severity::Low),
            ]
        );
    }

    #[test]
    fn within_a_file_auto_fixable_then_severity_then_line() {
        let tasks = fix_tasks(&[
            finding("a.rs", 30, Severity::Low, "c1", "low", false),
            finding("a.rs", 20, Severity::High, "c2", "high", false),
            finding("a.rs", 10, Severity::High, "c3", "high early", false),
            finding("a.rs", 40, Severity::Low, "c4", "fixable", true),
        ]);
        let fps: Vec<String> = tasks[0].fingerprints.clone();
        let lines: Vec<&str> = tasks[0].description.lines().skip(1).take(4).collect();
        assert_eq!(fps.len(), 4);
        assert!(lines[0].starts_with("1. L40: fixable"));
        assert!(lines[1].starts_with("2. L10: high early"));
        assert!(lines[2].starts_with("3. L20: high"));
        assert!(lines[3].starts_with("4. L30: low"));
        assert!(!tasks[0].auto_fixable);
    }

    #[test]
    fn missing_tests_become_test_writing_tasks_and_repository_wide_findings_notes() {
        let mut untested = finding(
            "pkg/prices.py",
            1,
            Severity::Low,
            "missing-test-file",
            "`pkg/prices.py` has no tests",
            false,
        );
        untested.rule = "test/missing-test-file".into();
        untested.location = Location::file("pkg/prices.py");
        let todo = finding(
            "pkg/prices.py",
            4,
            Severity::Medium,
            "incomplete",
            "TODO left",
            false,
        );
        let mut wide = finding(
            "",
            1,
            Severity::Medium,
            "missing-integration-tests",
            "no integration tests",
            false,
        );
        wide.rule = "test/missing-integration-tests".into();
        wide.location = Location::file("");
        let findings = [untested, todo, wide];
        let tasks = fix_tasks(&findings);
        let owned: Vec<(&[String], bool)> = tasks
            .iter()
            .map(|t| (t.owns.as_slice(), t.writes_tests))
            .collect();
        assert_eq!(
            owned,
            [
                (&["pkg/prices.py".to_string()][..], false),
                (&["pkg/test_prices.py".to_string()][..], true),
            ]
        );
        assert_eq!(
            tasks[1].subject,
            "Write tests for pkg/prices.py: `pkg/prices.py` has no tests"
        );
        assert!(tasks[1].description.ends_with("owns: pkg/test_prices.py"));
        assert_eq!(to_tasks(&tasks, 1)[1].owns, ["pkg/test_prices.py"]);
        assert_eq!(
            repository_wide_notes(&findings),
            ["test/missing-integration-tests (Medium, missing-integration-tests): no integration tests — repository-wide, no file to fix: not a task"]
        );
    }
}
