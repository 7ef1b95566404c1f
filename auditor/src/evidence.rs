//! Reading the Inspectors' evidence: which Inspector kind an agent is, who made a claim, what a
//! finding's text names, and the CPF-like text the REMOVED and RESOLVED rows quote.

use protocol::{Category, Claim, Finding, InspectorKind, InspectorReport, Location, Severity};

/// The name the Auditor signs its own findings with (a raised `false-positive-risk`, an
/// over-implementation); not an agent backend, so its Criticals are never "agent-only".
pub const AUDITOR: &str = "auditor";

/// The Inspector kind behind an agent name: `inspector-quality`, `quality` (a CPF file's stem)
/// and `quality-agent` (an agent backend standing in for it) are all `quality`.
pub fn kind_of(agent: &str) -> Option<InspectorKind> {
    let name = agent.trim();
    let name = name.strip_suffix("-agent").unwrap_or(name);
    name.parse().ok()
}

/// The kind of a report: the one it declares, else the one its name says.
pub(crate) fn report_kind(report: &InspectorReport) -> Option<InspectorKind> {
    report.kind.or_else(|| kind_of(&report.inspector))
}

/// Whether any of the finding's agents is of this kind.
pub(crate) fn reported_by(finding: &Finding, kind: InspectorKind) -> bool {
    finding.agents.iter().any(|a| kind_of(a) == Some(kind))
}

/// Every claim with the name of the report that made it, reports of `kind` only when given.
pub(crate) fn claims<'a>(
    reports: &'a [InspectorReport],
    kind: Option<InspectorKind>,
) -> impl Iterator<Item = (&'a str, &'a Claim)> + 'a {
    reports
        .iter()
        .filter(move |r| kind.is_none() || report_kind(r) == kind)
        .flat_map(|r| r.claims.iter().map(move |c| (r.inspector.as_str(), c)))
}

/// A finding the Auditor raises itself: signed [`AUDITOR`], rule `auditor/{rule}`, its
/// fingerprint keyed on `key` (never a line number, so it is stable across runs).
pub(crate) fn raise(
    rule: &str,
    category: Category,
    severity: Severity,
    location: Location,
    description: String,
    key: &str,
) -> Finding {
    Finding::new(
        AUDITOR,
        format!("auditor/{rule}"),
        category,
        severity,
        location,
        description,
        key,
    )
}

/// A finding as a CPF issue row, `{sev}|{category}|{location}|{description}`: what REMOVED and
/// RESOLVED rows quote as "the original issue".
pub fn issue_text(finding: &Finding) -> String {
    format!(
        "{}|{}|{}|{}",
        finding.severity.letter(),
        finding.category,
        finding.location,
        finding.description
    )
}

/// The symbols a description names in backticks (`` `login` `` → `login`), in order; the only
/// part of free text the audit trusts to name code.
pub(crate) fn backticked(text: &str) -> Vec<&str> {
    let parts: Vec<&str> = text.split('`').collect();
    // An odd number of backticks leaves the last part unclosed: it names nothing.
    let closed = parts.len() - usize::from(parts.len().is_multiple_of(2));
    parts[..closed]
        .iter()
        .skip(1)
        .step_by(2)
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Distinct agents of these findings, in first-seen order.
pub(crate) fn agents_of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<String> {
    // A set beside the list: linear however many findings and agents there are.
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut agents: Vec<String> = Vec::new();
    for f in findings {
        for a in &f.agents {
            if seen.insert(a) {
                agents.push(a.clone());
            }
        }
    }
    agents
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{finding, report};
    use protocol::Severity;

    #[test]
    fn agent_names_map_to_kinds() {
        assert_eq!(kind_of("inspector-quality"), Some(InspectorKind::Quality));
        assert_eq!(kind_of("test"), Some(InspectorKind::Test));
        assert_eq!(kind_of("interface-agent"), Some(InspectorKind::Interface));
        assert_eq!(kind_of("auditor"), None);
        assert_eq!(kind_of("reviewer-7"), None);
    }

    #[test]
    fn claims_are_filtered_by_the_reporting_kind() {
        let mut test = report("inspector-test", vec![]);
        test.claims = vec![Claim::TestsRun {
            passed: 3,
            failed: 0,
            skipped: 0,
        }];
        let mut other = report("holistic", vec![]);
        other.claims = vec![Claim::TasksChecked {
            complete: 1,
            total: 1,
        }];
        let reports = [test, other];
        let tests: Vec<&str> = claims(&reports, Some(InspectorKind::Test))
            .map(|(who, _)| who)
            .collect();
        assert_eq!(tests, vec!["inspector-test"]);
        assert_eq!(claims(&reports, None).count(), 2);
    }

    #[test]
    fn issue_text_is_a_cpf_issue_row() {
        let mut f = finding("quality", "dead-code", Severity::Medium, "src/a.rs", 7);
        f.description = "`helper` is never called".into();
        assert_eq!(
            issue_text(&f),
            "M|dead-code|src/a.rs:7|`helper` is never called"
        );
    }

    #[test]
    fn backticked_symbols_are_read_in_order() {
        assert_eq!(
            backticked("`login` calls ` Store::get ` twice; `unclosed"),
            vec!["login", "Store::get"]
        );
        assert!(backticked("no symbols here").is_empty());
    }

    #[test]
    fn agents_are_collected_once_each() {
        let mut a = finding("quality", "x", Severity::Low, "a.rs", 1);
        a.agents.push("holistic".into());
        let b = finding("holistic", "y", Severity::Low, "b.rs", 1);
        assert_eq!(agents_of([&a, &b]), vec!["quality", "holistic"]);
        assert!(reported_by(&a, InspectorKind::Holistic));
        assert!(!reported_by(&b, InspectorKind::Quality));
    }
}
