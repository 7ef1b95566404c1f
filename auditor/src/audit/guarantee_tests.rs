//! `audit()` end to end for step 10 and the verdict output guarantee: the override, the budget,
//! large scopes, and the verdict table reached through every step.

use super::*;
use crate::category::Category;
use crate::fixtures::{finding, report};
use crate::verdict_override::VerdictOverride;
use protocol::{Claim, Decision, Grade, Severity, Verdict};

#[test]
fn step10_a_justified_override_replaces_the_verdict_and_is_noted() {
    let reports = [report(
        "quality",
        vec![finding(
            "quality",
            "todo",
            Severity::Critical,
            "src/a.rs",
            1,
        )],
    )];
    let config = AuditConfig::default();
    let justified = VerdictOverride {
        verdict: Verdict::Conditional,
        justification: "generated stub, replaced in the next task".into(),
    };
    let out =
        audit(&AuditInput::new("auth", &reports, &[], &[], &config).with_override(&justified));
    assert_eq!(out.verdict, Verdict::Conditional);
    assert_eq!(
        out.notes,
        vec![
            "verdict: NO-GO (1 Critical)",
            "OVERRIDE|NO-GO → CONDITIONAL|generated stub, replaced in the next task",
        ]
    );
    // The decision is computed from the findings, not from the overridden verdict.
    assert_eq!((out.decision, out.grade), (Decision::Reject, Grade::D));
}

#[test]
fn a_spent_budget_jumps_to_the_verdict_and_says_how_far_it_got() {
    let mut suppressed = finding("quality", "todo", Severity::Critical, "src/a.rs", 1);
    suppressed.suppression = Some("accepted".into());
    let vendored = finding(
        "holistic",
        "race-condition",
        Severity::Critical,
        "vendor/x.rs",
        2,
    );
    let reports = [report("quality", vec![suppressed, vendored])];
    let config = AuditConfig::default();
    let base = AuditInput::new("auth", &reports, &[], &[], &config);
    // Steps 1 and 2 ran, step 3 did not: the suppression is still honoured, the vendored
    // Critical is not cleared, and the gate stays shut.
    let out = audit(&base.with_budget(Budget::Steps(2)));
    assert_eq!(out.verdict, Verdict::NoGo);
    assert_eq!(out.findings.len(), 1);
    assert_eq!(out.findings[0].location.path, "vendor/x.rs");
    assert_eq!(out.removed.len(), 1);
    assert_eq!(out.removed[0].reason, "suppressed: accepted");
    assert_eq!(
        out.notes,
        vec![
            "PARTIAL_VERIFICATION|steps completed: 1..2",
            "verdict: NO-GO (1 Critical)"
        ]
    );
    let spent = || true;
    let out = audit(&base.with_budget(Budget::Check(&spent)));
    assert_eq!(out.notes[0], "PARTIAL_VERIFICATION|steps completed: none");
    assert_eq!(out.verdict, Verdict::NoGo);
    let out = audit(&base.with_budget(Budget::Steps(9)));
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!(out.removed.len(), 2);
    assert!(out.notes.is_empty());
}

#[test]
fn a_large_scope_is_noted_and_reads_no_source() {
    let mut quality = report("quality", vec![]);
    quality.claims = vec![Claim::ErrorHandlingChecked {
        files: 4,
        issues: 0,
    }];
    let mut drift = finding(
        "quality-agent",
        "error-handling-drift",
        Severity::High,
        "src/a.rs",
        1,
    );
    drift.description = "`expect` on user input".into();
    let reports = [quality, report("quality-agent", vec![drift])];
    let config = AuditConfig::default();
    // A reader that would drop the finding ("no such file") if it were asked.
    let read = |_: &str| -> Option<String> { None };
    let out = audit(
        &AuditInput::new("auth", &reports, &[], &[], &config)
            .with_large_scope(LargeScope {
                findings: 0,
                files: 0,
            })
            .with_source(&read),
    );
    assert_eq!(out.findings.len(), 1);
    assert_eq!(
        out.notes[0],
        "LARGE_SCOPE|1 findings, 0 files: audited on Inspector evidence only, no source reading"
    );
    assert!(out.resolved[0].resolution.starts_with("UNRESOLVED: "));
}

#[test]
fn spec_defects_still_lead_to_spec_update_needed_through_all_steps() {
    let reports = [
        report(
            "rulebase",
            vec![finding(
                "rulebase",
                Category::SpecDefect,
                Severity::High,
                "design.md",
                4,
            )],
        ),
        report(
            "interface",
            vec![finding(
                "interface",
                Category::SpecDefect,
                Severity::High,
                "design.md",
                4,
            )],
        ),
        report(
            "test",
            vec![finding(
                "test",
                Category::TestFailure,
                Severity::Low,
                "tests/a.rs",
                1,
            )],
        ),
    ];
    let config = AuditConfig {
        test_failure: TestFailurePolicy::Conditional,
    };
    let out = audit(&AuditInput::new("auth", &reports, &[], &[], &config));
    assert_eq!(out.verdict, Verdict::SpecUpdateNeeded);
    assert_eq!(out.spec_feedback.len(), 1);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::Stop, Grade::NotApplicable)
    );
}

#[test]
fn a_budget_spent_inside_a_long_step_stops_it_at_its_next_look() {
    // 2 × CHECK_EVERY + 10 findings from one Inspector, one of them reported again by another.
    let n = 2 * crate::budget::CHECK_EVERY + 10;
    let many: Vec<_> = (1..=n)
        .map(|i| finding("quality", "todo", Severity::Low, "src/a.rs", i as u32))
        .collect();
    let twin = finding("holistic", "todo", Severity::Low, "src/a.rs", 1);
    let reports = [report("quality", many), report("holistic", vec![twin])];
    let config = AuditConfig::default();
    // Looks: 1 before step 1, 2 and 3 inside it (every CHECK_EVERY findings), 4–7 before steps
    // 2–5, 8 the first inside step 5's dedup: spent from there on.
    let looks = std::cell::Cell::new(0);
    let spent = || {
        looks.set(looks.get() + 1);
        looks.get() >= 8
    };
    let input = AuditInput::new("repository", &reports, &[], &[], &config);
    let out = audit(&input.with_budget(Budget::Check(&spent)));
    assert_eq!(looks.get(), 8, "no look after the spent one");
    assert_eq!(out.notes[0], "PARTIAL_VERIFICATION|steps completed: 1..4");
    // Dedup gave its input back whole: the twin is still two findings.
    assert_eq!(out.findings.len(), n + 1);
    assert_eq!(out.verdict, Verdict::Go);
    // The same audit with no budget merges the twin.
    assert_eq!(audit(&input).findings.len(), n);
}
