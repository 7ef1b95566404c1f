//! The exit code of the outputs spec from a summary and the gate options: the verdict's code, then
//! `--fail-level` (findings at or above it fail even a GO), with `--new-only` counting only the
//! findings the baseline did not have.

use super::baseline::BaselineState;
use super::{exit_code, ExitCode, Summary};
use auditor::category::Category;
use protocol::message::TestFailurePolicy;
use protocol::{Finding, Severity, Verdict};

/// How the command gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Gate {
    /// CONDITIONAL exits 3.
    pub strict: bool,
    /// Findings at or above this severity exit 1; none: the verdict alone decides.
    pub fail_level: Option<Severity>,
    /// Count only findings that are new against the baseline.
    pub new_only: bool,
}

/// The findings the gate counts: active ones, and with `--new-only` only those the baseline lacks.
pub fn gated<'a>(s: &Summary<'a>, gate: &Gate) -> Vec<&'a Finding> {
    s.active()
        .filter(|f| !gate.new_only || s.baseline_state(f) != Some(BaselineState::Unchanged))
        .collect()
}

/// The verdict the gate applies: the Auditor's, or with `--new-only` the verdict table over the
/// new findings — never worse than the Auditor's, so an override or a partial audit still holds.
pub fn gated_verdict(s: &Summary<'_>, gate: &Gate) -> Verdict {
    let verdict = s.outcome.verdict;
    if !gate.new_only || s.baseline.is_none() {
        return verdict;
    }
    let new: Vec<Finding> = gated(s, gate).into_iter().cloned().collect();
    // A test failure forces NO-GO unless the policy is "conditional", so a test failure under any
    // other verdict tells the policy; otherwise the stricter default is the safe reading.
    let test_failure_tolerated = verdict != Verdict::NoGo
        && s.outcome
            .findings
            .iter()
            .any(|f| f.category_is(Category::TestFailure));
    let config = auditor::AuditConfig {
        test_failure: if test_failure_tolerated {
            TestFailurePolicy::Conditional
        } else {
            TestFailurePolicy::NoGo
        },
    };
    // Spec defects carry no fingerprint, so the baseline cannot call them old: they still gate.
    let spec_defect = !s.outcome.spec_feedback.is_empty();
    let (recomputed, _) = auditor::verdict_table(&new, spec_defect, &config);
    let gated = if recomputed.precedence() > verdict.precedence() {
        verdict
    } else {
        recomputed
    };
    // Old findings may be forgiven; a lost Inspector may not: a partial review is never GO.
    auditor::covered_verdict(gated, s.outcome.answered, s.outcome.expected).0
}

/// The process exit code: the gated verdict's code; when that is 0, 1 if a gated finding is at
/// or above the fail level.
pub fn exit_code_for(s: &Summary<'_>, gate: &Gate) -> ExitCode {
    let code = exit_code(gated_verdict(s, gate), gate.strict);
    let fails = gate
        .fail_level
        .is_some_and(|level| gated(s, gate).iter().any(|f| f.severity >= level));
    if code.is_success() && fails {
        ExitCode::Failed
    } else {
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{Baseline, BaselineEntry};
    use crate::test_support::{finding, outcome, summary_of};

    fn entry(fp: &str) -> BaselineEntry {
        BaselineEntry {
            fingerprint: fp.into(),
            rule: String::new(),
            severity: None,
            path: String::new(),
            line: None,
            description: String::new(),
            inspector: "x".into(),
        }
    }

    #[test]
    fn fail_level_fails_a_go_at_or_above_it_and_ignores_suppressed() {
        let mut low = finding(Severity::Low, "src/a.rs", 1);
        let o = outcome(Verdict::Go, vec![finding(Severity::Medium, "src/b.rs", 2)]);
        let with = |level| Gate {
            fail_level: level,
            ..Gate::default()
        };
        summary_of(&o, |s| {
            assert_eq!(exit_code_for(s, &with(None)).code(), 0);
            assert_eq!(exit_code_for(s, &with(Some(Severity::Medium))).code(), 1);
            assert_eq!(exit_code_for(s, &with(Some(Severity::High))).code(), 0);
        });
        low.suppression = Some("retake-ignore: accepted".into());
        let o = outcome(Verdict::Go, vec![low]);
        summary_of(&o, |s| {
            assert_eq!(exit_code_for(s, &with(Some(Severity::Low))).code(), 0)
        });
    }

    #[test]
    fn the_verdict_code_wins_over_the_fail_level() {
        let o = outcome(
            Verdict::SpecUpdateNeeded,
            vec![finding(Severity::Low, "a", 1)],
        );
        let gate = Gate {
            fail_level: Some(Severity::Low),
            ..Gate::default()
        };
        summary_of(&o, |s| assert_eq!(exit_code_for(s, &gate).code(), 4));
    }

    #[test]
    fn new_only_gates_on_new_findings() {
        let old = finding(Severity::Critical, "src/old.rs", 1);
        let new_low = finding(Severity::Low, "src/new.rs", 2);
        let baseline = Baseline::new(vec![entry(&old.fingerprint)]);
        let o = outcome(Verdict::NoGo, vec![old.clone(), new_low]);
        let gate = Gate {
            new_only: true,
            fail_level: Some(Severity::Medium),
            ..Gate::default()
        };
        summary_of(&o, |s| {
            let s = Summary {
                baseline: Some(&baseline),
                ..s.clone()
            };
            assert_eq!(gated_verdict(&s, &gate), Verdict::Go);
            assert_eq!(exit_code_for(&s, &gate).code(), 0);
            assert_eq!(
                exit_code_for(&s, &Gate::default()),
                ExitCode::Failed,
                "without --new-only the verdict gates"
            );
        });
        let o = outcome(
            Verdict::NoGo,
            vec![old, finding(Severity::Critical, "src/new.rs", 9)],
        );
        summary_of(&o, |s| {
            let s = Summary {
                baseline: Some(&baseline),
                ..s.clone()
            };
            assert_eq!(exit_code_for(&s, &gate).code(), 1);
        });
    }
}
