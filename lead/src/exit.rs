//! How a command ends when it cannot give its result: the exit code and the one-line error.

use outputs::ExitCode;

/// What went wrong, with the exit code it maps to.
pub struct Failure {
    /// Exit code: 2, or 124 for a timeout.
    pub code: ExitCode,
    /// The one-line message.
    pub error: anyhow::Error,
}
