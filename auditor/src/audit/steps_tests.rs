//! `audit()` end to end for steps 1–9: each step drives the outcome to its documented result.

use super::*;
use crate::category::Category;
use crate::context::Exemption;
use crate::evidence::AUDITOR;
use crate::fixtures::{finding, report};
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
        report(
            "quality",
            vec![finding(
                "quality",
                "resource-leak",
                Severity::High,
                "src/io.rs",
                8,
            )],
        ),
        report(
            "holistic",
            vec![
                finding("holistic", "resource-leak", Severity::High, "src/io.rs", 8),
                finding("holistic", "race-condition", Severity::High, "src/a.rs", 3),
            ],
        ),
    ];
    let out = run(&reports, &AuditContext::EMPTY);
    assert_eq!(
        out.notes,
        vec![
            "VERIFY|src/a.rs:3|race-condition|High reported by holistic only",
            "CONFIRMED|src/io.rs:8|resource-leak|confirmed by 2 agents: quality+holistic",
        ]
    );
    assert_eq!(out.findings[0].confidence, Confidence::Normal);
    assert_eq!(out.findings[1].confidence, Confidence::High);
}

#[test]
fn step2_rule_b_raises_a_false_positive_risk_into_the_verdict() {
    let reports = [
        with_claims(
            "test",
            vec![Claim::TestsRun {
                passed: 9,
                failed: 0,
                skipped: 0,
            }],
            vec![],
        ),
        report(
            "interface",
            vec![finding(
                "interface",
                Category::CallSiteError,
                Severity::High,
                "src/api.rs",
                4,
            )],
        ),
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
        vec![
            (Category::CallSiteError.as_str(), "interface"),
            ("false-positive-risk", AUDITOR)
        ]
    );
    assert_eq!(out.resolved.len(), 1);
    assert_eq!(out.verdict, Verdict::Conditional);
}

#[test]
fn step3_suppressed_and_vendored_findings_are_removed_before_the_verdict() {
    let mut suppressed = finding(
        "quality",
        "incomplete-syntax",
        Severity::Critical,
        "src/a.rs",
        1,
    );
    suppressed.suppression = Some("retake-ignore: quality/incomplete-syntax macro input".into());
    let vendored = finding(
        "holistic",
        "race-condition",
        Severity::Critical,
        "vendor/x.rs",
        2,
    );
    let out = run(
        &[report("quality", vec![suppressed, vendored])],
        &AuditContext::EMPTY,
    );
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
    let f = finding(
        "interface",
        "signature-mismatch",
        Severity::Medium,
        "src/api.rs",
        2,
    );
    let out = run(&[report("interface", vec![f])], &ctx);
    assert_eq!(out.verdict, Verdict::Go);
    assert_eq!(
        out.removed[0].original,
        "M|signature-mismatch|src/api.rs:2|signature-mismatch at src/api.rs:2"
    );
}

#[test]
fn step4_design_items_nobody_covered_are_noted() {
    let ctx = AuditContext {
        design_files: vec!["src/auth.rs".into(), "src/store.rs".into()],
        ..AuditContext::default()
    };
    let r = with_claims(
        "rulebase",
        vec![Claim::FilesCovered {
            paths: vec!["src/auth.rs".into()],
        }],
        vec![],
    );
    let out = run(&[r], &ctx);
    assert_eq!(out.notes, vec!["COVERAGE_GAP|file|src/store.rs"]);
    assert_eq!(out.verdict, Verdict::Go);
}

#[test]
fn step5_close_variants_from_two_agents_become_one_finding() {
    let reports = [
        report(
            "quality",
            vec![finding(
                "quality",
                "error-handling-drift",
                Severity::Medium,
                "src/a.rs",
                10,
            )],
        ),
        report(
            "holistic",
            vec![finding(
                "holistic",
                "error-handling-drift",
                Severity::High,
                "src/a.rs",
                11,
            )],
        ),
    ];
    let out = run(&reports, &AuditContext::EMPTY);
    assert_eq!(out.findings.len(), 1);
    // Dedup lists the High first, so the merged finding keeps its place and agent order.
    assert_eq!(out.findings[0].agents_joined(), "holistic+quality");
    assert_eq!(out.findings[0].location.line, Some(11));
    assert_eq!(out.findings[0].severity, Severity::High);
}

#[test]
fn step7_a_conflict_is_settled_from_the_source_in_a_feature_scope() {
    let reports = [
        with_claims(
            "quality",
            vec![Claim::ErrorHandlingChecked {
                files: 4,
                issues: 0,
            }],
            vec![],
        ),
        report(
            "quality-agent",
            vec![{
                let mut f = finding(
                    "quality-agent",
                    "error-handling-drift",
                    Severity::High,
                    "src/a.rs",
                    1,
                );
                f.description = "`expect` on user input".into();
                f
            }],
        ),
    ];
    let source = |_: &str| Some("fn f() { input.parse().unwrap_or(0) }\n".to_string());
    let config = AuditConfig::default();
    let input = AuditInput::new("auth", &reports, &[], &[], &config).with_source(&source);
    let out = audit(&input);
    assert!(out.findings.is_empty());
    assert_eq!(
        out.resolved[0].resolution,
        "dropped the finding: src/a.rs has none of `expect`"
    );
    // A cross-check scope decides on evidence only: one agent against one claim stays open.
    let input = AuditInput::new("cross-check", &reports, &[], &[], &config).with_source(&source);
    let out = audit(&input);
    assert_eq!(out.findings.len(), 1);
    assert!(out.resolved[0].resolution.starts_with("UNRESOLVED: "));
}

#[test]
fn step8_phantom_resilience_and_an_unrequested_suggestion() {
    let mut retry = finding(
        "holistic",
        "operational-risk",
        Severity::Low,
        "src/client.rs",
        30,
    );
    retry.description = "retry loop without a bound".into();
    retry.suggestion = Some("add a retry limit and a fallback".into());
    let ctx = AuditContext {
        design_text: "The client sends one request and returns the error.".into(),
        ..AuditContext::default()
    };
    let out = run(&[report("holistic", vec![retry])], &ctx);
    let rules: Vec<&str> = out.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(
        rules,
        vec!["auditor/phantom-resilience", "holistic/operational-risk"]
    );
    assert_eq!(out.findings[1].suggestion, None);
    assert_eq!(
        out.notes,
        vec!["SIMPLICITY|src/client.rs:30|operational-risk|dropped the suggestion \"add a retry limit and a fallback\": phantom resilience, the design has none"]
    );
    assert_eq!(
        (out.verdict, out.decision, out.grade),
        (Verdict::Go, Decision::Approve, Grade::B)
    );
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
    let rows: Vec<(SteeringAction, &str)> = out
        .steering
        .iter()
        .map(|s| (s.action, s.target.as_str()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (SteeringAction::Codify, "steering/tech.md"),
            (SteeringAction::Propose, "steering/structure.md"),
        ]
    );
}
