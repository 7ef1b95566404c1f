//! Wave scoping across every rulebase rule: `--wave N` reviews the specs with
//! `roadmap.wave <= N` and reports nothing about a later wave, however broken it is.

use super::rules;
use crate::spec::testing::{context_with, repo};
use protocol::message::InspectOptions;
use protocol::Scope;

/// Wave 1 is clean; wave 2 has an open task, a missing file, a phase that lies, an undeclared
/// file, an unimplemented spec and a stale AC marker.
fn two_waves() -> tempfile::TempDir {
    repo(&[
        (
            "specs/a/spec.yaml",
            "phase: implementation-complete\nroadmap: {wave: 1}\nfiles: [src/a/cart.rs]\n",
        ),
        (
            "specs/a/tasks.yaml",
            "tasks:\n  - id: 1\n    title: Cart\n    done: true\n",
        ),
        ("specs/a/design.md", "### Spec 1: Cart\n`add_item` adds.\n1. adds\n"),
        ("src/a/cart.rs", "pub fn add_item() {}\n"),
        ("tests/a.rs", "// AC: a.S1.AC1\n#[test]\nfn adds() {}\n"),
        (
            "specs/b/spec.yaml",
            "phase: implementation-complete\nroadmap: {wave: 2}\nfiles: [src/b/pay.rs, src/b/refund.rs]\n",
        ),
        (
            "specs/b/tasks.yaml",
            "tasks:\n  - id: 1\n    title: Pay\n    done: false\n",
        ),
        ("specs/b/design.md", "### Spec 1: Pay\n`charge_card` charges.\n1. charges\n"),
        ("src/b/pay.rs", "pub fn pay() {}\n"),
        ("src/b/extra.rs", "pub fn extra() {}\n"),
        ("tests/b.rs", "// AC: b.S1.AC9\n#[test]\nfn pays() {}\n"),
    ])
}

/// `(rule, location)` of every finding of every rulebase rule over a `--wave N` review.
fn findings(dir: &tempfile::TempDir, wave: u32) -> Vec<(String, String)> {
    let options = InspectOptions {
        no_exec: true,
        ..InspectOptions::default()
    };
    let ctx = context_with(dir, Scope::WaveCrossCheck { wave }, options);
    let mut out = Vec::new();
    for rule in rules() {
        let sink = crate::spec::testing::project(rule.as_ref(), &ctx);
        for hit in sink.hits {
            out.push((rule.meta().id.to_string(), hit.location.to_string()));
        }
    }
    out
}

#[test]
fn a_wave_reports_nothing_about_later_waves() {
    let dir = two_waves();
    assert_eq!(findings(&dir, 1), Vec::<(String, String)>::new());
}

#[test]
fn the_later_wave_is_reviewed_when_its_turn_comes() {
    let dir = two_waves();
    let rows = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        findings(&dir, 2),
        rows(&[
            ("rulebase/task-incomplete", "specs/b/tasks.yaml:2"),
            ("rulebase/file-missing", "specs/b/spec.yaml:3"),
            ("rulebase/metadata-mismatch", "specs/b/spec.yaml:1"),
            ("rulebase/traceability", "specs/b/design.md#Spec 1"),
            ("rulebase/file-unexpected", "src/b/extra.rs"),
            ("rulebase/ac-traceability", "tests/b.rs:1"),
        ])
    );
}
