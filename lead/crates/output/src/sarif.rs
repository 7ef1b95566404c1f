//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning and every SARIF consumer.
//!
//! One run per Inspector, each with `automationDetails.id` = `retake/<agent>/<run id>` (the
//! category GitHub keeps apart is `retake/<agent>/`), the rules of that Inspector's kind from the
//! catalog plus any other rule its results name, and `invocations[0].exitCode` = the command's
//! exit code. A merged finding is filed under its first agent; all its agents are in
//! `properties.agents`. Paths are relative to `%SRCROOT%` (the reviewed repository's root).
//! A session review's findings already there before the change are results with
//! `baselineState` `unchanged` (the change's own are `new`); they never change the exit code.

use super::baseline::{BaselineEntry, BaselineState, FINGERPRINT_KEY};
use super::{ExitCode, Summary};
use inspector::engine::RuleMeta;
use protocol::{Finding, InspectorKind, Location, Severity};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The `uriBaseId` every artifact location is relative to.
pub const SRCROOT: &str = "%SRCROOT%";

/// Renders the summary as one SARIF log; `exit_code` is what the command exits with.
pub fn render(s: &Summary<'_>, exit_code: ExitCode) -> Value {
    let catalog = inspector::rules::catalog();
    let active: Vec<&Finding> = s.active().collect();
    let suppressed = s.suppressed();
    let mut current = active.clone();
    current.extend(suppressed.iter().copied());
    let absent = s.absent();
    let already = s.already_there();
    // A session review that kept findings apart: what the change introduced is `new`, what was
    // already there `unchanged` (a `--baseline` comparison, when given, decides instead).
    let split = !already.is_empty();

    let mut agents: Vec<String> = s.agents().into_iter().map(str::to_string).collect();
    let owners = current
        .iter()
        .chain(&already)
        .map(|f| Summary::owner(f))
        .chain(absent.iter().map(|e| e.inspector.as_str()));
    for owner in owners {
        if !agents.iter().any(|a| a == owner) {
            agents.push(owner.to_string());
        }
    }
    let runs: Vec<Value> = agents
        .iter()
        .map(|agent| {
            let mut run = RunBuilder::new(s, agent, &catalog);
            for f in current.iter().filter(|f| Summary::owner(f) == agent) {
                let state = s.baseline_state(f).map(|st| st.as_str());
                run.finding(f, state.or(split.then_some(BaselineState::New.as_str())));
            }
            for f in already.iter().filter(|f| Summary::owner(f) == agent) {
                run.finding(f, Some(BaselineState::Unchanged.as_str()));
            }
            for e in absent.iter().filter(|e| e.inspector == *agent) {
                run.absent(e);
            }
            run.finish(s, exit_code)
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": runs,
    })
}

/// One run being assembled: its rules (with their indices) and results.
struct RunBuilder<'c> {
    agent: String,
    catalog: &'c [(InspectorKind, &'static RuleMeta)],
    rules: Vec<Value>,
    index: BTreeMap<String, usize>,
    results: Vec<Value>,
}

impl<'c> RunBuilder<'c> {
    fn new(
        s: &Summary<'_>,
        agent: &str,
        catalog: &'c [(InspectorKind, &'static RuleMeta)],
    ) -> Self {
        let kind = s
            .reports
            .get(agent)
            .and_then(|r| r.kind)
            .or_else(|| agent.parse::<InspectorKind>().ok());
        let mut run = RunBuilder {
            agent: agent.to_string(),
            catalog,
            rules: Vec::new(),
            index: BTreeMap::new(),
            results: Vec::new(),
        };
        for (_, meta) in catalog.iter().filter(|(k, _)| Some(*k) == kind) {
            run.rule_index(meta.id, "");
        }
        run
    }

    /// The rule's index in this run, adding its descriptor on first use.
    fn rule_index(&mut self, id: &str, category: &str) -> usize {
        if let Some(i) = self.index.get(id) {
            return *i;
        }
        let known = self.catalog.iter().find(|(_, m)| m.id == id);
        let descriptor = match known {
            Some((_, meta)) => {
                let mut tags = vec![meta.category.as_str().to_string()];
                // SARIF requires unique tags; a category may share its name with a dimension.
                for dim in meta.dimensions.iter().map(|d| d.as_str().to_string()) {
                    if !tags.contains(&dim) {
                        tags.push(dim);
                    }
                }
                json!({
                    "id": id,
                    "shortDescription": {"text": meta.explanation},
                    "defaultConfiguration": {"level": level(meta.severity)},
                    "properties": {"severity": meta.severity.letter(), "tags": tags},
                })
            }
            // CPF findings (`cpf/<category>`) and rules of other builds: only the category is known.
            None => json!({
                "id": id,
                "shortDescription": {"text": unknown_rule_text(id, category)},
                "properties": {"tags": [category]},
            }),
        };
        self.rules.push(descriptor);
        self.index.insert(id.to_string(), self.rules.len() - 1);
        self.rules.len() - 1
    }

    /// Adds `f` as a result, with `baseline_state` when it has one.
    fn finding(&mut self, f: &Finding, baseline_state: Option<&str>) {
        let rule_index = self.rule_index(&f.rule, &f.category);
        let mut result = Map::new();
        result.insert("ruleId".into(), json!(f.rule));
        result.insert("ruleIndex".into(), json!(rule_index));
        result.insert("level".into(), json!(level(f.severity)));
        result.insert("message".into(), json!({"text": f.description}));
        if let Some(loc) = location(&f.location) {
            result.insert("locations".into(), json!([loc]));
        }
        result.insert(
            "partialFingerprints".into(),
            json!({FINGERPRINT_KEY: f.fingerprint}),
        );
        if let Some(state) = baseline_state {
            result.insert("baselineState".into(), json!(state));
        }
        if let Some(reason) = &f.suppression {
            result.insert(
                "suppressions".into(),
                json!([{"kind": suppression_kind(reason), "justification": reason}]),
            );
        }
        let mut props = json!({
            "severity": f.severity.letter(),
            "category": f.category,
            "agents": f.agents,
            "dimensions": f.dimensions.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
        });
        if let Some(sugg) = &f.suggestion {
            props["suggestion"] = json!(sugg);
        }
        result.insert("properties".into(), props);
        self.results.push(Value::Object(result));
    }

    fn absent(&mut self, e: &BaselineEntry) {
        let rule = if e.rule.is_empty() {
            "retake/unknown"
        } else {
            &e.rule
        };
        let rule_index = self.rule_index(rule, "");
        let severity = e.severity.unwrap_or(Severity::Medium);
        let place = Location {
            path: e.path.clone(),
            line: e.line,
            ..Location::default()
        };
        let mut result = json!({
            "ruleId": rule,
            "ruleIndex": rule_index,
            "level": level(severity),
            "message": {"text": e.description},
            "partialFingerprints": {FINGERPRINT_KEY: e.fingerprint},
            "baselineState": BaselineState::Absent.as_str(),
            "properties": {"severity": severity.letter()},
        });
        if let Some(loc) = location(&place) {
            result["locations"] = json!([loc]);
        }
        self.results.push(result);
    }

    fn finish(self, s: &Summary<'_>, exit_code: ExitCode) -> Value {
        let status = s.coverage_status(&self.agent);
        let mut invocation = json!({
            "exitCode": exit_code.code(),
            "executionSuccessful": status != "unavailable",
        });
        if let Some(message) = s.lost_message(&self.agent) {
            invocation["toolExecutionNotifications"] = json!([{
                "level": "error",
                "message": {"text": message},
                "descriptor": {"id": "retake/inspector-unavailable"},
            }]);
        }
        let instance = s.run_id.unwrap_or_default();
        json!({
            "tool": {"driver": {
                "name": "retake",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/retake-dev/retake",
                "rules": self.rules,
            }},
            "automationDetails": {"id": format!("retake/{}/{instance}", self.agent)},
            "invocations": [invocation],
            "results": self.results,
            "properties": {
                "inspector": self.agent,
                "coverage": status,
                "verdict": s.verdict_line(),
                "decision": s.outcome.decision.as_str(),
                "grade": s.outcome.grade.as_str(),
                "scope": s.outcome.scope,
            },
        })
    }
}

/// SARIF level: C and H are errors, M warnings, L notes.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low => "note",
    }
}

fn unknown_rule_text(id: &str, category: &str) -> String {
    if category.is_empty() {
        format!("{id} (not in this build's catalog)")
    } else {
        format!("A finding of category '{category}' (not in this build's catalog)")
    }
}

/// An inline `retake-ignore` lives in the source; anything else (decisions.yaml) outside it.
fn suppression_kind(reason: &str) -> &'static str {
    if reason.contains("retake-ignore") {
        "inSource"
    } else {
        "external"
    }
}

/// A finding's location: uri and region, or uri and a logical location for an anchor; none for a
/// repository-wide finding (empty path).
fn location(loc: &Location) -> Option<Value> {
    if loc.path.is_empty() {
        return None;
    }
    let mut physical = json!({
        "artifactLocation": {"uri": uri(&loc.path), "uriBaseId": SRCROOT},
    });
    if loc.anchor.is_none() {
        if let Some(line) = loc.line.filter(|l| *l >= 1) {
            let mut region = json!({"startLine": line});
            if let Some(col) = loc.column.filter(|c| *c >= 1) {
                region["startColumn"] = json!(col);
            }
            if let Some(end) = loc.end_line.filter(|e| *e >= line) {
                region["endLine"] = json!(end);
            }
            physical["region"] = region;
        }
    }
    let mut value = json!({"physicalLocation": physical});
    if let Some(anchor) = &loc.anchor {
        value["logicalLocations"] = json!([{
            "name": anchor,
            "fullyQualifiedName": format!("{}#{anchor}", loc.path),
        }]);
    }
    Some(value)
}

/// Percent-encodes a relative path as a URI reference; `/` stays, `:` is encoded so that the
/// first segment can never read as a scheme.
pub fn uri(path: &str) -> String {
    path.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::Verdict;

    #[test]
    fn one_run_per_inspector_with_located_fingerprinted_results() {
        let mut anchored = finding(Severity::Low, "specs/x/design.md", 1);
        anchored.location = Location::anchored("specs/x/design.md", "Spec 3");
        let o = outcome(
            Verdict::NoGo,
            vec![finding(Severity::Critical, "src/a b.rs", 12), anchored],
        );
        summary_of(&o, |s| {
            let log = render(s, ExitCode::Failed);
            let runs = log["runs"].as_array().expect("runs");
            assert_eq!(
                runs.len(),
                2,
                "quality and the unavailable interface Inspector"
            );
            let q = &runs[0];
            assert_eq!(
                q["automationDetails"]["id"],
                "retake/inspector-quality/20260101T000000Z-abc123"
            );
            assert_eq!(
                q["invocations"][0],
                json!({"exitCode": 1, "executionSuccessful": true})
            );
            let r = &q["results"][0];
            assert_eq!(
                (r["ruleId"].as_str(), r["level"].as_str()),
                (Some("quality/todo-marker"), Some("error"))
            );
            let phys = &r["locations"][0]["physicalLocation"];
            assert_eq!(
                phys["artifactLocation"],
                json!({"uri": "src/a%20b.rs", "uriBaseId": "%SRCROOT%"})
            );
            assert_eq!(phys["region"]["startLine"], 12);
            assert_eq!(
                r["partialFingerprints"]["retake/v1"],
                json!(o.findings[0].fingerprint)
            );
            let rule =
                &q["tool"]["driver"]["rules"][r["ruleIndex"].as_u64().expect("index") as usize];
            assert_eq!(rule["id"], "quality/todo-marker");
            assert!(rule["shortDescription"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty()));
            let a = &q["results"][1];
            assert_eq!(a["locations"][0]["physicalLocation"].get("region"), None);
            assert_eq!(a["locations"][0]["logicalLocations"][0]["name"], "Spec 3");
            assert_eq!(runs[1]["invocations"][0]["executionSuccessful"], false);
        });
    }

    #[test]
    fn suppressed_findings_carry_a_suppression() {
        let mut f = finding(Severity::High, "src/a.rs", 3);
        f.suppression = Some("retake-ignore: quality/todo-marker tracked in #12".into());
        let o = outcome(Verdict::Go, vec![f]);
        summary_of(&o, |s| {
            let log = render(s, ExitCode::Success);
            let r = &log["runs"][0]["results"][0];
            assert_eq!(r["suppressions"][0]["kind"], "inSource");
            assert_eq!(
                log["runs"][0]["results"].as_array().map(Vec::len),
                Some(1),
                "listed once"
            );
        });
    }

    #[test]
    fn levels_follow_the_severity() {
        let got: Vec<&str> = Severity::ALL_DESC.iter().map(|s| level(*s)).collect();
        assert_eq!(got, ["error", "error", "warning", "note"]);
        assert_eq!(uri("a:b/c%d.rs"), "a%3Ab/c%25d.rs");
    }
}
