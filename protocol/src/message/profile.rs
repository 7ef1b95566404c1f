//! The rule profile an Inspector runs under.

use serde::{Deserialize, Serialize};

/// Which rules run by default (`[rules] profile`, `--profile`). Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum RuleProfile {
    /// The rules precise enough to be on by default, with severities capped where a rule is
    /// not precise enough to raise High or Critical.
    #[default]
    Default,
    /// Every rule at its own severity: the opt-in, noisier profile.
    Pedantic,
}

impl RuleProfile {
    /// The configuration spelling: `default` or `pedantic`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleProfile::Default => "default",
            RuleProfile::Pedantic => "pedantic",
        }
    }
}

impl std::str::FromStr for RuleProfile {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "default" => Ok(RuleProfile::Default),
            "pedantic" => Ok(RuleProfile::Pedantic),
            other => Err(format!(
                "unknown rule profile '{other}' (expected default or pedantic)"
            )),
        }
    }
}

impl std::fmt::Display for RuleProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_from_their_configuration_spelling_only() {
        assert_eq!("pedantic".parse(), Ok(RuleProfile::Pedantic));
        assert_eq!(RuleProfile::Default.to_string(), "default");
        assert_eq!(
            "strict".parse::<RuleProfile>(),
            Err("unknown rule profile 'strict' (expected default or pedantic)".to_string())
        );
    }
}
