//! How a `retake` command ends: the exit codes of the outputs spec, as a type.

/// A command's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExitCode {
    /// 0 — GO / APPROVE, nothing at or above the fail level; a command that did what it was
    /// asked.
    Success,
    /// 1 — NO-GO / REJECT / REQUEST_CHANGES, or findings at or above `--fail-level`; a scenario
    /// or fix that did not pass.
    Failed,
    /// 2 — usage, configuration or internal error (never 0 on an internal error).
    Error,
    /// 3 — CONDITIONAL with `--strict`.
    Conditional,
    /// 4 — SPEC-UPDATE-NEEDED.
    SpecUpdateNeeded,
    /// 5 — escalated: a person must step in (team loop, fix).
    Escalated,
    /// 124 — the whole command ran past its deadline.
    TimedOut,
    /// 141 — the reader of the output went away (128 + SIGPIPE).
    BrokenPipe,
}

impl ExitCode {
    /// The number the process exits with.
    pub const fn code(self) -> u8 {
        match self {
            ExitCode::Success => 0,
            ExitCode::Failed => 1,
            ExitCode::Error => 2,
            ExitCode::Conditional => 3,
            ExitCode::SpecUpdateNeeded => 4,
            ExitCode::Escalated => 5,
            ExitCode::TimedOut => 124,
            ExitCode::BrokenPipe => 141,
        }
    }

    /// Whether the command succeeded.
    pub const fn is_success(self) -> bool {
        matches!(self, ExitCode::Success)
    }
}

impl std::fmt::Display for ExitCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::ExitCode;

    #[test]
    fn the_numbers_are_the_outputs_specs() {
        let all = [
            ExitCode::Success,
            ExitCode::Failed,
            ExitCode::Error,
            ExitCode::Conditional,
            ExitCode::SpecUpdateNeeded,
            ExitCode::Escalated,
            ExitCode::TimedOut,
            ExitCode::BrokenPipe,
        ];
        let codes: Vec<u8> = all.iter().map(|c| c.code()).collect();
        assert_eq!(codes, [0, 1, 2, 3, 4, 5, 124, 141]);
        assert_eq!(ExitCode::TimedOut.to_string(), "124");
    }
}
