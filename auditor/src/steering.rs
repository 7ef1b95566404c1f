//! Step 9 of the audit: decision suggestions as `STEERING` rows. Only the rows are made here;
//! applying a CODIFY to the steering files and `decisions.md`, and asking about a PROPOSE, is
//! the Lead's job.
//!
//! - **CODIFY** — an implicit pattern used consistently: the consistency Inspector's
//!   `PatternConsistent` claim naming at least [`CODIFY_MIN_MODULES`] distinct modules, that the
//!   steering text does not mention yet. Text: `{pattern} (used consistently in N modules: a, b, c)`.
//! - **PROPOSE** — a new constraint: a verified finding category from [`CONSTRAINTS`] that recurs
//!   in at least [`PROPOSE_MIN_FILES`] distinct files and that the steering text does not mention.
//!   Text: `{constraint} ({category} in N files: a, b, c)`. One-off problems are findings, not
//!   policy, and categories with no stated constraint (failures, spec defects) propose nothing.
//!
//! The target file is chosen by words: errors, logging, configuration, dependencies, tests and
//! concurrency go to `steering/tech.md`; naming, imports, modules and layout to
//! `steering/structure.md`; anything else to `steering/tech.md`.

use crate::context::AuditContext;
use crate::place::normalise_path;
use protocol::{Category, Claim, Finding, InspectorReport, Steering, SteeringAction};

/// A pattern must be used consistently in at least this many modules to be codified.
pub const CODIFY_MIN_MODULES: usize = 3;

/// A problem must recur in at least this many files to be worth a constraint.
pub const PROPOSE_MIN_FILES: usize = 3;

/// The steering file for technology choices.
pub const TECH: &str = "steering/tech.md";
/// The steering file for layout and naming.
pub const STRUCTURE: &str = "steering/structure.md";

/// Recurring finding categories and the constraint each one proposes, with its target file.
pub const CONSTRAINTS: [(Category, &str, &str); 9] = [
    (
        Category::ErrorHandlingDrift,
        "Library code propagates errors: no unwrap/expect, no swallowed errors",
        TECH,
    ),
    (
        Category::ErrorHandlingInconsistency,
        "One error-handling pattern in every module",
        TECH,
    ),
    (
        Category::LoggingViolation,
        "Log through the logging framework; no print statements, no secrets in logs",
        TECH,
    ),
    (
        Category::ImplicitCoupling,
        "Read configuration in one place and pass it down",
        TECH,
    ),
    (
        Category::OperationalRisk,
        "No hard-coded endpoints or credentials; retries are bounded and calls have timeouts",
        TECH,
    ),
    (
        Category::NamingViolation,
        "Names follow the language's conventions",
        STRUCTURE,
    ),
    (
        Category::ImportPattern,
        "One import style in every module",
        STRUCTURE,
    ),
    (
        Category::PatternInconsistency,
        "One way to do each recurring task in every module",
        STRUCTURE,
    ),
    (
        Category::OverImplementation,
        "Implement only what the design specifies",
        STRUCTURE,
    ),
];

/// The CODIFY rows, then the PROPOSE rows.
pub fn steering(
    reports: &[InspectorReport],
    verified: &[Finding],
    ctx: &AuditContext,
) -> Vec<Steering> {
    let mut rows = codify(reports, ctx);
    rows.extend(propose(verified, ctx));
    rows
}

fn codify(reports: &[InspectorReport], ctx: &AuditContext) -> Vec<Steering> {
    let mut rows: Vec<Steering> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for claim in reports.iter().flat_map(|r| r.claims.iter()) {
        let Claim::PatternConsistent { pattern, modules } = claim else {
            continue;
        };
        let pattern = pattern.trim();
        let modules = distinct(modules.iter().map(|m| m.trim().to_string()));
        let key = pattern.to_lowercase();
        if pattern.is_empty()
            || modules.len() < CODIFY_MIN_MODULES
            || ctx.steering_mentions(pattern)
            || seen.contains(&key)
        {
            continue;
        }
        seen.push(key);
        rows.push(Steering {
            action: SteeringAction::Codify,
            target: target_for(pattern).to_string(),
            text: format!(
                "{pattern} (used consistently in {} modules: {})",
                modules.len(),
                modules.join(", ")
            ),
        });
    }
    rows
}

fn propose(verified: &[Finding], ctx: &AuditContext) -> Vec<Steering> {
    CONSTRAINTS
        .iter()
        .filter(|(category, _, _)| !ctx.steering_mentions(category.as_str()))
        .filter_map(|(category, constraint, target)| {
            let files = distinct(
                verified
                    .iter()
                    .filter(|f| f.category_is(*category) && !f.location.path.is_empty())
                    .map(|f| normalise_path(&f.location.path)),
            );
            (files.len() >= PROPOSE_MIN_FILES).then(|| Steering {
                action: SteeringAction::Propose,
                target: target.to_string(),
                text: format!(
                    "{constraint} ({category} in {} files: {}{})",
                    files.len(),
                    files[..3].join(", "),
                    if files.len() > 3 { ", …" } else { "" }
                ),
            })
        })
        .collect()
}

/// The steering file a pattern belongs in, by its words.
pub fn target_for(pattern: &str) -> &'static str {
    const TECH_WORDS: [&str; 8] = [
        "error", "log", "config", "depend", "test", "async", "thread", "lock",
    ];
    const STRUCTURE_WORDS: [&str; 6] = ["naming", "name", "import", "module", "layout", "director"];
    let text = pattern.to_lowercase();
    if TECH_WORDS.iter().any(|w| text.contains(w)) {
        TECH
    } else if STRUCTURE_WORDS.iter().any(|w| text.contains(w)) {
        STRUCTURE
    } else {
        TECH
    }
}

/// The non-empty items once each, first seen first; a set beside the list keeps it linear (the
/// files of one category in a large review number in the thousands).
fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !i.is_empty() && seen.insert(i.clone()) {
            out.push(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{finding, report};
    use protocol::Severity;

    fn consistent(pattern: &str, modules: &[&str]) -> Claim {
        Claim::PatternConsistent {
            pattern: pattern.into(),
            modules: modules.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn a_pattern_used_consistently_in_three_modules_is_codified_once() {
        let mut r = report("inspector-consistency", vec![]);
        r.claims = vec![
            consistent(
                "errors: one thiserror enum per crate",
                &["protocol", "lead", "auditor"],
            ),
            consistent(
                "Errors: one thiserror enum per crate",
                &["protocol", "lead", "auditor"],
            ),
            consistent("imports grouped std, external, crate", &["a", "b", "b"]),
            consistent("module names are singular nouns", &["a", "b", "c", "d"]),
        ];
        let rows = steering(&[r], &[], &AuditContext::default());
        assert_eq!(
            rows,
            vec![
                Steering {
                    action: SteeringAction::Codify,
                    target: "steering/tech.md".into(),
                    text: "errors: one thiserror enum per crate (used consistently in 3 modules: protocol, lead, auditor)".into(),
                },
                Steering {
                    action: SteeringAction::Codify,
                    target: "steering/structure.md".into(),
                    text: "module names are singular nouns (used consistently in 4 modules: a, b, c, d)".into(),
                },
            ]
        );
    }

    #[test]
    fn what_the_steering_already_says_is_not_repeated() {
        let mut r = report("consistency", vec![]);
        r.claims = vec![consistent("tracing for logs", &["a", "b", "c"])];
        let drift: Vec<Finding> = ["src/a.rs", "src/b.rs", "src/c.rs"]
            .iter()
            .map(|p| finding("quality", "error-handling-drift", Severity::High, p, 1))
            .collect();
        let ctx = AuditContext {
            steering_text: "We use Tracing for logs. error-handling-drift is not allowed.".into(),
            ..AuditContext::default()
        };
        assert!(steering(&[r], &drift, &ctx).is_empty());
    }

    #[test]
    fn a_category_recurring_in_three_files_proposes_its_constraint() {
        let mut findings: Vec<Finding> =
            ["src/a.rs", "src/b.rs", "./src/a.rs", "src/c.rs", "src/d.rs"]
                .iter()
                .map(|p| finding("quality", "logging-violation", Severity::Medium, p, 1))
                .collect();
        // Two files are not a pattern, and failures propose nothing however often they recur.
        findings.push(finding(
            "quality",
            "naming-violation",
            Severity::Low,
            "src/a.rs",
            2,
        ));
        findings.push(finding(
            "quality",
            "naming-violation",
            Severity::Low,
            "src/b.rs",
            2,
        ));
        for p in ["tests/a.rs", "tests/b.rs", "tests/c.rs"] {
            findings.push(finding("test", "test-failure", Severity::High, p, 1));
        }
        let rows = steering(&[], &findings, &AuditContext::default());
        assert_eq!(
            rows,
            vec![Steering {
                action: SteeringAction::Propose,
                target: "steering/tech.md".into(),
                text: "Log through the logging framework; no print statements, no secrets in logs \
                       (logging-violation in 4 files: src/a.rs, src/b.rs, src/c.rs, …)"
                    .into(),
            }]
        );
    }

    #[test]
    fn targets_follow_the_words() {
        assert_eq!(target_for("Errors use thiserror"), TECH);
        assert_eq!(target_for("import order"), STRUCTURE);
        assert_eq!(target_for("builders for options"), TECH);
    }
}
