use super::*;
use protocol::cpf::{format_verdict, VerdictCpf};
use protocol::{Decision, Grade, Scope, TaskOrigin, Verdict};
use run::state::ReviewCounters;
use std::collections::BTreeMap;

fn review(run_id: &str) -> ActiveReview {
    ActiveReview {
        kind: "review".into(),
        run_id: run_id.into(),
        scope: Scope::Module {
            globs: vec!["src/**".into()],
        },
        runtime: "local".into(),
        no_exec: true,
        pipelines: 1,
        started_at: "2026-11-22T10:00:00Z".into(),
        profile: None,
    }
}

fn journal_report(repo: &Path, run_id: &str, name: &str) {
    let journal = Journal::create(&repo.join(".retake"), run_id).expect("journal");
    let report = protocol::InspectorReport {
        review: run_id.into(),
        inspector: name.into(),
        kind: None,
        scope: "repository".into(),
        findings: vec![],
        notes: vec![],
        claims: vec![],
        coverage: protocol::Coverage::default(),
        preexisting: Vec::new(),
    };
    journal.report(name, &report).expect("report");
}

fn task(id: u32, subject: &str, status: TaskStatus) -> Task {
    Task {
        id,
        subject: subject.into(),
        description: String::new(),
        owns: vec![],
        blocked_by: vec![],
        status,
        attempts: 1,
        origin: TaskOrigin::Plan,
        active_form: String::new(),
    }
}

#[test]
fn an_untouched_repository_has_nothing_in_progress() {
    let repo = tempfile::tempdir().expect("repo");
    let status = gather(repo.path()).expect("status");
    assert!(status.lead_pid.is_none() && status.active.is_none());
    assert!(status.journal.is_none() && status.last_review.is_none());
    let text = render(&status);
    assert!(text.contains("lead         not running\n"), "{text}");
    assert!(text.contains("in progress  nothing\n"), "{text}");
    assert!(!text.contains("interrupted"), "{text}");
}

#[test]
fn an_interrupted_review_shows_its_journaled_reports_and_how_to_resume() {
    let repo = tempfile::tempdir().expect("repo");
    let state_dir = repo.path().join(".retake");
    review("20261122T100000Z-aa")
        .write(&state_dir)
        .expect("state");
    journal_report(repo.path(), "20261122T100000Z-aa", "inspector-spec");
    journal_report(repo.path(), "20261122T100000Z-aa", "inspector-quality");
    // A report whose JSON was not written yet is not complete.
    std::fs::write(
        state_dir.join("runs/20261122T100000Z-aa/reports/inspector-test.cpf"),
        "",
    )
    .expect("partial");
    let text = render(&gather(repo.path()).expect("status"));
    assert!(
        text.contains("in progress  review 20261122T100000Z-aa (module:src/**), started 2026-11-22T10:00:00Z, runtime local, 1 pipeline(s), --no-exec\n"),
        "{text}"
    );
    assert!(
        text.contains("interrupted: `retake resume` continues it"),
        "{text}"
    );
    assert!(
        text.contains("journal      .retake/runs/20261122T100000Z-aa: 2 report(s) (inspector-quality, inspector-spec), no verdict yet\n"),
        "{text}"
    );
}

#[test]
fn a_live_lead_is_named_and_its_review_is_not_called_interrupted() {
    let repo = tempfile::tempdir().expect("repo");
    let state_dir = repo.path().join(".retake");
    review("r1").write(&state_dir).expect("state");
    let _lock = host::lock::RepoLock::acquire(&state_dir).expect("lock");
    let status = gather(repo.path()).expect("status");
    assert_eq!(status.lead_pid, Some(std::process::id()));
    let text = render(&status);
    assert!(
        text.contains(&format!(
            "lead         running (pid {})",
            std::process::id()
        )),
        "{text}"
    );
    assert!(!text.contains("interrupted"), "{text}");
}

#[test]
fn the_newest_finished_journal_gives_the_verdict_and_its_notes() {
    let repo = tempfile::tempdir().expect("repo");
    let runs = repo.path().join(".retake/runs");
    journal_report(repo.path(), "20261121T090000Z-01", "inspector-spec");
    journal_report(repo.path(), "20261122T090000Z-02", "inspector-spec");
    let mut verdict = VerdictCpf::new(Verdict::NoGo);
    verdict.notes = vec!["PARTIAL:inspector-test|no report after 2 spawns".into()];
    std::fs::write(
        runs.join("20261122T090000Z-02/verdict.cpf"),
        format_verdict(&verdict),
    )
    .expect("verdict");
    let status = gather(repo.path()).expect("status");
    let journal = status.journal.as_ref().expect("journal");
    assert_eq!(journal.run_id, "20261122T090000Z-02");
    assert_eq!(journal.verdict.as_deref(), Some("NO-GO"));
    let text = render(&status);
    assert!(
        text.contains("note PARTIAL:inspector-test|no report after 2 spawns\n"),
        "{text}"
    );
    std::fs::write(runs.join("20261122T090000Z-02/verdict.cpf"), "garbage").expect("bad");
    let err = format!("{:#}", gather(repo.path()).expect_err("bad verdict"));
    assert!(err.contains("verdict.cpf: not a verdict"), "{err}");
}

#[test]
fn a_run_shows_its_tasks_counters_and_last_review() {
    let repo = tempfile::tempdir().expect("repo");
    let state = RunState::new(&repo.path().join(".retake"));
    let run = ActiveRun {
        kind: "run".into(),
        session_id: "retake-20261122-143000".into(),
        started_at: "2026-11-22T14:30:00Z".into(),
        impl_mode: "script".into(),
        task_range: "all".into(),
        base_commit: "0123456789abcdef0123".into(),
        team: None,
        plans_mapping: BTreeMap::new(),
        options: None,
        review: ReviewCounters {
            retake_count: 1,
            max_retakes: 3,
            retry_count: 0,
            spec_update_count: 0,
        },
        accepted: None,
    };
    state.write_active(&run).expect("active");
    let tasks = [
        task(1, "Add a", TaskStatus::Completed),
        task(
            2,
            "Add b",
            TaskStatus::InProgress {
                claimer: "implementer-1".into(),
            },
        ),
        task(3, "Add c", TaskStatus::Pending),
    ];
    state.write_tasks(&run.session_id, &tasks).expect("tasks");
    state
        .write_review_result(&ReviewResult {
            verdict: Decision::RequestChanges,
            grade: Grade::C,
            commit_hash: "fedcba9876543210".into(),
            timestamp: "2026-11-22T14:40:00Z".into(),
            reviewer: "auditor".into(),
            session_id: run.session_id.clone(),
        })
        .expect("result");
    let text = render(&gather(repo.path()).expect("status"));
    for line in [
        "in progress  run retake-20261122-143000 (tasks all, executor script), started 2026-11-22T14:30:00Z, base 0123456789ab\n",
        "tasks        1 done, 1 in progress, 1 pending, 0 failed\n",
        "#2   in progress (implementer-1)  Add b [attempts 1]\n",
        "review loop  retakes 1/3, NO-GO retries 0, spec updates 0\n",
        "last review  REQUEST_CHANGES (grade C) of fedcba987654, 2026-11-22T14:40:00Z, by auditor\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    std::fs::write(state.tasks_path(), "{\"tasks\": 3}").expect("corrupt");
    let err = format!("{:#}", gather(repo.path()).expect_err("corrupt tasks"));
    assert!(err.contains("tasks.json: not a retake state file"), "{err}");
}

#[test]
fn a_damaged_state_file_is_an_error_not_nothing_in_progress() {
    let repo = tempfile::tempdir().expect("repo");
    let state_dir = repo.path().join(".retake/state");
    std::fs::create_dir_all(&state_dir).expect("mkdir");
    std::fs::write(state_dir.join("active.json"), "{\"kind\": \"review\"").expect("torn");
    let err = format!("{:#}", gather(repo.path()).expect_err("torn"));
    assert!(
        err.contains("active.json: not a retake state file"),
        "{err}"
    );
}
