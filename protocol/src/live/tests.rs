use super::*;

fn judgment(task: u32, iteration: u32, verdict: &str) -> String {
    format!(
        r#"{{"event_type":"QUALITY_JUDGMENT","timestamp":"2026-01-01T00:00:00.000Z","visibility":"summary","content":{{"task":{task},"iteration":{iteration},"judgment":"{verdict}","criteria_failed":["Q3"],"implementer":"implementer-1","summary":"a TODO is left"}}}}"#
    )
}

#[test]
fn a_reject_then_its_prompt_then_a_pass_fold_into_two_judgments() {
    let mut state = LiveState::default();
    let details = r#"{"event_type":"REJECTION_DETAILS","timestamp":"t","visibility":"full","content":{"task":2,"iteration":1,"judgment":"REJECT","criteria_failed":["Q3"],"modification_prompt":"Remove the TODO"}}"#;
    let start = r#"{"event_type":"REVIEW_ITERATION_START","timestamp":"t","visibility":"full","content":{"task":2,"iteration":2,"judgment":null,"criteria_failed":[]}}"#;
    for line in [
        judgment(2, 1, "REJECT"),
        details.into(),
        start.into(),
        judgment(2, 2, "PASS"),
    ] {
        if let Some(event) = of_timeline(&line) {
            assert_eq!(state.apply(&event), Part::Tasks);
        }
    }
    let of_2: Vec<&JudgmentLine> = state.judgments_of(2).collect();
    assert_eq!(of_2.len(), 2, "{of_2:?}");
    assert_eq!(of_2[0].judgment, "REJECT");
    assert_eq!(of_2[0].failed, ["Q3"]);
    assert_eq!(of_2[0].prompt.as_deref(), Some("Remove the TODO"));
    assert_eq!(of_2[1].judgment, "PASS");
    assert_eq!(of_2[1].prompt, None);
    assert_eq!(of_2[1].implementer.as_deref(), Some("implementer-1"));
}

#[test]
fn lines_that_are_not_judgments_or_not_json_are_no_event() {
    assert_eq!(of_timeline("not json"), None);
    assert_eq!(
        of_timeline(r#"{"event_type":"TASK_COMPLETED","content":{"task":1}}"#),
        None
    );
    assert_eq!(
        of_timeline(r#"{"event_type":"QUALITY_JUDGMENT","content":{"task":1,"iteration":1}}"#),
        None,
        "a judgment without its verdict"
    );
}

#[test]
fn an_actor_list_replaces_its_hub_s_earlier_one_and_keeps_the_others() {
    let line = |name: &str, state: ActorState, restarts: u32| ActorLine {
        name: name.into(),
        instance: name.into(),
        state,
        detail: String::new(),
        seen_ms: 1,
        restarts,
        last_restart: None,
    };
    let mut state = LiveState::default();
    let review = |actors| LiveEvent::Actors {
        hub: "review".into(),
        actors,
    };
    state.apply(&review(vec![line(
        "inspector-quality",
        ActorState::Starting,
        0,
    )]));
    state.apply(&LiveEvent::Actors {
        hub: "review p2".into(),
        actors: vec![line("auditor", ActorState::Working, 0)],
    });
    state.apply(&review(vec![line(
        "inspector-quality",
        ActorState::Replaced,
        1,
    )]));
    assert_eq!(state.actors.len(), 2);
    assert_eq!(state.actors[0].0, "review");
    assert_eq!(state.actors[0].1[0].state, ActorState::Replaced);
    assert_eq!(state.actors[0].1[0].restarts, 1);
}

#[test]
fn what_happened_keeps_the_latest_lines_only() {
    let mut state = LiveState::default();
    for i in 0..(HAPPENED_KEPT as u64 + 3) {
        state.apply(&LiveEvent::Happened {
            at_ms: i,
            text: format!("line {i}"),
        });
    }
    assert_eq!(state.happened.len(), HAPPENED_KEPT);
    assert_eq!(state.happened[0].1, "line 3");
}

#[test]
fn events_are_tagged_json() {
    let e = LiveEvent::Phase(PhaseLine {
        phase: RunPhase::Implement,
        iteration: 1,
        retakes: 0,
        max_retakes: 3,
    });
    assert_eq!(
        e.to_json(),
        r#"{"kind":"phase","phase":"B","iteration":1,"retakes":0,"max_retakes":3}"#
    );
}
