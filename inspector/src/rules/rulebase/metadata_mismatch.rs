//! `rulebase/metadata-mismatch`: spec.yaml's phase contradicts the state of tasks.yaml.

use super::features_or_note;
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use crate::spec::Phase;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "rulebase/metadata-mismatch",
    category: Category::MetadataMismatch,
    severity: Severity::Medium,
    languages: &[],
    dimensions: &[Dimension::ActionItems, Dimension::Maintainability],
    explanation: "spec.yaml's phase does not match the completion of tasks.yaml.",
};

/// `implementation-complete` with open tasks, or every task done while the phase is still
/// `design-generated`/`tasks-generated` → one finding at spec.yaml's `phase:` line.
pub(crate) struct MetadataMismatch;

impl Rule for MetadataMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        for feature in features_or_note(ctx, out) {
            let (Some(spec), Some(tasks)) = (&feature.spec, &feature.tasks) else {
                continue;
            };
            let Some(phase) = &spec.phase else {
                continue;
            };
            let (done, total) = tasks.completion();
            if total == 0 {
                continue;
            }
            let description = match phase {
                Phase::ImplementationComplete if done < total => format!(
                    "phase is 'implementation-complete' but {} of {total} tasks in tasks.yaml are not done",
                    total - done
                ),
                Phase::DesignGenerated | Phase::TasksGenerated if done == total => format!(
                    "all {total} tasks in tasks.yaml are done but phase is still '{}'",
                    phase.as_str()
                ),
                _ => continue,
            };
            let path = feature.path_of("spec.yaml");
            let location = match spec.phase_line {
                Some(line) => Location::at(path, line),
                None => Location::file(path),
            };
            out.hit(
                Hit::new(location, description, format!("phase {}", phase.as_str())).suggest(
                    "update spec.yaml's phase, or the tasks' `done` flags, to the real state",
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const OPEN: &str = "tasks:\n  - id: 1\n    done: true\n  - id: 2\n    done: false\n";
    const DONE: &str = "tasks:\n  - id: 1\n    done: true\n";

    #[test]
    fn fires_when_complete_with_open_tasks() {
        let dir = repo(&[
            (
                "specs/users/spec.yaml",
                "feature: users\nphase: implementation-complete\n",
            ),
            ("specs/users/tasks.yaml", OPEN),
        ]);
        assert_eq!(
            described(&project(&MetadataMismatch, &context(&dir))),
            vec![(
                "specs/users/spec.yaml:2".to_string(),
                "phase is 'implementation-complete' but 1 of 2 tasks in tasks.yaml are not done"
                    .to_string()
            )]
        );
    }

    #[test]
    fn fires_when_all_done_but_phase_lags() {
        let dir = repo(&[
            ("specs/users/spec.yaml", "phase: tasks-generated\n"),
            ("specs/users/tasks.yaml", DONE),
        ]);
        assert_eq!(
            described(&project(&MetadataMismatch, &context(&dir))),
            vec![(
                "specs/users/spec.yaml:1".to_string(),
                "all 1 tasks in tasks.yaml are done but phase is still 'tasks-generated'"
                    .to_string()
            )]
        );
    }

    #[test]
    fn quiet_when_phase_and_tasks_agree() {
        let dir = repo(&[
            ("specs/a/spec.yaml", "phase: implementation-complete\n"),
            ("specs/a/tasks.yaml", DONE),
            ("specs/b/spec.yaml", "phase: tasks-generated\n"),
            ("specs/b/tasks.yaml", OPEN),
            ("specs/c/spec.yaml", "phase: blocked\n"),
            ("specs/c/tasks.yaml", DONE),
        ]);
        assert!(project(&MetadataMismatch, &context(&dir)).hits.is_empty());
    }
}
