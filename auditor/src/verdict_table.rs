//! Step 10 of the audit: the verdict table.
//!
//! ```text
//! any Critical remains                                   → NO-GO
//! else a spec defect was detected                        → SPEC-UPDATE-NEEDED
//! else more than 3 High, or interface mismatches         → CONDITIONAL
//! else                                                   → GO
//! test failures → NO-GO by default; at least CONDITIONAL with [audit] test_failure = "conditional"
//! ```
//! Every row that fires contributes a verdict; the worst by precedence wins, and the reason names
//! the rows that gave that verdict.

use crate::audit::AuditConfig;
use crate::category::{FAILING_TESTS, INTERFACE_MISMATCH};
use protocol::message::TestFailurePolicy;
use protocol::{Finding, Severity, Verdict};

/// More Highs than this make the verdict CONDITIONAL.
pub const MAX_HIGH_FOR_GO: usize = 3;

/// The verdict for verified findings, with the reason when it is not GO (`2 Critical`).
///
/// Interface mismatches are told by category (`signature-mismatch`, `call-site-error`,
/// `dependency-wrong`): the interface Inspector owns them, and an agent backend standing in for it,
/// or a CPF file read offline, carries another name but the same categories.
pub fn verdict_table(
    findings: &[Finding],
    spec_defect: bool,
    cfg: &AuditConfig,
) -> (Verdict, Option<String>) {
    let critical = count(findings, |f| f.severity == Severity::Critical);
    let high = count(findings, |f| f.severity == Severity::High);
    let test_failures = count(findings, |f| f.category_in(&FAILING_TESTS));
    let interface = count(findings, |f| f.category_in(&INTERFACE_MISMATCH));

    let mut rows: Vec<(Verdict, String)> = Vec::new();
    if critical > 0 {
        rows.push((Verdict::NoGo, format!("{critical} Critical")));
    }
    if test_failures > 0 {
        let verdict = match cfg.test_failure {
            TestFailurePolicy::NoGo => Verdict::NoGo,
            TestFailurePolicy::Conditional => Verdict::Conditional,
        };
        rows.push((
            verdict,
            plural(test_failures, "test failure", "test failures"),
        ));
    }
    if spec_defect {
        rows.push((Verdict::SpecUpdateNeeded, "spec defect".to_string()));
    }
    if high > MAX_HIGH_FOR_GO {
        rows.push((Verdict::Conditional, format!("{high} High")));
    }
    if interface > 0 {
        rows.push((
            Verdict::Conditional,
            plural(interface, "interface mismatch", "interface mismatches"),
        ));
    }

    let verdict = rows
        .iter()
        .fold(Verdict::Go, |worst, (v, _)| worst.worst(*v));
    let reasons: Vec<&str> = rows
        .iter()
        .filter(|(v, _)| *v == verdict)
        .map(|(_, reason)| reason.as_str())
        .collect();
    let reason = (!reasons.is_empty()).then(|| reasons.join(", "));
    (verdict, reason)
}

/// The note that says how the test-failure policy treated the failing tests, when there are any.
pub(crate) fn test_failure_note(findings: &[Finding], policy: TestFailurePolicy) -> Option<String> {
    let failures = count(findings, |f| f.category_in(&FAILING_TESTS));
    if failures == 0 {
        return None;
    }
    let failures = plural(failures, "test failure", "test failures");
    Some(match policy {
        TestFailurePolicy::NoGo => format!("test-failure policy: no-go ({failures} → NO-GO)"),
        TestFailurePolicy::Conditional => {
            format!("test-failure policy: conditional ({failures} → at least CONDITIONAL)")
        }
    })
}

fn count(findings: &[Finding], pred: impl Fn(&Finding) -> bool) -> usize {
    findings.iter().filter(|f| pred(f)).count()
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::category::Category;
    use crate::fixtures::finding;

    fn highs(n: u32) -> Vec<Finding> {
        (1..=n)
            .map(|i| finding("quality", "dead-code", Severity::High, "src/a.rs", i))
            .collect()
    }

    const NO_GO: AuditConfig = AuditConfig {
        test_failure: TestFailurePolicy::NoGo,
    };
    const CONDITIONAL: AuditConfig = AuditConfig {
        test_failure: TestFailurePolicy::Conditional,
    };

    #[test]
    fn nothing_or_only_medium_and_low_is_go() {
        assert_eq!(verdict_table(&[], false, &NO_GO), (Verdict::Go, None));
        let f = vec![
            finding("q", "a", Severity::Medium, "src/a.rs", 1),
            finding("q", "b", Severity::Low, "src/a.rs", 2),
        ];
        assert_eq!(verdict_table(&f, false, &NO_GO), (Verdict::Go, None));
    }

    #[test]
    fn any_critical_is_no_go_and_beats_everything() {
        let mut f = highs(5);
        f.push(finding("q", "a", Severity::Critical, "src/a.rs", 1));
        f.push(finding("q", "b", Severity::Critical, "src/b.rs", 1));
        assert_eq!(
            verdict_table(&f, true, &NO_GO),
            (Verdict::NoGo, Some("2 Critical".into()))
        );
    }

    #[test]
    fn more_than_three_high_is_conditional_three_is_go() {
        assert_eq!(verdict_table(&highs(3), false, &NO_GO), (Verdict::Go, None));
        assert_eq!(
            verdict_table(&highs(4), false, &NO_GO),
            (Verdict::Conditional, Some("4 High".into()))
        );
    }

    #[test]
    fn a_spec_defect_beats_conditional() {
        assert_eq!(
            verdict_table(&highs(4), true, &NO_GO),
            (Verdict::SpecUpdateNeeded, Some("spec defect".into()))
        );
    }

    #[test]
    fn interface_mismatches_are_conditional() {
        let f = vec![
            finding(
                "interface",
                Category::CallSiteError,
                Severity::Medium,
                "src/a.rs",
                1,
            ),
            finding(
                "interface",
                Category::DependencyWrong,
                Severity::Low,
                "src/b.rs",
                1,
            ),
        ];
        assert_eq!(
            verdict_table(&f, false, &NO_GO),
            (Verdict::Conditional, Some("2 interface mismatches".into()))
        );
    }

    #[test]
    fn test_failures_follow_the_policy() {
        let f = vec![finding(
            "test",
            Category::TestFailure,
            Severity::High,
            "tests/a.rs",
            1,
        )];
        assert_eq!(
            verdict_table(&f, false, &NO_GO),
            (Verdict::NoGo, Some("1 test failure".into()))
        );
        assert_eq!(
            verdict_table(&f, false, &CONDITIONAL),
            (Verdict::Conditional, Some("1 test failure".into()))
        );
        // Conditional policy is "at least": a spec defect still wins.
        assert_eq!(
            verdict_table(&f, true, &CONDITIONAL).0,
            Verdict::SpecUpdateNeeded
        );
    }

    #[test]
    fn the_reason_names_every_row_at_the_winning_level() {
        let mut f = highs(4);
        f.push(finding(
            "test",
            Category::TestFailure,
            Severity::Medium,
            "tests/a.rs",
            1,
        ));
        f.push(finding(
            "test",
            Category::TestFailure,
            Severity::Medium,
            "tests/a.rs",
            2,
        ));
        assert_eq!(
            verdict_table(&f, false, &CONDITIONAL),
            (Verdict::Conditional, Some("2 test failures, 4 High".into()))
        );
    }

    #[test]
    fn the_policy_note_appears_only_with_failing_tests() {
        let f = vec![finding(
            "test",
            Category::TestFailure,
            Severity::High,
            "tests/a.rs",
            1,
        )];
        assert_eq!(
            test_failure_note(&f, TestFailurePolicy::NoGo).as_deref(),
            Some("test-failure policy: no-go (1 test failure → NO-GO)")
        );
        assert_eq!(
            test_failure_note(&f, TestFailurePolicy::Conditional).as_deref(),
            Some("test-failure policy: conditional (1 test failure → at least CONDITIONAL)")
        );
        assert_eq!(test_failure_note(&highs(2), TestFailurePolicy::NoGo), None);
    }
}

#[cfg(test)]
mod regression_tests {
    use super::*;
    use crate::category::Category;

    #[test]
    fn a_regression_counts_as_a_failing_test() {
        let f = Finding::new(
            "inspector-test",
            "test/regression",
            Category::Regression,
            Severity::High,
            protocol::Location::at("tests/old.rs", 3),
            "test `old` failed outside the change",
            "old",
        );
        let (verdict, _) = verdict_table(&[f], false, &AuditConfig::default());
        assert_eq!(verdict, Verdict::NoGo);
    }
}
