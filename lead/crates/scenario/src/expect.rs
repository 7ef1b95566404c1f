//! The `[expect]` table of a scenario file: the outcome a scenario must have.

use serde::Deserialize;
use std::collections::BTreeMap;

/// The `[expect]` table: every key is optional, and only the given ones are checked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The JSON `verdict` (`GO`, `CONDITIONAL`, `NO-GO`, `SPEC-UPDATE-NEEDED`).
    pub verdict: Option<String>,
    /// The JSON `decision` (`APPROVE`, `REQUEST_CHANGES`, `REJECT`, `STOP`).
    pub decision: Option<String>,
    /// The process exit code.
    pub exit_code: Option<i32>,
    /// Each must be a prefix of some JSON note (`PARTIAL:inspector-quality`).
    #[serde(default)]
    pub notes: Vec<String>,
    /// None of the JSON notes may start with any of these.
    #[serde(default)]
    pub absent_notes: Vec<String>,
    /// Logical actor → re-spawns, as the JSON `restarts` object counts them (absent counts 0).
    #[serde(default)]
    pub restarts: BTreeMap<String, u32>,
    /// Must be among the JSON `qualifiers` (`partial coverage (5/6)`).
    pub qualifier: Option<String>,
    /// Report names that must be journaled under `.retake/runs/<run_id>/reports/`.
    #[serde(default)]
    pub reports: Vec<String>,
    /// Upper time bound, seconds; the run is killed at twice this (default 60).
    pub max_seconds: Option<f64>,
    /// No process carrying the scenario's tag may outlive the review (default true).
    #[serde(default = "yes")]
    pub no_leftovers: bool,
    /// A run: tasks completed in `tasks.json`.
    pub tasks_done: Option<u32>,
    /// A run: commits on top of the repository's first commit.
    pub commits: Option<u32>,
    /// A run: timeline events that must occur in this order (`TYPE[:TASK[:ACTOR]]`).
    #[serde(default)]
    pub events: Vec<String>,
    /// A run: text that must appear in its report (standard output).
    #[serde(default)]
    pub report: Vec<String>,
    /// A run: whether `.retake/state/active.json` is left for `retake resume`.
    pub state_file: Option<bool>,
}

impl Default for Expect {
    fn default() -> Self {
        Expect {
            verdict: None,
            decision: None,
            exit_code: None,
            notes: Vec::new(),
            absent_notes: Vec::new(),
            restarts: BTreeMap::new(),
            qualifier: None,
            reports: Vec::new(),
            max_seconds: None,
            no_leftovers: true,
            tasks_done: None,
            commits: None,
            events: Vec::new(),
            report: Vec::new(),
            state_file: None,
        }
    }
}

impl Expect {
    /// The time bound in seconds.
    pub fn max_seconds(&self) -> f64 {
        self.max_seconds.unwrap_or(DEFAULT_MAX_SECONDS)
    }
}

/// The time bound of a scenario that gives none.
pub const DEFAULT_MAX_SECONDS: f64 = 60.0;

fn yes() -> bool {
    true
}
