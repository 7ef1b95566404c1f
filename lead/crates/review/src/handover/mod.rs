//! The session handover, `.retake/handover/session.md`: what the next session (a person, or an
//! agent picking the work up) needs to know, drafted after every `review`, `run`, `fix` and
//! `resume`. retake writes "Last command", "Verdicts and decisions" and "Pending" fresh each
//! time; "Steering Exceptions", "Notes" and any section it does not draft are the user's and
//! keep their bytes. The Steering Exceptions table ([`exceptions`]) is also an input: a review
//! reads it as committed and the Auditor removes the findings it covers.
//!
//! [`render`] is pure (previous text and facts to new text); [`gather`] reads the facts;
//! [`write`] puts both together and replaces the file atomically.

pub mod exceptions;
pub mod gather;
mod render;

pub use render::{render, DRAFTED, NOTES};

use std::path::{Path, PathBuf};

/// The handover's path, relative to the repository.
pub use inspector::engine::HANDOVER_PATH;

/// What the drafted sections say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Draft {
    /// The command that just ran (`retake review`).
    pub command: String,
    /// When it ended (RFC 3339, UTC).
    pub at: String,
    /// What it ended with, one list item each (`exit 1: the gate failed`, `verdict NO-GO`).
    pub outcome: Vec<String>,
    /// The last batches of every verdicts.md, as list lines.
    pub verdicts: Vec<String>,
    /// The last lines of `steering/decisions.md`.
    pub decisions: Vec<String>,
    /// What waits for a person, as list lines.
    pub pending: Vec<String>,
}

/// What a command ended with, as its caller knows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LastCommand {
    /// The command (`retake run`).
    pub command: String,
    /// Its outcome, one list item each.
    pub outcome: Vec<String>,
}

/// Why the handover could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct HandoverError {
    /// The handover's path.
    pub path: String,
    /// The error.
    pub source: std::io::Error,
}

/// Drafts `repo`'s handover after `last`: the facts read now, the user's sections of the file
/// as it is kept. Returns the file written.
pub fn write(repo: &Path, last: &LastCommand) -> Result<PathBuf, HandoverError> {
    let path = repo.join(HANDOVER_PATH);
    let failed = |source| HandoverError {
        path: path.display().to_string(),
        source,
    };
    let previous = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        // Never draft over a file that could not be read: the user's sections would be lost.
        Err(e) => return Err(failed(e)),
    };
    let facts = gather::facts(repo);
    let draft = Draft {
        command: last.command.clone(),
        at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        outcome: last.outcome.clone(),
        verdicts: facts.verdicts,
        decisions: facts.decisions,
        pending: facts.pending,
    };
    let text = render(previous.as_deref(), &draft);
    host::journal::write_atomic(&path, text.as_bytes()).map_err(failed)?;
    Ok(path)
}

/// The body of the section titled `title` (its heading line left out), when `text` has one.
pub fn section_body(text: &str, title: &str) -> Option<String> {
    let (_, sections) = render::sections(text);
    sections
        .iter()
        .find(|s| render::is(s.title, title))
        .map(|s| {
            s.text
                .split_once('\n')
                .map_or(String::new(), |(_, body)| body.to_string())
        })
}

#[cfg(test)]
mod tests;
