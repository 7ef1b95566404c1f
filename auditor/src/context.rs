//! What the design and the steering files say, as plain data the audit steps compare the
//! Inspectors' evidence with: named files, interfaces, error scenarios, tasks and integration
//! points (step 4), documented deviations and allowed patterns (step 3), and the design and
//! steering texts for "does the design specify this?" (steps 8 and 9), and the Steering
//! Exceptions a person recorded in the session handover (step 3, after the allowed patterns).
//!
//! The Lead fills it from the spec layout; the Auditor never reads a file for it. An empty context
//! (an offline audit of CPF files) turns the design-dependent checks off rather than flagging
//! everything as a gap.

use crate::place::normalise_path;
use protocol::message::SteeringException;
use protocol::Finding;

/// The design and steering context of one audit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuditContext {
    /// Files the design names (Components table, spec.yaml `files`), repository-relative.
    pub design_files: Vec<String>,
    /// Interfaces the design defines, by name (`login`, `SessionStore`).
    pub design_interfaces: Vec<String>,
    /// Error scenarios the design's Error Handling section names.
    pub design_error_scenarios: Vec<String>,
    /// Task ids of tasks.yaml.
    pub design_tasks: Vec<String>,
    /// Cross-feature integration points the design names.
    pub integration_points: Vec<String>,
    /// Deviations the design documents as intentional (step 3).
    pub documented_deviations: Vec<Exemption>,
    /// Patterns the steering files allow (step 3).
    pub allowed_patterns: Vec<Exemption>,
    /// Parameter names the design marks optional; a finding that calls one missing is dropped.
    pub optional_parameters: Vec<String>,
    /// Files the reviewed change touches, when the scope is a change (scope creep, step 8).
    pub changed_files: Vec<String>,
    /// The design text, searched for "does the design specify this?"; empty when there is none.
    pub design_text: String,
    /// The steering files' text, so that steering rows never repeat what they already say.
    pub steering_text: String,
    /// Rules a person suspended for the features in scope (the handover's Steering Exceptions).
    pub steering_exceptions: Vec<SteeringException>,
}

impl AuditContext {
    /// An empty context, usable in a `static`.
    pub const EMPTY: AuditContext = AuditContext {
        design_files: Vec::new(),
        design_interfaces: Vec::new(),
        design_error_scenarios: Vec::new(),
        design_tasks: Vec::new(),
        integration_points: Vec::new(),
        documented_deviations: Vec::new(),
        allowed_patterns: Vec::new(),
        optional_parameters: Vec::new(),
        changed_files: Vec::new(),
        design_text: String::new(),
        steering_text: String::new(),
        steering_exceptions: Vec::new(),
    };

    /// Whether the design text mentions `term` (case-insensitive); always false without a design.
    pub fn design_mentions(&self, term: &str) -> bool {
        mentions(&self.design_text, term)
    }

    /// Whether the steering text mentions `term` (case-insensitive).
    pub fn steering_mentions(&self, term: &str) -> bool {
        mentions(&self.steering_text, term)
    }
}

/// The context of an audit that has none.
pub(crate) static EMPTY_CONTEXT: AuditContext = AuditContext::EMPTY;

/// A documented deviation or an allowed pattern: which findings it covers and why.
///
/// Every part that is given must match; an exemption with no part at all matches nothing, so a
/// blank entry can never silence a whole review.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Exemption {
    /// The finding's category must equal this.
    pub category: Option<String>,
    /// The finding's path must equal this, or lie under it when it ends with `/`.
    pub path: Option<String>,
    /// The finding's description must contain this (case-insensitive).
    pub mentions: Option<String>,
    /// Why it is allowed, quoted in the REMOVED row.
    pub reason: String,
}

impl Exemption {
    /// Whether this exemption covers the finding.
    pub fn covers(&self, finding: &Finding) -> bool {
        if self.category.is_none() && self.path.is_none() && self.mentions.is_none() {
            return false;
        }
        let category = self
            .category
            .as_deref()
            .is_none_or(|c| c.trim() == finding.category);
        let path = self.path.as_deref().is_none_or(|p| {
            let (p, f) = (normalise_path(p), normalise_path(&finding.location.path));
            if p.ends_with('/') {
                f.starts_with(p.as_str())
            } else {
                f == p
            }
        });
        let mentions = self
            .mentions
            .as_deref()
            .is_none_or(|m| mentions(&finding.description, m));
        category && path && mentions
    }
}

/// Whether a Steering Exception covers the finding: its rule (backticks and blanks stripped)
/// equals the finding's rule id or category, and the finding lies at its path (a file, or
/// under a folder ending with `/`) when it names one. A blank rule covers nothing, so an
/// unfinished row never suspends a whole review.
pub(crate) fn covers(exception: &SteeringException, finding: &Finding) -> bool {
    let rule = exception.rule.trim().trim_matches('`').trim();
    if rule.is_empty() || (rule != finding.rule && rule != finding.category) {
        return false;
    }
    let path = exception
        .path
        .as_deref()
        .map(|p| p.trim().trim_matches('`').trim())
        .filter(|p| !p.is_empty());
    path.is_none_or(|p| {
        let (p, f) = (normalise_path(p), normalise_path(&finding.location.path));
        if p.ends_with('/') {
            f.starts_with(p.as_str())
        } else {
            f == p
        }
    })
}

/// Whether `text` contains `term`, ignoring case; an empty term is never mentioned.
pub(crate) fn mentions(text: &str, term: &str) -> bool {
    let term = term.trim();
    !term.is_empty() && text.to_lowercase().contains(&term.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;
    use protocol::Severity;

    fn exemption(category: Option<&str>, path: Option<&str>, text: Option<&str>) -> Exemption {
        Exemption {
            category: category.map(String::from),
            path: path.map(String::from),
            mentions: text.map(String::from),
            reason: "why".into(),
        }
    }

    #[test]
    fn every_given_part_must_match() {
        let mut f = finding(
            "quality",
            "error-handling-drift",
            Severity::High,
            "src/main.rs",
            3,
        );
        f.description = "`unwrap` in main".into();
        assert!(exemption(Some("error-handling-drift"), None, None).covers(&f));
        assert!(exemption(Some("error-handling-drift"), Some("./src/main.rs"), None).covers(&f));
        assert!(exemption(None, Some("src/"), Some("UNWRAP")).covers(&f));
        assert!(!exemption(Some("error-handling-drift"), Some("src/lib.rs"), None).covers(&f));
        assert!(!exemption(Some("dead-code"), None, None).covers(&f));
        assert!(!exemption(None, Some("src"), None).covers(&f));
        assert!(!exemption(None, None, Some("expect")).covers(&f));
    }

    #[test]
    fn an_empty_exemption_covers_nothing() {
        let f = finding("quality", "dead-code", Severity::Low, "src/a.rs", 1);
        assert!(!exemption(None, None, None).covers(&f));
        assert!(!exemption(None, None, Some("  ")).covers(&f));
    }

    fn exception(rule: &str, path: Option<&str>) -> SteeringException {
        SteeringException {
            feature: "*".into(),
            rule: rule.into(),
            path: path.map(String::from),
            decided_by: "alice".into(),
            reason: "prototype".into(),
        }
    }

    #[test]
    fn an_exception_covers_its_rule_id_or_category() {
        let f = finding(
            "quality",
            "unwrap-in-library",
            Severity::High,
            "src/a.rs",
            3,
        );
        assert_eq!(f.rule, "quality/unwrap-in-library");
        assert!(covers(&exception("quality/unwrap-in-library", None), &f));
        assert!(covers(&exception(" `unwrap-in-library` ", None), &f));
        assert!(!covers(&exception("quality/unwrap-assumed", None), &f));
        assert!(!covers(&exception("unwrap", None), &f));
    }

    #[test]
    fn an_exception_s_path_is_a_file_or_a_folder() {
        let f = finding(
            "quality",
            "unwrap-in-library",
            Severity::High,
            "src/db/a.rs",
            3,
        );
        let rule = "quality/unwrap-in-library";
        assert!(covers(&exception(rule, Some("src/db/a.rs")), &f));
        assert!(covers(&exception(rule, Some("./src/db/")), &f));
        assert!(covers(&exception(rule, Some("  ")), &f));
        assert!(!covers(&exception(rule, Some("src/db")), &f));
        assert!(!covers(&exception(rule, Some("src/api/")), &f));
        assert!(!covers(&exception(rule, Some("src/db/b.rs")), &f));
    }

    #[test]
    fn a_blank_rule_covers_nothing() {
        let mut f = finding(
            "quality",
            "unwrap-in-library",
            Severity::High,
            "src/a.rs",
            3,
        );
        f.rule = String::new();
        f.category = String::new();
        assert!(!covers(&exception("", None), &f));
        assert!(!covers(&exception(" `` ", Some("src/a.rs")), &f));
    }

    #[test]
    fn design_mentions_ignore_case_and_need_a_design() {
        let ctx = AuditContext {
            design_text: "The client Retries twice.".into(),
            ..AuditContext::default()
        };
        assert!(ctx.design_mentions("retries"));
        assert!(!ctx.design_mentions("fallback"));
        assert!(!AuditContext::EMPTY.design_mentions("retries"));
        assert_eq!(EMPTY_CONTEXT, AuditContext::default());
    }
}
