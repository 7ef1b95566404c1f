//! `--format gitlab`: a GitLab Code Quality report (a JSON array of issues).
//!
//! Severity: C → `critical`, H → `major`, M → `minor`, L → `info` (`blocker` is not used: a
//! Critical already blocks through the verdict). A finding without a line is reported on line 1,
//! a repository-wide one at path `.`, since GitLab requires both. Suppressed findings are left out,
//! and so are those already there before a session's change (GitLab compares its own base).

use super::Summary;
use protocol::{Finding, Severity};
use serde_json::{json, Value};

/// The Code Quality severity word.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "critical",
        Severity::High => "major",
        Severity::Medium => "minor",
        Severity::Low => "info",
    }
}

/// The report: one issue per active finding.
pub fn render(s: &Summary<'_>) -> Value {
    Value::Array(s.active().map(issue).collect())
}

fn issue(f: &Finding) -> Value {
    let path = if f.location.path.is_empty() {
        "."
    } else {
        f.location.path.as_str()
    };
    let begin = f.location.line.filter(|l| *l >= 1).unwrap_or(1);
    let mut lines = json!({"begin": begin});
    if let Some(end) = f.location.end_line.filter(|e| *e > begin) {
        lines["end"] = json!(end);
    }
    let description = match &f.location.anchor {
        Some(anchor) => format!("{} ({}#{anchor})", f.description, f.location.path),
        None => f.description.clone(),
    };
    json!({
        "type": "issue",
        "description": description,
        "check_name": f.rule,
        "fingerprint": f.fingerprint,
        "severity": severity(f.severity),
        "location": {"path": path, "lines": lines},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::Verdict;

    #[test]
    fn issues_carry_the_mapped_severity_and_location() {
        let findings: Vec<Finding> = Severity::ALL_DESC
            .iter()
            .enumerate()
            .map(|(i, s)| finding(*s, "src/a.rs", i as u32 + 1))
            .collect();
        let o = outcome(Verdict::NoGo, findings);
        summary_of(&o, |s| {
            let v = render(s);
            let severities: Vec<&str> = v
                .as_array()
                .expect("array")
                .iter()
                .filter_map(|i| i["severity"].as_str())
                .collect();
            assert_eq!(severities, ["critical", "major", "minor", "info"]);
            assert_eq!(
                v[1]["location"],
                json!({"path": "src/a.rs", "lines": {"begin": 2}})
            );
            assert_eq!(v[1]["check_name"], "quality/todo-marker");
            assert_eq!(v[1]["fingerprint"], json!(o.findings[1].fingerprint));
        });
    }
}
