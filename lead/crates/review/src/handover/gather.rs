//! What the handover's drafted sections say, read from the repository's `.retake/` and spec
//! layout after a command: the last batches of every verdicts.md, the last steering decisions,
//! and what waits for a person — proposals, Tracked issues, an interrupted review or run, failed
//! tasks. Reading never fails a command: a file that cannot be read is named in its place.

use crate::state::{ActiveReview, StateError};
use crate::steering::{proposals, DECISIONS_MD};
use crate::verdicts_md::summaries;
use std::path::Path;

/// How many batches of each verdicts.md, and lines of decisions.md, the handover shows.
pub const LAST: usize = 5;

/// How many Tracked issues the handover lists before it counts the rest.
pub const MAX_TRACKED: usize = 20;

/// The drafted sections' facts, as list lines.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Facts {
    /// `- [B3] <time> NO-GO — ESCALATED (<file>)`, per verdicts.md, oldest first.
    pub verdicts: Vec<String>,
    /// The last lines of `steering/decisions.md`.
    pub decisions: Vec<String>,
    /// What waits for a person.
    pub pending: Vec<String>,
}

/// Reads the facts of `repo`.
pub fn facts(repo: &Path) -> Facts {
    let state_dir = repo.join(".retake");
    let mut out = Facts::default();
    let mut tracked = Vec::new();
    for rel in verdicts_files(repo) {
        let text = match std::fs::read_to_string(repo.join(&rel)) {
            Ok(t) => t,
            Err(e) => {
                out.verdicts.push(format!("- cannot read {rel}: {e}"));
                continue;
            }
        };
        let batches = summaries(&text);
        let from = batches.len().saturating_sub(LAST);
        for b in &batches[from..] {
            let disposition = b
                .disposition
                .as_deref()
                .map(|d| format!(" — {d}"))
                .unwrap_or_default();
            out.verdicts.push(format!(
                "- [B{}] {} {}{disposition} ({rel})",
                b.seq, b.timestamp, b.verdict
            ));
        }
        if let Some(newest) = batches.last() {
            tracked.extend(newest.tracked.iter().map(|i| {
                format!(
                    "- Tracked ({rel}): {} {} at {}: {}",
                    i.severity, i.category, i.location, i.description
                )
            }));
        }
    }
    out.decisions = last_lines(&repo.join(DECISIONS_MD), LAST);
    out.pending.extend(proposal_lines(&state_dir));
    let shown = tracked.len().min(MAX_TRACKED);
    let more = tracked.len() - shown;
    out.pending.extend(tracked.into_iter().take(shown));
    if more > 0 {
        out.pending
            .push(format!("- … and {more} more Tracked issues"));
    }
    out.pending.extend(interrupted(&state_dir));
    out.pending.extend(failed_tasks(&state_dir));
    out
}

/// `.retake/verdicts.md` and every `specs/<feature>/verdicts.md`, repository-relative, sorted.
fn verdicts_files(repo: &Path) -> Vec<String> {
    let mut files = Vec::new();
    if repo.join(".retake/verdicts.md").is_file() {
        files.push(".retake/verdicts.md".to_string());
    }
    let mut specs: Vec<String> = std::fs::read_dir(repo.join("specs"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .map(|feature| format!("specs/{feature}/verdicts.md"))
        .filter(|rel| repo.join(rel).is_file())
        .collect();
    specs.sort();
    files.extend(specs);
    files
}

/// The last `n` non-blank lines of a file; none when it does not exist.
fn last_lines(path: &Path, n: usize) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// The proposals waiting for an answer.
fn proposal_lines(state_dir: &Path) -> Vec<String> {
    match proposals::pending(state_dir) {
        Ok(pending) => pending
            .iter()
            .map(|p| {
                format!(
                    "- Proposal {} for {}: {} (review {}; answer with `retake review --answer {}=yes` or `=no`)",
                    p.id, p.target, p.text, p.run_id, p.id
                )
            })
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => vec![format!(
            "- cannot read .retake/{}: {e}",
            proposals::PROPOSALS_FILE
        )],
    }
}

/// The interrupted review or run `.retake/state/active.json` records.
fn interrupted(state_dir: &Path) -> Option<String> {
    match crate::state::kind(state_dir) {
        Ok(kind) if kind == "review" => Some(match ActiveReview::read(state_dir) {
            Ok(a) => format!(
                "- An interrupted review ({}, {}) waits for `retake resume`",
                a.run_id,
                a.scope.label()
            ),
            Err(e) => format!("- An interrupted review waits for `retake resume` ({e})"),
        }),
        Ok(_) => Some("- An interrupted run waits for `retake resume`".to_string()),
        Err(StateError::Missing(_)) => None,
        Err(e) => Some(format!("- {e}")),
    }
}

/// The tasks the team loop's `tasks.json` records as failed.
fn failed_tasks(state_dir: &Path) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Doc {
        tasks: Vec<protocol::Task>,
    }
    let path = state_dir.join("state").join("tasks.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Vec::new();
    };
    match serde_json::from_str::<Doc>(&text) {
        Ok(doc) => doc
            .tasks
            .iter()
            .filter(|t| t.status == protocol::TaskStatus::Failed)
            .map(|t| {
                format!(
                    "- Task {} failed after {} attempt(s): {}",
                    t.id, t.attempts, t.subject
                )
            })
            .collect(),
        Err(e) => vec![format!("- cannot read .retake/state/tasks.json: {e}")],
    }
}

#[cfg(test)]
mod tests;
