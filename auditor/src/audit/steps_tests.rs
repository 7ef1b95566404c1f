//! `audit()` end to end for the steps beyond the verdict table: each step drives the outcome to
//! its documented result, the budget cuts the audit short, the override is noted.

use super::*;
use crate::category::{CALL_SITE_ERROR, SPEC_DEFECT, TEST_FAILURE};
use crate::context::Exemption;
use crate::evidence::AUDITOR;
use crate::fixtures::{finding, report};
use crate::verdict_override::VerdictOverride;
use protocol::{Claim, Confidence, Decision, Grade, Severity, SteeringAction, Verdict};

fn with_claims(name: &str, claims: Vec<Claim>, findings: Vec<Finding>) -> InspectorReport {
    let mut r = report(name, findings);
    r.claims = claims;
    r
}

fn run(reports: &[InspectorReport], ctx: &AuditContext) -> AuditOutcome {
    let config = AuditConfig::default();
    audit(&AuditInput::new("auth", reports, &[], &[], &config).with_context(ctx))
}

#[test]
fn step1_a_problem_two_agents_report_is_confirmed_in_notes() {
    let reports = [
        report("quality", vec![finding("quality", "resource-leak", Severity::High, "src/io.rs", 8)]),
        report("holistic", vec![
            finding("holistic", "resource-leak", Severity::High, "src/io.rs", 8),
            finding("holistic", "race-condition", Severity::High, "src/a.rs", 3),
        ]),
    ];
    let out = run(&reports, &AuditContext::EMPTY);
    assert_eq!(
        out.notes,
        vec![
            "CONFIRMED|src/io.rs:8|resource-leak|confirmed by 2 agents: quality+holistic",
            "VERIFY|src/a.rs:3|race-condition|High reported by holistic only",
        ]
    );
    assert_eq!(out.findings[1].confidence, Confidence::High);
}

#[test]
fn step2_rule_b_raises_a_false_positive_risk_into_the_verdict() {
    let reports = [
        with_claims("test", vec![Claim::TestsRun { passed: 9, failed: 0, skipped: 0 }], vec![]),
        report("interface", vec![finding("interface", CALL_SITE_ERROR, Severity::High, "src/api.rs", 4)]),
    ];
    let out = run(&reports, &AuditContext::EMPTY);
    let categories: Vec<(&str, &str)> = out
        .findings
        .iter()
        .map(|f| (f.category.as_str(), f.agents_joined()))
        .map(|(c, a)| (c, if a == AUDITOR { AUDITOR } else { "interface" }))
        .collect();
    assert_eq!(
        categories,
        vec![(CALL_SITE_ERROR, "interface"), ("false-positive-risk", AUDITOR)]
    );
    assert_eq!(out.resolved.len(), 1);
    assert_eq!(out.verdict, Verdict::Conditional);
}

#[test]
fn step3_suppressed_and_vendored_findings_are_removed_before_the_verdict() {
    let mut suppressed = finding("quality", "incomplete-syntax", Severity::Critical, "src/a.rs", 1);
    suppressed.suppression = Some("retake-ignore: quality/incomplete-syntax macro input".into());
    let vendored = finding("holistic", "race-condition", Severity::Critical, "vendor/x.rs", 2);
    let out = run(&[report("quality", vec![suppressed, vendored])], &AuditContext::EMPTY);
    assert_eq!(out.verdict, Verdict::Go);
    assert!(out.findings.is_empty());
    let reasons: Vec<&str> = out.removed.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(
        reasons,
        vec![
            "suppressed: retake-ignore: quality/incomplete-syntax macro input",
            "generated or vendored file",
        ]
    );
}

#[test]
fn step3_a_documented_deviation_is_removed() {
    let ctx = AuditContext {
        documented_deviations: vec![Exemption {
            category: Some("signature-mismatch".into()),
            path: Some("src/api.rs".into()),
            mentions: None,
            reason: "design: login takes a borrowed str".into(),
        }],
        ..AuditContext::default()
    };
    let f = finding("interface", "signature-mismatch", Severity::Medium, "src/api.rs", 2);
    let out = run(&[report("interface", vec![f])], &ctx);
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!(out.removed[0].original, "M|signature-mismatch|src/api.rs:2|signature-mismatch at src/api.rs:2");
}

#[test]
fn step4_design_items_nobody_covered_are_noted() {
    let ctx = AuditContext {
        design_files: vec!["src/auth.rs".into(), "src/store.rs".into()],
        ..AuditContext::default()
    };
    let r = with_claims("rulebase", vec![Claim::FilesCovered { paths: vec!["src/auth.rs".into()] }], vec![]);
    let out = run(&[r], &ctx);
    assert_eq!(out.notes, vec!["COVERAGE_GAP|file|src/store.rs"]);
    assert_eq!(out.verdict, Verdict::Go);
}

#[test]
fn step5_close_variants_from_two_agents_become_one_finding() {
    let reports = [
        report("quality", vec![finding("quality", "error-handling-drift", Severity::Medium, "src/a.rs", 10)]),
        report("holistic", vec![finding("holistic", "error-handling-drift", Severity::High, "src/a.rs", 11)]),
    ];
    let out = run(&reports, &AuditContext::EMPTY);
    assert_eq!(out.findings.len(), 1);
    assert_eq!(out.findings[0].agents_joined(), "quality+holistic");
    assert_eq!(out.findings[0].severity, Severity::High);
}

#[test]
fn step7_a_conflict_is_settled_from_the_source_in_a_feature_scope() {
    let reports = [
        with_claims("quality", vec![Claim::ErrorHandlingChecked { files: 4, issues: 0 }], vec![]),
        report("quality-agent", vec![{
            let mut f = finding("quality-agent", "error-handling-drift", Severity::High, "src/a.rs", 1);
            f.description = "`expect` on user input".into();
            f
        }]),
    ];
    let source = |_: &str| Some("fn f() { input.parse().unwrap_or(0) }\n".to_string());
    let config = AuditConfig::default();
    let input = AuditInput::new("auth", &reports, &[], &[], &config).with_source(&source);
    let out = audit(&input);
    assert!(out.findings.is_empty());
    assert_eq!(out.resolved[0].resolution, "dropped the finding: src/a.rs has none of `expect`");
    // A cross-check scope decides on evidence only: one agent against one claim stays open.
    let input = AuditInput::new("cross-check", &reports, &[], &[], &config).with_source(&source);
    let out = audit(&input);
    assert_eq!(out.findings.len(), 1);
    assert!(out.resolved[0].resolution.starts_with("UNRESOLVED: "));
}

#[test]
fn step8_phantom_resilience_and_an_unrequested_suggestion() {
    let mut retry = finding("holistic", "operational-risk", Severity::Low, "src/client.rs", 30);
    retry.description = "retry loop without a bound".into();
    retry.suggestion = Some("add a retry limit and a fallback".into());
    let ctx = AuditContext {
        design_text: "The client sends one request and returns the error.".into(),
        ..AuditContext::default()
    };
    let out = run(&[report("holistic", vec![retry])], &ctx);
    let rules: Vec<&str> = out.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, vec!["auditor/phantom-resilience", "holistic/operational-risk"]);
    assert_eq!(out.findings[1].suggestion, None);
    assert_eq!(
        out.notes,
        vec!["SIMPLICITY|src/client.rs:30|operational-risk|dropped the suggestion \"add a retry limit and a fallback\": phantom resilience, the design has none"]
    );
    assert_eq!((out.verdict, out.decision, out.grade), (Verdict::Go, Decision::Approve, Grade::B));
}

#[test]
fn step9_consistent_patterns_and_recurring_problems_become_steering_rows() {
    let consistency = with_claims(
        "consistency",
        vec![Claim::PatternConsistent {
            pattern: "errors: thiserror enums".into(),
            modules: vec!["a".into(), "b".into(), "c".into()],
        }],
        vec![],
    );
    let quality = report(
        "quality",
        ["src/a.rs", "src/b.rs", "src/c.rs"]
            .iter()
            .map(|p| finding("quality", "naming-violation", Severity::Low, p, 1))
            .collect(),
    );
    let out = run(&[consistency, quality], &AuditContext::EMPTY);
    let rows: Vec<(SteeringAction, &str)> = out.steering.iter().map(|s| (s.action, s.target.as_str())).collect();
    assert_eq!(
        rows,
        vec![
            (SteeringAction::Codify, "steering/tech.md"),
            (SteeringAction::Propose, "steering/structure.md"),
        ]
    );
}

#[test]
fn step10_a_justified_override_replaces_the_verdict_and_is_noted() {
    let reports = [report("quality", vec![finding("quality", "todo", Severity::Critical, "src/a.rs", 1)])];
    let config = AuditConfig {
        verdict_override: Some(VerdictOverride {
            verdict: Verdict::Conditional,
            justification: "generated stub, replaced in the next task".into(),
        }),
        ..AuditConfig::default()
    };
    let out = audit(&AuditInput::new("auth", &reports, &[], &[], &config));
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
    let reports = [report("quality", vec![suppressed])];
    let config = AuditConfig::default();
    let base = AuditInput::new("auth", &reports, &[], &[], &config);
    // Steps 1 and 2 ran, step 3 (which would drop the suppression) did not: the gate stays shut.
    let out = audit(&base.with_budget(Budget::Steps(2)));
    assert_eq!(out.verdict, Verdict::NoGo);
    assert_eq!(
        out.notes,
        vec!["PARTIAL_VERIFICATION|steps completed: 1..2", "verdict: NO-GO (1 Critical)"]
    );
    let spent = || true;
    let out = audit(&base.with_budget(Budget::Check(&spent)));
    assert_eq!(out.notes[0], "PARTIAL_VERIFICATION|steps completed: none");
    let out = audit(&base.with_budget(Budget::Steps(9)));
    assert_eq!(out.verdict, Verdict::Go);
    assert!(out.notes.is_empty());
}

#[test]
fn a_large_scope_is_noted_and_reads_no_source() {
    let reports = [
        with_claims("quality", vec![Claim::ErrorHandlingChecked { files: 4, issues: 0 }], vec![]),
        report("quality-agent", vec![{
            let mut f = finding("quality-agent", "error-handling-drift", Severity::High, "src/a.rs", 1);
            f.description = "`expect` on user input".into();
            f
        }]),
    ];
    let config = AuditConfig {
        large_scope: LargeScope { findings: 0, files: 0 },
        ..AuditConfig::default()
    };
    let read = |_: &str| -> Option<String> { None };
    let out = audit(&AuditInput::new("auth", &reports, &[], &[], &config).with_source(&read));
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
        report("rulebase", vec![finding("rulebase", SPEC_DEFECT, Severity::High, "design.md", 4)]),
        report("interface", vec![finding("interface", SPEC_DEFECT, Severity::High, "design.md", 4)]),
        report("test", vec![finding("test", TEST_FAILURE, Severity::Low, "tests/a.rs", 1)]),
    ];
    let config = AuditConfig::new(TestFailurePolicy::Conditional);
    let out = audit(&AuditInput::new("auth", &reports, &[], &[], &config));
    assert_eq!(out.verdict, Verdict::SpecUpdateNeeded);
    assert_eq!(out.spec_feedback.len(), 1);
    assert_eq!((out.decision, out.grade), (Decision::Stop, Grade::NotApplicable));
}
