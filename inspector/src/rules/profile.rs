//! Which rules earn their default: the one table of rule profiles and severity caps.
//!
//! A rule is on in the `default` profile only at a measured precision of at least 80 %
//! (TP / (TP + FP + NOISE) over the labelled corpus, `bench/precision/`), and may raise High or
//! Critical only at 95 % or more. Every rule not listed here is default-worthy at its own
//! severity. A rule listed in [`PEDANTIC`] runs only under `profile = "pedantic"`; a rule listed
//! in [`CAPPED`] runs by default with its severity capped. The pedantic profile runs every rule
//! at its own severity. Explicit `[rules] disable` / `severity` overrides apply on top of both.
//!
//! To move a rule, edit one row: the comment says what its figure was measured (or estimated)
//! on.

use protocol::message::RuleProfile;
use protocol::Severity;

/// Rules off by default (precision below 80 %), each with the figure that put it here.
///
/// "measured": every label `bench/precision/` holds for the rule's findings (TP/judged over
/// every repository of the corpus, PRECISION.md) — those it still raises and those a later fix
/// removed: a rule whose findings were all wrong five times has not earned its default however
/// many of those classes were fixed since, because each held-out wave brought new ones. A rule
/// moves on 5 or more judged findings; fewer is too little to move it either way (it keeps its
/// place and severity, and PRECISION.md lists it as insufficient data). "est.": estimates from
/// hand-reading findings on ripgrep, serde, requests, axios and gin before the corpus existed.
///
/// Recorded exceptions, on by default and at their own severity below the bar (PRECISION.md):
/// - each finds a planted defect of `lead/tests/catalog_e2e`, whose recall (at least 14 of 16
///   with the default profile) is an acceptance point of its own: `test/weak-assertion`,
///   `quality/unwrap-in-library`, `holistic/todo-macro`, `holistic/hardcoded-credential`,
///   `consistency/logging-pattern`, `consistency/error-type-pattern`, `holistic/sql-injection`
///   (1/25: a migration tool's configured table names and a namesake query variable, fixed);
/// - `holistic/tls-verification-disabled` (1/11): a change that turns verification off must
///   stop the gate, and every class it was wrong about on the corpus is fixed;
/// - `quality/unreviewed-file` (0/14, all "true but not worth it"): it says what the review did
///   not check — the gate's coverage, never a claim of a defect — so it cannot be opt-in;
/// - `quality/incomplete-syntax` (0/41, all test inputs and exercises, now test data and
///   examples): a file that does not parse is one no syntax rule could read — the gate's
///   coverage too, and a change that writes one must stop the gate.
///
/// What they raise on whole mature repositories is what keeps the default profile's held-out
/// figure below 80 %; on the merged history of the corpus (changes, the gate's purpose) they
/// raise nothing at Medium or above.
#[rustfmt::skip]
const PEDANTIC: &[(&str, &str)] = &[
    // Session-only: 0 findings left on 7 semver-compatible release ranges after 6 classes were
    // fixed, but no true positive either (PRECISION.md); default once 5 findings are judged.
    ("interface/breaking-change",       "not measured yet: no judged finding of it (PRECISION.md, session-only rule)"),
    // A planted defect of lead/tests/catalog_e2e (recall there is 14 of 16 without it and
    // quality/todo-marker).
    ("quality/swallowed-error",         "measured 0 % (0/36): deliberate best-effort calls, probes, try-parse"),
    ("quality/unwrap-assumed",          "measured 4 % (1/25 as part of unwrap-in-library): internal invariants"),
    ("test/assertion-free",             "measured 7 % (1/14): placeholders, fixtures, tests whose call is the check"),
    ("test/missing-test-file",          "measured 5 % (1/19): modules tested through other files"),
    ("holistic/exit-in-library",        "measured 10 % (1/10): CLI entry points of libraries"),
    ("holistic/shell-injection",        "measured 0 % (0/9): maintainers' release scripts with trusted input"),
    ("holistic/unsafe-without-safety",  "measured 0 % (0/8): safety argued in the function's doc or type"),
    ("holistic/panic-in-library",       "measured 0 % (0/5): invariant panics with a stated reason"),
    ("holistic/env-read-everywhere",    "measured 0 % (0/7): a CLI reads its variables where it uses them"),
    ("test/missing-integration-tests",  "measured 0 % (0/6): black-box suites in forms it does not know"),
    ("quality/omission-marker",         "measured 0 % (0/5): elisions in tests and reproductions, notes in tables (the fix loop's judge still checks agent output for markers, Q3)"),
    ("holistic/mutable-global",         "measured 0 % (0/5): registries of statics, per-process caches, signal handlers"),
    ("holistic/retry-without-backoff",  "measured 20 % (1/5): polling loops and optimistic retries (WATCH, CAS) read as retry storms"),
    ("holistic/file-check-then-act",    "measured 0 % (0/6): a local tool's create-if-missing, with nothing to race with"),
    ("holistic/static-mut",             "measured 0 % (0/27): write-once globals (a CPython extension's type pointers set at import under a OnceLock, CPU-feature dispatch, Once-guarded registries), unit structs"),
    ("holistic/blocking-in-async",      "measured 5 % (1/19): short local file operations of a server's compile futures, a CLI's commands on their own runtime, tokio's recv awaited through timeout (fixed)"),
    ("holistic/weak-password-hash",     "measured 0 % (0/6): digests a database protocol mandates (MySQL's scramble, PostgreSQL's md5 login), htpasswd compatibility"),
    ("quality/naming-violation",        "est. 0 % (0/2): style, rarely worth a review comment"),
    ("quality/long-function",           "est. < 30 % (29 on 5 repositories): length is a taste"),
    ("quality/deep-nesting",            "est. < 40 % (15): match/if ladders read as defects"),
    ("quality/large-file",              "est. < 30 % (10): mature projects keep large modules"),
    ("quality/commented-out-code",      "est. < 50 % (26): prose and doc examples read as code"),
    ("quality/duplicated-block",        "est. < 30 % (65): table-like code and tests read as copies"),
    ("quality/logging-violation",       "est. 0 % (0/1): test support output read as logging"),
    // A planted defect of lead/tests/catalog_e2e.
    ("quality/todo-marker",             "est. < 20 % (36 on 5 repositories): tracked TODOs"),
    ("consistency/duplicated-logic",    "est. 0 % (0/5): deliberate copies across modules"),
    ("consistency/type-mismatch",       "est. 0 % (0/4): same-named types differ on purpose"),
    ("consistency/import-pattern",      "est. 0 % (0/2): config files in another module style"),
    ("consistency/config-access",       "est. < 50 % (1): reading config two ways is rarely a bug"),
    ("holistic/hardcoded-path",         "est. < 50 % (1): default paths and test paths"),
    ("holistic/hardcoded-endpoint",     "est. 0 % (0/4): documentation addresses and defaults"),
    ("holistic/client-without-timeout", "est. 0 % (0/1): the caller sets the timeout"),
    ("test/false-positive-risk",        "est. < 50 % (7 on one repository): a style point on mocks"),
];

/// Rules on by default below 95 % precision: their findings are capped at this severity.
#[rustfmt::skip]
/// Empty today: the rules on by default that raise High or Critical below 95 % are the recorded
/// exceptions above — capped at Medium, a `todo!()` or a private key written by a change would
/// no longer stop the gate.
const CAPPED: &[(&str, Severity, &str)] = &[];

/// The profile a rule belongs to: `Pedantic` for the rules off by default.
pub fn profile_of(rule: &str) -> RuleProfile {
    if PEDANTIC.iter().any(|(id, _)| *id == rule) {
        RuleProfile::Pedantic
    } else {
        RuleProfile::Default
    }
}

/// Whether `rule` runs under `profile`.
pub fn runs_in(rule: &str, profile: RuleProfile) -> bool {
    profile == RuleProfile::Pedantic || profile_of(rule) == RuleProfile::Default
}

/// The highest severity `rule` may raise under `profile`; `None` when it is not capped.
pub fn severity_cap(rule: &str, profile: RuleProfile) -> Option<Severity> {
    cap_in(CAPPED, rule, profile)
}

/// The cap `table` gives `rule` under `profile`.
fn cap_in(table: &[(&str, Severity, &str)], rule: &str, profile: RuleProfile) -> Option<Severity> {
    if profile == RuleProfile::Pedantic {
        return None;
    }
    table
        .iter()
        .find(|(id, _, _)| *id == rule)
        .map(|(_, cap, _)| *cap)
}

/// `severity` lowered to `rule`'s cap under `profile`, when it has one.
pub fn capped(rule: &str, profile: RuleProfile, severity: Severity) -> Severity {
    severity_cap(rule, profile).map_or(severity, |cap| severity.min(cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_rule_is_in_the_catalog_and_listed_once() {
        let catalog = super::super::catalog();
        let ids: Vec<&str> = PEDANTIC
            .iter()
            .map(|(id, _)| *id)
            .chain(CAPPED.iter().map(|(id, _, _)| *id))
            .collect();
        for id in &ids {
            assert!(
                catalog.iter().any(|(_, m)| m.id == *id),
                "{id} is not a rule"
            );
            assert_eq!(ids.iter().filter(|i| *i == id).count(), 1, "{id} twice");
        }
    }

    #[test]
    fn the_default_profile_drops_pedantic_rules_and_caps_severities() {
        assert!(!runs_in("quality/naming-violation", RuleProfile::Default));
        assert!(runs_in("quality/naming-violation", RuleProfile::Pedantic));
        assert!(runs_in("holistic/sql-injection", RuleProfile::Default));
        // A cap lowers a severity above it under the default profile only.
        let table = [("x/capped", Severity::Medium, "measured")];
        assert_eq!(
            cap_in(&table, "x/capped", RuleProfile::Default),
            Some(Severity::Medium)
        );
        assert_eq!(cap_in(&table, "x/capped", RuleProfile::Pedantic), None);
        assert_eq!(cap_in(&table, "x/other", RuleProfile::Default), None);
        assert_eq!(
            capped(
                "holistic/sql-injection",
                RuleProfile::Default,
                Severity::Critical
            ),
            Severity::Critical
        );
    }
}
