//! A review round of Phase B: the full review of everything the run changed (a session against
//! the run's base commit) through the review pipeline, called in-process, then the gate's
//! decision. The round's record goes to `review-result.json` and the timeline. Also the scoped
//! reviews during a team phase (a partial review of finished tasks, the immediate review of a
//! high-priority one): the same pipeline over the tasks' files (`--paths`), whose findings
//! become fix tasks by the same path when the gate would ask for changes.

use super::state::{team_event, RunState};
use host::Runtime;
use protocol::chaos::FaultPlan;
use protocol::{AuditOutcome, DiffFilter, Scope, Task, TaskStatus};
use review::config::ReviewConfig;
use review::questions::Exchange;
use review::{self, ReviewRequest};
use std::path::Path;
use team::fix_tasks::{fix_tasks, to_tasks};
use team::gate::{self, GateAction, GateKind, GateState};
use team::registration::next_id;
use team::review_result::ReviewResult;

/// What a review round needs.
#[derive(Debug, Clone)]
pub struct ReviewInput<'a> {
    /// The repository root.
    pub repo: &'a Path,
    /// The run's base commit: a round reviews every change since, and every review (scoped
    /// ones too) reads the repository-level files as committed there.
    pub base: &'a str,
    /// The review's configuration (the run's snapshot, read when it started).
    pub config: &'a ReviewConfig,
    /// Where the review's actors run.
    pub runtime: Runtime,
    /// Faults to inject.
    pub faults: &'a FaultPlan,
    /// The dashboard's feed, when one watches the run.
    pub live: Option<&'a host::live::Feed>,
    /// Who answers the Inspectors' questions (the run's Implementers); `None`: nobody does.
    pub author: Option<review::questions::AuthorRef>,
}

/// Why a review round of the run has no outcome.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    /// The review could not run or failed.
    #[error("the review failed: {0}")]
    Failed(#[from] review::ReviewError),
    /// No pipeline of the review reached a verdict.
    #[error("the review produced no verdict")]
    NoVerdict,
}

/// Runs the review as part of the run: nested, so it keeps the run's lock and leaves the run's
/// state file alone (a Lead killed mid-review leaves the run resumable, not a review). The
/// outcome, and the Inspectors' questions with what became of them.
pub fn review_changes(
    input: &ReviewInput<'_>,
) -> Result<(AuditOutcome, Vec<Exchange>), RoundError> {
    let scope = Scope::Session {
        base: input.base.to_string(),
        filter: DiffFilter::default(),
    };
    nested_review(input, scope, false).map(|(outcome, _, questions)| (outcome, questions))
}

/// A scoped review during a team phase: the files (paths or globs, as `--paths` takes them)
/// through the pipeline, running no command — the other Implementers are still changing the
/// tree, so its tests would judge their half-made work; the per-task Q7 and the full review run
/// them. The outcome and the review's run id.
pub fn review_files(
    input: &ReviewInput<'_>,
    files: &[String],
) -> Result<(AuditOutcome, String), RoundError> {
    let scope = Scope::Module {
        globs: files.to_vec(),
    };
    nested_review(input, scope, true).map(|(outcome, run_id, _)| (outcome, run_id))
}

fn nested_review(
    input: &ReviewInput<'_>,
    scope: Scope,
    no_exec: bool,
) -> Result<(AuditOutcome, String, Vec<Exchange>), RoundError> {
    let request = ReviewRequest {
        repo: input.repo.to_path_buf(),
        scope,
        runtime: input.runtime,
        no_exec,
        config: input.config.clone(),
        pipelines: 1,
        faults: input.faults.clone(),
        resume: None,
        nested: true,
        // The run's base commit: nothing its Implementers changed since configures the gate
        // (the settings are likewise the run's snapshot, read when it started).
        repo_files_rev: Some(input.base.to_string()),
        notes: Vec::new(),
        live: input.live.cloned(),
        author: input.author.clone(),
    };
    let out = review::run(request)?;
    let run_id = out.run_id;
    let outcome = out.pipelines.into_iter().flatten().next();
    if let (Some(feed), Some(f)) = (input.live, &outcome) {
        feed.publish(protocol::live::LiveEvent::Review(
            protocol::live::ReviewView::of_outcome(&f.outcome),
        ));
    }
    outcome
        .map(|f| (f.outcome, run_id, f.questions))
        .ok_or(RoundError::NoVerdict)
}

/// Records a review decision: `review-result.json`, the Inspectors' questions and answers
/// (`QUESTION_ASKED`, `QUESTION_ANSWERED`, `QUESTION_UNANSWERED`) and a `REVIEW_COMPLETED`
/// timeline event.
pub fn record(
    state: &RunState,
    (outcome, questions): (&AuditOutcome, &[Exchange]),
    head: &str,
    session_id: &str,
    round: u32,
) -> std::io::Result<()> {
    let result = ReviewResult {
        verdict: outcome.decision,
        grade: outcome.grade,
        commit_hash: head.to_string(),
        timestamp: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        reviewer: review::AUDITOR.to_string(),
        session_id: session_id.to_string(),
    };
    state.write_review_result(&result)?;
    state.append_timeline(&question_events(questions))?;
    state.append_timeline(&[team_event(
        "REVIEW_COMPLETED",
        serde_json::json!({
            "actor": review::AUDITOR,
            "round": round,
            "verdict": outcome.verdict.to_string(),
            "decision": outcome.decision.to_string(),
            "grade": outcome.grade.to_string(),
            "findings": outcome.findings.iter().filter(|f| f.suppression.is_none()).count(),
        }),
    )])
}

/// The timeline events of a review's questions, each at the time it happened.
pub fn question_events(questions: &[Exchange]) -> Vec<String> {
    let mut lines = Vec::new();
    for q in questions {
        lines.push(team_event_at(
            "QUESTION_ASKED",
            &q.asked_at,
            serde_json::json!({
                "actor": q.inspector, "id": q.id, "about": q.about, "question": q.question,
            }),
        ));
        lines.push(match (&q.answer, &q.by, &q.answered_at) {
            (Some(answer), Some(by), Some(at)) => team_event_at(
                "QUESTION_ANSWERED",
                at,
                serde_json::json!({
                    "actor": by, "to": q.inspector, "id": q.id, "answer": answer,
                }),
            ),
            _ => team_event(
                "QUESTION_UNANSWERED",
                serde_json::json!({
                    "actor": q.inspector, "id": q.id,
                    "reason": q.unanswered.as_deref().unwrap_or("no answer in time"),
                }),
            ),
        });
    }
    lines
}

/// [`team_event`] stamped `at` instead of now.
fn team_event_at(event_type: &str, at: &str, content: serde_json::Value) -> String {
    let line = team_event(event_type, content);
    match serde_json::from_str::<serde_json::Value>(&line) {
        Ok(mut value) => {
            value["timestamp"] = at.into();
            value.to_string()
        }
        Err(_) => line,
    }
}

/// The fix tasks for a review's findings, numbered after `tasks` (pattern B: fix instructions
/// come from the Lead as tasks).
pub fn fix_round(outcome: &AuditOutcome, tasks: &[Task]) -> Vec<Task> {
    to_tasks(&fix_tasks(&outcome.findings), next_id(tasks))
}

/// The fix tasks of a scoped review, when the gate would ask for changes (`gate` judges the
/// outcome from fresh counters: a scoped review counts no retake); each waits for every
/// unfinished task that owns its file, so a fix never races the task still writing it. Any
/// other decision makes none: the full review at the end reviews these files again and its
/// gate decides.
pub fn scoped_fixes(gate: GateKind, outcome: &AuditOutcome, tasks: &[Task]) -> Vec<Task> {
    let (_, action) = gate::step(
        gate,
        GateState::default(),
        outcome.verdict,
        outcome.decision,
        false,
    );
    if action != GateAction::Fix {
        return Vec::new();
    }
    let mut fixes = fix_round(outcome, tasks);
    for fix in &mut fixes {
        fix.blocked_by = tasks
            .iter()
            .filter(|t| !matches!(t.status, TaskStatus::Completed | TaskStatus::Failed))
            .filter(|t| fix.owns.iter().any(|f| t.owns.iter().any(|o| covers(o, f))))
            .map(|t| t.id)
            .collect();
    }
    fixes
}

/// Whether an `owns` entry (a path or a folder) covers `path`.
pub fn covers(owned: &str, path: &str) -> bool {
    let owned = owned.trim_start_matches("./").trim_end_matches('/');
    let path = path.trim_start_matches("./");
    owned == path
        || path
            .strip_prefix(owned)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Decision, Finding, Grade, Severity, Verdict};
    use team::registration::register;
    use team::testing::finding;
    use team::testing::task;

    fn outcome(verdict: Verdict, findings: Vec<Finding>) -> AuditOutcome {
        AuditOutcome {
            verdict,
            scope: "module:src/t1.rs,src/lib.rs".into(),
            answered: 6,
            expected: 6,
            decision: Decision::Approve,
            grade: Grade::A,
            findings,
            removed: Vec::new(),
            resolved: Vec::new(),
            spec_feedback: Vec::new(),
            steering: Vec::new(),
            notes: Vec::new(),
            roadmap_advisory: Vec::new(),
        }
    }

    #[test]
    fn a_scoped_no_go_makes_fix_tasks_that_wait_for_the_files_owners() {
        let mut tasks = register(&[
            task("1", "Add t1", &["src/t1.rs", "src/lib.rs"], &[]),
            task("2", "Add t2", &["src/t2.rs", "src/lib.rs"], &[]),
            task("3", "Add t3", &["src/t3.rs"], &[]),
        ])
        .tasks;
        tasks[0].status = TaskStatus::Completed;
        let findings = vec![
            finding("src/lib.rs", 3, Severity::Critical, "unsafe", "bad", false),
            finding("src/t1.rs", 1, Severity::High, "swallowed", "bad", false),
        ];
        let no_go = outcome(Verdict::NoGo, findings);
        let fixes = scoped_fixes(GateKind::Sdd, &no_go, &tasks);
        let seen: Vec<(u32, Vec<String>, Vec<u32>)> = fixes
            .iter()
            .map(|t| (t.id, t.owns.clone(), t.blocked_by.clone()))
            .collect();
        assert_eq!(
            seen,
            [
                (4, vec!["src/lib.rs".to_string()], vec![2]),
                (5, vec!["src/t1.rs".to_string()], vec![])
            ],
            "lib.rs waits for task 2, which still owns it"
        );
        let go = outcome(Verdict::Go, no_go.findings.clone());
        assert!(scoped_fixes(GateKind::Sdd, &go, &tasks).is_empty());
        assert!(
            scoped_fixes(GateKind::Breezing, &no_go, &tasks).is_empty(),
            "breezing reads the decision: APPROVE"
        );
        assert!(covers("src/", "src/a.rs") && covers("./src/a.rs", "src/a.rs"));
        assert!(!covers("src/a.rs", "src/a.rs.bak"));
    }
}
