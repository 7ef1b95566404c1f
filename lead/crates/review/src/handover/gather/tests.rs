use super::*;
use crate::steering::proposals::{append as append_proposals, Record, Status};
use crate::verdicts_md::{append, Batch};
use auditor::consensus::Consensus;
use protocol::cpf::{format_verdict, VerdictCpf, VerifiedRow};
use protocol::{Severity, Verdict};

/// Appends a batch verifying `rows` with `verdict` to `path`.
fn batch(path: &Path, verdict: Verdict, rows: &[VerifiedRow], ts: &str) {
    let mut v = VerdictCpf::new(verdict);
    v.verified = rows.to_vec();
    let raw = vec![Some(format_verdict(&v))];
    append(
        path,
        &Batch {
            title: "shop",
            timestamp: ts,
            version: "0.1.0",
            raw: &raw,
            consensus: &Consensus::single(&v),
            disposition: None,
            findings: &[],
            already_there: &[],
        },
    )
    .expect("append");
}

fn todo(n: u32) -> VerifiedRow {
    VerifiedRow {
        agents: vec!["inspector-quality".into()],
        severity: Severity::Medium,
        category: "todo-marker".into(),
        location: format!("src/a.rs:{n}"),
        description: format!("TODO {n}"),
    }
}

#[test]
fn an_empty_repository_has_nothing_to_say() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(facts(dir.path()), Facts::default());
}

#[test]
fn the_last_five_batches_and_the_newest_tracked_issues_of_every_verdicts_md() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    let top = repo.join(".retake/verdicts.md");
    for day in 1..=6 {
        batch(&top, Verdict::Go, &[], &format!("2026-01-0{day}T00:00:00Z"));
    }
    std::fs::create_dir_all(repo.join("specs/orders")).expect("mkdir");
    let rows: Vec<VerifiedRow> = (1..=22).map(todo).collect();
    batch(
        &repo.join("specs/orders/verdicts.md"),
        Verdict::Conditional,
        &rows,
        "2026-02-01T00:00:00Z",
    );
    let f = facts(repo);
    assert_eq!(f.verdicts.len(), 6, "{:#?}", f.verdicts);
    assert!(
        f.verdicts[0].starts_with("- [B2] 2026-01-02T00:00:00Z GO"),
        "{}",
        f.verdicts[0]
    );
    assert!(f.verdicts[0].ends_with("(.retake/verdicts.md)"));
    assert!(
        f.verdicts[5].starts_with("- [B1] 2026-02-01T00:00:00Z CONDITIONAL")
            && f.verdicts[5].ends_with("(specs/orders/verdicts.md)"),
        "{}",
        f.verdicts[5]
    );
    assert_eq!(f.pending.len(), MAX_TRACKED + 1, "{:#?}", f.pending);
    assert!(
        f.pending[0]
            .starts_with("- Tracked (specs/orders/verdicts.md): M todo-marker at src/a.rs:"),
        "{}",
        f.pending[0]
    );
    assert_eq!(f.pending[MAX_TRACKED], "- … and 2 more Tracked issues");
}

#[test]
fn proposals_an_interrupted_run_failed_tasks_and_decisions_are_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    let state_dir = repo.join(".retake");
    let record = |id: &str, status| Record {
        id: id.into(),
        target: "steering/tech.md".into(),
        text: "unwrap is fine in main".into(),
        status,
        run_id: "r1".into(),
        at: "2026-01-01T00:00:00Z".into(),
    };
    append_proposals(
        &state_dir,
        &[
            record("abcd1234", Status::Pending),
            record("ffff0000", Status::Rejected),
        ],
    )
    .expect("proposals");
    std::fs::create_dir_all(state_dir.join("state")).expect("mkdir");
    std::fs::write(state_dir.join("state/active.json"), r#"{"kind":"run"}"#).expect("state");
    std::fs::write(
        state_dir.join("state/tasks.json"),
        r#"{"session_id":"s1","tasks":[
            {"id":1,"subject":"Add subtraction","description":"","owns":[],"blocked_by":[],"status":"failed","attempts":3,"origin":"Plan","active_form":""},
            {"id":2,"subject":"Add multiplication","description":"","owns":[],"blocked_by":[],"status":"completed","attempts":1,"origin":"Plan","active_form":""}]}"#,
    )
    .expect("tasks");
    std::fs::create_dir_all(repo.join("steering")).expect("mkdir");
    std::fs::write(
        repo.join(DECISIONS_MD),
        "# Decisions\n\n- 1\n- 2\n- 3\n- 4\n- 5\n- 6\n",
    )
    .expect("decisions");
    let f = facts(repo);
    assert_eq!(f.decisions, vec!["- 2", "- 3", "- 4", "- 5", "- 6"]);
    assert_eq!(
        f.pending,
        vec![
            "- Proposal abcd1234 for steering/tech.md: unwrap is fine in main (review r1; answer with `retake review --answer abcd1234=yes` or `=no`)".to_string(),
            "- An interrupted run waits for `retake resume`".to_string(),
            "- Task 1 failed after 3 attempt(s): Add subtraction".to_string(),
        ]
    );
}
