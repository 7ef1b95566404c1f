//! `audit()` on concrete reports: the verdict table, the decision and the notes, end to end.

use super::*;
use crate::category::Category;
use crate::fixtures::{finding, report};
use protocol::{Confidence, Decision, Grade, InspectorKind, Severity, Verdict};

fn run(reports: &[InspectorReport], config: &AuditConfig) -> AuditOutcome {
    audit(&AuditInput::new("repository", reports, &[], &[], config))
}

fn one(findings: Vec<Finding>) -> AuditOutcome {
    run(&[report("quality", findings)], &AuditConfig::default())
}

#[test]
fn a_critical_is_no_go_and_reject() {
    let out = one(vec![
        finding(
            "quality",
            "incomplete-syntax",
            Severity::Critical,
            "src/a.rs",
            1,
        ),
        finding("quality", "dead-code", Severity::Low, "src/a.rs", 2),
    ]);
    assert_eq!(out.verdict, Verdict::NoGo);
    assert_eq!((out.decision, out.grade), (Decision::Reject, Grade::D));
    assert_eq!(out.notes, vec!["verdict: NO-GO (1 Critical)"]);
    assert_eq!(out.scope, "repository");
    assert_eq!(out.coverage_qualifier(), None);
}

#[test]
fn only_medium_and_low_is_go_approve_b_and_only_low_is_a() {
    let out = one(vec![
        finding(
            "quality",
            "naming-violation",
            Severity::Medium,
            "src/a.rs",
            1,
        ),
        finding("quality", "dead-code", Severity::Low, "src/a.rs", 2),
    ]);
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!((out.decision, out.grade), (Decision::Approve, Grade::B));
    assert!(out.notes.is_empty());
    let out = one(vec![finding(
        "quality",
        "dead-code",
        Severity::Low,
        "src/a.rs",
        2,
    )]);
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!((out.decision, out.grade), (Decision::Approve, Grade::A));
}

fn highs(n: u32) -> Vec<Finding> {
    (1..=n)
        .map(|i| {
            finding(
                "quality",
                "error-handling-drift",
                Severity::High,
                "src/a.rs",
                i,
            )
        })
        .collect()
}

#[test]
fn four_highs_are_conditional_and_request_changes() {
    let out = one(highs(4));
    assert_eq!(out.verdict, Verdict::Conditional);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::RequestChanges, Grade::C)
    );
    assert_eq!(out.notes, vec!["verdict: CONDITIONAL (4 High)"]);
}

#[test]
fn exactly_three_highs_are_go() {
    let out = one(highs(3));
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::RequestChanges, Grade::C)
    );
    assert_eq!(out.findings.len(), 3);
}

#[test]
fn a_test_failure_is_no_go_and_stop_or_conditional_by_policy() {
    let reports = [report(
        "test",
        vec![finding(
            "test",
            Category::TestFailure,
            Severity::High,
            "tests/login.rs",
            12,
        )],
    )];
    let out = run(&reports, &AuditConfig::default());
    assert_eq!(out.verdict, Verdict::NoGo);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::Stop, Grade::NotApplicable)
    );
    // Test failures are about tests by nature: test code does not lower them.
    assert_eq!(out.findings[0].severity, Severity::High);
    assert_eq!(
        out.notes,
        vec![
            "verdict: NO-GO (1 test failure)",
            "test-failure policy: no-go (1 test failure → NO-GO)",
        ]
    );

    let conditional = AuditConfig {
        test_failure: TestFailurePolicy::Conditional,
    };
    let out = run(&reports, &conditional);
    assert_eq!(out.verdict, Verdict::Conditional);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::Stop, Grade::NotApplicable)
    );
    assert_eq!(
        out.notes,
        vec![
            "verdict: CONDITIONAL (1 test failure)",
            "test-failure policy: conditional (1 test failure → at least CONDITIONAL)",
        ]
    );
}

#[test]
fn spec_defect_from_two_agents_is_spec_update_needed() {
    let reports = [
        report(
            "rulebase",
            vec![finding(
                "rulebase",
                Category::SpecDefect,
                Severity::High,
                "design.md",
                40,
            )],
        ),
        report(
            "interface",
            vec![finding(
                "interface",
                Category::SpecDefect,
                Severity::Medium,
                "design.md",
                40,
            )],
        ),
    ];
    let out = run(&reports, &AuditConfig::default());
    assert_eq!(out.verdict, Verdict::SpecUpdateNeeded);
    assert_eq!(out.spec_feedback.len(), 1);
    assert_eq!(out.spec_feedback[0].phase, "specifications");
    assert_eq!(out.spec_feedback[0].spec, "design.md:40");
    assert!(out.findings.is_empty());
    assert_eq!((out.decision, out.grade), (Decision::Approve, Grade::A));
    assert_eq!(out.notes, vec!["verdict: SPEC-UPDATE-NEEDED (spec defect)"]);
}

#[test]
fn a_lone_spec_defect_is_a_high_finding() {
    let out = one(vec![finding(
        "quality",
        Category::SpecDefect,
        Severity::Medium,
        "design.md",
        40,
    )]);
    assert_eq!(out.verdict, Verdict::Go);
    assert!(out.spec_feedback.is_empty());
    assert_eq!(out.findings.len(), 1);
    assert_eq!(out.findings[0].severity, Severity::High);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::RequestChanges, Grade::C)
    );
}

#[test]
fn two_agents_reporting_one_problem_make_one_confirmed_finding() {
    let reports = [
        report(
            "a",
            vec![finding(
                "a",
                "resource-leak",
                Severity::Medium,
                "src/io.rs",
                8,
            )],
        ),
        report(
            "b",
            vec![finding(
                "b",
                "resource-leak",
                Severity::High,
                "src/io.rs",
                8,
            )],
        ),
    ];
    let out = run(&reports, &AuditConfig::default());
    assert_eq!(out.findings.len(), 1);
    let f = &out.findings[0];
    assert_eq!(f.agents, vec!["a", "b"]);
    assert_eq!(f.severity, Severity::High);
    assert_eq!(f.confidence, Confidence::High);
}

#[test]
fn a_signature_mismatch_reported_as_medium_is_critical() {
    let out = one(vec![finding(
        "interface",
        Category::SignatureMismatch,
        Severity::Medium,
        "src/api.rs",
        3,
    )]);
    assert_eq!(out.findings[0].severity, Severity::Critical);
    assert_eq!(out.verdict, Verdict::NoGo);
    assert_eq!(out.notes, vec!["verdict: NO-GO (1 Critical)"]);
}

#[test]
fn a_high_only_in_test_code_is_medium() {
    let out = one(vec![finding(
        "quality",
        "weak-assertion",
        Severity::High,
        "tests/x.rs",
        5,
    )]);
    assert_eq!(out.findings[0].severity, Severity::Medium);
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!((out.decision, out.grade), (Decision::Approve, Grade::B));
}

#[test]
fn findings_come_out_sorted_after_re_rating() {
    let out = one(vec![
        finding("quality", "dead-code", Severity::High, "tests/a.rs", 1),
        finding(
            "quality",
            "naming-violation",
            Severity::Medium,
            "src/a.rs",
            9,
        ),
        finding(
            "interface",
            Category::SignatureMismatch,
            Severity::Low,
            "src/z.rs",
            1,
        ),
    ]);
    let order: Vec<(&str, Severity)> = out
        .findings
        .iter()
        .map(|f| (f.location.path.as_str(), f.severity))
        .collect();
    assert_eq!(
        order,
        vec![
            ("src/z.rs", Severity::Critical),
            ("src/a.rs", Severity::Medium),
            ("tests/a.rs", Severity::Medium),
        ]
    );
}

#[test]
fn an_agent_only_critical_is_no_go_but_request_changes() {
    let out = one(vec![finding(
        "holistic-agent",
        "race-condition",
        Severity::Critical,
        "src/a.rs",
        1,
    )]);
    assert_eq!(out.verdict, Verdict::NoGo);
    assert_eq!(
        (out.decision, out.grade),
        (Decision::RequestChanges, Grade::C)
    );
    assert_eq!(out.notes.len(), 2);
    assert!(out.notes[1].starts_with("agent-only Critical: 1"));
}

#[test]
fn a_missing_inspector_is_partial_coverage() {
    let expected: Vec<String> = InspectorKind::ALL.iter().map(|k| k.actor_name()).collect();
    let reports: Vec<InspectorReport> = expected[..5]
        .iter()
        .map(|name| report(name, vec![]))
        .collect();
    let config = AuditConfig::default();
    let out = audit(&AuditInput::new(
        "feature-auth",
        &reports,
        &expected,
        &[],
        &config,
    ));
    assert_eq!((out.answered, out.expected), (5, 6));
    assert_eq!(
        out.coverage_qualifier().as_deref(),
        Some("partial coverage (5/6)")
    );
    assert_eq!(
        out.notes,
        vec![
            "PARTIAL:inspector-holistic|no report",
            "verdict: CONDITIONAL (partial coverage (5/6): GO needs every Inspector's report)",
        ]
    );
    // Nothing was found, but not everything was checked: never GO, never APPROVE.
    assert_eq!(out.verdict, Verdict::Conditional);
    assert_eq!(
        (out.decision, out.grade),
        (protocol::Decision::Stop, protocol::Grade::NotApplicable)
    );
    assert_eq!(out.scope, "feature-auth");
}

#[test]
fn an_unavailable_inspector_keeps_its_reason_and_inspector_notes_are_not_copied() {
    let expected: Vec<String> = vec!["quality".into(), "test".into()];
    let reports = [report("quality", vec![])];
    let unavailable = [("test".to_string(), "timed out after 300s".to_string())];
    let config = AuditConfig::default();
    let out = audit(&AuditInput::new(
        "repository",
        &reports,
        &expected,
        &unavailable,
        &config,
    ));
    assert_eq!(
        out.notes,
        vec![
            "PARTIAL:test|timed out after 300s",
            "verdict: CONDITIONAL (partial coverage (1/2): GO needs every Inspector's report)",
        ]
    );
    assert_eq!(
        out.coverage_qualifier().as_deref(),
        Some("partial coverage (1/2)")
    );
}

#[test]
fn a_finding_without_agents_is_the_reporters() {
    let mut f = finding("x", "dead-code", Severity::Low, "src/a.rs", 1);
    f.agents.clear();
    let out = run(
        &[report("inspector-quality", vec![f])],
        &AuditConfig::default(),
    );
    assert_eq!(out.findings[0].agents, vec!["inspector-quality"]);
}
