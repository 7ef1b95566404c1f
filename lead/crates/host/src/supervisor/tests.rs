use super::*;
use protocol::message::{Count, Unit};

/// An Inspector's progress: `done` of 1600 steps in `module:**`.
fn steps(done: u64) -> Progress {
    Progress::about("module:**").with_count(Some(Count::of(done, 1600, Unit::Steps)))
}

pub(crate) fn policy() -> Policy {
    Policy {
        heartbeat: Duration::from_millis(100),
        suspect_after: 3,
        connect_timeout: Duration::from_secs(2),
        nudge_timeout: Duration::from_millis(500),
        max_restarts: 3,
        restart_window: Duration::from_secs(60),
        respawns_per_slot: 1,
    }
}

fn two(now: Instant) -> Supervisor {
    let actors = vec![
        ("inspector-quality".to_string(), Role::Inspector),
        ("auditor".to_string(), Role::Auditor),
    ];
    let (sup, actions) = Supervisor::new(&actors, &[], policy(), now);
    assert_eq!(actions.len(), 2);
    assert_eq!(
        actions[0],
        Action::Spawn {
            logical: "inspector-quality".into(),
            instance: "inspector-quality".into(),
            spawn_no: 1
        }
    );
    sup
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_dead_inspector_is_replaced_once_under_a_new_name_then_given_up() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    assert!(sup.connected("inspector-quality", t0));
    let actions = sup.lost("inspector-quality", "was killed by signal 9", t0 + ms(10));
    assert_eq!(
        actions,
        vec![
            Action::Kill {
                instance: "inspector-quality".into()
            },
            Action::Spawn {
                logical: "inspector-quality".into(),
                instance: "inspector-quality-r1".into(),
                spawn_no: 2
            },
        ]
    );
    assert!(
        sup.slot("inspector-quality").is_none(),
        "the old instance no longer fills the slot"
    );
    assert!(sup.connected("inspector-quality-r1", t0 + ms(20)));
    let actions = sup.lost("inspector-quality-r1", "exited with code 3", t0 + ms(30));
    assert_eq!(actions.len(), 2);
    match &actions[1] {
        Action::GiveUp {
            logical,
            instance,
            reason,
        } => {
            assert_eq!(
                (logical.as_str(), instance.as_str()),
                ("inspector-quality", "inspector-quality-r1")
            );
            assert_eq!(
                reason,
                "inspector-quality-r1 exited with code 3; its replacement failed too"
            );
        }
        other => panic!("expected GiveUp, got {other:?}"),
    }
    assert_eq!(sup.restarts()["inspector-quality"], 1);
    assert!(
        sup.lost("inspector-quality-r1", "again", t0 + ms(40))
            .is_empty(),
        "a given-up slot is quiet"
    );
}

#[test]
fn an_inspector_that_says_it_failed_is_given_up_at_once_with_its_reason() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    assert!(sup.connected("inspector-quality", t0));
    let actions = sup.failed("inspector-quality", "agent output unusable: no usable CPF");
    assert_eq!(
        actions,
        vec![
            Action::Kill {
                instance: "inspector-quality".into()
            },
            Action::GiveUp {
                logical: "inspector-quality".into(),
                instance: "inspector-quality".into(),
                reason: "inspector-quality failed: agent output unusable: no usable CPF".into(),
            },
        ]
    );
    assert_eq!(
        sup.restarts()
            .get("inspector-quality")
            .copied()
            .unwrap_or(0),
        0
    );
    assert!(
        sup.failed("inspector-quality", "again").is_empty(),
        "given up once"
    );
    assert!(sup
        .lost("inspector-quality", "disconnected", t0 + ms(10))
        .is_empty());
}

#[test]
fn a_lead_that_was_not_running_does_not_blame_its_actors() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("inspector-quality", t0);
    sup.connected("auditor", t0);
    sup.working("inspector-quality", t0 + Duration::from_secs(60));
    // Regular ticks every half heartbeat, with beats, until 200 ms.
    for t in [50, 100, 150, 200] {
        sup.seen("inspector-quality", t0 + ms(t));
        sup.seen("auditor", t0 + ms(t));
        assert_eq!(sup.tick(t0 + ms(t)), vec![], "at {t} ms");
    }
    // The Lead's next tick comes 700 ms late: the beats sent meanwhile are still unread.
    assert_eq!(
        sup.tick(t0 + ms(900)),
        vec![],
        "the Lead's own absence is not silence"
    );
    // Ticking regularly again, an actor that stays silent is found within suspect_after.
    let mut found = Vec::new();
    for t in (950..=1300).step_by(50) {
        sup.seen("auditor", t0 + ms(t));
        found = sup.tick(t0 + ms(t));
        if !found.is_empty() {
            assert!(
                t > 1000,
                "found at {t} ms, before 3 × 100 ms of its silence"
            );
            break;
        }
    }
    assert!(
        matches!(&found[..], [Action::Kill { instance }, ..] if instance == "inspector-quality"),
        "{found:?}"
    );
}

#[test]
fn silence_past_suspect_after_shuts_down_and_replaces() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("inspector-quality", t0);
    sup.connected("auditor", t0);
    sup.working("inspector-quality", t0 + Duration::from_secs(60));
    sup.seen("auditor", t0 + ms(250));
    assert!(
        sup.tick(t0 + ms(250)).is_empty(),
        "250 ms of silence is within 3 × 100 ms"
    );
    let actions = sup.tick(t0 + ms(350));
    assert_eq!(
        actions[0],
        Action::Kill {
            instance: "inspector-quality".into()
        },
        "silent: killed at once"
    );
    assert!(
        matches!(&actions[1], Action::Spawn { instance, .. } if instance == "inspector-quality-r1")
    );
    assert_eq!(
        actions.len(),
        2,
        "the auditor heartbeated at 250 ms: {actions:?}"
    );
}

#[test]
fn an_inspector_whose_progress_moves_keeps_working_past_its_first_deadline() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("inspector-quality", t0);
    sup.connected("auditor", t0);
    sup.working("inspector-quality", t0 + ms(200));
    // Progress moved: the report is owed no earlier than 350 ms.
    sup.progressed("inspector-quality", &steps(10), t0 + ms(350));
    // An extension never shortens the deadline.
    sup.progressed("inspector-quality", &steps(11), t0 + ms(100));
    for t in [250, 300] {
        sup.seen("inspector-quality", t0 + ms(t));
        sup.seen("auditor", t0 + ms(t));
        assert_eq!(sup.tick(t0 + ms(t)), vec![], "at {t} ms");
    }
    // The same progress again does not extend it: standing still is "idle but no output".
    sup.progressed("inspector-quality", &steps(11), t0 + ms(600));
    sup.seen("inspector-quality", t0 + ms(360));
    sup.seen("auditor", t0 + ms(360));
    let actions = sup.tick(t0 + ms(360));
    assert_eq!(
        actions[0],
        Action::Shutdown {
            instance: "inspector-quality".into()
        }
    );
    // The replacement starts with no progress seen: its first heartbeat counts as moving.
    assert_eq!(
        sup.by_logical("inspector-quality").expect("slot").progress,
        Progress::default()
    );
}

#[test]
fn progress_moves_no_auditor_deadline() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("auditor", t0);
    sup.working("auditor", t0 + ms(200));
    let reports = Progress::counted(Count::of(3, 6, Unit::Reports));
    sup.progressed("auditor", &reports, t0 + ms(900));
    assert_eq!(
        sup.by_logical("auditor").expect("slot").state,
        State::Working {
            deadline: t0 + ms(200)
        }
    );
}

#[test]
fn an_inspector_past_its_deadline_is_replaced_even_while_heartbeating() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("inspector-quality", t0);
    sup.working("inspector-quality", t0 + ms(200));
    sup.seen("inspector-quality", t0 + ms(250));
    sup.seen("auditor", t0 + ms(250));
    let actions = sup.tick(t0 + ms(260));
    assert_eq!(
        actions[0],
        Action::Shutdown {
            instance: "inspector-quality".into()
        }
    );
}

#[test]
fn the_auditor_is_nudged_before_it_is_replaced() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("auditor", t0);
    sup.connected("inspector-quality", t0);
    sup.delivered("inspector-quality");
    sup.working("auditor", t0 + ms(100));
    sup.seen("auditor", t0 + ms(150));
    assert_eq!(
        sup.tick(t0 + ms(150)),
        vec![Action::Nudge {
            instance: "auditor".into()
        }]
    );
    sup.seen("auditor", t0 + ms(600));
    assert!(sup.tick(t0 + ms(600)).is_empty(), "the nudge lasts 500 ms");
    sup.seen("auditor", t0 + ms(700));
    let actions = sup.tick(t0 + ms(700));
    assert_eq!(
        actions[0],
        Action::Shutdown {
            instance: "auditor".into()
        }
    );
    assert!(
        matches!(&actions[1], Action::Spawn { instance, spawn_no: 2, .. } if instance == "auditor-r1")
    );
}

#[test]
fn an_actor_that_never_connects_is_replaced() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("auditor", t0);
    sup.seen("auditor", t0 + Duration::from_millis(2100));
    let actions = sup.tick(t0 + Duration::from_millis(2100));
    assert_eq!(
        actions[0],
        Action::Kill {
            instance: "inspector-quality".into()
        }
    );
}

#[test]
fn the_role_restart_budget_is_shared_and_marks_the_role_degraded() {
    let t0 = Instant::now();
    let names: Vec<(String, Role)> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| (format!("inspector-{n}"), Role::Inspector))
        .collect();
    let (mut sup, _) = Supervisor::new(&names, &[], policy(), t0);
    for (i, (name, _)) in names.iter().enumerate() {
        let actions = sup.lost(name, "crashed", t0 + ms(i as u64));
        let spawned = actions.iter().any(|a| matches!(a, Action::Spawn { .. }));
        assert_eq!(spawned, i < 3, "restart {i}: {actions:?}");
    }
    assert_eq!(sup.degraded(), &[Role::Inspector]);
    let (mut later, _) = Supervisor::new(&names, &[], policy(), t0);
    for (i, (name, _)) in names.iter().take(3).enumerate() {
        later.lost(name, "crashed", t0 + ms(i as u64));
    }
    let after_window = later.lost("inspector-d", "crashed", t0 + Duration::from_secs(61));
    assert!(
        after_window
            .iter()
            .any(|a| matches!(a, Action::Spawn { .. })),
        "the window slides"
    );
}

#[test]
fn delivered_actors_are_not_supervised_any_more() {
    let t0 = Instant::now();
    let mut sup = two(t0);
    sup.connected("inspector-quality", t0);
    sup.delivered("inspector-quality");
    sup.connected("auditor", t0);
    sup.seen("auditor", t0 + Duration::from_secs(5));
    assert!(sup.tick(t0 + Duration::from_secs(5)).is_empty());
    assert!(sup
        .lost(
            "inspector-quality",
            "exited with code 0",
            t0 + Duration::from_secs(5)
        )
        .is_empty());
}

#[test]
fn journaled_slots_of_a_resumed_run_start_delivered_and_are_not_spawned() {
    let t0 = Instant::now();
    let actors = vec![
        ("inspector-quality".to_string(), Role::Inspector),
        ("auditor".to_string(), Role::Auditor),
    ];
    let (sup, actions) = Supervisor::new(&actors, &["inspector-quality".to_string()], policy(), t0);
    assert_eq!(
        actions,
        vec![Action::Spawn {
            logical: "auditor".into(),
            instance: "auditor".into(),
            spawn_no: 1
        }]
    );
    assert_eq!(
        sup.by_logical("inspector-quality").map(|s| s.state.clone()),
        Some(State::Delivered)
    );
}

#[test]
fn an_overdue_implementer_is_shut_down_and_replaced_on_a_budget_apart_from_inspectors() {
    let t0 = Instant::now();
    let actors: Vec<(String, Role)> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| (format!("inspector-{n}"), Role::Inspector))
        .chain((1..=2).map(|n| (format!("implementer-{n}"), Role::Implementer)))
        .collect();
    let (mut sup, _) = Supervisor::new(&actors, &[], policy(), t0);
    for (i, name) in ["inspector-a", "inspector-b", "inspector-c", "inspector-d"]
        .iter()
        .enumerate()
    {
        sup.lost(name, "crashed", t0 + ms(i as u64));
    }
    assert_eq!(
        sup.degraded(),
        &[Role::Inspector],
        "the Inspectors' budget is spent"
    );
    sup.connected("implementer-1", t0);
    sup.working("implementer-1", t0 + ms(200));
    sup.seen("implementer-1", t0 + ms(250));
    let actions = sup.tick(t0 + ms(250));
    assert_eq!(
        actions,
        vec![
            Action::Shutdown {
                instance: "implementer-1".into()
            },
            Action::Spawn {
                logical: "implementer-1".into(),
                instance: "implementer-1-r1".into(),
                spawn_no: 2
            },
        ],
        "an overdue Implementer is still responsive: shut down, then replaced"
    );
    assert_eq!(sup.restarts().get("implementer-1"), Some(&1));
    assert_eq!(sup.restarts().get("implementer-2"), Some(&0));
    assert_eq!(sup.degraded(), &[Role::Inspector]);
}
