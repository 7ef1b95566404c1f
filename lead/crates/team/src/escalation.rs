//! The reports a run ends with when a human must act: the escalation report (unresolved issues
//! and the retake history, built from the run's journal), the manual-intervention report of a
//! REJECT and the verification-failed report of a STOP.

use super::gate::EscalationReason;
use protocol::{AuditOutcome, Category, Decision, Finding, Grade, Severity};

/// One review round of the run, as the retake history lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetakeRound {
    /// 1-based round.
    pub round: u32,
    /// The decision.
    pub decision: Decision,
    /// Its grade.
    pub grade: Grade,
    /// Unsuppressed findings.
    pub findings: u32,
}

impl RetakeRound {
    /// The round as a journaled verdict records it.
    pub fn from_outcome(round: u32, outcome: &AuditOutcome) -> RetakeRound {
        RetakeRound {
            round,
            decision: outcome.decision,
            grade: outcome.grade,
            findings: outcome
                .findings
                .iter()
                .filter(|f| f.suppression.is_none())
                .count() as u32,
        }
    }
}

/// The escalation report.
pub fn escalation_report(
    reason: EscalationReason,
    unresolved: &[Finding],
    history: &[RetakeRound],
) -> String {
    let mut out = format!(
        "⚠ retake: {}\n\n## Unresolved issues\n\n",
        reason.headline()
    );
    let open: Vec<&Finding> = unresolved
        .iter()
        .filter(|f| f.suppression.is_none())
        .collect();
    if open.is_empty() {
        out.push_str("(none recorded)\n");
    } else {
        out.push_str("| # | File | Problem | Severity |\n|---|------|---------|----------|\n");
        for (i, f) in open.iter().enumerate() {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                i + 1,
                cell(&f.location.to_string()),
                cell(&f.description),
                f.severity.word()
            ));
        }
    }
    history_and_next_step(&mut out, history);
    out
}

/// The reports' closing part: the retake history table and what the person does next.
pub fn history_and_next_step(out: &mut String, history: &[RetakeRound]) {
    out.push_str("\n## Retake history\n\n");
    if history.is_empty() {
        out.push_str("(no review round completed)\n");
    } else {
        out.push_str(
            "| Round | Decision | Grade | Findings |\n|-------|----------|-------|----------|\n",
        );
        for r in history {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                r.round, r.decision, r.grade, r.findings
            ));
        }
    }
    out.push_str("\nFix these by hand, then continue with `retake resume`.\n");
}

/// The manual-intervention report of a REJECT: the Critical findings.
pub fn manual_intervention_report(findings: &[Finding]) -> String {
    let mut out = String::from(
        "### Manual Intervention Required\n\n**Decision**: REJECT\n**Grade**: D\n\
         **Reason**: critical problems that automatic fixes cannot address\n\n**Critical Issues**:\n",
    );
    let critical = findings
        .iter()
        .filter(|f| f.suppression.is_none() && f.severity == Severity::Critical);
    for (i, f) in critical.enumerate() {
        out.push_str(&format!("{}. [{}] {}\n", i + 1, f.location, f.description));
    }
    out.push_str("\nThe run has stopped. Fix these by hand, then continue with `retake resume`.\n");
    out
}

/// The verification-failed report of a STOP: failure type, the failed command when known, and
/// the failures to fix.
pub fn verification_failed_report(findings: &[Finding], failed_command: Option<&str>) -> String {
    let stopping: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.suppression.is_none() && failure_type(&f.category).is_some())
        .collect();
    let kind = stopping
        .iter()
        .filter_map(|f| failure_type(&f.category))
        .min_by_key(|t| ORDER.iter().position(|o| o == t))
        .unwrap_or("environment_error");
    let mut out = format!(
        "### Verification Failed\n\n**Decision**: STOP\n**Grade**: N/A (blocked)\n**Failure Type**: {kind}\n**Failed Command**: {}\n\n**Required Fixes**:\n",
        failed_command.unwrap_or("(not recorded)")
    );
    for (i, f) in stopping.iter().enumerate() {
        out.push_str(&format!("{}. [{}] {}\n", i + 1, f.location, f.description));
    }
    out.push_str("\nThe run has stopped. Fix the problem, then continue with `retake resume`.\n");
    out
}

/// Most fundamental first: a build failure explains failing tests, not the other way round.
const ORDER: [&str; 4] = [
    "build_failure",
    "test_failure",
    "lint_failure",
    "environment_error",
];

/// The report's failure type for a finding category, when it is a stopping one.
pub fn failure_type(category: &str) -> Option<&'static str> {
    match Category::parse(category)? {
        Category::BuildFailure => Some("build_failure"),
        Category::TestFailure => Some("test_failure"),
        Category::EnvironmentError => Some("environment_error"),
        Category::LintFailure => Some("lint_failure"),
        _ => None,
    }
}

/// Text safe in one Markdown table cell.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::finding;

    #[test]
    fn the_escalation_report_lists_issues_and_history() {
        let history = [
            RetakeRound {
                round: 1,
                decision: Decision::RequestChanges,
                grade: Grade::C,
                findings: 5,
            },
            RetakeRound {
                round: 2,
                decision: Decision::RequestChanges,
                grade: Grade::C,
                findings: 3,
            },
        ];
        let issues = [
            finding(
                "src/auth/login.rs",
                15,
                Severity::Medium,
                "security",
                "Input | validation",
                true,
            ),
            finding(
                "src/db/users.rs",
                8,
                Severity::High,
                "performance",
                "N+1 query",
                false,
            ),
        ];
        assert_eq!(
            escalation_report(EscalationReason::RetakesExhausted, &issues, &history),
            "⚠ retake: retake limit (3) reached\n\n## Unresolved issues\n\n\
             | # | File | Problem | Severity |\n|---|------|---------|----------|\n\
             | 1 | src/auth/login.rs:15 | Input \\| validation | Medium |\n\
             | 2 | src/db/users.rs:8 | N+1 query | High |\n\n## Retake history\n\n\
             | Round | Decision | Grade | Findings |\n|-------|----------|-------|----------|\n\
             | 1 | REQUEST_CHANGES | C | 5 |\n| 2 | REQUEST_CHANGES | C | 3 |\n\n\
             Fix these by hand, then continue with `retake resume`.\n"
        );
        let empty = escalation_report(EscalationReason::RetriesExhausted, &[], &[]);
        assert!(empty.starts_with("⚠ retake: NO-GO after 3 fix rounds (retry limit reached)\n"));
        assert!(empty.contains("(none recorded)") && empty.contains("(no review round completed)"));
    }

    #[test]
    fn the_manual_intervention_report_lists_only_criticals() {
        let report = manual_intervention_report(&[
            finding(
                "src/a.rs",
                3,
                Severity::Critical,
                "panic",
                "todo!() in library code",
                false,
            ),
            finding("src/b.rs", 9, Severity::High, "unwrap", "unwrap", false),
        ]);
        assert_eq!(
            report,
            "### Manual Intervention Required\n\n**Decision**: REJECT\n**Grade**: D\n\
             **Reason**: critical problems that automatic fixes cannot address\n\n**Critical Issues**:\n\
             1. [src/a.rs:3] todo!() in library code\n\nThe run has stopped. Fix these by hand, then continue with `retake resume`.\n"
        );
    }

    #[test]
    fn the_verification_failed_report_names_type_command_and_fixes() {
        let report = verification_failed_report(
            &[
                finding(
                    "tests/api.rs",
                    12,
                    Severity::High,
                    "test-failure",
                    "login_works failed",
                    false,
                ),
                finding(
                    "src/lib.rs",
                    1,
                    Severity::High,
                    "build-failure",
                    "E0308 mismatched types",
                    false,
                ),
                finding("src/x.rs", 2, Severity::Low, "naming", "not a stop", false),
            ],
            Some("cargo test"),
        );
        assert!(
            report.contains("**Failure Type**: build_failure\n**Failed Command**: cargo test\n")
        );
        assert!(report.contains(
            "1. [tests/api.rs:12] login_works failed\n2. [src/lib.rs:1] E0308 mismatched types\n\n"
        ));
        assert!(!report.contains("not a stop"));
        assert!(report.ends_with("continue with `retake resume`.\n"));
    }
}
