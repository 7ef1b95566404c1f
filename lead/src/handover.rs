//! The session handover after a command (`review::handover`): `retake review`, `run`, `fix`
//! and `resume` each draft `.retake/handover/session.md` once they have an outcome. What the
//! command ended with is described here, in the command line's words; a handover that cannot be
//! written is a warning, never a different exit code.

use crate::exit::Reviewed;
use outputs::ExitCode;
use review::handover::{write, LastCommand};
use std::path::Path;

/// Which command's exit codes an outcome is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A review (`retake review`, a resumed review).
    Review,
    /// A review followed by a fix session (`retake review --fix`).
    ReviewFix,
    /// The team loop (`retake run`, a resumed run).
    Run,
    /// A fix session (`retake fix`).
    Fix,
}

/// What exit `code` of a `kind` command means.
pub fn meaning(kind: Kind, code: ExitCode) -> &'static str {
    match (kind, code) {
        (Kind::Review, ExitCode::Success) => "the gate passed",
        (Kind::Review, ExitCode::Failed) => {
            "the gate failed (NO-GO, REJECT or REQUEST_CHANGES, or findings at or above --fail-level)"
        }
        (Kind::Review, ExitCode::Conditional) => "CONDITIONAL under --strict",
        (Kind::Review, ExitCode::SpecUpdateNeeded) => "the spec needs an update",
        (Kind::Run, ExitCode::Success) => "the result is committed",
        (Kind::ReviewFix | Kind::Fix, ExitCode::Success) => "every group is fixed",
        (_, ExitCode::Escalated) => "escalated: a person must step in",
        (_, ExitCode::Failed) => "the gate failed",
        (_, ExitCode::Error) => "it could not finish (error)",
        (_, ExitCode::TimedOut) => "it ran past its deadline",
        (_, ExitCode::BrokenPipe) => "its output's reader went away",
        (_, ExitCode::Conditional) => "CONDITIONAL under --strict",
        (_, ExitCode::SpecUpdateNeeded) => "the spec needs an update",
    }
}

/// The handover's "Last command" lines for a review that ended as `reviewed`.
pub fn review_outcome(kind: Kind, reviewed: &Reviewed, repo: &Path) -> Vec<String> {
    let mut lines = vec![exit_line(kind, reviewed.code)];
    if let Some(verdict) = reviewed.verdict {
        let decision = reviewed
            .decision
            .map(|(d, g)| format!(", decision {d} (grade {g})"))
            .unwrap_or_default();
        lines.push(format!("verdict {}{decision}", verdict.as_str()));
    }
    if let Some(journal) = &reviewed.journal {
        let shown = journal.strip_prefix(repo).unwrap_or(journal);
        lines.push(format!("journal `{}/`", shown.display()));
    }
    lines
}

/// Drafts the handover of the repository at `path` after a review command.
pub fn after_review(path: &Path, command: &str, reviewed: &Reviewed) {
    let kind = if command.ends_with("--fix") {
        Kind::ReviewFix
    } else {
        Kind::Review
    };
    let repo = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let outcome = review_outcome(kind, reviewed, &repo);
    draft(&repo, command, outcome);
}

/// Drafts the handover of the repository at `path` after a `kind` command that exited with
/// `code`, `details` after the exit line.
pub fn after_command(path: &Path, command: &str, kind: Kind, code: ExitCode, details: Vec<String>) {
    let repo = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut outcome = vec![exit_line(kind, code)];
    outcome.extend(details);
    draft(&repo, command, outcome);
}

fn exit_line(kind: Kind, code: ExitCode) -> String {
    format!("exit {}: {}", code.code(), meaning(kind, code))
}

fn draft(repo: &Path, command: &str, outcome: Vec<String>) {
    let last = LastCommand {
        command: command.to_string(),
        outcome,
    };
    if let Err(e) = write(repo, &last) {
        eprintln!("retake: warning: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Decision, Grade, Verdict};

    #[test]
    fn a_review_s_outcome_names_its_exit_verdict_decision_and_journal() {
        let repo = Path::new("/repo");
        let reviewed = Reviewed {
            code: ExitCode::Failed,
            verdict: Some(Verdict::NoGo),
            decision: Some((Decision::Reject, Grade::D)),
            journal: Some(repo.join(".retake/runs/20260301T100000Z-abcdef")),
        };
        assert_eq!(
            review_outcome(Kind::Review, &reviewed, repo),
            vec![
                "exit 1: the gate failed (NO-GO, REJECT or REQUEST_CHANGES, or findings at or above --fail-level)".to_string(),
                "verdict NO-GO, decision REJECT (grade D)".to_string(),
                "journal `.retake/runs/20260301T100000Z-abcdef/`".to_string(),
            ]
        );
    }

    #[test]
    fn each_command_reads_its_exit_codes() {
        assert_eq!(
            meaning(Kind::Run, ExitCode::Success),
            "the result is committed"
        );
        assert_eq!(
            meaning(Kind::Run, ExitCode::Escalated),
            "escalated: a person must step in"
        );
        assert_eq!(
            meaning(Kind::Fix, ExitCode::Success),
            "every group is fixed"
        );
        assert_eq!(meaning(Kind::Review, ExitCode::Success), "the gate passed");
        assert_eq!(meaning(Kind::Run, ExitCode::Failed), "the gate failed");
    }
}
