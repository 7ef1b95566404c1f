//! What a task runner loop leaves behind: the final status and the history of its iterations,
//! for the Lead's completion and escalation reports.

use crate::criteria::{CriterionResult, Issue};
use crate::timeline::LoopStatus;
use protocol::domain::Judgment;
use serde::{Deserialize, Serialize};

/// A REJECT's details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectionDetails {
    /// The failed criteria ids.
    pub criteria_failed: Vec<String>,
    /// The issues found.
    pub issues_detected: Vec<Issue>,
    /// The modification prompt built from them.
    pub modification_prompt: String,
    /// The iteration that was rejected.
    pub iteration: u32,
}

/// One iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IterationRecord {
    /// From 1.
    pub iteration: u32,
    /// ISO 8601 start.
    pub started_at: String,
    /// ISO 8601 end.
    pub ended_at: String,
    /// PASS, REJECT or RETRY.
    pub judgment: Judgment,
    /// Every criterion judged (empty for a RETRY).
    pub criteria_results: Vec<CriterionResult>,
    /// Present for a REJECT.
    pub rejection_details: Option<RejectionDetails>,
    /// The executor's standard output (lossy UTF-8).
    pub output: String,
}

impl IterationRecord {
    /// The failed criteria ids.
    pub fn criteria_failed(&self) -> Vec<String> {
        self.criteria_results
            .iter()
            .filter(|c| !c.passed)
            .map(|c| c.criteria_id.clone())
            .collect()
    }
}

/// How the loop ended and what happened on the way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopResult {
    /// COMPLETE, INCOMPLETE, AWAITING_RESPONSE (escalated) or ERROR.
    pub final_status: LoopStatus,
    /// Iterations run.
    pub total_iterations: u32,
    /// Every iteration, in order.
    pub iteration_history: Vec<IterationRecord>,
    /// The last executor output.
    pub final_output: String,
    /// The last REJECT's modification prompt: what is still wrong, for an escalation.
    pub last_modification_prompt: Option<String>,
}

impl Default for LoopResult {
    fn default() -> Self {
        LoopResult {
            final_status: LoopStatus::Incomplete,
            total_iterations: 0,
            iteration_history: Vec::new(),
            final_output: String::new(),
            last_modification_prompt: None,
        }
    }
}

impl LoopResult {
    /// Whether the task was judged PASS.
    pub fn is_complete(&self) -> bool {
        self.final_status == LoopStatus::Complete
    }

    /// Whether the task must go back to the Lead (reassign, split or ask the user).
    pub fn is_escalated(&self) -> bool {
        self.final_status == LoopStatus::AwaitingResponse
    }

    /// The issues of the last REJECT, for an escalation report.
    pub fn unresolved_issues(&self) -> &[Issue] {
        self.iteration_history
            .iter()
            .rev()
            .find_map(|r| r.rejection_details.as_ref())
            .map_or(&[], |d| d.issues_detected.as_slice())
    }
}
