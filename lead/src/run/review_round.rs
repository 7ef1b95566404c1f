//! A review round of Phase B: the full review of everything the run changed (a session against
//! the run's base commit) through the review pipeline, called in-process, then the gate's
//! decision. The round's record goes to `review-result.json` and the timeline.

use super::state::{team_event, RunState};
use crate::config::Settings;
use crate::review::{self, ReviewRequest};
use crate::runtime::Runtime;
use crate::team::fix_tasks::{fix_tasks, to_tasks};
use crate::team::review_result::ReviewResult;
use protocol::chaos::FaultPlan;
use protocol::{AuditOutcome, DiffFilter, Scope, Task};
use std::path::Path;

/// What a review round needs.
#[derive(Debug, Clone)]
pub struct ReviewInput<'a> {
    /// The repository root.
    pub repo: &'a Path,
    /// The run's base commit: the review covers every change since.
    pub base: &'a str,
    /// Effective configuration.
    pub settings: &'a Settings,
    /// Where the review's actors run.
    pub runtime: Runtime,
    /// Faults to inject.
    pub faults: &'a FaultPlan,
}

/// Runs the review as part of the run: nested, so it keeps the run's lock and leaves the run's
/// state file alone (a Lead killed mid-review leaves the run resumable, not a review).
pub fn review_changes(input: &ReviewInput<'_>) -> Result<AuditOutcome, String> {
    let request = ReviewRequest {
        repo: input.repo.to_path_buf(),
        scope: Scope::Session {
            base: input.base.to_string(),
            filter: DiffFilter::default(),
        },
        runtime: input.runtime,
        no_exec: false,
        settings: input.settings.clone(),
        pipelines: 1,
        faults: input.faults.clone(),
        resume: None,
        nested: true,
    };
    let out = review::run(request).map_err(|e| format!("the review failed: {e}"))?;
    out.pipelines
        .into_iter()
        .flatten()
        .next()
        .map(|f| f.outcome)
        .ok_or_else(|| "the review produced no verdict".to_string())
}

/// Records a review decision: `review-result.json` and a `REVIEW_COMPLETED` timeline event.
pub fn record(
    state: &RunState,
    outcome: &AuditOutcome,
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

/// The fix tasks for a review's findings, numbered after `tasks` (pattern B: fix instructions
/// come from the Lead as tasks).
pub fn fix_round(outcome: &AuditOutcome, tasks: &[Task]) -> Vec<Task> {
    let next = tasks.iter().map(|t| t.id).max().unwrap_or(0) + 1;
    to_tasks(&fix_tasks(&outcome.findings), next)
}
