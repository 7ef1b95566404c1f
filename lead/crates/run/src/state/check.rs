//! The checks serde cannot make on a run's state files before `retake resume` or `retake
//! status` uses them: ids become folder and file names, counts size the team, paths are
//! written. A file that breaks one is refused with the field named (exit 2) and left in place.

use super::ActiveRun;
use host::Runtime;
use protocol::{Task, TaskStatus};
use review::state::{check_count, check_name, FieldError, PIPELINES};
use std::collections::BTreeSet;
use std::path::{Component, Path};
use team::team_size::HARD_CAP;

/// `active.json` of a run.
pub(super) fn active(run: &ActiveRun) -> Result<(), FieldError> {
    if run.kind != "run" {
        return Err(FieldError::invalid(
            "kind",
            format!("'{}' is not a run", run.kind),
        ));
    }
    check_name("session_id", &run.session_id)?;
    if let Some(team) = &run.team {
        check_count(
            "team.implementer_count",
            team.implementer_count.into(),
            1..=HARD_CAP.into(),
        )?;
        check_count("team.reviewer_count", team.reviewer_count.into(), PIPELINES)?;
        team.runtime
            .parse::<Runtime>()
            .map_err(|e| FieldError::invalid("team.runtime", e))?;
    }
    if let Some(options) = &run.options {
        if let Some(parallel) = options.parallel {
            // `--parallel`'s own range (1..); the team size caps it further.
            check_count("options.parallel", parallel.into(), 1..=u32::MAX.into())?;
        }
        if !matches!(options.gate.as_str(), "sdd" | "breezing") {
            return Err(FieldError::invalid(
                "options.gate",
                format!("'{}' is not sdd or breezing", options.gate),
            ));
        }
    }
    Ok(())
}

/// The tasks of `tasks.json`: unique ids, dependencies on tasks of the list, owned paths
/// inside the repository, claimers that are names.
pub(super) fn tasks(tasks: &[Task]) -> Result<(), FieldError> {
    let mut ids = BTreeSet::new();
    for t in tasks {
        if !ids.insert(t.id) {
            return Err(FieldError::invalid(
                "tasks[].id",
                format!("task {} appears twice", t.id),
            ));
        }
    }
    for t in tasks {
        if let Some(missing) = t
            .blocked_by
            .iter()
            .find(|b| !ids.contains(b) || **b == t.id)
        {
            return Err(FieldError::invalid(
                format!("tasks[{}].blocked_by", t.id),
                format!("{missing} is not another task of the list"),
            ));
        }
        if let Some(bad) = t.owns.iter().find(|p| !inside(p)) {
            return Err(FieldError::invalid(
                format!("tasks[{}].owns", t.id),
                format!("{bad:?} is not a path inside the repository"),
            ));
        }
        if let TaskStatus::InProgress { claimer } = &t.status {
            check_name(&format!("tasks[{}].claimer", t.id), claimer)?;
        }
    }
    Ok(())
}

/// A relative path that stays inside the repository (no root, no `..`, no NUL, not empty).
fn inside(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\0')
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{RunOptions, RunState, TeamInfo};
    use team::gate::GateState;

    fn run() -> ActiveRun {
        ActiveRun {
            kind: "run".into(),
            session_id: "retake-20260222-143000".into(),
            started_at: "2026-02-22T14:30:00Z".into(),
            impl_mode: "script".into(),
            task_range: "all".into(),
            base_commit: "abc".into(),
            team: Some(TeamInfo {
                implementer_count: 2,
                reviewer_count: 1,
                runtime: "inproc".into(),
            }),
            plans_mapping: Default::default(),
            options: Some(RunOptions {
                parallel: Some(2),
                no_discuss: true,
                yes: true,
                gate: "sdd".into(),
            }),
            review: GateState::default().into(),
            accepted: None,
        }
    }

    #[test]
    fn hostile_run_state_is_refused_by_field_and_left_in_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = RunState::new(dir.path());
        let mut bad_team = run();
        bad_team.team.as_mut().expect("team").implementer_count = 1_000_000;
        let mut no_team = run();
        no_team.team.as_mut().expect("team").implementer_count = 0;
        let mut zero_parallel = run();
        zero_parallel.options.as_mut().expect("options").parallel = Some(0);
        let mut reviewers = run();
        reviewers.team.as_mut().expect("team").reviewer_count = 1_000_000;
        let cases = [
            (
                ActiveRun {
                    session_id: "../../..".into(),
                    ..run()
                },
                "field session_id: \"../../..\" is not a name",
            ),
            (
                bad_team,
                "field team.implementer_count: 1000000 is outside 1..=5",
            ),
            (no_team, "field team.implementer_count: 0 is outside 1..=5"),
            (
                reviewers,
                "field team.reviewer_count: 1000000 is outside 1..=9",
            ),
            (
                zero_parallel,
                "field options.parallel: 0 is outside 1..=4294967295",
            ),
        ];
        for (bad, reason) in cases {
            state.write_active(&bad).expect("write");
            let err = state.read_active().expect_err(reason);
            assert_eq!(err.to_string(), reason);
            assert!(state.active_path().exists(), "nothing deleted");
        }
        state.write_active(&run()).expect("write");
        assert_eq!(state.read_active().expect("good"), run());
    }

    #[test]
    fn hostile_task_lists_are_refused_by_field() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = RunState::new(dir.path());
        let base = team::registration::register(&[
            team::testing::task("1", "Add a", &["src/a.rs"], &[]),
            team::testing::task("2", "Add b", &["src/b.rs"], &["1"]),
        ])
        .tasks;
        let edit = |f: &dyn Fn(&mut Vec<Task>)| {
            let mut t = base.clone();
            f(&mut t);
            t
        };
        let cases = [
            (
                edit(&|t| t[1].owns = vec!["../../etc/passwd".into()]),
                "field tasks[2].owns: \"../../etc/passwd\" is not a path inside the repository",
            ),
            (
                edit(&|t| t[0].owns = vec!["/etc/passwd".into()]),
                "field tasks[1].owns: \"/etc/passwd\" is not a path inside the repository",
            ),
            (
                edit(&|t| t[1].id = 1),
                "field tasks[].id: task 1 appears twice",
            ),
            (
                edit(&|t| t[1].blocked_by = vec![7]),
                "field tasks[2].blocked_by: 7 is not another task of the list",
            ),
            (
                edit(&|t| {
                    t[0].status = TaskStatus::InProgress {
                        claimer: "../x".into(),
                    }
                }),
                "field tasks[1].claimer: \"../x\" is not a name",
            ),
        ];
        for (tasks, reason) in cases {
            state.write_tasks("retake-1", &tasks).expect("write");
            let err = state.read_tasks().expect_err(reason).to_string();
            assert!(err.starts_with(reason), "{err}");
        }
        state.write_tasks("../..", &base).expect("write");
        let err = state.read_tasks().expect_err("session id").to_string();
        assert!(
            err.starts_with("field session_id: \"../..\" is not a name"),
            "{err}"
        );
        state.write_tasks("retake-1", &base).expect("write");
        assert_eq!(state.read_tasks().expect("good").1, base);
    }
}
