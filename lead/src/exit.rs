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
/// verdict (a service job records both without reading its report back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reviewed {
    /// The command's exit code.
    pub code: ExitCode,
    /// The review's verdict.
    pub verdict: Option<protocol::Verdict>,
}
