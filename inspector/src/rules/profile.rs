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
const PEDANTIC: &[(&str, &str)] = &[
    // Estimates from hand-reading findings on ripgrep, serde, requests, axios and gin (Nov 2026),
    // to be replaced by bench/precision/ measurements.
    (
        "quality/naming-violation",
        "est. < 20 %: style, rarely worth a review comment",
    ),
    (
        "quality/long-function",
        "est. < 30 %: length alone is a taste, not a defect",
    ),
    (
        "quality/deep-nesting",
        "est. < 40 %: nesting of match/if ladders read as defects",
    ),
    (
        "quality/large-file",
        "est. < 30 %: mature projects keep large modules by choice",
    ),
    (
        "quality/commented-out-code",
        "est. < 50 %: prose and examples in comments read as code",
    ),
    (
        "quality/duplicated-block",
        "est. < 50 %: table-like code and tests read as copies",
    ),
    (
        "quality/logging-violation",
        "est. < 50 %: CLI output and examples read as logging",
    ),
    (
        "quality/todo-marker",
        "est. < 40 %: a tracked TODO is not a review finding",
    ),
    (
        "consistency/duplicated-logic",
        "est. < 50 %: similar short helpers across modules",
    ),
    (
        "consistency/logging-pattern",
        "est. < 50 %: two output styles are often deliberate",
    ),
    (
        "consistency/import-pattern",
        "est. < 50 %: import style differences are not defects",
    ),
    (
        "consistency/error-type-pattern",
        "est. < 50 %: several error types per crate is normal",
    ),
    (
        "consistency/config-access",
        "est. < 50 %: reading config in two ways is rarely a bug",
    ),
    (
        "holistic/hardcoded-path",
        "est. < 50 %: default paths and test paths",
    ),
    (
        "holistic/hardcoded-endpoint",
        "est. < 50 %: documentation URLs and defaults",
    ),
    (
        "holistic/env-read-everywhere",
        "est. < 50 %: CLIs read their environment by design",
    ),
    (
        "holistic/clone-in-hot-loop",
        "est. < 50 %: cheap clones (Arc, small structs)",
    ),
    (
        "holistic/unbounded-growth",
        "est. < 50 %: bounded by the input in practice",
    ),
    (
        "holistic/mutable-global",
        "est. < 60 %: lazily initialised constants",
    ),
    (
        "holistic/client-without-timeout",
        "est. < 60 %: the caller sets the timeout",
    ),
    (
        "test/missing-test-file",
        "est. < 50 %: tests live elsewhere (integration, doc tests)",
    ),
    (
        "test/strategy-gap",
        "est. < 50 %: a strategy the project does not follow",
    ),
];

/// Rules on by default below 95 % precision: their findings are capped at this severity.
const CAPPED: &[(&str, Severity, &str)] = &[
    (
        "quality/unwrap-in-library",
        Severity::Medium,
        "est. 80-90 %: guarded and infallible unwraps remain",
    ),
    (
        "quality/swallowed-error",
        Severity::Medium,
        "est. 80-90 %: best-effort calls not documented as such",
    ),
    (
        "holistic/unsafe-without-safety",
        Severity::Medium,
        "est. 85-95 %: safety argued in the function's doc",
    ),
    (
        "test/missing-integration-tests",
        Severity::Low,
        "est. 80 %: a project-level advice, never a blocker",
    ),
];

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
    if profile == RuleProfile::Pedantic {
        return None;
    }
    CAPPED
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
        assert_eq!(
            capped(
                "quality/unwrap-in-library",
                RuleProfile::Default,
                Severity::High
            ),
            Severity::Medium
        );
        assert_eq!(
            capped(
                "quality/unwrap-in-library",
                RuleProfile::Pedantic,
                Severity::High
            ),
            Severity::High
        );
        assert_eq!(
            capped(
                "quality/unwrap-in-library",
                RuleProfile::Default,
                Severity::Low
            ),
            Severity::Low
        );
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
