use super::*;
use crate::engine::testing::{git, write};
use protocol::message::InspectOptions;
use protocol::{DiffFilter, Dimension, Scope, Severity};
use std::path::Path;

const LIB: &str = "\
pub fn a() {
    // retake-ignore: holistic/todo-macro waiting on the parser rewrite
    todo!()
}

pub fn b() -> u8 {
    unsafe { todo!() } // retake-ignore: holistic/todo-macro tracked in #7
}

pub fn c() {
    todo!()
}
";

/// Every rule: these tests use pedantic rules (unsafe-without-safety) as fixture material.
fn options() -> InspectOptions {
    InspectOptions {
        no_exec: true,
        profile: protocol::message::RuleProfile::Pedantic,
        ..InspectOptions::default()
    }
}

fn holistic(root: &Path, scope: &Scope, options: &InspectOptions) -> InspectorReport {
    let mut ctx = Context::build(root, scope, options).expect("context");
    inspect(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
    )
}

/// `(rule, line, suppression)` of every finding of `rules`.
fn rows<'a>(report: &'a InspectorReport, rules: &[&str]) -> Vec<(&'a str, u32, Option<&'a str>)> {
    report
        .findings
        .iter()
        .filter(|f| rules.contains(&f.rule.as_str()))
        .map(|f| {
            let line = f.location.line.unwrap_or(0);
            (f.rule.as_str(), line, f.suppression.as_deref())
        })
        .collect()
}

#[test]
fn inline_suppressions_are_kept_with_their_reason_and_only_for_the_named_rule() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "src/lib.rs", LIB);
    let report = holistic(dir.path(), &Scope::repository(), &options());
    let rules = ["holistic/todo-macro", "holistic/unsafe-without-safety"];
    assert_eq!(
        rows(&report, &rules),
        vec![
            (
                "holistic/todo-macro",
                3,
                Some("retake-ignore: waiting on the parser rewrite")
            ),
            (
                "holistic/todo-macro",
                7,
                Some("retake-ignore: tracked in #7")
            ),
            ("holistic/todo-macro", 11, None),
            ("holistic/unsafe-without-safety", 7, None),
        ]
    );
}

#[test]
fn a_suppression_the_session_adds_is_applied_and_marked_as_added_by_the_change() {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q"]);
    // Committed: the first two functions with their comments; the change adds a comment to c().
    write(dir.path(), "src/lib.rs", LIB);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    let changed = LIB.replace(
        "pub fn c() {\n    todo!()",
        "pub fn c() {\n    todo!() // retake-ignore: holistic/todo-macro not now",
    );
    write(dir.path(), "src/lib.rs", &changed);
    let session = Scope::Session {
        base: "HEAD".into(),
        filter: DiffFilter::NoFilter,
    };
    let report = holistic(dir.path(), &session, &options());
    assert_eq!(
        rows(&report, &["holistic/todo-macro"]),
        vec![
            (
                "holistic/todo-macro",
                3,
                Some("retake-ignore: waiting on the parser rewrite")
            ),
            (
                "holistic/todo-macro",
                7,
                Some("retake-ignore: tracked in #7")
            ),
            (
                "holistic/todo-macro",
                11,
                Some("retake-ignore added by this change: not now")
            ),
        ]
    );
}

#[test]
fn decisions_suppress_by_fingerprint_with_their_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "src/lib.rs", LIB);
    let before = holistic(dir.path(), &Scope::repository(), &options());
    let unsafe_finding = before
        .findings
        .iter()
        .find(|f| f.rule == "holistic/unsafe-without-safety")
        .expect("unsafe fires");
    write(
        dir.path(),
        ".retake/decisions.yaml",
        &format!(
            "- fingerprint: \"{}\"\n  reason: audited FFI boundary\n",
            unsafe_finding.fingerprint
        ),
    );
    let after = holistic(dir.path(), &Scope::repository(), &options());
    let rules = ["holistic/todo-macro", "holistic/unsafe-without-safety"];
    let rows = rows(&after, &rules);
    assert_eq!(
        rows[3],
        (
            "holistic/unsafe-without-safety",
            7,
            Some("decisions.yaml: audited FFI boundary")
        )
    );
    assert_eq!(rows[2], ("holistic/todo-macro", 11, None));
}

#[test]
fn dimensions_select_rules_and_order_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "src/lib.rs", LIB);
    let security = InspectOptions {
        dimensions: vec![Dimension::Security],
        ..options()
    };
    let report = holistic(dir.path(), &Scope::repository(), &security);
    assert!(report
        .findings
        .iter()
        .all(|f| f.dimensions.contains(&Dimension::Security)));
    assert_eq!(rows(&report, &["holistic/unsafe-without-safety"]).len(), 1);
    assert!(rows(&report, &["holistic/todo-macro"]).is_empty());
    let both = InspectOptions {
        dimensions: vec![Dimension::Security, Dimension::ActionItems],
        ..options()
    };
    let report = holistic(dir.path(), &Scope::repository(), &both);
    let first_other = report
        .findings
        .iter()
        .position(|f| !f.dimensions.contains(&Dimension::Security))
        .expect("action items too");
    assert!(report.findings[first_other..]
        .iter()
        .all(|f| !f.dimensions.contains(&Dimension::Security)));
}

#[test]
fn a_session_gates_on_added_lines_and_keeps_the_rest_of_the_file_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "src/lib.rs", "pub fn a() {\n    todo!()\n}\n");
    write(root, "src/other.rs", "pub fn o() {\n    todo!()\n}\n");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "feature"]);
    write(
        root,
        "src/lib.rs",
        "pub fn a() {\n    todo!()\n}\n\npub fn b() {\n    todo!()\n}\n",
    );
    let scope = |filter| Scope::Session {
        base: "main".into(),
        filter,
    };
    let added = holistic(root, &scope(DiffFilter::Added), &options());
    assert_eq!(
        rows(&added, &["holistic/todo-macro"]),
        vec![("holistic/todo-macro", 6, None)]
    );
    // Already there: the todo!() on an untouched line of the changed file, apart and not
    // dropped; the one in src/other.rs, a file the change did not touch, is left out.
    let apart: Vec<(&str, u32)> = added
        .preexisting
        .iter()
        .filter(|f| f.rule == "holistic/todo-macro")
        .map(|f| (f.location.path.as_str(), f.location.line.unwrap_or(0)))
        .collect();
    assert_eq!(apart, vec![("src/lib.rs", 2)]);
    assert!(
        !added.notes.iter().any(|n| n.contains("--filter added")),
        "{:?}",
        added.notes
    );
    assert_eq!(added.scope, "session:main");
    let file = holistic(root, &scope(DiffFilter::File), &options());
    let paths: Vec<(&str, u32)> = file
        .findings
        .iter()
        .filter(|f| f.rule == "holistic/todo-macro")
        .map(|f| (f.location.path.as_str(), f.location.line.unwrap_or(0)))
        .collect();
    assert_eq!(paths, vec![("src/lib.rs", 2), ("src/lib.rs", 6)]);
    assert!(file.preexisting.is_empty(), "{:?}", file.preexisting);
}

#[test]
fn an_excuse_in_the_code_holds_on_lines_the_change_did_not_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    let refuse = |name: &str| {
        format!("pub fn {name}(e: E) -> u8 {{\n    match e {{\n        E::A => 1,\n        E::B => unimplemented!(\"feature not enabled\"),\n    }}\n}}\n")
    };
    write(root, "src/lib.rs", &refuse("old"));
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "feature"]);
    let grown = format!("{}\n{}", refuse("old"), refuse("new"));
    write(root, "src/lib.rs", &grown);
    let session = Scope::Session {
        base: "main".into(),
        filter: DiffFilter::Added,
    };
    let report = holistic(root, &session, &options());
    // The arm this change wrote gates, saying which excuse it did not get.
    let gating: Vec<(u32, Option<&str>, Severity)> = report
        .findings
        .iter()
        .filter(|f| f.rule == "holistic/todo-macro")
        .map(|f| {
            (
                f.location.line.unwrap_or(0),
                f.suppression.as_deref(),
                f.severity,
            )
        })
        .collect();
    assert_eq!(gating, vec![(11, None, Severity::Low)]);
    let own = report
        .findings
        .iter()
        .find(|f| f.rule == "holistic/todo-macro")
        .expect("the arm this change wrote");
    assert!(
        own.description
            .contains("not excused: this change wrote the line"),
        "{}",
        own.description
    );
    // The one that was already there keeps its excuse: suppressed, with the reason.
    let apart: Vec<(u32, Option<&str>)> = report
        .preexisting
        .iter()
        .filter(|f| f.rule == "holistic/todo-macro")
        .map(|f| (f.location.line.unwrap_or(0), f.suppression.as_deref()))
        .collect();
    assert_eq!(
        apart,
        vec![(
            4,
            Some(
                "declared deliberate in the code: the match arm names the case it does not support"
            )
        )]
    );
}

#[test]
fn no_exec_commands_are_said_once_per_inspector() {
    let mut notes = vec![
        "test: not run (--no-exec)".to_string(),
        "test: no spec: skipped".to_string(),
    ];
    fold_not_run(
        InspectorKind::Test,
        &["the test command".into(), "cargo check".into()],
        &mut notes,
    );
    assert_eq!(
        notes,
        vec![
            "test: not run (--no-exec): the test command, cargo check".to_string(),
            "test: no spec: skipped".to_string(),
        ]
    );
    let mut untouched = vec!["test: not run (--no-exec)".to_string()];
    fold_not_run(InspectorKind::Test, &[], &mut untouched);
    assert_eq!(untouched, vec!["test: not run (--no-exec)".to_string()]);
}

#[test]
fn the_default_profile_leaves_pedantic_rules_out_and_overrides_turn_them_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "src/lib.rs",
        "pub fn home() -> &'static str {\n    \"/home/alice/.config/app\"\n}\n\npub fn b() -> u8 {\n    unsafe { 1 }\n}\n",
    );
    let rules = ["holistic/hardcoded-path", "holistic/unsafe-without-safety"];
    let severities = |options: &InspectOptions| -> Vec<(String, Severity)> {
        let report = holistic(dir.path(), &Scope::repository(), options);
        report
            .findings
            .iter()
            .filter(|f| rules.contains(&f.rule.as_str()))
            .map(|f| (f.rule.clone(), f.severity))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let unsafe_rule = "holistic/unsafe-without-safety".to_string();
    let default = InspectOptions {
        profile: protocol::message::RuleProfile::Default,
        ..options()
    };
    assert_eq!(severities(&default), vec![]);
    let pedantic = options();
    assert_eq!(
        severities(&pedantic),
        vec![
            ("holistic/hardcoded-path".to_string(), Severity::Low),
            (unsafe_rule.clone(), Severity::High)
        ]
    );
    // Configured overrides apply on top: a severity turns a pedantic rule on.
    let configured = InspectOptions {
        rule_overrides: rules
            .iter()
            .map(|r| RuleOverride {
                rule: r.to_string(),
                enabled: true,
                severity: Some(Severity::High),
            })
            .collect(),
        ..default
    };
    assert_eq!(
        severities(&configured),
        vec![
            ("holistic/hardcoded-path".to_string(), Severity::High),
            (unsafe_rule, Severity::High)
        ]
    );
}
