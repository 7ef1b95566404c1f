use super::finding;
use crate::review_cycle::aggregate::{aggregate, trigger, CriticalFile, Distribution};
use crate::review_cycle::context::{
    Callers, History, LastChange, Related, Relation, RootCause, Sources,
};
use crate::review_cycle::deep_dive::{candidates, reassess, Cycle, StopReason};
use protocol::Dimension::{
    ActionItems, Architecture, BestPractices, Performance, Quality, Security,
};
use protocol::{Dimension, Severity};
use std::collections::{BTreeMap, BTreeSet};

const REVIEWED: [Dimension; 4] = [Security, Quality, ActionItems, Architecture];

#[test]
fn aggregation_counts_each_dimension_and_finds_the_critical_files() {
    let mut wide = finding("r/wide", "", 0, Severity::Medium, &[Architecture, Security]);
    wide.dimensions.push(BestPractices);
    let findings = vec![
        finding("r/a", "src/a.rs", 3, Severity::High, &[Security]),
        finding(
            "r/b",
            "src/a.rs",
            5,
            Severity::Medium,
            &[Quality, ActionItems],
        ),
        finding("r/c", "src/b.rs", 1, Severity::Low, &[Quality]),
        finding("r/d", "src/b.rs", 2, Severity::Critical, &[Performance]),
        wide,
        finding("r/f", "src/c.rs", 0, Severity::Low, &[]),
    ];
    let agg = aggregate(&findings, &REVIEWED);
    let d = |critical, high, medium, low| Distribution {
        critical,
        high,
        medium,
        low,
        total: critical + high + medium + low,
    };
    assert_eq!(agg.overall, d(1, 1, 2, 2));
    assert_eq!(agg.by_dimension[&Security], d(0, 1, 1, 0));
    assert_eq!(agg.by_dimension[&Quality], d(0, 0, 1, 1));
    assert_eq!(agg.by_dimension[&ActionItems], d(0, 0, 1, 0));
    assert_eq!(agg.by_dimension[&Architecture], d(0, 0, 1, 0));
    assert_eq!(agg.by_dimension.len(), 4, "performance is not reviewed");
    assert_eq!(agg.unassigned, 2, "r/d (performance only) and r/f (none)");
    // The repository-wide finding spans 3 dimensions but has no file to be critical.
    assert_eq!(
        agg.critical_files,
        vec![CriticalFile {
            path: "src/a.rs".into(),
            dimensions: vec![Security, Quality, ActionItems],
            findings: 2,
        }]
    );
    let t = trigger(&agg);
    assert!(t.critical && !t.high_over_limit && t.critical_files && t.fires());
    assert_eq!(t.reasons(), vec!["critical > 0", "critical files"]);
    assert_eq!(agg.overall.compact(), "C1 H1 M2 L2");
}

#[test]
fn more_than_five_high_findings_trigger_and_five_do_not() {
    let highs = |n: u32| -> Vec<_> {
        (1..=n)
            .map(|i| finding("r/h", "src/a.rs", i, Severity::High, &[Security]))
            .collect()
    };
    let five = trigger(&aggregate(&highs(5), &REVIEWED));
    assert!(!five.fires(), "{five:?}");
    let six = trigger(&aggregate(&highs(6), &REVIEWED));
    assert!(six.high_over_limit && six.fires());
    assert_eq!(six.reasons(), vec!["high > 5"]);
    let none = trigger(&aggregate(&[], &REVIEWED));
    assert!(!none.fires());
}

#[test]
fn candidates_are_severe_or_on_a_critical_file_most_severe_first() {
    let findings = vec![
        finding("r/0", "src/z.rs", 1, Severity::High, &[Security]),
        finding("r/1", "src/crit.rs", 9, Severity::Low, &[Security]),
        finding("r/2", "src/crit.rs", 2, Severity::Medium, &[Quality]),
        finding("r/3", "src/crit.rs", 4, Severity::High, &[ActionItems]),
        finding("r/4", "src/other.rs", 1, Severity::Medium, &[Quality]),
        finding("r/5", "src/b.rs", 1, Severity::Critical, &[Quality]),
        finding("r/6", "src/a.rs", 7, Severity::High, &[Security]),
    ];
    let agg = aggregate(&findings, &REVIEWED);
    assert_eq!(agg.critical_files.len(), 1);
    // Critical; then High on the critical file before other Highs by path; then the rest of
    // the critical file; r/4 (Medium, not critical) is no candidate.
    assert_eq!(
        candidates(&findings, &agg, &BTreeSet::new()),
        vec![5, 3, 6, 0, 2, 1]
    );
    let analysed: BTreeSet<usize> = [5, 3].into_iter().collect();
    assert_eq!(candidates(&findings, &agg, &analysed), vec![6, 0, 2, 1]);
}

fn root_cause(
    critical_file: bool,
    test_code: bool,
    related: usize,
    callers: Option<(usize, bool)>,
) -> RootCause {
    RootCause {
        fingerprint: "fp".into(),
        rule: "r".into(),
        location: "src/a.rs:1".into(),
        severity_before: Severity::Medium,
        severity_after: Severity::Medium,
        critical_file,
        test_code,
        enclosing_function: None,
        callers: callers.map(|(files, ambiguous)| Callers {
            name: "f".into(),
            total: files,
            files,
            ambiguous,
            sites: Vec::new(),
        }),
        last_change: LastChange::Unknown,
        related: (0..related)
            .map(|i| Related {
                fingerprint: format!("r{i}"),
                rule: "r".into(),
                location: "src/a.rs:2".into(),
                relation: Relation::SameFunction,
            })
            .collect(),
    }
}

#[test]
fn reassessment_raises_cross_cutting_findings_and_lowers_test_code() {
    let m = finding("quality/x", "src/a.rs", 1, Severity::Medium, &[Quality]);
    let raised = |rc: &RootCause| reassess(&m, rc);
    assert_eq!(
        raised(&root_cause(true, false, 2, None)),
        Some((
            Severity::High,
            "on a critical file; 2 related findings".into()
        ))
    );
    assert_eq!(
        raised(&root_cause(true, false, 0, Some((3, false)))),
        Some((
            Severity::High,
            "on a critical file; callers in 3 files".into()
        ))
    );
    assert_eq!(raised(&root_cause(true, false, 1, Some((2, false)))), None);
    assert_eq!(
        raised(&root_cause(true, false, 0, Some((9, true)))),
        None,
        "ambiguous name"
    );
    assert_eq!(
        raised(&root_cause(false, false, 5, Some((9, false)))),
        None,
        "not critical"
    );
    assert_eq!(
        raised(&root_cause(true, true, 5, None)),
        Some((Severity::Low, "in test-only code".into())),
        "test code is lowered, never raised"
    );
    let test_rule = finding(
        "test/test-failure",
        "tests/a.rs",
        1,
        Severity::High,
        &[Quality],
    );
    assert_eq!(
        reassess(&test_rule, &root_cause(false, true, 0, None)),
        None
    );
    let low = finding("quality/x", "tests/a.rs", 1, Severity::Low, &[Quality]);
    assert_eq!(
        reassess(&low, &root_cause(true, true, 0, None)),
        None,
        "Low stays Low"
    );
    let c = finding("quality/x", "src/a.rs", 1, Severity::Critical, &[Quality]);
    assert_eq!(
        reassess(&c, &root_cause(true, false, 3, None)),
        None,
        "Critical stays"
    );
}

struct FixedHistory;

impl History for FixedHistory {
    fn last_change(&self, path: &str, line: Option<u32>) -> LastChange {
        if path == "src/store.rs" && line.is_some() {
            LastChange::Uncommitted
        } else {
            LastChange::Unknown
        }
    }
}

const STORE: &str = "pub fn open(path: &str) -> u32 {\n    let password = \"x\";\n    // TODO: env\n    path.len() as u32\n}\n\npub fn other() {}\n";

/// `src/store.rs` hits security, quality and action-items; `open` is called from 3 files.
fn planted() -> (Vec<protocol::Finding>, Sources) {
    let findings = vec![
        finding(
            "holistic/cred",
            "src/store.rs",
            2,
            Severity::High,
            &[Security],
        ),
        finding(
            "quality/todo",
            "src/store.rs",
            3,
            Severity::Medium,
            &[Quality, ActionItems],
        ),
        finding(
            "quality/todo",
            "src/api.rs",
            1,
            Severity::Low,
            &[Quality, ActionItems],
        ),
        finding("quality/x", "src/store.rs", 7, Severity::Low, &[Quality]),
    ];
    let mut texts = BTreeMap::new();
    texts.insert("src/store.rs".to_string(), STORE.to_string());
    for (i, caller) in ["src/api.rs", "src/admin.rs", "src/report.rs"]
        .iter()
        .enumerate()
    {
        texts.insert(
            caller.to_string(),
            format!("// TODO: {i}\npub fn f{i}() -> u32 {{\n    crate::store::open(\"/x\")\n}}\n"),
        );
    }
    let scope = texts.keys().cloned().collect();
    (findings, Sources::new(texts, scope))
}

#[test]
fn the_deep_dive_picks_analyses_reassesses_and_stops() {
    let (findings, sources) = planted();
    let mut cycle = Cycle::new(findings, REVIEWED.to_vec(), 3);
    assert_eq!(cycle.initial().critical_files.len(), 1);
    let it = cycle
        .next_iteration(&sources, &FixedHistory)
        .expect("iteration 1")
        .clone();
    assert_eq!(it.iteration, 1);
    assert_eq!(it.trigger, vec!["critical files"]);
    let picked: Vec<(&str, Severity, Severity)> = it
        .picked
        .iter()
        .map(|p| (p.location.as_str(), p.severity_before, p.severity_after))
        .collect();
    assert_eq!(
        picked,
        vec![
            ("src/store.rs:2", Severity::High, Severity::Critical),
            ("src/store.rs:3", Severity::Medium, Severity::High),
            ("src/store.rs:7", Severity::Low, Severity::Low),
        ]
    );
    let first = &it.picked[0];
    let function = first.enclosing_function.as_ref().expect("function");
    assert_eq!(
        (function.name.as_str(), function.start, function.end),
        ("open", 1, 5)
    );
    let callers = first.callers.as_ref().expect("callers");
    assert_eq!(
        (callers.total, callers.files, callers.ambiguous),
        (3, 3, false)
    );
    assert_eq!(first.last_change, LastChange::Uncommitted);
    let relations: Vec<(&str, Relation)> = first
        .related
        .iter()
        .map(|r| (r.location.as_str(), r.relation))
        .collect();
    assert_eq!(relations, vec![("src/store.rs:3", Relation::SameFunction)]);
    // The TODO has one same-function and one same-rule relation: 2 related findings.
    assert_eq!(it.picked[1].related.len(), 2);
    assert_eq!(
        it.severity_changes[0].reason,
        "on a critical file; callers in 3 files"
    );
    assert_eq!(it.severity_changes.len(), 2);
    assert_eq!(it.aggregate_after.overall.compact(), "C1 H1 M0 L2");
    assert!(it.trigger_after.critical);
    // Iteration 2: every candidate is analysed.
    assert!(cycle.next_iteration(&sources, &FixedHistory).is_none());
    assert_eq!(cycle.stop_reason(), Some(StopReason::NoCandidates));
    assert_eq!(cycle.changes().count(), 2);
    assert_eq!(cycle.findings()[0].severity, Severity::Critical);
    assert_eq!(cycle.initial_severities()[0], Severity::High);
}

#[test]
fn iterations_stop_at_the_limit_when_stable_and_when_nothing_triggers() {
    let (findings, sources) = planted();
    let mut none = Cycle::new(findings.clone(), REVIEWED.to_vec(), 0);
    assert_eq!(
        none.run_to_end(&sources, &FixedHistory),
        StopReason::MaxIterations
    );
    assert!(none.iterations().is_empty());

    let quiet = vec![finding("r/x", "src/a.rs", 1, Severity::Medium, &[Quality])];
    let mut calm = Cycle::new(quiet, REVIEWED.to_vec(), 3);
    assert_eq!(
        calm.run_to_end(&sources, &FixedHistory),
        StopReason::NotTriggered
    );
    assert!(calm.iterations().is_empty());

    // Seven Highs in one function of a file that is not critical: nothing to raise, so the
    // first iteration (5 picks) changes nothing and the cycle is stable.
    let highs: Vec<_> = (1..=7)
        .map(|i| finding("r/h", "src/h.rs", i, Severity::High, &[Security]))
        .collect();
    let mut stable = Cycle::new(highs, REVIEWED.to_vec(), 3);
    assert_eq!(
        stable.run_to_end(&sources, &FixedHistory),
        StopReason::Stable
    );
    assert_eq!(stable.iterations().len(), 1);
    assert_eq!(stable.iterations()[0].picked.len(), 5);
    assert!(stable.iterations()[0].severity_changes.is_empty());

    // A limit of 1 with more to do stops at the limit.
    let (findings, sources) = planted();
    let mut one = Cycle::new(findings, REVIEWED.to_vec(), 1);
    assert_eq!(
        one.run_to_end(&sources, &FixedHistory),
        StopReason::MaxIterations
    );
    assert_eq!(one.iterations().len(), 1);
}
