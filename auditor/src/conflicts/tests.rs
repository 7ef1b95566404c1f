//! Conflicts found, settled from the source, settled on evidence, and left open.

use super::*;
use crate::fixtures::{finding, report};
use protocol::Severity;

fn claiming(name: &str, claims: Vec<Claim>) -> InspectorReport {
    let mut r = report(name, vec![]);
    r.claims = claims;
    r
}

fn all_pass() -> Claim {
    Claim::TestsRun {
        passed: 12,
        failed: 0,
        skipped: 1,
    }
}

#[test]
fn each_claim_denies_its_category_from_other_agents_only() {
    let reports = [
        claiming("inspector-test", vec![all_pass()]),
        claiming(
            "inspector-interface",
            vec![Claim::SignaturesChecked {
                matched: 3,
                total: 3,
            }],
        ),
        claiming(
            "inspector-rulebase",
            vec![Claim::TasksChecked {
                complete: 2,
                total: 2,
            }],
        ),
        claiming(
            "inspector-quality",
            vec![Claim::ErrorHandlingChecked {
                files: 9,
                issues: 0,
            }],
        ),
    ];
    let findings = vec![
        finding(
            "test-agent",
            Category::TestFailure,
            Severity::High,
            "tests/a.rs",
            3,
        ),
        finding(
            "interface-agent",
            Category::SignatureMismatch,
            Severity::Critical,
            "src/a.rs",
            1,
        ),
        finding(
            "rulebase-agent",
            Category::TaskIncomplete,
            Severity::High,
            "tasks.yaml",
            4,
        ),
        finding(
            "quality-agent",
            Category::ErrorHandlingDrift,
            Severity::High,
            "src/b.rs",
            7,
        ),
        // The claimant's own finding is no conflict; a category nobody denies is none either.
        finding(
            "inspector-quality",
            Category::ErrorHandlingDrift,
            Severity::High,
            "src/c.rs",
            1,
        ),
        finding("holistic", "race-condition", Severity::High, "src/d.rs", 1),
    ];
    let found = find_conflicts(&reports, &findings);
    let summary: Vec<(usize, &str, &str)> = found
        .iter()
        .map(|c| (c.finding, c.claimant.as_str(), c.claim.as_str()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (0, "inspector-test", "all 12 tests pass"),
            (1, "inspector-interface", "3/3 signatures match the design"),
            (2, "inspector-rulebase", "2/2 tasks complete"),
            (3, "inspector-quality", "error handling fine in 9 files"),
        ]
    );
}

#[test]
fn claims_that_admit_problems_deny_nothing() {
    let reports = [
        claiming(
            "test",
            vec![Claim::TestsRun {
                passed: 3,
                failed: 1,
                skipped: 0,
            }],
        ),
        claiming(
            "interface",
            vec![Claim::SignaturesChecked {
                matched: 2,
                total: 3,
            }],
        ),
    ];
    let findings = vec![
        finding(
            "test-agent",
            Category::TestFailure,
            Severity::High,
            "tests/a.rs",
            3,
        ),
        finding(
            "interface-agent",
            Category::SignatureMismatch,
            Severity::Critical,
            "src/a.rs",
            1,
        ),
    ];
    assert!(find_conflicts(&reports, &findings).is_empty());
}

#[test]
fn scope_and_count_decide_whether_the_source_may_be_read() {
    assert!(may_read_source("auth", 3, false));
    assert!(may_read_source("repository", 0, false));
    assert!(!may_read_source("auth", 4, false));
    assert!(!may_read_source("auth", 1, true));
    assert!(!may_read_source("cross-check", 1, false));
    assert!(!may_read_source("wave-1..3", 1, false));
    assert!(!may_read_source("wave-scoped-cross-check", 1, false));
}

fn conflict(finding: usize) -> Conflict {
    Conflict {
        finding,
        claimant: "inspector-quality".into(),
        claim: "error handling fine in 9 files".into(),
    }
}

fn drift(path: &str, line: u32, description: &str) -> Finding {
    let mut f = finding(
        "quality-agent",
        Category::ErrorHandlingDrift,
        Severity::High,
        path,
        line,
    );
    f.description = description.into();
    f
}

#[test]
fn the_source_keeps_or_drops_a_finding() {
    let source = |path: &str| match path {
        "src/a.rs" => Some("fn load() {\n    let v = read().unwrap();\n}\n".to_string()),
        _ => None,
    };
    let findings = vec![
        drift("src/a.rs", 2, "`unwrap` on a fallible read"),
        drift("src/a.rs", 2, "`expect` on a fallible read"),
        drift("src/gone.rs", 1, "`unwrap`"),
        drift("src/a.rs", 40, "`unwrap`"),
    ];
    let conflicts: Vec<Conflict> = (0..4).map(conflict).collect();
    let out = resolve_conflicts(findings.clone(), &conflicts, Some(&source));
    assert_eq!(out.findings, vec![findings[0].clone()]);
    let resolutions: Vec<&str> = out.resolved.iter().map(|r| r.resolution.as_str()).collect();
    assert_eq!(
        resolutions,
        vec![
            "kept the finding: the source has `unwrap` in src/a.rs",
            "dropped the finding: src/a.rs has none of `expect`",
            "dropped the finding: src/gone.rs does not exist",
            "dropped the finding: line 40 is past the end of src/a.rs (3 lines)",
        ]
    );
    assert_eq!(
        out.resolved[0].agents,
        vec!["inspector-quality", "quality-agent"]
    );
    assert_eq!(
        out.resolved[0].conflicting,
        "inspector-quality: error handling fine in 9 files\n\
         H|error-handling-drift|src/a.rs:2|`unwrap` on a fallible read"
    );
    assert_eq!(out.removed.len(), 3);
    assert_eq!(
        out.removed[1].reason,
        "conflict with inspector-quality settled from the source: src/gone.rs does not exist"
    );
    assert_eq!(
        out.removed[1].original,
        "H|error-handling-drift|src/gone.rs:1|`unwrap`"
    );
}

#[test]
fn evidence_keeps_a_confirmed_finding_and_leaves_a_lone_one_unresolved() {
    let mut confirmed = drift("src/a.rs", 2, "swallowed error");
    confirmed.agents = vec!["quality-agent".into(), "holistic".into()];
    let lone = drift("src/b.rs", 5, "swallowed error");
    let out = resolve_conflicts(vec![confirmed, lone], &[conflict(0), conflict(1)], None);
    assert_eq!(out.findings.len(), 2);
    assert!(out.removed.is_empty());
    assert_eq!(
        out.resolved[0].resolution,
        "kept the finding: 2 agents (quality-agent+holistic) outweigh one claim"
    );
    assert_eq!(
        out.resolved[1].resolution,
        "UNRESOLVED: evidence cannot decide between inspector-quality's claim and \
         quality-agent's finding; kept the finding"
    );
    assert!(!is_unresolved(&out.resolved[0]));
    assert!(is_unresolved(&out.resolved[1]));
}

#[test]
fn a_finding_naming_no_symbol_falls_back_to_evidence() {
    let source = |_: &str| Some("fn main() {}\n".to_string());
    let out = resolve_conflicts(
        vec![drift("src/a.rs", 1, "swallowed error")],
        &[conflict(0)],
        Some(&source),
    );
    assert!(is_unresolved(&out.resolved[0]));
    assert_eq!(out.findings.len(), 1);
}
