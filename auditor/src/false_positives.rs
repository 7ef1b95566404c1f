//! Step 3 of the audit: drop the false positives, each with a `REMOVED` row saying why.
//!
//! Checked in this order, the first that applies names the reason:
//! 1. suppressed (`Finding::suppression`: an inline `retake-ignore`, a `.retake/decisions.yaml`
//!    entry) — the user has decided already;
//! 2. in a generated or vendored file ([`is_generated_or_vendored`]) — nobody here wrote it
//!    (except an `unreviewed-file` finding: that a file went unread is true wherever it lies);
//! 3. an optional parameter flagged as missing — an interface category whose description says
//!    "missing" and names, as a word, a parameter the design marks optional (or says "optional
//!    parameter" itself);
//! 4. a deviation the design documents as intentional;
//! 5. a pattern the steering files allow;
//! 6. a Steering Exception of the session handover (a rule a person suspended for a feature).

use crate::category::INTERFACE_MISMATCH;
use crate::context::{covers, AuditContext, Exemption};
use crate::evidence::issue_text;
use crate::place::normalise_path;
use protocol::{Category, Finding, Removed};

/// The findings that survive step 3, and one row per finding dropped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FalsePositives {
    /// The findings kept, in input order.
    pub kept: Vec<Finding>,
    /// The findings dropped, in input order.
    pub removed: Vec<Removed>,
}

/// Drops suppressed findings, findings in generated or vendored files, optional parameters
/// flagged as missing, documented deviations, allowed patterns and Steering Exceptions.
pub fn false_positives(findings: Vec<Finding>, ctx: &AuditContext) -> FalsePositives {
    let mut out = FalsePositives::default();
    for f in findings {
        match false_positive_reason(&f, ctx) {
            Some(reason) => out.removed.push(Removed {
                agent: f.agents_joined(),
                reason,
                original: issue_text(&f),
            }),
            None => out.kept.push(f),
        }
    }
    out
}

/// Drops only the suppressed findings: what an audit cut short by its budget still does before
/// the verdict, since a suppression is the user's decision and never counts toward a verdict.
pub fn drop_suppressed(findings: Vec<Finding>) -> FalsePositives {
    let mut out = FalsePositives::default();
    for f in findings {
        match &f.suppression {
            Some(why) => out.removed.push(Removed {
                agent: f.agents_joined(),
                reason: format!("suppressed: {why}"),
                original: issue_text(&f),
            }),
            None => out.kept.push(f),
        }
    }
    out
}

/// Why a finding is a false positive, or `None` when it stands.
pub fn false_positive_reason(finding: &Finding, ctx: &AuditContext) -> Option<String> {
    if let Some(why) = &finding.suppression {
        return Some(format!("suppressed: {why}"));
    }
    // A file nobody reviewed says so wherever it lies: under `vendor/` is where a change would
    // put code to pass unread.
    if is_generated_or_vendored(&finding.location.path)
        && !finding.category_in(&[Category::UnreviewedFile])
    {
        return Some("generated or vendored file".to_string());
    }
    if let Some(param) = optional_parameter(finding, ctx) {
        return Some(format!("optional parameter {param} flagged as missing"));
    }
    if let Some(e) = first_covering(&ctx.documented_deviations, finding) {
        return Some(format!("deviation documented as intentional: {}", e.reason));
    }
    if let Some(e) = first_covering(&ctx.allowed_patterns, finding) {
        return Some(format!("pattern allowed by steering: {}", e.reason));
    }
    if let Some(e) = ctx.steering_exceptions.iter().find(|e| covers(e, finding)) {
        return Some(steering_exception_reason(e));
    }
    None
}

/// The `REMOVED` row's reason for a finding a Steering Exception covers: the feature, the rule,
/// who decided and why.
fn steering_exception_reason(e: &protocol::message::SteeringException) -> String {
    let feature = match e.feature.trim() {
        "*" => "every feature".to_string(),
        name => format!("feature {name}"),
    };
    format!(
        "steering exception for {feature}, rule {} (decided by {}): {}",
        e.rule.trim().trim_matches('`').trim(),
        e.decided_by.trim(),
        e.reason.trim()
    )
}

/// Whether a repository-relative path is generated or vendored
/// ([`protocol::project::generated_or_vendored`], the Inspectors' walk's own definition).
pub fn is_generated_or_vendored(path: &str) -> bool {
    protocol::project::generated_or_vendored(&normalise_path(path)).is_some()
}

/// The optional parameter an interface finding calls missing, quoted, when it does.
fn optional_parameter(finding: &Finding, ctx: &AuditContext) -> Option<String> {
    if !finding.category_in(&INTERFACE_MISMATCH) {
        return None;
    }
    let text = finding.description.to_lowercase();
    if !text.contains("missing") {
        return None;
    }
    let named = ctx
        .optional_parameters
        .iter()
        .map(|p| p.trim())
        .find(|p| !p.is_empty() && has_word(&text, &p.to_lowercase()));
    match named {
        Some(p) => Some(format!("`{p}`")),
        None => text
            .contains("optional parameter")
            .then(|| "(so described)".to_string()),
    }
}

/// Whether `word` occurs in `text` not as part of a longer identifier.
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

fn first_covering<'a>(list: &'a [Exemption], finding: &Finding) -> Option<&'a Exemption> {
    list.iter().find(|e| e.covers(finding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::category::Category;
    use crate::fixtures::finding;
    use protocol::Severity;

    #[test]
    fn each_reason_drops_its_finding_with_a_removed_row() {
        let mut suppressed = finding("quality", "todo", Severity::Low, "src/a.rs", 1);
        suppressed.suppression = Some("retake-ignore: quality/todo tracked in #12".into());
        let vendored = finding(
            "holistic",
            "race-condition",
            Severity::High,
            "vendor/x/y.rs",
            2,
        );
        let mut optional = finding(
            "interface",
            Category::CallSiteError,
            Severity::High,
            "src/b.rs",
            3,
        );
        optional.description = "call of `connect` is missing `timeout`".into();
        let deviation = finding(
            "interface",
            Category::SignatureMismatch,
            Severity::Critical,
            "src/c.rs",
            4,
        );
        let allowed = finding(
            "quality",
            "error-handling-drift",
            Severity::High,
            "src/main.rs",
            5,
        );
        let kept = finding("quality", "dead-code", Severity::Low, "src/d.rs", 6);
        // That nobody reviewed a file under vendor/ is true there too.
        let unread = finding(
            "quality",
            Category::UnreviewedFile,
            Severity::Low,
            "vendor/x/z.rs",
            1,
        );
        let ctx = AuditContext {
            optional_parameters: vec!["timeout".into()],
            documented_deviations: vec![Exemption {
                category: Some(Category::SignatureMismatch.into()),
                path: Some("src/c.rs".into()),
                mentions: None,
                reason: "design §4: login returns a Session directly".into(),
            }],
            allowed_patterns: vec![Exemption {
                category: Some("error-handling-drift".into()),
                path: Some("src/main.rs".into()),
                mentions: None,
                reason: "tech.md: unwrap is fine in main".into(),
            }],
            ..AuditContext::default()
        };
        let out = false_positives(
            vec![
                suppressed,
                vendored,
                optional,
                deviation,
                allowed,
                kept.clone(),
                unread.clone(),
            ],
            &ctx,
        );
        assert_eq!(out.kept, vec![kept, unread]);
        let reasons: Vec<(&str, &str)> = out
            .removed
            .iter()
            .map(|r| (r.agent.as_str(), r.reason.as_str()))
            .collect();
        assert_eq!(
            reasons,
            vec![
                ("quality", "suppressed: retake-ignore: quality/todo tracked in #12"),
                ("holistic", "generated or vendored file"),
                ("interface", "optional parameter `timeout` flagged as missing"),
                (
                    "interface",
                    "deviation documented as intentional: design §4: login returns a Session directly"
                ),
                ("quality", "pattern allowed by steering: tech.md: unwrap is fine in main"),
            ]
        );
        assert_eq!(
            out.removed[2].original,
            "H|call-site-error|src/b.rs:3|call of `connect` is missing `timeout`"
        );
    }

    #[test]
    fn optional_parameters_need_an_interface_category_missing_and_the_word() {
        let ctx = AuditContext {
            optional_parameters: vec!["timeout".into()],
            ..AuditContext::default()
        };
        let mut f = finding(
            "interface",
            Category::CallSiteError,
            Severity::High,
            "src/b.rs",
            3,
        );
        f.description = "missing `timeout_ms`".into();
        assert_eq!(false_positive_reason(&f, &ctx), None);
        f.description = "wrong type for timeout".into();
        assert_eq!(false_positive_reason(&f, &ctx), None);
        f.description = "missing optional parameter `retries`".into();
        assert_eq!(
            false_positive_reason(&f, &ctx).as_deref(),
            Some("optional parameter (so described) flagged as missing")
        );
        let mut quality = finding("quality", "naming-violation", Severity::Low, "src/b.rs", 3);
        quality.description = "missing timeout".into();
        assert_eq!(false_positive_reason(&quality, &ctx), None);
    }

    #[test]
    fn drop_suppressed_drops_nothing_else() {
        let mut suppressed = finding("quality", "todo", Severity::Low, "src/a.rs", 1);
        suppressed.suppression = Some("decisions.yaml: accepted".into());
        let vendored = finding(
            "holistic",
            "race-condition",
            Severity::High,
            "vendor/x.rs",
            2,
        );
        let out = drop_suppressed(vec![suppressed, vendored.clone()]);
        assert_eq!(out.kept, vec![vendored]);
        assert_eq!(out.removed.len(), 1);
        assert_eq!(
            out.removed[0].reason,
            "suppressed: decisions.yaml: accepted"
        );
    }

    #[test]
    fn a_steering_exception_removes_its_rule_with_who_decided_and_why() {
        let exception = |feature: &str, rule: &str| protocol::message::SteeringException {
            feature: feature.into(),
            rule: rule.into(),
            path: None,
            decided_by: "alice".into(),
            reason: "prototype, replaced in task 5".into(),
        };
        let unwrap = finding(
            "quality",
            "unwrap-in-library",
            Severity::High,
            "src/a.rs",
            3,
        );
        let todo = finding("quality", "todo-marker", Severity::Low, "src/a.rs", 4);
        let ctx = AuditContext {
            steering_exceptions: vec![
                exception("orders", "quality/unwrap-in-library"),
                exception("*", "`todo-marker`"),
            ],
            ..AuditContext::default()
        };
        let out = false_positives(vec![unwrap, todo], &ctx);
        assert!(out.kept.is_empty());
        let reasons: Vec<&str> = out.removed.iter().map(|r| r.reason.as_str()).collect();
        assert_eq!(
            reasons,
            vec![
                "steering exception for feature orders, rule quality/unwrap-in-library (decided by alice): prototype, replaced in task 5",
                "steering exception for every feature, rule todo-marker (decided by alice): prototype, replaced in task 5",
            ]
        );
    }

    #[test]
    fn without_context_only_suppressions_and_generated_files_are_dropped() {
        let f = finding(
            "interface",
            Category::SignatureMismatch,
            Severity::Critical,
            "src/c.rs",
            4,
        );
        let out = false_positives(vec![f.clone()], &AuditContext::EMPTY);
        assert_eq!(out.kept, vec![f]);
        assert!(out.removed.is_empty());
    }
}
