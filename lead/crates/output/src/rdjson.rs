//! `--format rdjson` / `rdjsonl`: reviewdog's Diagnostic Format, which reviewdog posts to
//! GitHub, GitLab, Gerrit, Bitbucket and Gitea.
//!
//! Severity: C and H are `ERROR`, M `WARNING`, L `INFO`. retake's suggestions are prose, not
//! text replacements, so they never become `suggestions` (which need a range and the new text):
//! they are appended to the message, which is what reviewdog posts. Suppressed findings are left
//! out, and so are those already there before a session's change (reviewdog would comment them
//! on the change).

use super::Summary;
use protocol::{Finding, Severity};
use serde_json::{json, Value};

/// The `source` every diagnostic names.
pub fn source() -> Value {
    json!({"name": "retake", "url": "https://github.com/retake-dev/retake"})
}

/// One DiagnosticResult holding every active finding.
pub fn render(s: &Summary<'_>) -> Value {
    let diagnostics: Vec<Value> = s.active().map(diagnostic).collect();
    json!({"source": source(), "diagnostics": diagnostics})
}

/// One Diagnostic per line (rdjsonl), each line ending in a newline.
pub fn render_lines(s: &Summary<'_>) -> String {
    s.active().map(|f| format!("{}\n", diagnostic(f))).collect()
}

/// The rdjson severity word.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "ERROR",
        Severity::Medium => "WARNING",
        Severity::Low => "INFO",
    }
}

/// One finding as a Diagnostic.
pub fn diagnostic(f: &Finding) -> Value {
    let message = match &f.suggestion {
        Some(sugg) => format!("{}\nSuggestion: {sugg}", f.description),
        None => f.description.clone(),
    };
    // reviewdog needs a path; a repository-wide finding points at the root.
    let path = if f.location.path.is_empty() {
        "."
    } else {
        f.location.path.as_str()
    };
    let mut location = json!({"path": path});
    if f.location.anchor.is_none() {
        if let Some(line) = f.location.line.filter(|l| *l >= 1) {
            let mut start = json!({"line": line});
            if let Some(col) = f.location.column.filter(|c| *c >= 1) {
                start["column"] = json!(col);
            }
            let mut range = json!({"start": start});
            if let Some(end) = f.location.end_line.filter(|e| *e > line) {
                range["end"] = json!({"line": end});
            }
            location["range"] = range;
        }
    }
    json!({
        "message": message,
        "location": location,
        "severity": severity(f.severity),
        "source": source(),
        "code": {"value": f.rule},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::{Location, Verdict};

    #[test]
    fn a_result_with_path_line_code_and_source() {
        let o = outcome(Verdict::Go, vec![finding(Severity::Medium, "src/a.rs", 7)]);
        summary_of(&o, |s| {
            let v = render(s);
            assert_eq!(v["source"]["name"], "retake");
            let d = &v["diagnostics"][0];
            assert_eq!(d["severity"], "WARNING");
            assert_eq!(
                d["location"],
                json!({"path": "src/a.rs", "range": {"start": {"line": 7}}})
            );
            assert_eq!(d["code"], json!({"value": "quality/todo-marker"}));
            assert_eq!(d["message"], "TODO left in src/a.rs\nSuggestion: finish it");
            assert_eq!(d.get("suggestions"), None);
        });
    }

    #[test]
    fn lines_are_one_diagnostic_each_and_anchors_have_no_range() {
        let mut f = finding(Severity::Critical, "design.md", 1);
        f.location = Location::anchored("design.md", "Spec 3");
        let o = outcome(Verdict::NoGo, vec![f, finding(Severity::Low, "b.rs", 2)]);
        summary_of(&o, |s| {
            let text = render_lines(s);
            let lines: Vec<Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).expect("a JSON line"))
                .collect();
            assert_eq!(lines.len(), 2);
            assert_eq!(lines[0]["location"], json!({"path": "design.md"}));
            assert_eq!(
                (lines[0]["severity"].as_str(), lines[1]["severity"].as_str()),
                (Some("ERROR"), Some("INFO"))
            );
        });
    }
}
