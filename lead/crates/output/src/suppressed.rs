//! The findings the reviewed change suppressed itself: an inline `retake-ignore` on a line the
//! change adds (the Inspectors mark them `inspector::engine::ADDED_BY_CHANGE`). They stay
//! suppressed — a comment next to the code is how a team accepts a finding — but the report's
//! header counts them, so a change cannot quietly silence its own gate.

use protocol::InspectorReport;
use std::collections::{BTreeMap, BTreeSet};

/// Each finding the change suppressed itself, as `RULE at PATH:LINE`, once per rule and place
/// (sorted).
pub fn by_change(reports: &BTreeMap<String, InspectorReport>) -> Vec<String> {
    let places: BTreeSet<String> = reports
        .values()
        .flat_map(|r| &r.findings)
        .filter(|f| {
            f.suppression
                .as_deref()
                .is_some_and(|s| s.starts_with(inspector::engine::ADDED_BY_CHANGE))
        })
        .map(|f| format!("{} at {}", f.rule, f.location))
        .collect();
    places.into_iter().collect()
}

/// The report's note "N findings suppressed by this change (…): RULE at PLACE, …"; `None`
/// when there are none.
pub fn note(reports: &BTreeMap<String, InspectorReport>) -> Option<String> {
    let places = by_change(reports);
    if places.is_empty() {
        return None;
    }
    Some(format!(
        "{} suppressed by this change (retake-ignore comments on lines it adds): {}",
        count(places.len()),
        places.join(", ")
    ))
}

/// "1 finding", "3 findings".
pub fn count(n: usize) -> String {
    format!("{n} finding{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Coverage, Finding, Location, Severity};

    fn report(findings: Vec<Finding>) -> InspectorReport {
        InspectorReport {
            review: "r".into(),
            inspector: "inspector-holistic".into(),
            kind: None,
            scope: "session".into(),
            findings,
            notes: Vec::new(),
            claims: Vec::new(),
            coverage: Coverage::default(),
            preexisting: Vec::new(),
        }
    }

    fn finding(line: u32, suppression: Option<&str>) -> Finding {
        let mut f = Finding::new(
            "inspector-holistic",
            "holistic/todo-macro",
            "incomplete",
            Severity::Critical,
            Location::at("src/a.rs", line),
            "todo!() left",
            &format!("a{line}"),
        );
        f.suppression = suppression.map(str::to_string);
        f
    }

    #[test]
    fn only_suppressions_the_change_added_count_once_per_place() {
        let added = format!("{} later", inspector::engine::ADDED_BY_CHANGE);
        let reports = BTreeMap::from([
            (
                "a".to_string(),
                report(vec![
                    finding(3, Some(&added)),
                    finding(7, Some("retake-ignore: committed long ago")),
                    finding(9, None),
                ]),
            ),
            ("b".to_string(), report(vec![finding(3, Some(&added))])),
        ]);
        assert_eq!(by_change(&reports), ["holistic/todo-macro at src/a.rs:3"]);
        assert_eq!(
            note(&reports).as_deref(),
            Some("1 finding suppressed by this change (retake-ignore comments on lines it adds): holistic/todo-macro at src/a.rs:3")
        );
        let none = BTreeMap::from([("a".to_string(), report(vec![finding(9, None)]))]);
        assert_eq!(note(&none), None);
    }

    #[test]
    fn the_terminal_and_markdown_headers_count_them() {
        use crate::test_support::{finding, outcome, summary_of};
        let mut f = finding(Severity::Low, "src/a.rs", 3);
        f.suppression = Some(format!("{} later", inspector::engine::ADDED_BY_CHANGE));
        let o = outcome(protocol::Verdict::Go, vec![f]);
        summary_of(&o, |s| {
            let terminal = crate::terminal::render(s, &Default::default(), false);
            assert!(
                terminal.contains("\n  1 finding suppressed by this change (see Notes)\n"),
                "{terminal}"
            );
            let markdown = crate::markdown::render(s, &Default::default());
            assert!(
                markdown.contains("| Suppressed by this change | 1 |\n"),
                "{markdown}"
            );
        });
    }
}
