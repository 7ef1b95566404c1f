//! Each pattern on hand-written findings and design texts.

use super::*;
use crate::evidence::AUDITOR;
use crate::fixtures::finding;

fn described(agent: &str, category: &str, path: &str, line: u32, description: &str) -> Finding {
    let mut f = finding(agent, category, Severity::Medium, path, line);
    f.description = description.into();
    f
}

fn design(files: &[&str], text: &str) -> AuditContext {
    AuditContext {
        design_files: files.iter().map(|s| s.to_string()).collect(),
        design_text: text.into(),
        ..AuditContext::default()
    }
}

#[test]
fn phantom_resilience_is_raised_beside_its_evidence() {
    let evidence = described(
        "holistic",
        "operational-risk",
        "src/client.rs",
        30,
        "retry loop with no backoff or bound",
    );
    let ctx = design(
        &["src/client.rs"],
        "The client sends one request; errors are returned.",
    );
    let out = over_implementation(vec![evidence.clone()], &ctx);
    assert_eq!(out.findings.len(), 2);
    assert_eq!(out.findings[0], evidence);
    let raised = &out.findings[1];
    assert_eq!(raised.category, "over-implementation");
    assert_eq!(raised.rule, "auditor/phantom-resilience");
    assert_eq!(raised.agents, vec![AUDITOR]);
    assert_eq!(raised.severity, Severity::Medium);
    assert_eq!(raised.location, Location::at("src/client.rs", 30));
    assert_eq!(
        raised.description,
        "phantom resilience: retries or fallbacks the design does not have \
         (\"retry\": retry loop with no backoff or bound)"
    );
}

#[test]
fn a_design_that_has_retries_raises_nothing() {
    let evidence = described(
        "holistic",
        "operational-risk",
        "src/client.rs",
        30,
        "retry loop with no backoff",
    );
    let ctx = design(
        &["src/client.rs"],
        "Uploads use a Retry policy of three attempts.",
    );
    let out = over_implementation(vec![evidence.clone()], &ctx);
    assert_eq!(out.findings, vec![evidence]);
}

#[test]
fn config_externalization_needs_a_design_without_configuration() {
    let evidence = described(
        "holistic",
        "implicit-coupling",
        "src/db.rs",
        3,
        "environment variable DB_URL read in 4 modules",
    );
    let hard_coded = design(&[], "The database URL is postgres://localhost/app.");
    let out = over_implementation(vec![evidence.clone()], &hard_coded);
    assert_eq!(out.findings.len(), 2);
    assert_eq!(out.findings[1].rule, "auditor/config-externalization");
    let configured = design(&[], "Configuration: DB_URL from the environment.");
    assert_eq!(
        over_implementation(vec![evidence], &configured)
            .findings
            .len(),
        1
    );
}

#[test]
fn symbol_judged_patterns_ask_the_design_about_the_symbol() {
    let helper = described(
        "quality",
        "dead-code",
        "src/fmt.rs",
        8,
        "`pad_left` is used once",
    );
    let abstraction = described(
        "holistic",
        "semantic-drift",
        "src/store.rs",
        2,
        "trait `Store` has a single implementation",
    );
    let no_symbol = described(
        "quality",
        "dead-code",
        "src/fmt.rs",
        20,
        "a helper used once",
    );
    let ctx = design(&[], "The `Store` trait lets tests swap the database.");
    let out = over_implementation(vec![helper, abstraction, no_symbol], &ctx);
    let rules: Vec<&str> = out.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(
        rules,
        vec![
            "quality/dead-code",
            "holistic/semantic-drift",
            "quality/dead-code",
            "auditor/premature-utility",
        ]
    );
}

#[test]
fn defensive_excess_is_told_by_its_words() {
    let f = described(
        "quality",
        "dead-code",
        "src/parse.rs",
        5,
        "redundant check: `len` can never be negative",
    );
    let out = over_implementation(vec![f], &design(&[], "Parse the header."));
    assert_eq!(out.findings.len(), 2);
    assert_eq!(out.findings[1].rule, "auditor/defensive-excess");
}

#[test]
fn an_unexpected_file_becomes_scope_creep_and_changed_files_raise_it() {
    let unexpected = described(
        "rulebase",
        "file-unexpected",
        "src/extra.rs",
        1,
        "undeclared source file",
    );
    let ctx = AuditContext {
        design_files: vec!["src/auth.rs".into()],
        changed_files: vec![
            "src/auth.rs".into(),
            "./src/extra.rs".into(),
            "src/metrics.rs".into(),
            "tests/auth.rs".into(),
            "README.md".into(),
            "vendor/x/lib.rs".into(),
        ],
        ..AuditContext::default()
    };
    let out = over_implementation(vec![unexpected], &ctx);
    assert_eq!(out.findings.len(), 2);
    let relabelled = &out.findings[0];
    assert_eq!(relabelled.category, "over-implementation");
    assert_eq!(relabelled.rule, "auditor/scope-creep");
    assert_eq!(relabelled.agents, vec!["rulebase"]);
    assert_eq!(relabelled.severity, Severity::Medium);
    assert_eq!(
        relabelled.description,
        "scope creep: src/extra.rs is not in the design (undeclared source file)"
    );
    let raised = &out.findings[1];
    assert_eq!(raised.location, Location::file("src/metrics.rs"));
    assert_eq!(raised.agents, vec![AUDITOR]);
    assert_eq!(
        raised.description,
        "scope creep: src/metrics.rs changes, but the design names no such file"
    );
}

#[test]
fn a_reported_pattern_the_design_specifies_is_removed() {
    let specified = described(
        "holistic-agent",
        "phantom-resilience",
        "src/client.rs",
        9,
        "`with_fallback` adds a fallback server",
    );
    let stands = described(
        "holistic-agent",
        "premature-utility",
        "src/fmt.rs",
        2,
        "`pad` used once",
    );
    let ctx = design(
        &[],
        "The client calls `with_fallback` when the primary is down.",
    );
    let out = over_implementation(vec![specified, stands.clone()], &ctx);
    assert_eq!(out.findings, vec![stands]);
    assert_eq!(
        out.removed,
        vec![Removed {
            agent: "holistic-agent".into(),
            reason: "the design specifies `with_fallback`: not over-implementation".into(),
            original: "M|phantom-resilience|src/client.rs:9|`with_fallback` adds a fallback server"
                .into(),
        }]
    );
}

#[test]
fn without_a_design_nothing_is_judged() {
    let f = described(
        "holistic",
        "operational-risk",
        "src/client.rs",
        30,
        "retry loop, no bound",
    );
    let unexpected = described(
        "rulebase",
        "file-unexpected",
        "src/extra.rs",
        1,
        "undeclared",
    );
    let ctx = AuditContext {
        changed_files: vec!["src/new.rs".into()],
        ..AuditContext::default()
    };
    let out = over_implementation(vec![f.clone(), unexpected.clone()], &ctx);
    assert_eq!(out.findings, vec![f, unexpected]);
    assert!(out.removed.is_empty());
}
