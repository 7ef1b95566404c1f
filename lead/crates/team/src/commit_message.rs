//! Phase C's one commit: a Conventional Commits message for the run's tasks.
//!
//! ```text
//! <type>[(<scope>)]: <description>      ← at most 72 characters
//!
//! - 4.1 Login form                      ← every task, in id order
//! - 4.2 Auth middleware
//!
//! Retake-Session: retake-20260222-143000
//! Reviewed: APPROVE (A)
//! ```
//! The type comes from the subjects (all fixes → `fix`, all docs → `docs`, …; mixed → `feat`);
//! fix tasks from findings are `fix`. The scope is the last folder every owned path shares
//! (`src/auth/…` → `auth`), when there is one other than `src`. The description is the one
//! task's title, or the titles joined when they fit, or "complete N tasks".

use protocol::{Decision, Grade, Task, TaskOrigin};
use std::collections::BTreeMap;

/// Longest header line.
pub const MAX_HEADER: usize = 72;

/// What the message says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitInput<'a> {
    /// The completed tasks.
    pub tasks: &'a [Task],
    /// Task id → the plan's id (`4.1`), for the body (registration's `plans_mapping`).
    pub plans_mapping: &'a BTreeMap<u32, String>,
    /// The run's session id.
    pub session_id: &'a str,
    /// The final review's decision and grade.
    pub review: Option<(Decision, Grade)>,
}

/// The full commit message.
pub fn commit_message(input: &CommitInput<'_>) -> String {
    let mut tasks: Vec<&Task> = input.tasks.iter().collect();
    tasks.sort_by_key(|t| t.id);
    let kind = commit_type(&tasks);
    let scope = scope(&tasks).map(|s| format!("({s})")).unwrap_or_default();
    let prefix = format!("{kind}{scope}: ");
    let titles: Vec<String> = tasks.iter().map(|t| lower_first(&title_of(t))).collect();
    let joined = titles.join(", ");
    let description = if prefix.chars().count() + joined.chars().count() <= MAX_HEADER {
        joined
    } else {
        format!("complete {} tasks", tasks.len())
    };
    let mut out = format!("{prefix}{description}\n\n");
    for t in &tasks {
        match input.plans_mapping.get(&t.id) {
            Some(plan_id) if !t.subject.starts_with(plan_id.as_str()) => {
                out.push_str(&format!("- {plan_id} {}\n", t.subject))
            }
            _ => out.push_str(&format!("- {}\n", t.subject)),
        }
    }
    out.push_str(&format!("\nRetake-Session: {}\n", input.session_id));
    if let Some((decision, grade)) = input.review {
        out.push_str(&format!("Reviewed: {decision} ({grade})\n"));
    }
    out
}

/// The subject without a leading plan number (`4.1 Login` → `Login`).
fn title_of(task: &Task) -> String {
    let s = task.subject.trim();
    match s.split_once(' ') {
        Some((first, rest)) if first.chars().all(|c| c.is_ascii_digit() || c == '.') => {
            rest.trim().to_string()
        }
        _ => s.to_string(),
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        // "Add login" → "add login", but "API keys" and "CI" keep their capitals.
        (Some(a), Some(b)) if a.is_ascii_uppercase() && !b.is_ascii_uppercase() => {
            let mut out = a.to_ascii_lowercase().to_string();
            out.push_str(&text[1..]);
            out
        }
        _ => text.to_string(),
    }
}

const KINDS: &[(&str, &[&str])] = &[
    (
        "fix",
        &[
            "fix", "fixes", "repair", "resolve", "bug", "hotfix", "修正", "バグ",
        ],
    ),
    (
        "docs",
        &[
            "doc",
            "docs",
            "document",
            "documentation",
            "readme",
            "ドキュメント",
        ],
    ),
    ("test", &["test", "tests", "テスト"]),
    ("refactor", &["refactor", "refactoring", "リファクタ"]),
    (
        "perf",
        &["optimize", "optimise", "speed", "perf", "最適化", "高速化"],
    ),
    ("chore", &["chore", "bump", "upgrade"]),
];

fn type_of(task: &Task) -> &'static str {
    if task.origin == TaskOrigin::Fix {
        return "fix";
    }
    let title = title_of(task).to_lowercase();
    let first = title.split_whitespace().next().unwrap_or("");
    for (kind, words) in KINDS {
        let cjk = words.iter().any(|w| !w.is_ascii() && title.contains(w));
        if words.contains(&first) || cjk {
            return kind;
        }
    }
    "feat"
}

fn commit_type(tasks: &[&Task]) -> &'static str {
    let kinds: Vec<&str> = tasks.iter().map(|t| type_of(t)).collect();
    match kinds.first() {
        Some(first) if kinds.iter().all(|k| k == first) => first,
        _ => "feat",
    }
}

fn scope(tasks: &[&Task]) -> Option<String> {
    let folders: Vec<Vec<&str>> = tasks
        .iter()
        .flat_map(|t| t.owns.iter())
        .map(|p| {
            let mut parts: Vec<&str> = p.trim_start_matches("./").split('/').collect();
            parts.pop(); // the file (or the glob) itself
            parts
        })
        .collect();
    let first = folders.first()?;
    let common = (0..first.len())
        .take_while(|&i| folders.iter().all(|f| f.get(i) == first.get(i)))
        .count();
    let last = *first[..common].last()?;
    (last != "src" && !last.contains('*')).then(|| last.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registration::register;
    use crate::testing::task;

    fn message(tasks: &[Task]) -> String {
        let plan: BTreeMap<u32, String> = tasks
            .iter()
            .map(|t| (t.id, format!("4.{}", t.id)))
            .collect();
        commit_message(&CommitInput {
            tasks,
            plans_mapping: &plan,
            session_id: "retake-20260222-143000",
            review: Some((Decision::Approve, Grade::A)),
        })
    }

    #[test]
    fn one_feature_task_with_a_shared_folder() {
        let reg = register(&[
            task("4.1", "Add login form", &["src/auth/login.rs"], &[]),
            task(
                "4.2",
                "Add auth middleware",
                &["src/auth/mw.rs", "src/auth/x/y.rs"],
                &[],
            ),
        ]);
        assert_eq!(
            message(&reg.tasks),
            "feat(auth): add login form, add auth middleware\n\n\
             - 4.1 Add login form\n- 4.2 Add auth middleware\n\n\
             Retake-Session: retake-20260222-143000\nReviewed: APPROVE (A)\n"
        );
    }

    #[test]
    fn all_fixes_are_fix_and_long_lists_are_counted() {
        let reg = register(&[
            task(
                "1",
                "Fix session expiry when the refresh token is rotated",
                &["src/a.rs"],
                &[],
            ),
            task(
                "2",
                "Fix logout redirect loop on the account settings page",
                &["lib/b.rs"],
                &[],
            ),
        ]);
        let msg = message(&reg.tasks);
        assert_eq!(msg.lines().next(), Some("fix: complete 2 tasks"));
        let reg = register(&[task("1", "API keys rotation", &["src/keys.rs"], &[])]);
        assert_eq!(
            message(&reg.tasks).lines().next(),
            Some("feat: API keys rotation")
        );
        let reg = register(&[task("1", "テストの追加", &["tests/a.rs"], &[])]);
        assert_eq!(
            message(&reg.tasks).lines().next(),
            Some("test(tests): テストの追加")
        );
    }

    #[test]
    fn fix_tasks_from_findings_are_fix() {
        let f = crate::fix_tasks::fix_tasks(&[crate::testing::finding(
            "src/db/users.rs",
            8,
            protocol::Severity::High,
            "performance",
            "N+1 query",
            false,
        )]);
        let tasks = crate::fix_tasks::to_tasks(&f, 1);
        let none = BTreeMap::new();
        let msg = commit_message(&CommitInput {
            tasks: &tasks,
            plans_mapping: &none,
            session_id: "s",
            review: None,
        });
        assert_eq!(msg, "fix(db): fix src/db/users.rs: N+1 query\n\n- Fix src/db/users.rs: N+1 query\n\nRetake-Session: s\n");
    }
}
