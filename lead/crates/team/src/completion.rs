//! Phase C's completion report: range, duration, Implementer count, retakes; the tasks; team
//! activity (who completed what, when — from `timeline.jsonl`); review decision and grade;
//! build and test counts; the commit.
//!
//! Team activity reads two timeline events the Lead records beside the task runner's:
//! `TASK_COMPLETED` with `content: {"task", "actor"}` and `REVIEW_COMPLETED` with
//! `content: {"actor", "decision"}`; every other event is ignored here.

use protocol::{Decision, Grade, Task, TaskStatus};
use serde::Deserialize;

/// The timeline event of a completed task.
pub const TASK_COMPLETED: &str = "TASK_COMPLETED";
/// The timeline event of a finished review.
pub const REVIEW_COMPLETED: &str = "REVIEW_COMPLETED";

/// One line of timeline.jsonl, as far as this report reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TimelineEvent {
    /// `TASK_COMPLETED`, `QUALITY_JUDGMENT`, …
    pub event_type: String,
    /// RFC 3339.
    pub timestamp: String,
    /// The event's details.
    #[serde(default)]
    pub content: serde_json::Value,
}

/// The events of a timeline.jsonl text; lines that are not events are skipped.
pub fn parse_timeline(text: &str) -> Vec<TimelineEvent> {
    text.lines()
        .filter_map(|l| serde_json::from_str(l.trim()).ok())
        .collect()
}

/// One teammate's row of the team-activity table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activity {
    /// Actor name.
    pub actor: String,
    /// What it completed (`#1`, `(review: APPROVE)`), in time order.
    pub done: Vec<String>,
    /// When (`HH:MM`), one per entry of `done`.
    pub at: Vec<String>,
}

/// Team activity, one row per actor in order of first completion.
pub fn team_activity(events: &[TimelineEvent]) -> Vec<Activity> {
    let mut rows: Vec<Activity> = Vec::new();
    for e in events {
        let actor = e.content.get("actor").and_then(|a| a.as_str());
        let (Some(actor), Some(what)) = (actor, entry(e)) else {
            continue;
        };
        let at = clock(&e.timestamp);
        match rows.iter_mut().find(|r| r.actor == actor) {
            Some(row) => {
                row.done.push(what);
                row.at.push(at);
            }
            None => rows.push(Activity {
                actor: actor.to_string(),
                done: vec![what],
                at: vec![at],
            }),
        }
    }
    rows
}

fn entry(e: &TimelineEvent) -> Option<String> {
    match e.event_type.as_str() {
        TASK_COMPLETED => match e.content.get("task")? {
            serde_json::Value::Number(n) => Some(format!("#{n}")),
            serde_json::Value::String(s) => Some(format!("#{s}")),
            _ => None,
        },
        REVIEW_COMPLETED => Some(match e.content.get("decision").and_then(|d| d.as_str()) {
            Some(d) => format!("(review: {d})"),
            None => "(review)".to_string(),
        }),
        _ => None,
    }
}

fn clock(timestamp: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(timestamp)
        .map(|t| t.format("%H:%M").to_string())
        .unwrap_or_else(|_| timestamp.to_string())
}

/// Everything the report shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionInput<'a> {
    /// The RANGE as given.
    pub range: &'a str,
    /// Wall time of the run, seconds.
    pub duration_secs: u64,
    /// Implementers started.
    pub implementers: u32,
    /// Review rounds that asked for changes.
    pub retakes: u32,
    /// The run's tasks.
    pub tasks: &'a [Task],
    /// Team activity.
    pub activity: &'a [Activity],
    /// The final review.
    pub review: Option<(Decision, Grade)>,
    /// Whether the build passed, when it ran.
    pub build_ok: Option<bool>,
    /// The test command's result, when one ran.
    pub tests: Option<TestRun<'a>>,
    /// The commit: short hash and header.
    pub commit: Option<(&'a str, &'a str)>,
    /// The accepted review's repository-wide findings: no file to own, so no fix task
    /// (`fix_tasks::repository_wide_notes`), one line each.
    pub repository_wide: &'a [String],
}

/// What the run's test command did in Phase C's verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestRun<'a> {
    /// The command as run (argv joined by spaces).
    pub command: &'a str,
    /// Whether it exited 0.
    pub passed: bool,
    /// Tests passed and run, when its output says (`cargo test`'s `test result:` lines).
    pub counts: Option<(u32, u32)>,
}

/// The completion report (Markdown).
pub fn completion_report(input: &CompletionInput<'_>) -> String {
    let n = input.tasks.len();
    let mut out = format!(
        "retake run complete\n\n## Summary\n- Range: {} ({n} task{})\n- Duration: {}\n- Implementers: {} in parallel\n- Retakes: {}\n\n## Tasks\n",
        input.range,
        if n == 1 { "" } else { "s" },
        duration(input.duration_secs),
        input.implementers,
        input.retakes
    );
    for t in input.tasks {
        let mark = match t.status {
            TaskStatus::Completed => "✅",
            TaskStatus::Failed => "❌",
            _ => "⏸",
        };
        out.push_str(&format!("{mark} {}\n", t.subject));
    }
    out.push_str("\n## Team activity\n");
    if input.activity.is_empty() {
        out.push_str("(no completions recorded in the timeline)\n");
    } else {
        out.push_str("| Teammate | Completed | At |\n|----------|-----------|----|\n");
        for a in input.activity {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                a.actor,
                a.done.join(", "),
                a.at.join(", ")
            ));
        }
    }
    out.push_str("\n## Review\n");
    match input.review {
        Some((d, g)) => out.push_str(&format!("- Decision: {d} (Grade: {g})\n")),
        None => out.push_str("- Decision: (none)\n"),
    }
    if !input.repository_wide.is_empty() {
        out.push_str("\n## Not tasks (repository-wide findings)\n");
        for note in input.repository_wide {
            out.push_str(&format!("- {note}\n"));
        }
    }
    out.push_str("\n## Build & test\n");
    match input.build_ok {
        Some(true) => out.push_str("- Build: ✅ passed\n"),
        Some(false) => out.push_str("- Build: ❌ failed\n"),
        None => out.push_str("- Build: (not run)\n"),
    }
    match input.tests {
        Some(run) => {
            let ok = run.passed && run.counts.is_none_or(|(passed, total)| passed == total);
            let mark = if ok { "✅" } else { "❌" };
            let what = match (run.counts, run.passed) {
                (Some((passed, total)), _) => format!("{passed}/{total} passed"),
                (None, true) => "passed".to_string(),
                (None, false) => "failed".to_string(),
            };
            out.push_str(&format!("- Tests: {mark} {what} (`{}`)\n", run.command));
        }
        None => out.push_str("- Tests: (not run: no test command is known)\n"),
    }
    out.push_str("\n## Commit\n");
    match input.commit {
        Some((hash, header)) => out.push_str(&format!("- {hash}: {header}\n")),
        None => out.push_str("- (none)\n"),
    }
    out
}

/// `42 s`, `15 min`, `1 h 5 min`.
pub fn duration(secs: u64) -> String {
    match secs {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registration::register;
    use crate::testing::task;

    const TIMELINE: &str = r#"{"event_type":"REVIEW_LOOP_START","timestamp":"2026-02-22T14:20:00Z","visibility":"summary","content":{"task":1}}
{"event_type":"TASK_COMPLETED","timestamp":"2026-02-22T14:32:10Z","visibility":"summary","content":{"task":1,"actor":"implementer-1"}}
{"event_type":"TASK_COMPLETED","timestamp":"2026-02-22T14:38:00Z","visibility":"summary","content":{"task":2,"actor":"implementer-2"}}
not json
{"event_type":"TASK_COMPLETED","timestamp":"2026-02-22T14:45:59Z","visibility":"summary","content":{"task":3,"actor":"implementer-1"}}
{"event_type":"REVIEW_COMPLETED","timestamp":"2026-02-22T14:50:00Z","visibility":"summary","content":{"actor":"auditor","decision":"APPROVE"}}
"#;

    #[test]
    fn activity_groups_completions_by_actor() {
        let rows = team_activity(&parse_timeline(TIMELINE));
        assert_eq!(
            rows,
            vec![
                Activity {
                    actor: "implementer-1".into(),
                    done: vec!["#1".into(), "#3".into()],
                    at: vec!["14:32".into(), "14:45".into()]
                },
                Activity {
                    actor: "implementer-2".into(),
                    done: vec!["#2".into()],
                    at: vec!["14:38".into()]
                },
                Activity {
                    actor: "auditor".into(),
                    done: vec!["(review: APPROVE)".into()],
                    at: vec!["14:50".into()]
                },
            ]
        );
    }

    #[test]
    fn the_report_has_every_section() {
        let mut reg = register(&[
            task("3", "ログイン機能の実装", &["a"], &[]),
            task("4", "認証ミドルウェアの作成", &["b"], &[]),
            task("5", "セッション管理", &["c"], &[]),
        ]);
        for t in &mut reg.tasks {
            t.status = TaskStatus::Completed;
        }
        let activity = team_activity(&parse_timeline(TIMELINE));
        let report = completion_report(&CompletionInput {
            range: "auth to session",
            duration_secs: 900,
            implementers: 2,
            retakes: 1,
            tasks: &reg.tasks,
            activity: &activity,
            review: Some((Decision::Approve, Grade::A)),
            build_ok: Some(true),
            tests: Some(TestRun {
                command: "cargo test",
                passed: true,
                counts: Some((12, 12)),
            }),
            commit: Some(("abc1234", "feat: implement auth flow")),
            repository_wide: &[],
        });
        assert_eq!(
            report,
            "retake run complete\n\n## Summary\n- Range: auth to session (3 tasks)\n- Duration: 15 min\n\
             - Implementers: 2 in parallel\n- Retakes: 1\n\n## Tasks\n\
             ✅ 3 ログイン機能の実装\n✅ 4 認証ミドルウェアの作成\n✅ 5 セッション管理\n\n\
             ## Team activity\n| Teammate | Completed | At |\n|----------|-----------|----|\n\
             | implementer-1 | #1, #3 | 14:32, 14:45 |\n| implementer-2 | #2 | 14:38 |\n\
             | auditor | (review: APPROVE) | 14:50 |\n\n## Review\n- Decision: APPROVE (Grade: A)\n\n\
             ## Build & test\n- Build: ✅ passed\n- Tests: ✅ 12/12 passed (`cargo test`)\n\n\
             ## Commit\n- abc1234: feat: implement auth flow\n"
        );
    }

    #[test]
    fn the_test_line_names_the_command_and_its_result() {
        let line = |tests: Option<TestRun<'_>>| {
            let report = completion_report(&CompletionInput {
                range: "all",
                duration_secs: 1,
                implementers: 1,
                retakes: 0,
                tasks: &[],
                activity: &[],
                review: None,
                build_ok: None,
                tests,
                commit: None,
                repository_wide: &[],
            });
            report
                .lines()
                .find(|l| l.starts_with("- Tests:"))
                .expect("a Tests line")
                .to_string()
        };
        let run = |passed, counts| {
            Some(TestRun {
                command: "sh test.sh",
                passed,
                counts,
            })
        };
        assert_eq!(line(run(true, None)), "- Tests: ✅ passed (`sh test.sh`)");
        assert_eq!(line(run(false, None)), "- Tests: ❌ failed (`sh test.sh`)");
        assert_eq!(
            line(run(false, Some((3, 4)))),
            "- Tests: ❌ 3/4 passed (`sh test.sh`)"
        );
        assert_eq!(line(None), "- Tests: (not run: no test command is known)");
    }

    #[test]
    fn repository_wide_findings_are_noted_not_tasks() {
        let notes = ["test/missing-integration-tests (Medium, missing-integration-tests): no integration tests — repository-wide, no file to fix: not a task".to_string()];
        let report = completion_report(&CompletionInput {
            range: "all",
            duration_secs: 5,
            implementers: 1,
            retakes: 0,
            tasks: &[],
            activity: &[],
            review: Some((Decision::Approve, Grade::B)),
            build_ok: None,
            tests: None,
            commit: None,
            repository_wide: &notes,
        });
        assert!(
            report.contains(
                "- Decision: APPROVE (Grade: B)\n\n## Not tasks (repository-wide findings)\n\
                 - test/missing-integration-tests (Medium, missing-integration-tests): no integration tests — repository-wide, no file to fix: not a task\n\n## Build & test\n"
            ),
            "{report}"
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(42), "42 s");
        assert_eq!(duration(900), "15 min");
        assert_eq!(duration(3900), "1 h 5 min");
    }
}
