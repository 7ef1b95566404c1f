//! The quality criteria Q1–Q9, the per-criterion result and the issues a REJECT reports.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the task runner's quality criteria: Q1–Q6 are always judged, Q7–Q9 when the caller
/// gives the command that decides them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Criterion {
    /// Q1: expected files exist (and changed where the task says so).
    Q1,
    /// Q2: no TODO/FIXME/TBD left.
    Q2,
    /// Q3: no omission markers.
    Q3,
    /// Q4: no incomplete syntax in changed files.
    Q4,
    /// Q5: evidence of completion present.
    Q5,
    /// Q6: no early termination claim in the output.
    Q6,
    /// Q7: tests pass.
    Q7,
    /// Q8: lint passes.
    Q8,
    /// Q9: type check passes.
    Q9,
}

impl Criterion {
    /// The criteria that must all pass before a PASS, in report order.
    pub const MANDATORY: [Criterion; 6] = [
        Criterion::Q1,
        Criterion::Q2,
        Criterion::Q3,
        Criterion::Q4,
        Criterion::Q5,
        Criterion::Q6,
    ];

    /// The exact id (`Q1` … `Q9`).
    pub fn id(self) -> &'static str {
        match self {
            Criterion::Q1 => "Q1",
            Criterion::Q2 => "Q2",
            Criterion::Q3 => "Q3",
            Criterion::Q4 => "Q4",
            Criterion::Q5 => "Q5",
            Criterion::Q6 => "Q6",
            Criterion::Q7 => "Q7",
            Criterion::Q8 => "Q8",
            Criterion::Q9 => "Q9",
        }
    }

    /// The criterion's name as the seed's table gives it.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Q1 => "Files Verified",
            Criterion::Q2 => "No TODO/FIXME Left",
            Criterion::Q3 => "No Omission Markers",
            Criterion::Q4 => "No Incomplete Syntax",
            Criterion::Q5 => "Evidence Present",
            Criterion::Q6 => "No Early Termination",
            Criterion::Q7 => "Test Passed",
            Criterion::Q8 => "Lint Passed",
            Criterion::Q9 => "TypeCheck Passed",
        }
    }
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The result of one criterion for one iteration (`Q2`, or a template criterion such as `GD5`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriterionResult {
    /// `Q1` … `Q9`, `GD1` … `GD5`, or a template id when its evaluator failed.
    pub criteria_id: String,
    /// Whether it was met.
    pub passed: bool,
    /// Why it failed (or what was checked), when there is something to say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
}

impl CriterionResult {
    /// A met criterion.
    pub fn pass(id: impl Into<String>) -> CriterionResult {
        CriterionResult {
            criteria_id: id.into(),
            passed: true,
            details: None,
        }
    }

    /// A failed criterion with the reason.
    pub fn fail(id: impl Into<String>, details: impl Into<String>) -> CriterionResult {
        CriterionResult {
            criteria_id: id.into(),
            passed: false,
            details: Some(details.into()),
        }
    }
}

/// The kind of a detected issue: the seed's five, then `check_failed` for Q7–Q9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueType {
    /// Something was left out (`...`, `// rest omitted`).
    Omission,
    /// Work left unfinished (a TODO, no change, no usable output).
    Incomplete,
    /// An expected file is missing or unchanged.
    MissingFile,
    /// The output declares completion early ("Done.").
    EarlyTermination,
    /// A changed file does not parse.
    SyntaxError,
    /// A test, lint or type-check command failed.
    CheckFailed,
    /// A finding the fix task was made for is still reported (or could not be checked).
    NotFixed,
    /// The change silences a check instead of doing the work (suppressions only, weakened tests).
    Evasion,
}

impl IssueType {
    /// The exact text form used in events and the modification prompt.
    pub fn as_str(self) -> &'static str {
        match self {
            IssueType::Omission => "omission",
            IssueType::Incomplete => "incomplete",
            IssueType::MissingFile => "missing_file",
            IssueType::EarlyTermination => "early_termination",
            IssueType::SyntaxError => "syntax_error",
            IssueType::CheckFailed => "check_failed",
            IssueType::NotFixed => "not_fixed",
            IssueType::Evasion => "evasion",
        }
    }
}

/// One detected problem, as REJECTION_DETAILS and the modification prompt list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// What kind of problem.
    #[serde(rename = "type")]
    pub kind: IssueType,
    /// `path:line`, `output:line` or a path, when the problem has a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// What is wrong.
    pub description: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl Issue {
    /// An issue with a location and a suggestion.
    pub fn new(
        kind: IssueType,
        location: Option<String>,
        description: impl Into<String>,
        suggestion: impl Into<String>,
    ) -> Issue {
        Issue {
            kind,
            location,
            description: description.into(),
            suggestion: Some(suggestion.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_serialise_with_the_seed_field_names() {
        let issue = Issue::new(
            IssueType::Omission,
            Some("src/utils.ts:45".into()),
            "Code ends with '// 残りは同様に実装'",
            "Implement all remaining functions without omission",
        );
        assert_eq!(
            serde_json::to_string(&issue).expect("json"),
            r#"{"type":"omission","location":"src/utils.ts:45","description":"Code ends with '// 残りは同様に実装'","suggestion":"Implement all remaining functions without omission"}"#
        );
        assert_eq!(Criterion::Q9.to_string(), "Q9");
        assert_eq!(Criterion::Q6.name(), "No Early Termination");
    }
}
