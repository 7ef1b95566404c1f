//! What an Inspector sends the Auditor: findings, notes, structured claims and coverage.

use super::finding::Finding;
use super::kinds::InspectorKind;
use super::severity::Severity;
use super::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// A structured claim beside the findings, so the Auditor can detect contradictions and check coverage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Claim {
    /// The test command ran: how many passed, failed and were skipped.
    TestsRun {
        /// Passing tests.
        passed: u32,
        /// Failing tests.
        failed: u32,
        /// Skipped or ignored tests.
        skipped: u32,
    },
    /// The tests could not be run (missing tool, timeout, `--no-exec`).
    TestsNotRun {
        /// Why.
        reason: String,
    },
    /// Designed signatures compared with the code.
    SignaturesChecked {
        /// How many matched.
        matched: u32,
        /// How many were designed.
        total: u32,
    },
    /// Tasks in tasks.yaml checked for completion.
    TasksChecked {
        /// Marked done.
        complete: u32,
        /// In all.
        total: u32,
    },
    /// Error handling checked (quality): in how many files, and how many problems were found;
    /// `issues: 0` is the claim "error handling is fine".
    ErrorHandlingChecked {
        /// Files whose error handling was checked.
        files: u32,
        /// Problems found.
        issues: u32,
    },
    /// One task judged complete (rulebase), with the files that implement it.
    TaskComplete {
        /// The task id from tasks.yaml.
        id: String,
        /// Repository-relative paths of the task's files.
        files: Vec<String>,
    },
    /// Files reviewed, by repository-relative path.
    FilesCovered {
        /// The paths.
        paths: Vec<String>,
    },
    /// Designed interfaces compared with the code, by name.
    InterfacesCovered {
        /// The interface names as the design writes them.
        names: Vec<String>,
    },
    /// Error scenarios of the design checked, by name.
    ErrorScenariosCovered {
        /// The scenario names as the design writes them.
        names: Vec<String>,
    },
    /// Tasks checked, by id.
    TasksCovered {
        /// The task ids.
        ids: Vec<String>,
    },
    /// Cross-feature integration points checked, by name.
    IntegrationPointsCovered {
        /// The integration point names.
        names: Vec<String>,
    },
    /// A pattern done the same way in every module that uses it (consistency): a CODIFY candidate.
    PatternConsistent {
        /// The pattern, in words (`errors: thiserror enums`).
        pattern: String,
        /// The modules (paths or names) that use it.
        modules: Vec<String>,
    },
    /// Designed interfaces outside the review's scope, by name: the reviewed files do not
    /// define them and their feature declares files the review did not read (another task's),
    /// so the review that reads those files covers them, not this one.
    InterfacesOutOfScope {
        /// The interface names as the design writes them.
        names: Vec<String>,
    },
}

/// A file the Inspector did not review, and why (too large, binary, generated, unparsable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Repository-relative path.
    pub path: String,
    /// Why it was skipped.
    pub reason: String,
}

/// What an Inspector covered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Coverage {
    /// Files reviewed.
    pub files_reviewed: u32,
    /// Files skipped, with reasons; never silently dropped.
    pub skipped: Vec<Skipped>,
}

/// One Inspector's report on one review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InspectorReport {
    /// The review it belongs to.
    pub review: String,
    /// The reporting agent's name (`inspector-quality`, or a CPF file's stem).
    pub inspector: String,
    /// The Inspector kind, when a built-in Inspector wrote it.
    pub kind: Option<InspectorKind>,
    /// The scope label (`repository`, a feature, `cross-check`, …).
    pub scope: String,
    /// Findings.
    pub findings: Vec<Finding>,
    /// Advisory notes, one per entry.
    pub notes: Vec<String>,
    /// Structured claims.
    pub claims: Vec<Claim>,
    /// What was covered.
    pub coverage: Coverage,
    /// A session review's findings that the change did not introduce: on untouched lines of
    /// the files it changed, or about a file that existed before (`--filter added`, the
    /// default). Listed apart as "already there"; never in `findings`, so they never reach the
    /// Auditor's verdict, decision or grade, nor the gate. Empty for every other scope and filter.
    /// The journal's JSON keeps them (a journal written before the field reads as empty); CPF
    /// has no place for them.
    #[serde(default)]
    pub preexisting: Vec<Finding>,
}

impl InspectorReport {
    /// The Inspector's own verdict for its CPF `VERDICT:` line: any Critical → NO-GO,
    /// any High → CONDITIONAL, else GO.
    pub fn own_verdict(&self) -> Verdict {
        match self.findings.iter().map(|f| f.severity).max() {
            Some(Severity::Critical) => Verdict::NoGo,
            Some(Severity::High) => Verdict::Conditional,
            _ => Verdict::Go,
        }
    }
}
