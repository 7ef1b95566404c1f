//! Closed vocabularies: the Inspector kinds, review dimensions and the task runner's judgments.

use super::verdict::UnknownValue;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The six Inspector kinds, each reviewing from its own angle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum InspectorKind {
    /// Spec compliance: tasks, traceability, file structure.
    #[serde(rename = "rulebase")]
    Rulebase,
    /// Design contract vs code.
    #[serde(rename = "interface")]
    Interface,
    /// Runs and judges the tests.
    #[serde(rename = "test")]
    Test,
    /// Code quality and completeness.
    #[serde(rename = "quality")]
    Quality,
    /// The same thing done the same way everywhere.
    #[serde(rename = "consistency")]
    Consistency,
    /// Semantics, lifecycles, concurrency, operations, security.
    #[serde(rename = "holistic")]
    Holistic,
}

impl InspectorKind {
    /// All six kinds in their canonical order.
    pub const ALL: [InspectorKind; 6] = [
        InspectorKind::Rulebase,
        InspectorKind::Interface,
        InspectorKind::Test,
        InspectorKind::Quality,
        InspectorKind::Consistency,
        InspectorKind::Holistic,
    ];

    /// The text form (`quality`).
    pub const fn as_str(self) -> &'static str {
        match self {
            InspectorKind::Rulebase => "rulebase",
            InspectorKind::Interface => "interface",
            InspectorKind::Test => "test",
            InspectorKind::Quality => "quality",
            InspectorKind::Consistency => "consistency",
            InspectorKind::Holistic => "holistic",
        }
    }

    /// The stable actor name (`inspector-quality`).
    pub fn actor_name(self) -> String {
        format!("inspector-{}", self.as_str())
    }
}

/// What an actor is: the role it authenticates as and, for an Inspector, its kind. The Lead
/// starts actors of every kind the same way (a child process, an Arbiter, a claimed worker).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActorKind {
    /// An Inspector of a kind.
    Inspector(InspectorKind),
    /// The Auditor.
    Auditor,
    /// An Implementer of the team loop (`retake run`).
    Implementer,
}

impl ActorKind {
    /// The role its handshake announces (`inspector`, `auditor`, `implementer`).
    pub const fn role(self) -> &'static str {
        match self {
            ActorKind::Inspector(_) => "inspector",
            ActorKind::Auditor => "auditor",
            ActorKind::Implementer => "implementer",
        }
    }

    /// The kind within the role its handshake announces (`quality`), empty when it has none.
    pub const fn kind(self) -> &'static str {
        match self {
            ActorKind::Inspector(k) => k.as_str(),
            ActorKind::Auditor | ActorKind::Implementer => "",
        }
    }
}

impl fmt::Display for InspectorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for InspectorKind {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let s = s.strip_prefix("inspector-").unwrap_or(s);
        InspectorKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownValue {
                kind: "inspector kind",
                value: s.to_string(),
                expected: "rulebase, interface, test, quality, consistency, holistic",
            })
    }
}

/// The seven review dimensions of the review-cycle view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dimension {
    /// `security`
    #[serde(rename = "security")]
    Security,
    /// `architecture`
    #[serde(rename = "architecture")]
    Architecture,
    /// `quality`
    #[serde(rename = "quality")]
    Quality,
    /// `action-items`
    #[serde(rename = "action-items")]
    ActionItems,
    /// `performance`
    #[serde(rename = "performance")]
    Performance,
    /// `maintainability`
    #[serde(rename = "maintainability")]
    Maintainability,
    /// `best-practices`
    #[serde(rename = "best-practices")]
    BestPractices,
    /// `compatibility`: what a change does to the code that depends on it (a public API
    /// removed or changed without a major version bump). Appended: wire enums only grow.
    #[serde(rename = "compatibility")]
    Compatibility,
}

impl Dimension {
    /// All eight dimensions.
    pub const ALL: [Dimension; 8] = [
        Dimension::Security,
        Dimension::Architecture,
        Dimension::Quality,
        Dimension::ActionItems,
        Dimension::Performance,
        Dimension::Maintainability,
        Dimension::BestPractices,
        Dimension::Compatibility,
    ];

    /// The text form (`best-practices`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Dimension::Security => "security",
            Dimension::Architecture => "architecture",
            Dimension::Quality => "quality",
            Dimension::ActionItems => "action-items",
            Dimension::Performance => "performance",
            Dimension::Maintainability => "maintainability",
            Dimension::BestPractices => "best-practices",
            Dimension::Compatibility => "compatibility",
        }
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Dimension {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dimension::ALL
            .into_iter()
            .find(|d| d.as_str() == s.trim())
            .ok_or_else(|| UnknownValue {
                kind: "dimension",
                value: s.trim().to_string(),
                expected: "security, architecture, quality, action-items, performance, maintainability, best-practices, compatibility",
            })
    }
}

/// The task runner's judgment of one iteration (the loops spec).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Judgment {
    /// `PASS`
    #[serde(rename = "PASS")]
    Pass,
    /// `REJECT`
    #[serde(rename = "REJECT")]
    Reject,
    /// `RETRY`
    #[serde(rename = "RETRY")]
    Retry,
}

impl Judgment {
    /// The exact text form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Judgment::Pass => "PASS",
            Judgment::Reject => "REJECT",
            Judgment::Retry => "RETRY",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_dimensions_parse_their_text_forms() {
        for k in InspectorKind::ALL {
            assert_eq!(k.as_str().parse::<InspectorKind>(), Ok(k));
            assert_eq!(k.actor_name().parse::<InspectorKind>(), Ok(k));
        }
        for d in Dimension::ALL {
            assert_eq!(d.as_str().parse::<Dimension>(), Ok(d));
        }
        assert!("speed".parse::<Dimension>().is_err());
    }
}
