use super::proposals::{pending, read, PROPOSALS_FILE};
use super::*;

const AT: &str = "2025-03-04T05:06:07Z";

fn origin(run_id: &str) -> Origin<'_> {
    Origin { run_id, at: AT }
}

fn codify(text: &str) -> Steering {
    Steering {
        action: SteeringAction::Codify,
        target: "steering/tech.md".into(),
        text: text.into(),
    }
}

fn propose(text: &str) -> Steering {
    Steering {
        action: SteeringAction::Propose,
        target: "steering/structure.md".into(),
        text: text.into(),
    }
}

fn read_file(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).expect(rel)
}

#[test]
fn a_codify_is_appended_once_to_its_target_and_decisions_md() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("steering")).expect("mkdir");
    std::fs::write(root.join("steering/tech.md"), "# Tech\nUse cargo.").expect("write");
    let rows = [codify(
        "errors: thiserror\nenums (used consistently in 3 modules: a, b, c)",
    )];
    let mut never = |_: &Proposal| -> Option<Answer> { panic!("nothing to ask") };
    let first = apply(root, &rows, origin("r1"), &mut never).expect("apply");
    assert_eq!(
        first,
        vec![
            "STEERING_APPLIED|steering/tech.md|errors: thiserror enums (used consistently in 3 modules: a, b, c)"
        ]
    );
    let second = apply(root, &rows, origin("r2"), &mut never).expect("apply");
    assert!(second.is_empty(), "{second:?}");
    assert_eq!(
        read_file(root, "steering/tech.md"),
        "# Tech\nUse cargo.\n- errors: thiserror enums (used consistently in 3 modules: a, b, c)\n"
    );
    assert_eq!(
        read_file(root, DECISIONS_MD),
        "# Decisions\n\n- 2025-03-04 CODIFY `steering/tech.md`: errors: thiserror enums (used consistently in 3 modules: a, b, c)\n"
    );
    assert!(!root.join(".retake").join(PROPOSALS_FILE).exists());
}

#[test]
fn a_missing_target_is_created_with_a_title() {
    assert_eq!(
        appended(None, "Structure", "- one", |_| false),
        Some("# Structure\n\n- one\n".to_string())
    );
    assert_eq!(
        appended(Some("- one\n"), "X", "- one", |l| l == "- one"),
        None
    );
    assert_eq!(title_of("steering/product.md"), "Product");
}

#[test]
fn an_unanswered_proposal_is_recorded_pending_once_and_noted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let rows = [propose(
        "One import style in every module (import-pattern in 3 files: a, b, c)",
    )];
    let id = proposals::proposal_id(&rows[0].target, &rows[0].text);
    let mut silent = |_: &Proposal| None;
    let notes = apply(root, &rows, origin("r1"), &mut silent).expect("apply");
    assert_eq!(notes, vec![pending_note(std::slice::from_ref(&id))]);
    assert!(notes[0].starts_with("PROPOSE_PENDING|1 proposal(s) await an answer: "));
    apply(root, &rows, origin("r2"), &mut silent).expect("apply again");
    let log = read(&root.join(".retake")).expect("log");
    assert_eq!(log.len(), 1, "pending is recorded once: {log:?}");
    assert_eq!(log[0].status, Status::Pending);
    assert_eq!(log[0].run_id, "r1");
    assert!(
        !root.join("steering").exists(),
        "nothing is written while pending"
    );
}

#[test]
fn an_answer_settles_a_proposal_for_good() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let rows = [propose("Rule A"), propose("Rule B")];
    let mut silent = |_: &Proposal| None;
    apply(root, &rows, origin("r1"), &mut silent).expect("pending");
    let id_a = proposals::proposal_id("steering/structure.md", "Rule A");
    let id_b = proposals::proposal_id("steering/structure.md", "Rule B");
    let given = [
        GivenAnswer {
            id: id_a[..4].to_string(),
            answer: Answer::Approve,
        },
        GivenAnswer {
            id: id_b.clone(),
            answer: Answer::Reject,
        },
    ];
    let mut by_flag = |p: &Proposal| given_answer(&given, &p.id);
    // Rule B is no longer proposed, but its pending answer is still owed.
    let notes = apply(root, &rows[..1], origin("r2"), &mut by_flag).expect("answer");
    assert_eq!(
        notes,
        vec![
            format!("PROPOSE_APPROVED|{id_a}|steering/structure.md|Rule A"),
            format!("PROPOSE_REJECTED|{id_b}|steering/structure.md|Rule B"),
        ]
    );
    assert_eq!(
        read_file(root, "steering/structure.md"),
        "# Structure\n\n- Rule A\n"
    );
    assert_eq!(
        read_file(root, DECISIONS_MD),
        "# Decisions\n\n- 2025-03-04 PROPOSE approved `steering/structure.md`: Rule A\n"
    );
    assert_eq!(pending(&root.join(".retake")).expect("pending"), Vec::new());
    let mut never = |_: &Proposal| -> Option<Answer> { panic!("answered proposals are not asked") };
    assert!(apply(root, &rows, origin("r3"), &mut never)
        .expect("again")
        .is_empty());
}

#[test]
fn a_target_outside_the_steering_folder_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let mut row = codify("x");
    row.target = "../outside.md".into();
    let mut silent = |_: &Proposal| None;
    let notes = apply(root, &[row], origin("r1"), &mut silent).expect("apply");
    assert_eq!(
        notes,
        vec!["STEERING_REFUSED|../outside.md|not a steering file (steering/*.md)"]
    );
    assert!(!root.join("steering").exists());
    assert!(is_steering_file("steering/tech.md"));
    for bad in [
        "steering/../x.md",
        "steering/a/b.md",
        "steering/.md",
        "src/a.md",
        "steering/x.txt",
    ] {
        assert!(!is_steering_file(bad), "{bad}");
    }
}

#[test]
fn a_repository_without_steering_files_is_not_written_to_and_gets_a_suggestion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let rows = [codify("errors: thiserror enums")];
    let mut never = |_: &Proposal| -> Option<Answer> { panic!("nothing to ask") };
    let notes = apply(root, &rows, origin("r1"), &mut never).expect("apply");
    assert_eq!(
        notes,
        vec!["STEERING_SUGGESTED|steering/tech.md|errors: thiserror enums"]
    );
    assert!(!root.join("steering").exists());
    assert!(!root.join(".retake").join(PROPOSALS_FILE).exists());
}
