//! A finding: one problem one or more Inspectors reported, with a line-independent fingerprint.

use super::category::Category;
use super::kinds::Dimension;
use super::location::Location;
use super::severity::Severity;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How sure the reporters are of a finding.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub enum Confidence {
    /// Heuristic; the Auditor lowers its severity one level.
    Low,
    /// The default, also for findings read from CPF.
    #[default]
    Normal,
    /// Confirmed by several agents.
    High,
}

/// One problem, as Inspectors report it and the Auditor verifies it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Names of the agents (Inspectors) that reported it.
    pub agents: Vec<String>,
    /// Rule id (`quality/todo-marker`); `cpf/<category>` for findings read from CPF.
    pub rule: String,
    /// Category (`dead-code`): any text, since agents and CPF files may report any category;
    /// the categories this build names are [`Category`]'s.
    pub category: String,
    /// Severity.
    pub severity: Severity,
    /// Where it is.
    pub location: Location,
    /// What is wrong.
    pub description: String,
    /// How to fix it, when the reporter knows.
    pub suggestion: Option<String>,
    /// Whether a built-in fixer can fix it.
    pub auto_fixable: bool,
    /// Review dimensions it belongs to.
    pub dimensions: Vec<Dimension>,
    /// How sure the reporters are.
    pub confidence: Confidence,
    /// Identifies the same problem across runs without the line number.
    pub fingerprint: String,
    /// Why the finding is suppressed (an inline `retake-ignore`, a `.retake/decisions.yaml`
    /// entry), when it is. Inspectors keep suppressed findings so the Auditor can list them as
    /// REMOVED and SARIF can show them as suppressed; they never count toward a verdict.
    pub suppression: Option<String>,
}

impl Finding {
    /// A finding with defaults for everything CPF does not carry; the fingerprint is computed
    /// from the rule, the path and `key` (a normalised snippet or symbol).
    pub fn new(
        agent: impl Into<String>,
        rule: impl Into<String>,
        category: impl Into<String>,
        severity: Severity,
        location: Location,
        description: impl Into<String>,
        key: &str,
    ) -> Finding {
        let rule = rule.into();
        let fingerprint = fingerprint(&rule, &location.path, key);
        Finding {
            agents: vec![agent.into()],
            rule,
            category: category.into(),
            severity,
            location,
            description: description.into(),
            suggestion: None,
            auto_fixable: false,
            dimensions: Vec::new(),
            confidence: Confidence::Normal,
            fingerprint,
            suppression: None,
        }
    }

    /// Whether the finding's category is `category` (exactly its text).
    pub fn category_is(&self, category: Category) -> bool {
        category.is(&self.category)
    }

    /// Whether the finding's category is any of `set`.
    pub fn category_in(&self, set: &[Category]) -> bool {
        Category::any_is(set, &self.category)
    }

    /// The agents joined with `+`, as CPF writes them.
    pub fn agents_joined(&self) -> String {
        self.agents.join("+")
    }
}

/// The fingerprint of a problem: the first 16 hex digits of SHA-256 over the rule, the path and
/// the whitespace-normalised key (a snippet or symbol name) — never the line number, so the
/// same problem keeps its fingerprint when code moves.
pub fn fingerprint(rule: &str, path: &str, key: &str) -> String {
    let normalised: Vec<&str> = key.split_whitespace().collect();
    let mut hasher = Sha256::new();
    hasher.update(rule.as_bytes());
    hasher.update([0]);
    hasher.update(path.as_bytes());
    hasher.update([0]);
    hasher.update(normalised.join(" ").as_bytes());
    let digest = hasher.finalize();
    hex::encode(&digest[..8])
}

/// The rule id of a finding read from CPF, which names only its category.
pub fn cpf_rule(category: &str) -> String {
    format!("cpf/{category}")
}

/// The fingerprint of a problem known only by CPF's fields — what a finding read from CPF
/// carries (rule [`cpf_rule`], the location's path, the description as key), and so the
/// line-free identity of a verdict row whose finding is not at hand.
pub fn cpf_fingerprint(category: &str, location: &Location, description: &str) -> String {
    fingerprint(&cpf_rule(category), &location.path, description)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_ignores_whitespace_and_lines_but_not_rule_or_path() {
        let a = fingerprint("quality/todo-marker", "src/a.rs", "// TODO:  fix   this");
        let b = fingerprint("quality/todo-marker", "src/a.rs", "// TODO: fix this");
        assert_eq!(a, b);
        assert_eq!(a.len(), 16);
        assert_ne!(
            a,
            fingerprint("quality/todo-marker", "src/b.rs", "// TODO: fix this")
        );
        assert_ne!(
            a,
            fingerprint("quality/fixme", "src/a.rs", "// TODO: fix this")
        );
        let f1 = Finding::new(
            "q",
            "r",
            "c",
            Severity::Low,
            Location::at("x.rs", 1),
            "d",
            "k",
        );
        let f2 = Finding::new(
            "q",
            "r",
            "c",
            Severity::Low,
            Location::at("x.rs", 90),
            "d",
            "k",
        );
        assert_eq!(f1.fingerprint, f2.fingerprint);
        assert_eq!(
            cpf_fingerprint("c", &Location::at("x.rs", 7), "d  here"),
            cpf_fingerprint("c", &Location::file("x.rs"), "d here")
        );
        assert_ne!(
            cpf_fingerprint("c", &Location::at("x.rs", 7), "d"),
            cpf_fingerprint("c", &Location::at("y.rs", 7), "d")
        );
    }
}
