//! The JSON documents of `.retake/reviews/<id>/`: `review-state.json` (the cycle's final
//! state), `review-progress.json` (phase by phase, rewritten as the cycle advances),
//! `dimensions/<dimension>.json`, `iterations/<n>.json`, and `reports/review-cycle.json` —
//! the findings with their re-assessed severities as an Inspector-report document, which is
//! what `retake fix` reads from a review folder's `reports/`.

use super::aggregate::Distribution;
use super::deep_dive::{Cycle, StopReason};
use super::report::{dimension_findings, Header};
use protocol::{Coverage, Dimension, Finding, InspectorReport, Severity};
use serde::Serialize;
use serde_json::{json, Value};

/// The name `reports/review-cycle.json` reports under.
pub const FIX_REPORT: &str = "review-cycle";

/// Says what the re-assessed severities are for, in every state file.
pub const VERDICT_NOTE: &str = "The Auditor's verdict and the exit code are the Auditor's: the review cycle's re-assessed severities do not change them; they are the findings `retake fix` works from.";

/// A finding in a dimension file: every field, and its severity before the deep-dive.
#[derive(Debug, Serialize)]
struct FindingView<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    initial_severity: Severity,
    critical_file: bool,
}

/// `dimensions/<dimension>.json`.
pub fn dimension_json(cycle: &Cycle, dimension: Dimension, review_id: &str) -> Value {
    let indices = dimension_findings(cycle, dimension);
    let findings: Vec<FindingView<'_>> = indices
        .iter()
        .map(|i| {
            let finding = &cycle.findings()[*i];
            FindingView {
                finding,
                initial_severity: cycle.initial_severities()[*i],
                critical_file: cycle.current().is_critical_file(&finding.location.path),
            }
        })
        .collect();
    let critical_files: Vec<&str> = cycle
        .current()
        .critical_files
        .iter()
        .filter(|c| c.dimensions.contains(&dimension))
        .map(|c| c.path.as_str())
        .collect();
    let of = |a: &super::aggregate::Aggregate| -> Distribution {
        a.by_dimension.get(&dimension).copied().unwrap_or_default()
    };
    json!({
        "review_id": review_id,
        "dimension": dimension,
        "summary": of(cycle.current()),
        "initial_summary": of(cycle.initial()),
        "critical_files": critical_files,
        "findings": findings,
    })
}

/// Where the cycle stands, for `review-progress.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Aggregated; the deep-dive is about to run (or be skipped).
    Aggregated,
    /// After a deep-dive iteration.
    DeepDive,
    /// Finished.
    Complete,
}

/// `review-progress.json`.
pub fn progress_json(cycle: &Cycle, review_id: &str, stage: Stage, now: &str) -> Value {
    let dims: Vec<Value> = cycle
        .dimensions()
        .iter()
        .map(|d| {
            let n = cycle.initial().by_dimension.get(d).map_or(0, |x| x.total);
            json!({"dimension": d, "status": "completed", "findings": n})
        })
        .collect();
    let stopped = cycle.stop_reason();
    let deep_dive = match (stage, stopped) {
        (Stage::Complete, Some(StopReason::NotTriggered)) if cycle.iterations().is_empty() => {
            "skipped"
        }
        (Stage::Complete, _) => "completed",
        (Stage::Aggregated, _) => "pending",
        (Stage::DeepDive, _) => "in_progress",
    };
    let (current, completion) = match stage {
        Stage::Complete => ("complete", "completed"),
        _ => ("deep-dive", "pending"),
    };
    json!({
        "review_id": review_id,
        "updated_at": now,
        "current_phase": current,
        "phases": [
            {"phase": "discovery", "status": "completed"},
            {"phase": "parallel-review", "status": "completed", "dimensions": dims},
            {"phase": "aggregation", "status": "completed",
             "severity": cycle.current().overall,
             "critical_files": cycle.current().critical_files.len()},
            {"phase": "deep-dive", "status": deep_dive,
             "iterations": cycle.iterations().len(),
             "max_iterations": cycle.max_iterations()},
            {"phase": "completion", "status": completion},
        ],
    })
}

/// The review as a whole, for `review-state.json`.
#[derive(Debug, Clone, Copy)]
pub struct StateInfo<'a> {
    /// Scope, verdict and id.
    pub header: Header<'a>,
    /// Files written, relative to the review folder.
    pub files: &'a [String],
    /// When the cycle started.
    pub created_at: &'a str,
    /// Now.
    pub updated_at: &'a str,
}

/// `review-state.json`.
pub fn state_json(cycle: &Cycle, info: &StateInfo<'_>) -> Value {
    let initial_trigger = super::aggregate::trigger(cycle.initial());
    let changes: Vec<_> = cycle.changes().collect();
    json!({
        "review_id": info.header.review_id,
        "run_dir": format!(".retake/runs/{}", info.header.review_id),
        "status": "completed",
        "phase": "complete",
        "scope": info.header.scope,
        "dimensions": cycle.dimensions(),
        "auditor_verdict": info.header.verdict,
        "verdict_note": VERDICT_NOTE,
        "findings_total": cycle.findings().len(),
        "max_iterations": cycle.max_iterations(),
        "iterations_run": cycle.iterations().len(),
        "stop_reason": cycle.stop_reason(),
        "deep_dive": {
            "triggered": initial_trigger.fires(),
            "reasons": initial_trigger.reasons(),
        },
        "initial": cycle.initial(),
        "final": cycle.current(),
        "severity_changes": changes,
        "fix_findings": format!("reports/{FIX_REPORT}.json"),
        "files": info.files,
        "created_at": info.created_at,
        "updated_at": info.updated_at,
    })
}

/// `reports/review-cycle.json`: the findings as `retake fix` reads them.
pub fn fix_report(cycle: &Cycle, header: &Header<'_>) -> InspectorReport {
    InspectorReport {
        review: header.review_id.to_string(),
        inspector: FIX_REPORT.to_string(),
        kind: None,
        scope: header.scope.to_string(),
        findings: cycle.findings().to_vec(),
        notes: vec![format!(
            "the Auditor's verified findings, severities re-assessed by the review cycle ({} change(s)); verdict {}",
            cycle.changes().count(),
            header.verdict
        )],
        claims: Vec::new(),
        coverage: Coverage::default(),
        preexisting: Vec::new(),
    }
}
