//! "Already there": a session review's findings that the change did not introduce — on lines it
//! did not touch, or about a file that existed before (`--filter added`, the default; the
//! Inspectors put them in `InspectorReport::preexisting`). They never reach the Auditor, so they
//! never drive the verdict, the decision, the grade or the exit code; the reports show them
//! apart: the terminal and Markdown as a short section (count, then each rule's count and first
//! locations), JSON as the `already_there` array, SARIF as results with `baselineState`
//! `unchanged`. rdjson, JUnit and GitLab Code Quality leave them out: those formats annotate or
//! fail a change, and these findings are not the change's.

use super::issues::{sort_for_reading, GROUP_SHOWN};
use super::Summary;
use protocol::{Finding, InspectorReport};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// What the section says under its heading.
const MEANING: &str = "findings this change did not introduce; they do not gate";

/// The reports' already-there findings, once per fingerprint, none suppressed and none that
/// `active` (the findings that gate) also holds, most important first.
pub fn collect<'a>(
    reports: &'a BTreeMap<String, InspectorReport>,
    active: &BTreeSet<&str>,
) -> Vec<&'a Finding> {
    let mut seen = BTreeSet::new();
    let mut found: Vec<&Finding> = reports
        .values()
        .flat_map(|r| &r.preexisting)
        .filter(|f| f.suppression.is_none() && !active.contains(f.fingerprint.as_str()))
        .filter(|f| seen.insert(f.fingerprint.as_str()))
        .collect();
    sort_for_reading(&mut found);
    found
}

/// The section's heading: `already there: N`.
pub fn heading(n: usize) -> String {
    format!("already there: {n}")
}

/// The findings per rule, the rule of the most important finding first.
fn by_rule<'a>(findings: &[&'a Finding]) -> Vec<Vec<&'a Finding>> {
    let mut groups: Vec<Vec<&Finding>> = Vec::new();
    for &f in findings {
        match groups.iter_mut().find(|g| g[0].rule == f.rule) {
            Some(g) => g.push(f),
            None => groups.push(vec![f]),
        }
    }
    groups
}

/// One rule's line: `N × RULE (Severity): loc, loc, … and K more`, each location through
/// `place` (the Markdown quotes it); a repository-wide finding's is "the repository".
fn rule_line(all: &[&Finding], place: impl Fn(String) -> String) -> String {
    let f = all[0];
    let places: Vec<String> = all
        .iter()
        .take(GROUP_SHOWN)
        .map(|f| match f.location.to_string() {
            p if p.is_empty() => "the repository".to_string(),
            p => place(p),
        })
        .collect();
    let mut line = format!(
        "{} × {} ({}): {}",
        all.len(),
        f.rule,
        f.severity.word(),
        places.join(", ")
    );
    if all.len() > GROUP_SHOWN {
        let _ = write!(line, " and {} more", all.len() - GROUP_SHOWN);
    }
    line
}

/// The terminal section (empty when there is nothing already there).
pub fn terminal(s: &Summary<'_>) -> String {
    let found = s.already_there();
    if found.is_empty() {
        return String::new();
    }
    let mut out = format!("\n{} ({MEANING})\n", heading(found.len()));
    for group in by_rule(&found) {
        let _ = writeln!(out, "  {}", rule_line(&group, |p| p));
    }
    out
}

/// The Markdown section (empty when there is nothing already there); `code` escapes a text
/// for an inline code span.
pub fn markdown(s: &Summary<'_>, code: impl Fn(&str) -> String) -> String {
    let found = s.already_there();
    if found.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n## Already there\n\n{} — {MEANING}.\n\n",
        heading(found.len())
    );
    for group in by_rule(&found) {
        let _ = writeln!(
            out,
            "- {}",
            rule_line(&group, |p| format!("`{}`", code(&p)))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_with_reports};
    use protocol::{Severity, Verdict};

    fn unsafe_at(line: u32) -> Finding {
        let mut f = finding(Severity::High, "src/lib.rs", line);
        f.rule = "holistic/unsafe-without-safety".into();
        f.fingerprint = format!("u{line}");
        f
    }

    #[test]
    fn the_sections_count_each_rule_and_list_its_first_places() {
        let mut apart: Vec<Finding> = (1..=7).map(unsafe_at).collect();
        apart.push(finding(Severity::Low, "src/a.rs", 4));
        let mut project = finding(Severity::Low, "", 0);
        project.location = protocol::Location::file("");
        project.rule = "test/missing-integration-tests".into();
        apart.push(project);
        let mut suppressed = finding(Severity::Low, "src/a.rs", 8);
        suppressed.suppression = Some("retake-ignore: known".into());
        suppressed.fingerprint = "s8".into();
        apart.push(suppressed);
        let o = outcome(Verdict::Go, vec![]);
        summary_with_reports(&o, apart, |s| {
            assert_eq!(s.already_there().len(), 9, "the suppressed one is left out");
            assert_eq!(
                terminal(s),
                "\nalready there: 9 (findings this change did not introduce; they do not gate)\n  \
                 7 × holistic/unsafe-without-safety (High): src/lib.rs:1, src/lib.rs:2, \
                 src/lib.rs:3, src/lib.rs:4, src/lib.rs:5 and 2 more\n  \
                 1 × test/missing-integration-tests (Low): the repository\n  \
                 1 × quality/todo-marker (Low): src/a.rs:4\n"
            );
            let md = markdown(s, str::to_string);
            assert!(
                md.starts_with("\n## Already there\n\nalready there: 9 — findings this change"),
                "{md}"
            );
            assert!(
                md.contains("- 1 × quality/todo-marker (Low): `src/a.rs:4`\n"),
                "{md}"
            );
        });
    }

    #[test]
    fn nothing_already_there_adds_no_section() {
        let o = outcome(Verdict::Go, vec![]);
        summary_with_reports(&o, vec![], |s| {
            assert_eq!(terminal(s), "");
            assert_eq!(markdown(s, str::to_string), "");
        });
    }

    #[test]
    fn a_baseline_finding_still_there_is_not_absent_nor_counted_new() {
        use crate::baseline::{Baseline, BaselineEntry};
        let old = unsafe_at(5);
        let entry = |f: &Finding| BaselineEntry {
            fingerprint: f.fingerprint.clone(),
            rule: f.rule.clone(),
            severity: Some(f.severity),
            path: f.location.path.clone(),
            line: f.location.line,
            description: f.description.clone(),
            inspector: "inspector-quality".into(),
        };
        let gone = unsafe_at(9);
        let baseline = Baseline::new(vec![entry(&old), entry(&gone)]);
        let o = outcome(Verdict::Go, vec![]);
        summary_with_reports(&o, vec![old], |s| {
            let s = Summary {
                baseline: Some(&baseline),
                ..s.clone()
            };
            let absent: Vec<&str> = s.absent().iter().map(|e| e.fingerprint.as_str()).collect();
            assert_eq!(absent, ["u9"]);
            assert_eq!(s.baseline_counts(), Some((0, 0, 1)));
        });
    }

    #[test]
    fn a_finding_that_also_gates_is_not_already_there() {
        let gating = unsafe_at(3);
        let o = outcome(Verdict::Conditional, vec![gating.clone()]);
        summary_with_reports(&o, vec![gating, unsafe_at(4)], |s| {
            let places: Vec<String> = s
                .already_there()
                .iter()
                .map(|f| f.location.to_string())
                .collect();
            assert_eq!(places, ["src/lib.rs:4"]);
        });
    }
}
