use super::*;
use crate::supervisor::tests::policy;
use crate::supervisor::{Role, Supervisor};
use protocol::live::ActorState;

/// Every event published after `rx` subscribed, as JSON-free values.
fn drain(rx: &mut broadcast::Receiver<Published>) -> Vec<LiveEvent> {
    let mut out = Vec::new();
    while let Ok(p) = rx.try_recv() {
        out.push((*p.event).clone());
    }
    out
}

#[test]
fn a_lost_inspector_shows_as_replaced_with_its_reason_then_given_up() {
    let now = Instant::now();
    let actors = vec![("inspector-quality".to_string(), Role::Inspector)];
    let (mut sup, _) = Supervisor::new(&actors, &[], policy(), now);
    let feed = Feed::new();
    let (_, mut rx) = feed.subscribe();
    let mut watch = ActorWatch::new(feed.clone(), "review");
    watch.update(sup.slots());
    assert!(sup.connected("inspector-quality", now));
    watch.update(sup.slots());
    sup.lost("inspector-quality", "was killed by signal 9", now);
    watch.update(sup.slots());
    // Nothing changed: nothing published.
    watch.update(sup.slots());
    let events = drain(&mut rx);
    let states: Vec<(ActorState, u32)> = events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Actors { actors, .. } => Some((actors[0].state, actors[0].restarts)),
            _ => None,
        })
        .collect();
    assert_eq!(
        states,
        [
            (ActorState::Starting, 0),
            (ActorState::Working, 0),
            (ActorState::Replaced, 1)
        ]
    );
    let lines: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Happened { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        ["inspector-quality was killed by signal 9; replaced by inspector-quality-r1"]
    );
    // The replacement dies too: the slot is given up, with both reasons.
    sup.lost("inspector-quality-r1", "sent no heartbeat for 400 ms", now);
    watch.update(sup.slots());
    let state = feed.state();
    let line = &state.actors[0].1[0];
    assert_eq!(line.state, ActorState::Lost);
    assert!(
        line.detail.contains("its replacement failed too"),
        "{}",
        line.detail
    );
    assert!(state.happened[1]
        .1
        .starts_with("inspector-quality given up: "));
}

#[test]
fn a_new_watcher_gets_the_state_so_far_and_then_each_event() {
    let feed = Feed::new();
    feed.happened("one");
    let (state, mut rx) = feed.subscribe();
    feed.happened("two");
    assert_eq!(state.happened.len(), 1);
    let after = drain(&mut rx);
    assert!(matches!(&after[..], [LiveEvent::Happened { text, .. }] if text == "two"));
}

#[test]
fn a_replacement_and_a_give_up_between_two_looks_both_get_their_line() {
    let now = Instant::now();
    let actors = vec![("inspector-test".to_string(), Role::Inspector)];
    let (mut sup, _) = Supervisor::new(&actors, &[], policy(), now);
    let feed = Feed::new();
    let mut watch = ActorWatch::new(feed.clone(), "review");
    sup.lost("inspector-test", "was killed by signal 6", now);
    sup.lost("inspector-test-r1", "was killed by signal 6", now);
    watch.update(sup.slots());
    let lines: Vec<String> = feed.state().happened.into_iter().map(|(_, t)| t).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[0],
        "inspector-test was killed by signal 6; replaced by inspector-test-r1"
    );
    assert!(lines[1].starts_with("inspector-test given up: inspector-test-r1 was killed"));
}
