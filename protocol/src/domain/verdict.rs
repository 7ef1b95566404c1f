//! The Auditor's verdict, the team-loop decision with its grade, and the disposition of a batch.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The Auditor's verdict on a review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// `GO` — nothing blocks the change.
    #[serde(rename = "GO")]
    Go,
    /// `CONDITIONAL` — may go with tracked issues.
    #[serde(rename = "CONDITIONAL")]
    Conditional,
    /// `NO-GO` — must be fixed first.
    #[serde(rename = "NO-GO")]
    NoGo,
    /// `SPEC-UPDATE-NEEDED` — the spec, not the code, must change.
    #[serde(rename = "SPEC-UPDATE-NEEDED")]
    SpecUpdateNeeded,
}

impl Verdict {
    /// The exact text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Go => "GO",
            Verdict::Conditional => "CONDITIONAL",
            Verdict::NoGo => "NO-GO",
            Verdict::SpecUpdateNeeded => "SPEC-UPDATE-NEEDED",
        }
    }

    /// Precedence: NO-GO > SPEC-UPDATE-NEEDED > CONDITIONAL > GO.
    pub fn precedence(self) -> u8 {
        match self {
            Verdict::Go => 0,
            Verdict::Conditional => 1,
            Verdict::SpecUpdateNeeded => 2,
            Verdict::NoGo => 3,
        }
    }

    /// The more severe of two verdicts by precedence.
    pub fn worst(self, other: Verdict) -> Verdict {
        if other.precedence() > self.precedence() {
            other
        } else {
            self
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text that is not one of the closed set of values of a domain enum.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{value}' (expected one of: {expected})")]
pub struct UnknownValue {
    /// What was being parsed ("verdict", "decision", …).
    pub kind: &'static str,
    /// The text that was given.
    pub value: String,
    /// The accepted text forms, comma separated.
    pub expected: &'static str,
}

impl FromStr for Verdict {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "GO" => Ok(Verdict::Go),
            "CONDITIONAL" => Ok(Verdict::Conditional),
            "NO-GO" => Ok(Verdict::NoGo),
            "SPEC-UPDATE-NEEDED" => Ok(Verdict::SpecUpdateNeeded),
            other => Err(UnknownValue {
                kind: "verdict",
                value: other.to_string(),
                expected: "GO, CONDITIONAL, NO-GO, SPEC-UPDATE-NEEDED",
            }),
        }
    }
}

/// The team loop's decision, computed beside every verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// `APPROVE` (grade A or B).
    #[serde(rename = "APPROVE")]
    Approve,
    /// `REQUEST_CHANGES` (grade C).
    #[serde(rename = "REQUEST_CHANGES")]
    RequestChanges,
    /// `REJECT` (grade D).
    #[serde(rename = "REJECT")]
    Reject,
    /// `STOP` (grade N/A): build, test or environment failure.
    #[serde(rename = "STOP")]
    Stop,
}

impl Decision {
    /// The exact text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Approve => "APPROVE",
            Decision::RequestChanges => "REQUEST_CHANGES",
            Decision::Reject => "REJECT",
            Decision::Stop => "STOP",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The grade that goes with a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Grade {
    /// Approve with no Medium or above.
    A,
    /// Approve with Medium findings.
    B,
    /// Request changes.
    C,
    /// Reject.
    D,
    /// Stop: no grade.
    #[serde(rename = "N/A")]
    NotApplicable,
}

impl Grade {
    /// The exact text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
            Grade::D => "D",
            Grade::NotApplicable => "N/A",
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What was done about a verdicts.md batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Disposition {
    /// `GO-ACCEPTED`.
    #[serde(rename = "GO-ACCEPTED")]
    GoAccepted,
    /// `CONDITIONAL-TRACKED`.
    #[serde(rename = "CONDITIONAL-TRACKED")]
    ConditionalTracked,
    /// `NO-GO-FIXED`.
    #[serde(rename = "NO-GO-FIXED")]
    NoGoFixed,
    /// `SPEC-UPDATE-CASCADED`.
    #[serde(rename = "SPEC-UPDATE-CASCADED")]
    SpecUpdateCascaded,
    /// `ESCALATED`.
    #[serde(rename = "ESCALATED")]
    Escalated,
}

impl Disposition {
    /// The exact text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::GoAccepted => "GO-ACCEPTED",
            Disposition::ConditionalTracked => "CONDITIONAL-TRACKED",
            Disposition::NoGoFixed => "NO-GO-FIXED",
            Disposition::SpecUpdateCascaded => "SPEC-UPDATE-CASCADED",
            Disposition::Escalated => "ESCALATED",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_text_round_trips_and_precedence_holds() {
        for v in [
            Verdict::Go,
            Verdict::Conditional,
            Verdict::NoGo,
            Verdict::SpecUpdateNeeded,
        ] {
            assert_eq!(v.as_str().parse::<Verdict>(), Ok(v));
        }
        assert_eq!(
            Verdict::SpecUpdateNeeded.worst(Verdict::NoGo),
            Verdict::NoGo
        );
        assert_eq!(
            Verdict::Conditional.worst(Verdict::SpecUpdateNeeded),
            Verdict::SpecUpdateNeeded
        );
        assert_eq!(Verdict::Go.worst(Verdict::Go), Verdict::Go);
        assert!("GOOD"
            .parse::<Verdict>()
            .unwrap_err()
            .to_string()
            .contains("GOOD"));
    }
}
