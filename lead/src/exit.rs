//! How a command ends: the exit code and the verdict it reached ([`Reviewed`]), or, when it
//! cannot give its result, the exit code and the one-line error ([`Failure`]).

use outputs::ExitCode;

/// What went wrong, with the exit code it maps to.
pub struct Failure {
    /// Exit code: 2, or 124 for a timeout.
    pub code: ExitCode,
    /// The one-line message.
    pub error: anyhow::Error,
}

/// What a review command ended with: its exit code and, when the review reached one, the
/// verdict (a service job records both without reading its report back), the team loop's
/// decision and grade, and the journal folder (what the session handover names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewed {
    /// The command's exit code.
    pub code: ExitCode,
    /// The review's verdict.
    pub verdict: Option<protocol::Verdict>,
    /// The verdict's decision and grade.
    pub decision: Option<(protocol::Decision, protocol::Grade)>,
    /// The review's journal folder (`.retake/runs/<id>/`).
    pub journal: Option<std::path::PathBuf>,
}
