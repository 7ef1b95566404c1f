//! The one headline of the human reports (terminal and Markdown): the figure the exit code
//! follows first, then the other figure as its explanation.
//!
//! `retake review` and `retake audit` gate on the verdict (`gate::exit_code_for`); the team-loop
//! decision drives only `retake run` under `[loop] gate = "breezing"`. A report that printed
//! "GO" above "REQUEST_CHANGES" left the reader to guess which one the CI obeyed and why they
//! differ, so the headline names the exit code and what it follows, gives the decision's reason,
//! and — when the two figures point different ways — the verdict's.

use super::gate::{exit_code_for, gated, gated_verdict, Gate};
use super::{exit_code, Summary};
use auditor::category::{FAILING_TESTS, STOPPING};
use protocol::{Decision, Finding, Severity, Verdict};

/// The headline in two parts, the verdict with its qualifiers (`GO`) and the rest (` (exit 0: the
/// gate follows the verdict) — decision REQUEST_CHANGES (grade C): 1 High finding; the verdict
/// table needs more than 3 High for CONDITIONAL`), so the terminal can paint and Markdown bold
/// the verdict.
pub fn headline(s: &Summary<'_>, gate: &Gate) -> (String, String) {
    let o = s.outcome;
    let verdict = s.verdict_line();
    let mut rest = format!(
        " ({}) — decision {} (grade {}): {}",
        gate_clause(s, gate),
        o.decision,
        o.grade,
        decision_reason(s)
    );
    if !agree(o.verdict, o.decision) {
        if let Some(why) = verdict_reason(s) {
            rest.push_str("; ");
            rest.push_str(&why);
        }
    }
    (verdict, rest)
}

/// What the exit code follows, and what changed it from the verdict's own code.
fn gate_clause(s: &Summary<'_>, gate: &Gate) -> String {
    let code = exit_code_for(s, gate);
    let gated_verdict = gated_verdict(s, gate);
    let mut clause = format!("exit {code}: the gate follows the verdict");
    if gated_verdict != s.outcome.verdict {
        clause.push_str(&format!(" of the new findings, {gated_verdict}"));
    }
    if gate.strict && gated_verdict == Verdict::Conditional {
        clause.push_str(" under --strict");
    }
    if code != exit_code(gated_verdict, gate.strict) {
        if let Some(level) = gate.fail_level {
            let over = gated(s, gate)
                .iter()
                .filter(|f| f.severity >= level)
                .count();
            clause.push_str(&format!(
                ", and --fail-level {} fails {}",
                level.word().to_lowercase(),
                plural(over, "finding", "findings")
            ));
        }
    }
    clause
}

/// Whether verdict and decision say the same thing to a reader: GO with APPROVE, CONDITIONAL
/// with REQUEST_CHANGES, NO-GO with REJECT or STOP. Any other pair needs the verdict's reason.
fn agree(verdict: Verdict, decision: Decision) -> bool {
    matches!(
        (verdict, decision),
        (Verdict::Go, Decision::Approve)
            | (Verdict::Conditional, Decision::RequestChanges)
            | (Verdict::NoGo, Decision::Reject | Decision::Stop)
    )
}

/// The decision table's row that fired (the Auditor spec, `auditor::decide`), counted on the active
/// findings.
fn decision_reason(s: &Summary<'_>) -> String {
    let active: Vec<&Finding> = s.active().collect();
    let count = |sev: Severity| active.iter().filter(|f| f.severity == sev).count();
    match s.outcome.decision {
        Decision::Reject => plural(
            count(Severity::Critical),
            "Critical finding",
            "Critical findings",
        ),
        Decision::Stop => {
            let failures: Vec<&&Finding> =
                active.iter().filter(|f| f.category_in(&STOPPING)).collect();
            match s.outcome.coverage_qualifier() {
                Some(q) if failures.is_empty() => q,
                _ => plural(
                    failures.len(),
                    "build, test or environment failure",
                    "build, test or environment failures",
                ),
            }
        }
        Decision::RequestChanges => {
            let high = count(Severity::High);
            let critical = count(Severity::Critical);
            let mut parts = Vec::new();
            if critical > 0 {
                // Only agent-only Criticals leave REJECT for REQUEST_CHANGES (one grade lower).
                parts.push(format!(
                    "{} only agent backends report (one grade lower)",
                    plural(critical, "Critical", "Criticals")
                ));
            }
            if high > 0 || parts.is_empty() {
                parts.push(plural(high, "High finding", "High findings"));
            }
            parts.join(", ")
        }
        Decision::Approve if count(Severity::Medium) + count(Severity::Low) == 0 => {
            "no findings".into()
        }
        Decision::Approve if count(Severity::Medium) == 0 => "nothing at Medium or above".into(),
        Decision::Approve => "nothing at High or above".into(),
    }
}

/// Why the verdict is what it is, for a verdict the decision does not match: an override's
/// justification, the rows of the verdict table the Auditor noted (`verdict: NO-GO (2 Critical)`),
/// or for a GO what the table would have needed to say otherwise.
fn verdict_reason(s: &Summary<'_>) -> Option<String> {
    let o = s.outcome;
    for note in &o.notes {
        if let Some(rest) = note.strip_prefix("OVERRIDE|") {
            let (change, why) = rest.split_once('|').unwrap_or((rest, ""));
            return Some(format!(
                "the Auditor overrode the verdict table ({change}): {why}"
            ));
        }
    }
    let noted = o.notes.iter().rev().find_map(|n| {
        let rest = n.strip_prefix("verdict: ")?;
        let (verdict, reason) = rest.split_once(" (")?;
        (verdict == o.verdict.as_str()).then(|| reason.strip_suffix(')').unwrap_or(reason))
    });
    if let Some(reason) = noted {
        return Some(format!("the verdict is {} for {reason}", o.verdict));
    }
    if o.verdict != Verdict::Go {
        return None;
    }
    let active: Vec<&Finding> = s.active().collect();
    let failing_tests = active.iter().any(|f| f.category_in(&FAILING_TESTS));
    match o.decision {
        Decision::RequestChanges => Some(format!(
            "the verdict table needs more than {} High for CONDITIONAL",
            auditor::MAX_HIGH_FOR_GO
        )),
        Decision::Stop if !failing_tests => {
            Some("the verdict table has no row for build or environment failures".into())
        }
        _ => None,
    }
}

/// `1 High finding`, `2 High findings`.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::Grade;

    fn line(s: &Summary<'_>, gate: &Gate) -> String {
        let (verdict, rest) = headline(s, gate);
        verdict + &rest
    }

    #[test]
    fn a_go_with_request_changes_says_which_the_gate_follows_and_why_they_differ() {
        let mut o = outcome(Verdict::Go, vec![finding(Severity::High, "src/a.rs", 1)]);
        o.decision = Decision::RequestChanges;
        o.grade = Grade::C;
        summary_of(&o, |s| {
            assert_eq!(
                line(s, &Gate::default()),
                "GO (exit 0: the gate follows the verdict) — decision REQUEST_CHANGES (grade C): \
                 1 High finding; the verdict table needs more than 3 High for CONDITIONAL"
            );
            let fail_high = Gate {
                fail_level: Some(Severity::High),
                ..Gate::default()
            };
            assert_eq!(
                line(s, &fail_high),
                "GO (exit 1: the gate follows the verdict, and --fail-level high fails 1 finding) \
                 — decision REQUEST_CHANGES (grade C): 1 High finding; the verdict table needs \
                 more than 3 High for CONDITIONAL"
            );
        });
    }

    #[test]
    fn agreeing_figures_need_no_second_reason_and_a_noted_verdict_reason_is_used() {
        let mut o = outcome(
            Verdict::NoGo,
            vec![
                finding(Severity::Critical, "src/a.rs", 1),
                finding(Severity::Critical, "src/b.rs", 1),
            ],
        );
        o.decision = Decision::Reject;
        o.grade = Grade::D;
        o.notes.push("verdict: NO-GO (2 Critical)".into());
        summary_of(&o, |s| {
            assert_eq!(
                line(s, &Gate::default()),
                "NO-GO (exit 1: the gate follows the verdict) — decision REJECT (grade D): \
                 2 Critical findings"
            );
        });
        // An interface mismatch: CONDITIONAL by the verdict table, APPROVE by the decision's.
        let mut mismatch = finding(Severity::Medium, "src/api.rs", 4);
        mismatch.category = "signature-mismatch".into();
        let mut o = outcome(Verdict::Conditional, vec![mismatch]);
        o.grade = Grade::B;
        o.notes
            .push("verdict: CONDITIONAL (1 interface mismatch)".into());
        let strict = Gate {
            strict: true,
            ..Gate::default()
        };
        summary_of(&o, |s| {
            assert_eq!(
                line(s, &strict),
                "CONDITIONAL (exit 3: the gate follows the verdict under --strict) — decision \
                 APPROVE (grade B): nothing at High or above; the verdict is CONDITIONAL for \
                 1 interface mismatch"
            );
        });
    }

    #[test]
    fn a_critical_only_an_agent_reports_is_no_go_with_request_changes_and_says_so() {
        let mut critical = finding(Severity::Critical, "src/a.rs", 3);
        critical.agents = vec!["quality-agent".into()];
        let mut o = outcome(Verdict::NoGo, vec![critical]);
        o.decision = Decision::RequestChanges;
        o.grade = Grade::C;
        o.notes.push("verdict: NO-GO (1 Critical)".into());
        summary_of(&o, |s| {
            assert_eq!(
                line(s, &Gate::default()),
                "NO-GO (exit 1: the gate follows the verdict) — decision REQUEST_CHANGES (grade C): \
                 1 Critical only agent backends report (one grade lower); the verdict is NO-GO \
                 for 1 Critical"
            );
        });
    }

    #[test]
    fn new_only_and_an_unweighed_build_failure_are_named() {
        use crate::baseline::{Baseline, BaselineEntry};
        let old = finding(Severity::Critical, "src/old.rs", 1);
        let baseline = Baseline::new(vec![BaselineEntry {
            fingerprint: old.fingerprint.clone(),
            rule: String::new(),
            severity: None,
            path: String::new(),
            line: None,
            description: String::new(),
            inspector: "x".into(),
        }]);
        let mut o = outcome(Verdict::NoGo, vec![old]);
        o.decision = Decision::Reject;
        o.grade = Grade::D;
        let new_only = Gate {
            new_only: true,
            ..Gate::default()
        };
        summary_of(&o, |s| {
            let s = Summary {
                baseline: Some(&baseline),
                ..s.clone()
            };
            assert_eq!(
                line(&s, &new_only),
                "NO-GO (exit 0: the gate follows the verdict of the new findings, GO) — decision \
                 REJECT (grade D): 1 Critical finding"
            );
        });
        let mut build = finding(Severity::Medium, "Cargo.toml", 1);
        build.category = "build-failure".into();
        let mut o = outcome(Verdict::Go, vec![build]);
        o.decision = Decision::Stop;
        o.grade = Grade::NotApplicable;
        summary_of(&o, |s| {
            assert_eq!(
                line(s, &Gate::default()),
                "GO (exit 0: the gate follows the verdict) — decision STOP (grade N/A): 1 build, \
                 test or environment failure; the verdict table has no row for build or \
                 environment failures"
            );
        });
    }
}
