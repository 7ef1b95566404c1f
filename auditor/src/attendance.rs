//! Which Inspectors answered: the "partial coverage (5/6)" qualifier and its `PARTIAL` notes.
//!
//! A missing Inspector never blocks the verdict (the verdict output guarantee); it is named in a
//! `PARTIAL:{name}|{reason}` note so that nobody mistakes five reports for six.

use protocol::InspectorReport;

/// The reason noted for an expected Inspector that sent no report and was not declared unavailable.
pub const NO_REPORT: &str = "no report";

/// How many Inspectors answered out of how many were expected, and the notes for the missing ones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Attendance {
    /// Distinct expected Inspectors that sent a report.
    pub answered: u32,
    /// Inspectors expected.
    pub expected: u32,
    /// One `PARTIAL:{name}|{reason}` note per missing Inspector.
    pub notes: Vec<String>,
}

/// Counts the answers and notes every unavailable Inspector, then every expected one without a report.
///
/// With no expected list (an offline audit of whatever CPF files were given) every report counts,
/// and coverage is full by definition.
pub fn attendance(
    reports: &[InspectorReport],
    expected: &[String],
    unavailable: &[(String, String)],
) -> Attendance {
    let mut notes: Vec<String> = Vec::new();
    let mut noted: Vec<&str> = Vec::new();
    for (name, reason) in unavailable {
        if noted.contains(&name.as_str()) {
            continue;
        }
        let reason = if reason.trim().is_empty() {
            NO_REPORT
        } else {
            reason.as_str()
        };
        notes.push(partial_note(name, reason));
        noted.push(name);
    }
    let reported = |name: &str| reports.iter().any(|r| r.inspector == name);
    let mut answered: Vec<&str> = Vec::new();
    for name in expected {
        if reported(name) {
            if !answered.contains(&name.as_str()) {
                answered.push(name);
            }
        } else if !noted.contains(&name.as_str()) {
            notes.push(partial_note(name, NO_REPORT));
            noted.push(name);
        }
    }
    let (answered, expected) = if expected.is_empty() {
        (reports.len(), reports.len())
    } else {
        (answered.len(), expected.len())
    };
    Attendance {
        answered: saturating_u32(answered),
        expected: saturating_u32(expected),
        notes,
    }
}

/// The recovery protocol's note for a missing Inspector.
pub fn partial_note(name: &str, reason: &str) -> String {
    format!("PARTIAL:{name}|{reason}")
}

fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::report;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn everyone_answered_means_no_notes() {
        let reports = vec![report("quality", vec![]), report("test", vec![])];
        let out = attendance(&reports, &names(&["quality", "test"]), &[]);
        assert_eq!(
            out,
            Attendance {
                answered: 2,
                expected: 2,
                notes: vec![]
            }
        );
    }

    #[test]
    fn unavailable_and_silent_inspectors_are_noted_once_each() {
        let reports = vec![report("quality", vec![]), report("quality", vec![])];
        let unavailable = vec![
            ("test".to_string(), "crashed twice".to_string()),
            ("holistic".to_string(), String::new()),
        ];
        let out = attendance(
            &reports,
            &names(&["quality", "test", "holistic", "interface"]),
            &unavailable,
        );
        assert_eq!(out.answered, 1);
        assert_eq!(out.expected, 4);
        assert_eq!(
            out.notes,
            vec![
                "PARTIAL:test|crashed twice",
                "PARTIAL:holistic|no report",
                "PARTIAL:interface|no report",
            ]
        );
    }

    #[test]
    fn reports_from_unexpected_inspectors_do_not_count_as_answers() {
        let reports = vec![report("stranger", vec![])];
        let out = attendance(&reports, &names(&["quality"]), &[]);
        assert_eq!((out.answered, out.expected), (0, 1));
        assert_eq!(out.notes, vec!["PARTIAL:quality|no report"]);
    }

    #[test]
    fn without_an_expected_list_every_report_counts() {
        let reports = vec![report("a", vec![]), report("b", vec![])];
        let out = attendance(&reports, &[], &[]);
        assert_eq!((out.answered, out.expected), (2, 2));
        assert!(out.notes.is_empty());
    }
}
