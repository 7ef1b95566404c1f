//! What the audit does with test failures.

use serde::{Deserialize, Serialize};

/// What the audit does with test failures (`[audit] test_failure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TestFailurePolicy {
    /// Test failures are NO-GO (default).
    #[default]
    NoGo,
    /// Test failures are CONDITIONAL (the source document's rule).
    Conditional,
}

impl TestFailurePolicy {
    /// The configuration spellings, in declaration order: the one list the settings, the CLI
    /// and their error messages use.
    pub const NAMES: [&'static str; 2] = ["no-go", "conditional"];

    /// The configuration spelling (`no-go`, `conditional`).
    pub fn as_str(self) -> &'static str {
        match self {
            TestFailurePolicy::NoGo => Self::NAMES[0],
            TestFailurePolicy::Conditional => Self::NAMES[1],
        }
    }
}

impl std::str::FromStr for TestFailurePolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [TestFailurePolicy::NoGo, TestFailurePolicy::Conditional]
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown test-failure policy '{s}' (expected {})",
                    Self::NAMES.join(" or ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_from_their_configuration_spelling_only() {
        assert_eq!("conditional".parse(), Ok(TestFailurePolicy::Conditional));
        assert_eq!(TestFailurePolicy::default().as_str(), "no-go");
        assert_eq!(
            "maybe".parse::<TestFailurePolicy>(),
            Err("unknown test-failure policy 'maybe' (expected no-go or conditional)".to_string())
        );
    }
}
