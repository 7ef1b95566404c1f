//! Why a spec layout cannot be used: unreadable or malformed files, and the phase gate's refusals
//! (whose first sentences are fixed by the Inspectors spec).

/// A spec layout that cannot be read, or a phase gate that refuses.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// A spec file is malformed.
    #[error("{path}: {reason}")]
    Malformed {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A spec file or folder exists but cannot be read.
    #[error("{path}: cannot read: {reason}")]
    Unreadable {
        /// The file or folder.
        path: String,
        /// The I/O error.
        reason: String,
    },
    /// `specs/<feature>/` does not exist.
    #[error("Spec '{feature}' not found. There is no folder specs/{feature}/; run `ls specs/` to see the features.")]
    NotFound {
        /// The feature asked for.
        feature: String,
    },
    /// design.md or tasks.yaml is missing.
    #[error("Design required. specs/{feature}/{missing} {} missing; write the design and the tasks before reviewing the implementation.", is_or_are(.missing))]
    DesignRequired {
        /// The feature.
        feature: String,
        /// `design.md`, `tasks.yaml`, or both joined with `and`.
        missing: String,
    },
    /// spec.yaml's phase is not `implementation-complete`.
    #[error("Phase is '{phase}'. The phase in specs/{feature}/spec.yaml must be 'implementation-complete' for a feature review.")]
    WrongPhase {
        /// The feature.
        feature: String,
        /// The phase it has (`unset` when spec.yaml or its `phase` is missing).
        phase: String,
    },
    /// spec.yaml's phase is `blocked`.
    #[error("{feature} is blocked by {blocked_by}.")]
    Blocked {
        /// The feature.
        feature: String,
        /// `blocked_info.blocked_by` (`an unnamed dependency` when absent).
        blocked_by: String,
    },
    /// `--tasks` names a task tasks.yaml does not have.
    #[error("Task '{id}' not found in specs/{feature}/tasks.yaml. Its tasks are: {known}.")]
    UnknownTask {
        /// The feature.
        feature: String,
        /// The task id asked for.
        id: String,
        /// The ids tasks.yaml has, comma-separated.
        known: String,
    },
}

/// `is` for one missing file, `are` for two.
fn is_or_are(missing: &str) -> &'static str {
    if missing.contains(" and ") {
        "are"
    } else {
        "is"
    }
}
