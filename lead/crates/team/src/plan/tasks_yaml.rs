//! A plan from `specs/<feature>/tasks.yaml` (`tasks: [{id, title, done, files, depends_on}]`,
//! read by the Inspectors' own parser so both sides agree on the format). With several
//! features, ids are qualified as `<feature>/<id>` so that they stay unique. `priority: high` in
//! a task's entry marks it high-priority (the shared parser does not read it: it is found
//! between the task's `id:` line and the next task's).

use super::{check_ids, Marker, Plan, PlanError, PlanFormat, PlanTask};
use inspector::spec::TaskList;

/// One feature's tasks.yaml text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureTasks {
    /// The folder name under `specs/`.
    pub feature: String,
    /// The file's text.
    pub text: String,
}

/// The plan of one or more tasks.yaml files, features in the order given.
pub fn parse_tasks_yaml(features: &[FeatureTasks]) -> Result<Plan, PlanError> {
    let qualify = features.len() > 1;
    let mut tasks = Vec::new();
    let mut files = Vec::new();
    for f in features {
        let file = format!("specs/{}/tasks.yaml", f.feature);
        let list =
            TaskList::parse(&f.text, &file).map_err(|e| PlanError::Malformed(e.to_string()))?;
        let id = |raw: &str| {
            if qualify {
                format!("{}/{raw}", f.feature)
            } else {
                raw.to_string()
            }
        };
        let starts: Vec<u32> = list
            .tasks
            .iter()
            .map(|t| item_start(&f.text, t.line))
            .collect();
        for (i, t) in list.tasks.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(u32::MAX);
            tasks.push(PlanTask {
                id: id(&t.id),
                numbered: true,
                title: t.title.clone(),
                description: String::new(),
                subtasks: 0,
                owns: t.files.clone(),
                depends: t.depends_on.iter().map(|d| id(d)).collect(),
                marker: if t.done { Marker::Done } else { Marker::Todo },
                high_priority: high_priority(&f.text, starts[i], end),
                file: file.clone(),
                line: t.line,
            });
        }
        files.push(file);
    }
    if tasks.is_empty() {
        return Err(PlanError::Empty {
            file: files.join(", "),
        });
    }
    check_ids(&tasks)?;
    Ok(Plan {
        format: PlanFormat::TasksYaml,
        files,
        tasks,
    })
}

/// The 1-based line where the list item holding the `id:` line `id_line` opens (`- `).
fn item_start(text: &str, id_line: u32) -> u32 {
    let lines: Vec<&str> = text.lines().collect();
    (1..=id_line)
        .rev()
        .find(|n| {
            lines
                .get(*n as usize - 1)
                .is_some_and(|l| l.trim_start().starts_with("- "))
        })
        .unwrap_or(id_line)
}

/// Whether lines `from..end` (1-based, `end` excluded) hold `priority: high`.
fn high_priority(text: &str, from: u32, end: u32) -> bool {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i as u32 + 1, line))
        .filter(|(n, _)| *n >= from && *n < end)
        .any(|(_, line)| {
            let entry = line.trim().trim_start_matches("- ").trim();
            entry.strip_prefix("priority:").is_some_and(|v| {
                v.trim()
                    .trim_matches(|c| c == '"' || c == '\'')
                    .eq_ignore_ascii_case("high")
            })
        })
}

/// The id a task has inside its own tasks.yaml (the qualification removed), as
/// [`super::mark_done_tasks_yaml`] wants it.
pub fn local_id(task: &PlanTask) -> &str {
    let feature = task
        .file
        .strip_prefix("specs/")
        .and_then(|rest| rest.strip_suffix("/tasks.yaml"));
    match feature {
        Some(f) => task
            .id
            .strip_prefix(f)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(&task.id),
        None => &task.id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(name: &str, text: &str) -> FeatureTasks {
        FeatureTasks {
            feature: name.into(),
            text: text.into(),
        }
    }

    #[test]
    fn one_feature_keeps_its_ids() {
        let plan = parse_tasks_yaml(&[feature(
            "auth",
            "tasks:\n  - id: 1\n    title: Login\n    files: [src/login.rs]\n  - id: 2\n    title: Session\n    done: true\n    depends_on: [1]\n",
        )])
        .unwrap();
        assert_eq!(plan.format, PlanFormat::TasksYaml);
        assert_eq!(plan.files, vec!["specs/auth/tasks.yaml"]);
        let ids: Vec<&str> = plan.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, vec!["1", "2"]);
        assert_eq!(plan.tasks[0].owns, vec!["src/login.rs"]);
        assert_eq!(plan.tasks[0].subject(), "1 Login");
        assert_eq!(plan.tasks[1].marker, Marker::Done);
        assert_eq!(plan.tasks[1].depends, vec!["1"]);
        assert_eq!(plan.tasks[1].line, 5);
        assert!(!plan.tasks[0].high_priority);
    }

    #[test]
    fn priority_high_marks_a_task() {
        let plan = parse_tasks_yaml(&[feature(
            "auth",
            "tasks:\n  - id: 1\n    title: Login\n    priority: high\n  - id: 2\n    title: Session\n    priority: low\n  - priority: \"HIGH\"\n    id: 3\n    title: Logout\n",
        )])
        .unwrap();
        let high: Vec<bool> = plan.tasks.iter().map(|t| t.high_priority).collect();
        assert_eq!(
            high,
            [true, false, true],
            "task 3's tag sits above its id line"
        );
    }

    #[test]
    fn several_features_qualify_ids_and_dependencies() {
        let plan = parse_tasks_yaml(&[
            feature("a", "- id: 1\n  title: A1\n"),
            feature(
                "b",
                "- id: 1\n  title: B1\n- id: 2\n  title: B2\n  depends_on: [1]\n",
            ),
        ])
        .unwrap();
        let ids: Vec<&str> = plan.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, vec!["a/1", "b/1", "b/2"]);
        assert_eq!(plan.tasks[2].depends, vec!["b/1"]);
        assert_eq!(local_id(&plan.tasks[2]), "2");
    }

    #[test]
    fn unknown_dependency_and_empty_files_are_errors() {
        let err = parse_tasks_yaml(&[feature("a", "- id: 1\n  title: A\n  depends_on: [7]\n")])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "specs/a/tasks.yaml:1: task 1 depends on 7, which is not a task of the plan"
        );
        let err = parse_tasks_yaml(&[feature("a", "tasks: []\n")]).unwrap_err();
        assert!(matches!(err, PlanError::Empty { .. }), "{err}");
    }
}
