//! What the design and the steering files of a review say, as the Lead hands them to the
//! Auditor with its `AuditRequest`: the spec context, its exemptions and the session handover's
//! Steering Exceptions.
//!
//! Wire rule as in `message.rs`: append-only, no serde attribute bincode cannot carry.

use serde::{Deserialize, Serialize};

/// What the design and the steering files of a review say, as plain data the Lead reads from
/// the spec layout so that the Auditor never opens a spec file (the Auditor spec, steps 3, 4, 8, 9).
/// Empty (the default) turns the design-dependent checks off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SpecContext {
    /// Files the design names (Components table, spec.yaml and tasks `files`), repository-relative.
    pub design_files: Vec<String>,
    /// Interfaces the design defines, by name.
    pub design_interfaces: Vec<String>,
    /// Error scenarios the design's Error Handling section names.
    pub design_error_scenarios: Vec<String>,
    /// Task ids of tasks.yaml.
    pub design_tasks: Vec<String>,
    /// Cross-feature integration points the design names.
    pub integration_points: Vec<String>,
    /// Deviations the design documents as intentional.
    pub documented_deviations: Vec<SpecExemption>,
    /// Patterns the steering files allow.
    pub allowed_patterns: Vec<SpecExemption>,
    /// Parameter names the design marks optional.
    pub optional_parameters: Vec<String>,
    /// Files the reviewed change touches (session scopes), repository-relative.
    pub changed_files: Vec<String>,
    /// The design text of the features in scope.
    pub design_text: String,
    /// The steering files' text.
    pub steering_text: String,
    /// The Steering Exceptions of `.retake/handover/session.md` for the features in scope, as
    /// committed: rules a person suspended, each removed with a `REMOVED` row.
    pub steering_exceptions: Vec<SteeringException>,
}

/// A documented deviation or an allowed pattern: which findings it covers and why. Every part
/// given must match a finding; one with no part matches nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SpecExemption {
    /// The finding's category.
    pub category: Option<String>,
    /// The finding's path, or a folder prefix ending with `/`.
    pub path: Option<String>,
    /// Text the finding's description contains (case-insensitive).
    pub mentions: Option<String>,
    /// Why it is allowed.
    pub reason: String,
}

/// A rule a person suspended for a feature (a row of the handover's Steering Exceptions): the
/// findings it covers are removed, the exception quoted as the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SteeringException {
    /// The feature (`specs/<feature>/`) it holds for, or `*` for every review.
    pub feature: String,
    /// A rule id (`quality/unwrap-in-library`) or a finding category (`unwrap-in-library`).
    pub rule: String,
    /// A repository path, or a folder ending with `/`; `None`: anywhere.
    pub path: Option<String>,
    /// Who decided it.
    pub decided_by: String,
    /// Why.
    pub reason: String,
}
