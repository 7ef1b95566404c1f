//! The `--format json` object of chapter 07, documented by `docs/retake-report.schema.json`.
//! With `--baseline`, each finding gets `baseline` (`new`/`unchanged`) and the object an `absent`
//! list of the baseline's fingerprints that are gone.

use super::Summary;
use serde_json::{json, Value};

/// Renders the summary as the JSON object scripts consume.
pub fn render(s: &Summary<'_>) -> Value {
    let o = s.outcome;
    let findings: Vec<Value> = o
        .findings
        .iter()
        .map(|f| {
            let mut v = json!({
                "agents": f.agents,
                "rule": f.rule,
                "category": f.category,
                "severity": f.severity.letter(),
                "path": f.location.path,
                "line": f.location.line,
                "anchor": f.location.anchor,
                "description": f.description,
                "suggestion": f.suggestion,
                "dimensions": f.dimensions.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
                "fingerprint": f.fingerprint,
                "suppression": f.suppression,
            });
            if let Some(state) = s.baseline_state(f) {
                v["baseline"] = json!(state.as_str());
            }
            v
        })
        .collect();
    let coverage: serde_json::Map<String, Value> = s
        .agents()
        .into_iter()
        .map(|agent| {
            let report = s.reports.get(agent);
            let skipped: Vec<Value> = report
                .map(|r| {
                    r.coverage
                        .skipped
                        .iter()
                        .map(|k| json!({"path": k.path, "reason": k.reason}))
                        .collect()
                })
                .unwrap_or_default();
            let mut entry = json!({
                "status": s.coverage_status(agent),
                "files_reviewed": report.map_or(0, |r| r.coverage.files_reviewed),
                "files_skipped": skipped,
            });
            if let Some(reason) = s.lost_reason(agent) {
                entry["reason"] = json!(reason);
            }
            (agent.to_string(), entry)
        })
        .collect();
    let mut report = json!({
        "run_id": s.run_id,
        "verdict": o.verdict.as_str(),
        "qualifiers": o.coverage_qualifier().into_iter().collect::<Vec<_>>(),
        "decision": o.decision.as_str(),
        "grade": o.grade.as_str(),
        "scope": o.scope,
        "findings": findings,
        "notes": o.notes,
        "coverage": coverage,
        "restarts": s.restarts,
    });
    if s.baseline.is_some() {
        let absent: Vec<&str> = s.absent().iter().map(|e| e.fingerprint.as_str()).collect();
        report["absent"] = json!(absent);
    }
    report
}
