//! Applying the Auditor's `STEERING` rows after a review's verdict (the Auditor spec, step 9).
//!
//! - **CODIFY** is applied at once: its text becomes a `- …` line of its target steering file
//!   (created with a title when missing) and a dated line of [`DECISIONS_MD`]. Both writes are
//!   atomic and idempotent: a line already there is not written again, so the same CODIFY across
//!   reviews changes nothing after the first. Only a repository that keeps steering files (its
//!   `steering/` folder exists) is written to: in any other a review leaves the tree as it found
//!   it, and the row is a `STEERING_SUGGESTED` note (a decision the spec leaves open — it assumes
//!   the spec layout; an ordinary repository did not ask for one, and files a review created would
//!   become the next review's "changes").
//! - **PROPOSE** is asked: an answer given with `--answer ID=yes|no`, else — on a terminal and
//!   without `--yes` — a y/n question per proposal on standard error. Approved, it is written like a
//!   CODIFY; rejected, it is only recorded; unanswered, it is recorded `pending`. Every outcome is a
//!   line of `.retake/proposals.jsonl` ([`proposals`]); an answered proposal is never asked again,
//!   and a pending one is asked again by the next review even when the Auditor no longer makes it.
//!
//! **What "blocks the pipeline" means for `retake review`:** the verdict and the exit code stay the
//! code's (a policy question is not a defect in the change), and the report carries a
//! `PROPOSE_PENDING|…` note with the ids to answer; the team loop must not start a round while
//! [`proposals::pending`] is non-empty.
//!
//! Decisions live in `steering/decisions.md`, beside the steering files they change, so the next
//! review's Auditor reads them with the rest of the steering text and does not suggest them again.

pub mod proposals;

use host::journal::write_atomic;
use proposals::{Answer, GivenAnswer, Record, Status};
use protocol::{Steering, SteeringAction};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

/// Where decisions are recorded, repository-relative.
pub const DECISIONS_MD: &str = "steering/decisions.md";

/// The steering folder, repository-relative.
pub const STEERING_DIR: &str = "steering";

/// A steering file that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {source}")]
pub struct Unreadable {
    /// The file, repository-relative.
    pub path: String,
    /// The error.
    pub source: std::io::Error,
}

/// Every `steering/*.md` of the work tree as (repository-relative path, text), sorted by name.
pub fn files(repo: &std::path::Path) -> Result<Vec<(String, String)>, Unreadable> {
    let dir = repo.join(STEERING_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let path = format!("{STEERING_DIR}/{name}");
            std::fs::read_to_string(dir.join(&name))
                .map(|text| (path.clone(), text))
                .map_err(|source| Unreadable { path, source })
        })
        .collect()
}

/// The prefix of the note that lists unanswered proposals.
pub const PROPOSE_PENDING: &str = "PROPOSE_PENDING";

/// Why a steering row could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum SteeringError {
    /// A steering file or decisions.md could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file, repository-relative.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The proposals log could not be read or written.
    #[error("cannot update .retake/proposals.jsonl: {0}")]
    Log(std::io::Error),
}

/// A proposal as it is shown and answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// Its id ([`proposals::proposal_id`]).
    pub id: String,
    /// The steering file it targets.
    pub target: String,
    /// The proposed rule.
    pub text: String,
}

/// The review the rows come from.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// Its run id.
    pub run_id: &'a str,
    /// When it ended (RFC 3339, UTC); its date prefixes decisions.md lines.
    pub at: &'a str,
}

/// Applies `rows` to the repository at `repo` (state under `repo/.retake`), asking `ask` about each
/// unanswered proposal; returns the notes for the report, the `PROPOSE_PENDING` one last.
pub fn apply(
    repo: &Path,
    rows: &[Steering],
    origin: Origin<'_>,
    ask: &mut dyn FnMut(&Proposal) -> Option<Answer>,
) -> Result<Vec<String>, SteeringError> {
    let state_dir = repo.join(".retake");
    let known = proposals::latest(&proposals::read(&state_dir).map_err(SteeringError::Log)?);
    let mut notes = Vec::new();
    let mut log: Vec<Record> = Vec::new();
    let mut asked: Vec<Proposal> = Vec::new();
    let keeps_steering = repo.join(STEERING_DIR).is_dir();
    for row in rows {
        if !is_steering_file(&row.target) {
            notes.push(format!(
                "STEERING_REFUSED|{}|not a steering file (steering/*.md)",
                row.target
            ));
            continue;
        }
        let text = one_line(&row.text);
        match row.action {
            SteeringAction::Codify if !keeps_steering => {
                notes.push(format!("STEERING_SUGGESTED|{}|{text}", row.target));
            }
            SteeringAction::Codify => {
                if write_decision(repo, &row.target, &text, "CODIFY", origin)? {
                    notes.push(format!("STEERING_APPLIED|{}|{text}", row.target));
                }
            }
            SteeringAction::Propose => {
                let id = proposals::proposal_id(&row.target, &text);
                let answered = known
                    .iter()
                    .any(|r| r.id == id && r.status != Status::Pending);
                if !answered && !asked.iter().any(|p| p.id == id) {
                    asked.push(Proposal {
                        id,
                        target: row.target.clone(),
                        text,
                    });
                }
            }
        }
    }
    // Still pending from an earlier review: the answer is owed even if the Auditor moved on.
    for r in known.iter().filter(|r| r.status == Status::Pending) {
        if !asked.iter().any(|p| p.id == r.id) && is_steering_file(&r.target) {
            asked.push(Proposal {
                id: r.id.clone(),
                target: r.target.clone(),
                text: r.text.clone(),
            });
        }
    }
    let mut pending = Vec::new();
    for p in asked {
        let status = match ask(&p) {
            Some(Answer::Approve) => {
                write_decision(repo, &p.target, &p.text, "PROPOSE approved", origin)?;
                notes.push(format!("PROPOSE_APPROVED|{}|{}|{}", p.id, p.target, p.text));
                Status::Approved
            }
            Some(Answer::Reject) => {
                notes.push(format!("PROPOSE_REJECTED|{}|{}|{}", p.id, p.target, p.text));
                Status::Rejected
            }
            None => {
                pending.push(p.id.clone());
                Status::Pending
            }
        };
        let was_pending = known
            .iter()
            .any(|r| r.id == p.id && r.status == Status::Pending);
        if !(status == Status::Pending && was_pending) {
            log.push(Record {
                id: p.id,
                target: p.target,
                text: p.text,
                status,
                run_id: origin.run_id.to_string(),
                at: origin.at.to_string(),
            });
        }
    }
    proposals::append(&state_dir, &log).map_err(SteeringError::Log)?;
    if !pending.is_empty() {
        notes.push(pending_note(&pending));
    }
    Ok(notes)
}

/// The note saying which proposals wait for an answer and how to give it.
pub fn pending_note(ids: &[String]) -> String {
    format!(
        "{PROPOSE_PENDING}|{} proposal(s) await an answer: answer in a terminal, or \
         retake review --answer ID=yes (or ID=no); ids: {}",
        ids.len(),
        ids.join(", ")
    )
}

/// How a review answers the Auditor's proposals (`--yes`, `--answer`).
#[derive(Debug, Clone, Default)]
pub struct Answers {
    /// Ask nothing, even on a terminal.
    pub yes: bool,
    /// Answers given on the command line.
    pub given: Vec<GivenAnswer>,
}

/// After a review: answers from `--answer`, then — on a terminal and without `--yes` — a question
/// per remaining proposal; the notes of [`apply`].
pub fn apply_after_review(
    repo: &Path,
    rows: &[Steering],
    run_id: &str,
    answers: &Answers,
) -> Result<Vec<String>, SteeringError> {
    let interactive =
        !answers.yes && std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let at = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let mut ask = |p: &Proposal| {
        given_answer(&answers.given, &p.id)
            .or_else(|| interactive.then(|| ask_on_terminal(p)).flatten())
    };
    apply(repo, rows, Origin { run_id, at: &at }, &mut ask)
}

/// The `--answer` for a proposal id: an answer whose id is a prefix of it.
pub fn given_answer(given: &[GivenAnswer], id: &str) -> Option<Answer> {
    given
        .iter()
        .find(|g| id.starts_with(g.id.as_str()))
        .map(|g| g.answer)
}

/// Asks on standard error and reads standard input until y or n; an empty line or the end of
/// input leaves the proposal pending.
fn ask_on_terminal(p: &Proposal) -> Option<Answer> {
    let mut err = std::io::stderr().lock();
    let _shown = writeln!(
        err,
        "\nThe Auditor proposes a rule for {} [{}]:\n  {}",
        p.target, p.id, p.text
    );
    let stdin = std::io::stdin();
    loop {
        let _asked = write!(err, "Approve it? [y/n, Enter: later] ");
        let _flushed = err.flush();
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) if line.trim().is_empty() => return None,
            Ok(_) => {
                if let Some(answer) = proposals::parse_answer(&line) {
                    return Some(answer);
                }
            }
        }
    }
}

/// Writes `text` to its target and to decisions.md unless each already has it; whether the target
/// changed.
fn write_decision(
    repo: &Path,
    target: &str,
    text: &str,
    what: &str,
    origin: Origin<'_>,
) -> Result<bool, SteeringError> {
    let entry = format!("- {text}");
    let changed = update(repo, target, &entry, |l| l.trim() == entry)?;
    let date = origin.at.get(..10).unwrap_or(origin.at);
    let decision = format!("- {date} {what} `{target}`: {text}");
    let suffix = format!("`{target}`: {text}");
    update(repo, DECISIONS_MD, &decision, |l| {
        l.trim_end().ends_with(&suffix)
    })?;
    Ok(changed)
}

/// Appends `line` to the repository file `rel` unless a line of it is `present`; whether it wrote.
fn update(
    repo: &Path,
    rel: &str,
    line: &str,
    present: impl Fn(&str) -> bool,
) -> Result<bool, SteeringError> {
    let path = repo.join(rel);
    let failed = |source| SteeringError::Write {
        path: rel.to_string(),
        source,
    };
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(failed(e)),
    };
    let Some(next) = appended(existing.as_deref(), &title_of(rel), line, present) else {
        return Ok(false);
    };
    write_atomic(&path, next.as_bytes()).map_err(failed)?;
    Ok(true)
}

/// The file's new text with `line` appended, or `None` when a line is already `present`; a new
/// file starts with `# {title}`.
pub fn appended(
    existing: Option<&str>,
    title: &str,
    line: &str,
    present: impl Fn(&str) -> bool,
) -> Option<String> {
    let mut text = match existing {
        Some(t) if t.lines().any(&present) => return None,
        Some(t) => t.to_string(),
        None => format!("# {title}\n\n"),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
    text.push('\n');
    Some(text)
}

/// `steering/tech.md` → `Tech`.
fn title_of(rel: &str) -> String {
    let stem = Path::new(rel)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("Steering");
    let mut chars = stem.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Steering".to_string(),
    }
}

/// Only `steering/<name>.md` may be written: the target comes from another process.
pub fn is_steering_file(target: &str) -> bool {
    target.strip_prefix("steering/").is_some_and(|name| {
        name.ends_with(".md")
            && name.len() > 3
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    })
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
