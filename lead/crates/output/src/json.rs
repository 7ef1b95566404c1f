//! The `--format json` object of the outputs spec, documented by `docs/retake-report.schema.json`.
//! With `--baseline`, each finding gets `baseline` (`new`/`unchanged`) and the object an `absent`
//! list of the baseline's fingerprints that are gone. `already_there` lists, in the findings'
//! form, every finding a session's change did not introduce (`output::already_there`).

use super::Summary;
use protocol::Finding;
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A path whose file name is not UTF-8 travels in `protocol::path_text`'s lossless form
/// (`caf\xE9.rs`); `path_escaped: true` tells a script to decode it (`\xHH` a byte, `\\` a
/// backslash) before it opens the file. Absent for every other path.
fn mark_escaped(v: &mut Value, path: &str) {
    if protocol::path_text_escaped(path) {
        v["path_escaped"] = json!(true);
    }
}

/// Renders the summary as the JSON object scripts consume.
pub fn render(s: &Summary<'_>) -> Value {
    // Serializing borrowed structs cannot fail: every map key is a string.
    serde_json::to_value(report(s)).unwrap_or(Value::Null)
}

/// Writes the JSON object, pretty-printed, straight to `out`: the findings are serialized one by
/// one from the outcome, never held as a second tree, so a review with a million findings costs
/// no more memory to print than the outcome itself.
pub fn write_pretty(s: &Summary<'_>, out: impl std::io::Write) -> serde_json::Result<()> {
    serde_json::to_writer_pretty(out, &report(s))
}

/// The object, in the order of the schema's properties (serde_json keeps insertion order here).
#[derive(serde::Serialize)]
struct Report<'a> {
    run_id: Option<&'a str>,
    verdict: &'a str,
    qualifiers: Vec<String>,
    decision: &'a str,
    grade: &'a str,
    scope: &'a str,
    findings: Findings<'a, 'a>,
    already_there: Findings<'a, 'a>,
    notes: &'a [String],
    coverage: serde_json::Map<String, Value>,
    restarts: &'a BTreeMap<String, u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    absent: Option<Vec<&'a str>>,
}

/// A list of findings (the outcome's, or those already there), each serialized when written.
struct Findings<'s, 'a>(&'s Summary<'a>, Vec<&'a Finding>);

impl Serialize for Findings<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let s = self.0;
        let mut seq = serializer.serialize_seq(Some(self.1.len()))?;
        for f in &self.1 {
            seq.serialize_element(&JsonFinding {
                agents: &f.agents,
                rule: &f.rule,
                category: &f.category,
                severity: f.severity.letter(),
                path: &f.location.path,
                line: f.location.line,
                anchor: f.location.anchor.as_deref(),
                description: &f.description,
                suggestion: f.suggestion.as_deref(),
                dimensions: f.dimensions.iter().map(|d| d.as_str()).collect(),
                fingerprint: &f.fingerprint,
                suppression: f.suppression.as_deref(),
                baseline: s.baseline_state(f).map(|state| state.as_str()),
                path_escaped: protocol::path_text_escaped(&f.location.path).then_some(true),
            })?;
        }
        seq.end()
    }
}

/// One finding, in the schema's order.
#[derive(serde::Serialize)]
struct JsonFinding<'a> {
    agents: &'a [String],
    rule: &'a str,
    category: &'a str,
    severity: &'a str,
    path: &'a str,
    line: Option<u32>,
    anchor: Option<&'a str>,
    description: &'a str,
    suggestion: Option<&'a str>,
    dimensions: Vec<&'a str>,
    fingerprint: &'a str,
    suppression: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a str>,
    /// `Some(true)` when `path` is in `protocol::path_text`'s escaped form (see `mark_escaped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    path_escaped: Option<bool>,
}

fn report<'s, 'a>(s: &'s Summary<'a>) -> Report<'s> {
    let o = s.outcome;
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
                        .map(|k| {
                            let mut v = json!({"path": k.path, "reason": k.reason});
                            mark_escaped(&mut v, &k.path);
                            v
                        })
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
    Report {
        run_id: s.run_id,
        verdict: o.verdict.as_str(),
        qualifiers: o.coverage_qualifier().into_iter().collect(),
        decision: o.decision.as_str(),
        grade: o.grade.as_str(),
        scope: &o.scope,
        findings: Findings(s, o.findings.iter().collect()),
        already_there: Findings(s, s.already_there()),
        notes: &o.notes,
        coverage,
        restarts: s.restarts,
        absent: s
            .baseline
            .is_some()
            .then(|| s.absent().iter().map(|e| e.fingerprint.as_str()).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::{Severity, Verdict};

    #[test]
    fn the_streamed_object_is_the_rendered_one_key_for_key_in_schema_order() {
        let o = outcome(
            Verdict::Conditional,
            vec![
                finding(Severity::High, "src/a.rs", 3),
                finding(Severity::Low, "src/b.rs", 4),
            ],
        );
        summary_of(&o, |s| {
            let mut streamed = Vec::new();
            write_pretty(s, &mut streamed).expect("write");
            let streamed = String::from_utf8(streamed).expect("utf-8");
            assert_eq!(
                streamed,
                serde_json::to_string_pretty(&render(s)).expect("pretty")
            );
            let value: Value = serde_json::from_str(&streamed).expect("json");
            let keys: Vec<&str> = value
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                [
                    "run_id",
                    "verdict",
                    "qualifiers",
                    "decision",
                    "grade",
                    "scope",
                    "findings",
                    "already_there",
                    "notes",
                    "coverage",
                    "restarts"
                ]
            );
            assert_eq!(value["already_there"], json!([]));
            assert_eq!(value["findings"][1]["path"], "src/b.rs");
            assert_eq!(value["findings"][0]["severity"], "H");
            assert!(value["findings"][0].get("baseline").is_none());
            assert_eq!(
                value["coverage"]["inspector-interface"]["reason"],
                "no report"
            );
        });
    }
}
