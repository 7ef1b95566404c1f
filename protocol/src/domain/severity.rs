//! Severity of a finding: the four CPF letters and the team-loop words that map onto them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How bad a finding is. Ordered: `Low < Medium < High < Critical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Severity {
    /// `L` — minor or informational.
    #[serde(rename = "L")]
    Low,
    /// `M` — a warning.
    #[serde(rename = "M")]
    Medium,
    /// `H` — a major problem.
    #[serde(rename = "H")]
    High,
    /// `C` — blocks the change.
    #[serde(rename = "C")]
    Critical,
}

impl Severity {
    /// Every severity, most severe first (the order reports list them in).
    pub const ALL_DESC: [Severity; 4] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
    ];

    /// The CPF letter: `C`, `H`, `M` or `L`.
    pub fn letter(self) -> &'static str {
        match self {
            Severity::Critical => "C",
            Severity::High => "H",
            Severity::Medium => "M",
            Severity::Low => "L",
        }
    }

    /// The human word used in reports.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Critical => "Critical",
            Severity::High => "High",
            Severity::Medium => "Medium",
            Severity::Low => "Low",
        }
    }

    /// Maps the team-loop words (critical, major, warning, minor, info) onto a severity.
    pub fn from_team_word(word: &str) -> Option<Severity> {
        match word.trim().to_ascii_lowercase().as_str() {
            "critical" => Some(Severity::Critical),
            "major" => Some(Severity::High),
            "warning" => Some(Severity::Medium),
            "minor" | "info" => Some(Severity::Low),
            _ => None,
        }
    }

    /// One level more severe (Critical stays Critical).
    pub fn raised(self) -> Severity {
        match self {
            Severity::Low => Severity::Medium,
            Severity::Medium => Severity::High,
            Severity::High | Severity::Critical => Severity::Critical,
        }
    }

    /// One level less severe (Low stays Low).
    pub fn lowered(self) -> Severity {
        match self {
            Severity::Critical => Severity::High,
            Severity::High => Severity::Medium,
            Severity::Medium | Severity::Low => Severity::Low,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// The text was not one of `C`, `H`, `M`, `L`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown severity '{0}' (expected C, H, M or L)")]
pub struct UnknownSeverity(pub String);

impl FromStr for Severity {
    type Err = UnknownSeverity;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "C" => Ok(Severity::Critical),
            "H" => Ok(Severity::High),
            "M" => Ok(Severity::Medium),
            "L" => Ok(Severity::Low),
            other => Err(UnknownSeverity(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_and_order() {
        for s in Severity::ALL_DESC {
            assert_eq!(s.letter().parse::<Severity>(), Ok(s));
        }
        assert!(Severity::Critical > Severity::High && Severity::Medium > Severity::Low);
        assert_eq!("X".parse::<Severity>(), Err(UnknownSeverity("X".into())));
    }

    #[test]
    fn team_words_map_as_the_spec_says() {
        assert_eq!(Severity::from_team_word("major"), Some(Severity::High));
        assert_eq!(Severity::from_team_word("warning"), Some(Severity::Medium));
        assert_eq!(Severity::from_team_word("info"), Some(Severity::Low));
        assert_eq!(Severity::Low.lowered(), Severity::Low);
        assert_eq!(Severity::High.raised(), Severity::Critical);
    }
}
