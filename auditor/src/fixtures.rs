//! Test helpers: concrete findings and reports in one line each.

use protocol::{Finding, InspectorReport, Location, Severity};

/// A finding by `agent` of `category` at `path:line`; the key is the category, so two findings of
/// one rule in one file share a fingerprint only when the test says so.
pub(crate) fn finding(
    agent: &str,
    category: impl AsRef<str>,
    severity: Severity,
    path: &str,
    line: u32,
) -> Finding {
    let category = category.as_ref();
    Finding::new(
        agent,
        format!("{agent}/{category}"),
        category,
        severity,
        Location::at(path, line),
        format!("{category} at {path}:{line}"),
        &format!("{category}:{line}"),
    )
}

/// A report from `inspector` with these findings.
pub(crate) fn report(inspector: &str, findings: Vec<Finding>) -> InspectorReport {
    InspectorReport {
        review: "r1".into(),
        inspector: inspector.into(),
        kind: inspector.parse().ok(),
        scope: "repository".into(),
        findings,
        notes: vec![format!("{inspector} looked around")],
        claims: Vec::new(),
        coverage: Default::default(),
        preexisting: Vec::new(),
    }
}
