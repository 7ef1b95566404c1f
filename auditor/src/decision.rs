//! The team-loop decision and its grade, computed beside every verdict from the same findings.
//!
//! ```text
//! any Critical                                   → REJECT (D)
//! else build, test or environment failure        → STOP (N/A)
//! else any High                                  → REQUEST_CHANGES (C)
//! else                                           → APPROVE: A with no Medium or above, B otherwise
//! ```
//! A Critical that only agent backends report (no built-in rule agrees) lowers the grade one step,
//! D → C, instead of forcing REJECT: an LLM's alarm alone is not enough to throw a change away.

use crate::category::STOPPING;
use protocol::{Decision, Finding, Grade, Severity};

/// The decision and grade for verified findings.
pub fn decide(findings: &[Finding]) -> (Decision, Grade) {
    let critical = |f: &&Finding| f.severity == Severity::Critical;
    if findings.iter().filter(critical).any(|f| !is_agent_only(f)) {
        return (Decision::Reject, Grade::D);
    }
    if findings.iter().any(|f| f.category_in(&STOPPING)) {
        return (Decision::Stop, Grade::NotApplicable);
    }
    // Here every Critical is agent-only: one step below D.
    if findings.iter().any(|f| f.severity >= Severity::High) {
        return (Decision::RequestChanges, Grade::C);
    }
    if findings.iter().any(|f| f.severity >= Severity::Medium) {
        (Decision::Approve, Grade::B)
    } else {
        (Decision::Approve, Grade::A)
    }
}

/// Whether an agent name is an agent backend's, by convention: it ends with `-agent` or starts
/// with `agent` (`quality-agent`, `agent-claude`). Built-in Inspectors are `inspector-<kind>`, or a
/// CPF file's stem in an offline audit.
pub fn is_agent_backend(name: &str) -> bool {
    name.ends_with("-agent") || name.starts_with("agent")
}

/// Whether only agent backends report a finding (no built-in rule agrees); a finding with no agent
/// at all is not, so that it cannot escape REJECT.
pub fn is_agent_only(finding: &Finding) -> bool {
    !finding.agents.is_empty() && finding.agents.iter().all(|a| is_agent_backend(a))
}

/// The note that explains a grade lowered for agent-only Criticals, when that happened.
pub(crate) fn agent_only_note(findings: &[Finding]) -> Option<String> {
    let critical = findings.iter().filter(|f| f.severity == Severity::Critical);
    let mut agent_only = 0;
    for f in critical {
        if !is_agent_only(f) {
            return None;
        }
        agent_only += 1;
    }
    (agent_only > 0).then(|| {
        format!("agent-only Critical: {agent_only} reported by agent backends only; grade lowered one step instead of REJECT")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::category::Category;
    use crate::fixtures::finding;

    fn one(agent: &str, category: impl AsRef<str>, severity: Severity) -> Finding {
        finding(agent, category, severity, "src/a.rs", 1)
    }

    #[test]
    fn grades_follow_the_most_severe_finding() {
        assert_eq!(decide(&[]), (Decision::Approve, Grade::A));
        let low = one("inspector-quality", "dead-code", Severity::Low);
        assert_eq!(
            decide(std::slice::from_ref(&low)),
            (Decision::Approve, Grade::A)
        );
        let medium = one("inspector-quality", "dead-code", Severity::Medium);
        assert_eq!(
            decide(&[low, medium.clone()]),
            (Decision::Approve, Grade::B)
        );
        let high = one("inspector-quality", "dead-code", Severity::High);
        assert_eq!(
            decide(&[medium, high.clone()]),
            (Decision::RequestChanges, Grade::C)
        );
        let critical = one("inspector-holistic", "operational-risk", Severity::Critical);
        assert_eq!(decide(&[high, critical]), (Decision::Reject, Grade::D));
    }

    #[test]
    fn build_test_and_environment_failures_stop_unless_something_is_critical() {
        for category in [
            Category::TestFailure,
            Category::EnvironmentError,
            Category::BuildFailure,
        ] {
            let failure = one("inspector-test", category, Severity::Medium);
            assert_eq!(
                decide(std::slice::from_ref(&failure)),
                (Decision::Stop, Grade::NotApplicable)
            );
            let critical = one("quality", "incomplete-syntax", Severity::Critical);
            assert_eq!(decide(&[failure, critical]), (Decision::Reject, Grade::D));
        }
    }

    #[test]
    fn an_agent_only_critical_is_request_changes_not_reject() {
        let agent = one("quality-agent", "race-condition", Severity::Critical);
        assert_eq!(
            decide(std::slice::from_ref(&agent)),
            (Decision::RequestChanges, Grade::C)
        );
        assert_eq!(
            agent_only_note(std::slice::from_ref(&agent)).as_deref(),
            Some("agent-only Critical: 1 reported by agent backends only; grade lowered one step instead of REJECT")
        );
        // A built-in Inspector agreeing makes it a real Critical.
        let mut agreed = agent;
        agreed.agents.push("inspector-holistic".into());
        assert_eq!(
            decide(std::slice::from_ref(&agreed)),
            (Decision::Reject, Grade::D)
        );
        assert_eq!(agent_only_note(&[agreed]), None);
    }

    #[test]
    fn agent_backend_names_follow_the_convention() {
        assert!(is_agent_backend("quality-agent"));
        assert!(is_agent_backend("agent"));
        assert!(is_agent_backend("agent-claude"));
        assert!(!is_agent_backend("inspector-quality"));
        assert!(!is_agent_backend("quality"));
        assert!(!is_agent_backend("reagent"));
        let mut nobody = one("x", "y", Severity::Critical);
        nobody.agents.clear();
        assert!(!is_agent_only(&nobody));
    }
}
