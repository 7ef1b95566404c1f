use super::*;
use team::registration::register;
use team::testing::task;

fn tasks() -> Vec<Task> {
    register(&[
        task("1", "Add a", &["a"], &[]),
        task("2", "Add b", &["b"], &["1"]),
        task("3", "Add c", &["c"], &[]),
        task("4", "Add d", &["d"], &[]),
    ])
    .tasks
}

#[test]
fn a_phase_gets_one_implementer_per_startable_task_within_the_team() {
    let mut t = tasks();
    assert_eq!(team_for(&t, None, None, 3), 3, "1, 3 and 4 can start");
    assert_eq!(
        team_for(&t, None, None, 2),
        2,
        "never more than Phase A's team"
    );
    assert_eq!(team_for(&t, Some(1), None, 3), 1);
    t[0].status = TaskStatus::Completed;
    t[2].status = TaskStatus::Completed;
    t[3].status = TaskStatus::Completed;
    assert_eq!(team_for(&t, None, None, 3), 1, "only 2 is left");
    t[1].status = TaskStatus::Completed;
    assert_eq!(team_for(&t, None, None, 3), 1, "never none");
}

#[test]
fn a_run_keeps_the_gate_it_started_with() {
    let mut active: ActiveRun = serde_json::from_value(serde_json::json!({
        "kind": "run", "session_id": "s", "started_at": "2026-02-22T14:30:00Z",
        "impl_mode": "agent", "task_range": "all", "base_commit": "abc",
        "team": null, "plans_mapping": {}, "options": null,
        "review": {"retake_count": 0, "max_retakes": 3, "retry_count": 0, "spec_update_count": 0}
    }))
    .expect("active.json");
    assert_eq!(gate_kind(&active, GateKind::Breezing), GateKind::Breezing);
    active.options = Some(super::super::state::RunOptions {
        parallel: None,
        no_discuss: true,
        yes: true,
        gate: "sdd".into(),
    });
    assert_eq!(gate_kind(&active, GateKind::Breezing), GateKind::Sdd);
    assert!(elapsed_secs(&active.started_at) > 0);
    assert_eq!(elapsed_secs("not a time"), 0);
}
