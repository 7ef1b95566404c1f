//! `rulebase/task-incomplete`: tasks in tasks.yaml that are not marked `done`.

use super::features_or_note;
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use protocol::{Category, Claim, Dimension, Location, Scope, Severity};

static META: RuleMeta = RuleMeta {
    id: "rulebase/task-incomplete",
    category: Category::TaskIncomplete,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::ActionItems],
    explanation: "A task in the feature's tasks.yaml is not marked done.",
};

/// Each task not `done` → one finding at its line; also claims how many are complete.
pub(crate) struct TaskIncomplete;

impl Rule for TaskIncomplete {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let only: &[String] = match &ctx.scope {
            Scope::Feature { tasks, .. } => tasks,
            _ => &[],
        };
        let (mut complete, mut total) = (0u32, 0u32);
        let mut checked_any = false;
        let mut ids: Vec<String> = Vec::new();
        for feature in features_or_note(ctx, out) {
            let Some(list) = &feature.tasks else {
                continue;
            };
            checked_any = true;
            let path = feature.path_of("tasks.yaml");
            for task in list
                .tasks
                .iter()
                .filter(|t| only.is_empty() || only.iter().any(|id| id.trim() == t.id))
            {
                total += 1;
                ids.push(task.id.clone());
                if task.done {
                    complete += 1;
                    continue;
                }
                let title = if task.title.is_empty() {
                    "(untitled)"
                } else {
                    task.title.as_str()
                };
                out.hit(
                    Hit::new(
                        Location::at(&path, task.line),
                        format!("Task {} not marked complete: {title}", task.id),
                        format!("task {}", task.id),
                    )
                    .suggest("finish the task and set `done: true`, or explain why it is open"),
                );
            }
        }
        if checked_any {
            out.claims.push(Claim::TasksChecked { complete, total });
            out.claims.push(Claim::TasksCovered { ids });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, context_with, described, project, repo};
    use protocol::message::InspectOptions;

    const TASKS: &str = "tasks:\n  - id: 1\n    title: Model\n    done: true\n  - id: 2\n    title: API\n    done: false\n  - id: T3\n    title: Docs\n";

    #[test]
    fn fires_on_each_open_task_at_its_line() {
        let dir = repo(&[("specs/users/tasks.yaml", TASKS)]);
        let sink = project(&TaskIncomplete, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "specs/users/tasks.yaml:5".to_string(),
                    "Task 2 not marked complete: API".to_string()
                ),
                (
                    "specs/users/tasks.yaml:8".to_string(),
                    "Task T3 not marked complete: Docs".to_string()
                ),
            ]
        );
        assert_eq!(
            sink.claims,
            vec![
                Claim::TasksChecked {
                    complete: 1,
                    total: 3
                },
                Claim::TasksCovered {
                    ids: ["1", "2", "T3"].map(String::from).to_vec()
                }
            ]
        );
    }

    #[test]
    fn task_scope_checks_only_the_listed_tasks() {
        let dir = repo(&[("specs/users/tasks.yaml", TASKS)]);
        let scope = Scope::Feature {
            feature: "users".into(),
            tasks: vec!["1".into()],
        };
        let sink = project(
            &TaskIncomplete,
            &context_with(&dir, scope, InspectOptions::default()),
        );
        assert!(sink.hits.is_empty());
        assert_eq!(
            sink.claims,
            vec![
                Claim::TasksChecked {
                    complete: 1,
                    total: 1
                },
                Claim::TasksCovered {
                    ids: ["1"].map(String::from).to_vec()
                }
            ]
        );
    }

    #[test]
    fn quiet_when_every_task_is_done_or_there_is_no_spec() {
        let dir = repo(&[(
            "specs/users/tasks.yaml",
            "tasks:\n  - id: 1\n    title: Model\n    done: true\n",
        )]);
        let sink = project(&TaskIncomplete, &context(&dir));
        assert!(sink.hits.is_empty());
        let empty = repo(&[("src/lib.rs", "pub fn a() {}\n")]);
        let sink = project(&TaskIncomplete, &context(&empty));
        assert!(sink.hits.is_empty() && sink.claims.is_empty());
        assert_eq!(sink.notes, vec!["rulebase: no spec: skipped".to_string()]);
    }
}
