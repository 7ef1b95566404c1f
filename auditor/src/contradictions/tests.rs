//! Each of the five rules on hand-written reports: when it fires, what it writes, when it is quiet.

use super::*;
use crate::category::Category;
use crate::evidence::AUDITOR;
use crate::fixtures::{finding, report};
use protocol::Location;

fn claiming(name: &str, claims: Vec<Claim>, findings: Vec<Finding>) -> InspectorReport {
    let mut r = report(name, findings);
    r.claims = claims;
    r
}

fn signatures(matched: u32, total: u32) -> Claim {
    Claim::SignaturesChecked { matched, total }
}

fn tests_run(passed: u32, failed: u32) -> Claim {
    Claim::TestsRun {
        passed,
        failed,
        skipped: 0,
    }
}

#[test]
fn rule_a_keeps_the_failure_and_says_investigate_deeper() {
    let failure = finding(
        "inspector-test",
        Category::TestFailure,
        Severity::High,
        "tests/login.rs",
        12,
    );
    let reports = [claiming(
        "inspector-interface",
        vec![signatures(4, 4)],
        vec![],
    )];
    let out = contradictions(&reports, vec![failure.clone()]);
    assert_eq!(out.findings, vec![failure]);
    assert_eq!(
        out.resolved,
        vec![Resolved {
            agents: vec!["inspector-interface".into(), "inspector-test".into()],
            resolution: "kept the test failures: the signatures match the design but the code \
                         fails at runtime; investigate deeper"
                .into(),
            conflicting: "inspector-interface: 4/4 signatures match the design\n\
                          H|test-failure|tests/login.rs:12|test-failure at tests/login.rs:12"
                .into(),
        }]
    );
}

#[test]
fn rule_a_needs_every_signature_to_match() {
    let failure = finding(
        "test",
        Category::TestFailure,
        Severity::High,
        "tests/login.rs",
        12,
    );
    let partial = [claiming("interface", vec![signatures(3, 4)], vec![])];
    assert_eq!(
        signatures_match_but_tests_fail(&partial, std::slice::from_ref(&failure)),
        None
    );
    let none = [claiming("interface", vec![signatures(0, 0)], vec![])];
    assert_eq!(signatures_match_but_tests_fail(&none, &[failure]), None);
    let quiet = [claiming("interface", vec![signatures(4, 4)], vec![])];
    assert_eq!(signatures_match_but_tests_fail(&quiet, &[]), None);
}

#[test]
fn rule_b_raises_a_false_positive_risk_per_wrong_call() {
    let mut call = finding(
        "interface",
        Category::CallSiteError,
        Severity::High,
        "src/api.rs",
        30,
    );
    call.description = "`login` called with 1 argument, designed with 2".into();
    let reports = [claiming("test", vec![tests_run(42, 0)], vec![])];
    let out = contradictions(&reports, vec![call.clone()]);
    assert_eq!(out.findings.len(), 2);
    assert_eq!(out.findings[0], call);
    let raised = &out.findings[1];
    assert_eq!(raised.category, "false-positive-risk");
    assert_eq!(raised.severity, Severity::High);
    assert_eq!(raised.agents, vec![AUDITOR]);
    assert_eq!(raised.rule, "auditor/contradiction-b");
    assert_eq!(raised.location, Location::at("src/api.rs", 30));
    assert_eq!(
        raised.description,
        "all 42 tests pass although this call has the wrong number of arguments: the tests \
         likely run against test doubles (`login` called with 1 argument, designed with 2)"
    );
    assert_eq!(out.resolved.len(), 1);
    assert_eq!(out.resolved[0].agents, vec!["test", "interface"]);
    assert_eq!(
        out.resolved[0].conflicting,
        "test: 42 passed, 0 failed\n\
         H|call-site-error|src/api.rs:30|`login` called with 1 argument, designed with 2"
    );
}

#[test]
fn rule_b_is_quiet_when_a_test_failed_or_none_ran() {
    let call = finding(
        "interface",
        Category::CallSiteError,
        Severity::High,
        "src/api.rs",
        30,
    );
    let failing = [claiming("test", vec![tests_run(41, 1)], vec![])];
    assert_eq!(
        tests_pass_but_calls_are_wrong(&failing, std::slice::from_ref(&call)),
        None
    );
    let nothing_ran = [claiming("test", vec![tests_run(0, 0)], vec![])];
    assert_eq!(
        tests_pass_but_calls_are_wrong(&nothing_ran, std::slice::from_ref(&call)),
        None
    );
    // A test claim from a report that is not the test Inspector does not count.
    let wrong_kind = [claiming("quality", vec![tests_run(5, 0)], vec![])];
    assert_eq!(tests_pass_but_calls_are_wrong(&wrong_kind, &[call]), None);
}

fn task(id: &str, files: &[&str]) -> Claim {
    Claim::TaskComplete {
        id: id.into(),
        files: files.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn rule_c_raises_not_delivered_when_the_tasks_code_is_only_dead() {
    let dead = finding(
        "inspector-quality",
        Category::DeadCode,
        Severity::Low,
        "src/export.rs",
        5,
    );
    let elsewhere = finding(
        "inspector-quality",
        "naming-violation",
        Severity::Low,
        "src/a.rs",
        1,
    );
    let reports = [claiming(
        "inspector-rulebase",
        vec![
            task("3", &["./src/export.rs"]),
            task("4", &["src/import.rs"]),
        ],
        vec![],
    )];
    let out = contradictions(&reports, vec![dead, elsewhere]);
    assert_eq!(out.findings.len(), 3);
    let raised = &out.findings[2];
    assert_eq!(raised.category, "functionality-not-delivered");
    assert_eq!(raised.severity, Severity::High);
    assert_eq!(raised.location, Location::at("src/export.rs", 5));
    assert_eq!(
        raised.description,
        "task 3 is marked complete, but its code is dead: src/export.rs:5"
    );
    assert_eq!(
        out.resolved,
        vec![Resolved {
            agents: vec!["inspector-rulebase".into(), "inspector-quality".into()],
            resolution: "functionality not really delivered: raised \
                         functionality-not-delivered for task 3"
                .into(),
            conflicting: "inspector-rulebase: task 3 complete\n\
                          L|dead-code|src/export.rs:5|dead-code at src/export.rs:5"
                .into(),
        }]
    );
}

#[test]
fn rule_c_is_quiet_when_quality_finds_more_than_dead_code_or_nothing() {
    let dead = finding(
        "quality",
        Category::DeadCode,
        Severity::Low,
        "src/export.rs",
        5,
    );
    let other = finding("quality", "todo", Severity::Low, "src/export.rs", 9);
    let reports = [claiming(
        "rulebase",
        vec![task("3", &["src/export.rs"])],
        vec![],
    )];
    assert!(complete_tasks_with_only_dead_code(&reports, &[dead.clone(), other]).is_empty());
    assert!(complete_tasks_with_only_dead_code(&reports, &[]).is_empty());
    // Dead code another Inspector reports is not quality's verdict on the task.
    let holistic = finding(
        "holistic",
        Category::DeadCode,
        Severity::Low,
        "src/export.rs",
        5,
    );
    assert!(complete_tasks_with_only_dead_code(&reports, &[holistic]).is_empty());
    let mut suppressed = dead;
    suppressed.suppression = Some("decisions.yaml: kept for the plugin API".into());
    assert!(complete_tasks_with_only_dead_code(&reports, &[suppressed]).is_empty());
}

#[test]
fn rule_d_keeps_consistencys_finding_at_its_own_severity() {
    let differing = finding(
        "consistency",
        Category::ErrorHandlingInconsistency,
        Severity::Medium,
        "src/b.rs",
        2,
    );
    let reports = [claiming(
        "quality",
        vec![Claim::ErrorHandlingChecked {
            files: 12,
            issues: 0,
        }],
        vec![],
    )];
    let out = contradictions(&reports, vec![differing.clone()]);
    assert_eq!(out.findings, vec![differing]);
    assert_eq!(
        out.resolved,
        vec![Resolved {
            agents: vec!["quality".into(), "consistency".into()],
            resolution: "kept the inconsistency findings at their own severity: error handling \
                         is sound within each module but differs between modules"
                .into(),
            conflicting: "quality: error handling fine in 12 files\n\
                          M|error-handling-inconsistency|src/b.rs:2|\
                          error-handling-inconsistency at src/b.rs:2"
                .into(),
        }]
    );
    let found_issues = [claiming(
        "quality",
        vec![Claim::ErrorHandlingChecked {
            files: 12,
            issues: 1,
        }],
        vec![],
    )];
    let differing = finding(
        "consistency",
        Category::ErrorHandlingInconsistency,
        Severity::Medium,
        "b",
        2,
    );
    assert_eq!(
        error_handling_fine_but_inconsistent(&found_issues, &[differing]),
        None
    );
}

#[test]
fn rule_e_keeps_the_cross_feature_mismatch_as_a_scope_difference() {
    let mismatch = finding(
        "consistency",
        "type-mismatch",
        Severity::High,
        "src/user.rs",
        4,
    );
    let reports = [claiming("interface", vec![signatures(6, 6)], vec![])];
    let out = contradictions(&reports, vec![mismatch.clone()]);
    assert_eq!(out.findings, vec![mismatch.clone()]);
    assert_eq!(out.resolved.len(), 1);
    assert_eq!(out.resolved[0].agents, vec!["interface", "consistency"]);
    assert_eq!(
        out.resolved[0].resolution,
        "scope difference: interface checks each feature against its own design, consistency \
         compares features; kept the cross-feature mismatches"
    );
    assert_eq!(
        out.resolved[0].conflicting,
        "interface: 6/6 signatures match, no issues\n\
         H|type-mismatch|src/user.rs:4|type-mismatch at src/user.rs:4"
    );
    // An interface Inspector that found something did not say "no issues".
    let busy = [claiming(
        "interface",
        vec![signatures(6, 6)],
        vec![finding(
            "interface",
            Category::SignatureMismatch,
            Severity::Low,
            "x.rs",
            1,
        )],
    )];
    assert_eq!(
        no_interface_issues_but_cross_feature_mismatch(&busy, &[mismatch]),
        None
    );
}

#[test]
fn no_claims_no_contradictions() {
    let findings = vec![
        finding(
            "test",
            Category::TestFailure,
            Severity::High,
            "tests/a.rs",
            1,
        ),
        finding(
            "interface",
            Category::CallSiteError,
            Severity::High,
            "src/a.rs",
            1,
        ),
        finding(
            "consistency",
            "type-mismatch",
            Severity::High,
            "src/a.rs",
            2,
        ),
    ];
    let reports = [report("test", vec![]), report("interface", vec![])];
    let out = contradictions(&reports, findings.clone());
    assert_eq!(out.findings, findings);
    assert!(out.resolved.is_empty());
}

#[test]
fn a_row_quotes_at_most_five_findings() {
    let failures: Vec<Finding> = (1..=7)
        .map(|i| {
            finding(
                "test",
                Category::TestFailure,
                Severity::High,
                "tests/a.rs",
                i,
            )
        })
        .collect();
    let reports = [claiming("interface", vec![signatures(1, 1)], vec![])];
    let r = signatures_match_but_tests_fail(&reports, &failures).map(|r| r.resolved);
    let conflicting = r.map(|r| r.conflicting).unwrap_or_default();
    assert_eq!(conflicting.lines().count(), 7);
    assert_eq!(conflicting.lines().last(), Some("… and 2 more"));
}
