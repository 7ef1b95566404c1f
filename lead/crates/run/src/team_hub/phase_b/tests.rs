use super::*;
use protocol::message::PeerNoteKind;
use team::registration::register;
use team::testing::task;

const NOW: &str = "2026-02-22T14:30:00Z";

/// Four plan tasks; 4 waits for 1 (so batch 1 is 1–3, batch 2 is 4).
fn tasks() -> Vec<Task> {
    register(&[
        task("1", "Add t1", &["src/t1.rs", "src/lib.rs"], &[]),
        task("2", "Add t2", &["src/t2.rs", "src/lib.rs"], &[]),
        task("3", "Add t3", &["src/t3.rs"], &[]),
        task("4", "Add t4", &["src/t4.rs"], &["1"]),
    ])
    .tasks
}

fn config(high: &[u32]) -> PhaseBConfig {
    PhaseBConfig {
        reviews: None,
        high_priority: high.iter().copied().collect(),
    }
}

#[test]
fn half_the_plan_queues_a_partial_review_of_the_finished_files() {
    let mut t = tasks();
    t[0].status = TaskStatus::Completed;
    let (signals, reviews) = after_completion(&config(&[]), "s", &t, 1, &[], NOW);
    assert!(signals.is_empty() && reviews.is_empty());
    t[1].status = TaskStatus::Completed;
    let (signals, reviews) = after_completion(&config(&[]), "s", &t, 2, &[], NOW);
    let kinds: Vec<SignalKind> = signals.iter().map(|s| s.signal).collect();
    assert_eq!(
        kinds,
        [
            SignalKind::PartialReviewRecommended,
            SignalKind::NextBatchRecommended
        ]
    );
    assert_eq!(
        reviews,
        [ScopedReview {
            trigger: Trigger::PartialReview,
            tasks: vec![1, 2],
            files: vec!["src/t1.rs".into(), "src/lib.rs".into(), "src/t2.rs".into()],
        }]
    );
    t[2].status = TaskStatus::Completed;
    let (again, reviews) = after_completion(&config(&[]), "s", &t, 3, &signals, NOW);
    assert!(again.is_empty() && reviews.is_empty(), "once per session");
}

#[test]
fn no_partial_review_with_one_task_left() {
    let mut t = tasks();
    t.truncate(3);
    t[0].status = TaskStatus::Completed;
    t[1].status = TaskStatus::Completed;
    let (signals, reviews) = after_completion(&config(&[]), "s", &t, 2, &[], NOW);
    assert_eq!(signals.len(), 1, "the signal is written");
    assert!(
        reviews.is_empty(),
        "but one task left: the full review comes next"
    );
}

#[test]
fn a_high_priority_task_is_reviewed_at_once_unless_it_is_the_last() {
    let mut t = tasks();
    t[2].status = TaskStatus::Completed;
    let (_, reviews) = after_completion(&config(&[3]), "s", &t, 3, &[], NOW);
    assert_eq!(
        reviews,
        [ScopedReview {
            trigger: Trigger::HighPriority,
            tasks: vec![3],
            files: vec!["src/t3.rs".into()],
        }]
    );
    for x in &mut t {
        x.status = TaskStatus::Completed;
    }
    let (_, reviews) = after_completion(&config(&[3]), "s", &t, 3, &[], NOW);
    assert!(reviews.is_empty(), "nothing left: the full review follows");
}

#[test]
fn notes_go_to_everyone_but_their_sender_once() {
    let mut b = PhaseB::new(config(&[]), Vec::new());
    let note = |task: u32| PeerNote {
        task,
        kind: PeerNoteKind::UtilityCreated,
        about: "src/util.rs".into(),
        text: format!("new pub fn u{task}()"),
    };
    b.notes.push(("implementer-1".into(), note(1)));
    assert!(b.notes_for("implementer-1").is_empty(), "not its own");
    assert_eq!(
        b.notes_for("implementer-2"),
        ["implementer-1 (utility-created) src/util.rs: new pub fn u1()"]
    );
    assert!(b.notes_for("implementer-2").is_empty(), "handed once");
    b.notes.push(("implementer-2".into(), note(2)));
    assert_eq!(
        b.notes_for("implementer-1"),
        ["implementer-2 (utility-created) src/util.rs: new pub fn u2()"]
    );
    assert_eq!(
        b.notes_for("implementer-1-r1").len(),
        2,
        "a re-spawn gets them all"
    );
    assert!(!b.busy());
}
