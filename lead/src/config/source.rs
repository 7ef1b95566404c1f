//! Where a reviewed repository's own configuration comes from. The change under review may
//! edit `retake.toml` and `.retake/decisions.yaml`, so a review never takes them from the work
//! tree (nor the Steering Exceptions of `.retake/handover/session.md`): it reads them as
//! committed at a revision — the review's base (`--base`, a session, a
//! team loop's review round), else `HEAD` — through `git cat-file` (read-only, via the
//! Inspector's git helper). Uncommitted or reviewed edits to them are ignored with a note.
//!
//! `--trust-repo-config` takes the work tree's files as they are (to try a configuration
//! before committing it). A folder without committed history (not a git repository, or no
//! commit yet) has no base to read from: its work-tree file is used, but without the keys that
//! run a command or send code or credentials somewhere ([`UNTRUSTED_KEYS`]) unless the flag is
//! given — fail closed on what can do harm, keep the rules and limits a plain folder needs.
//! `retake serve` strips the same keys from every job's repository file unless the service's
//! own configuration says `[serve] trust_repo_config = true`.

use super::load::FileLayer;
use inspector::engine::{file_at_revision, files_at_revision, GitError, DECISIONS_PATH};
use review::handover::{exceptions, HANDOVER_PATH};
use std::path::Path;

/// The repository's configuration file, relative to its root.
pub(super) const REPO_CONFIG: &str = "retake.toml";

/// Keys of a repository's file that run a command or send code or credentials somewhere
/// (dotted paths; a key matches itself and everything under it).
pub const UNTRUSTED_KEYS: [&str; 16] = [
    "test.command",
    "test.coverage_command",
    "executor",
    "agent.kind",
    "agent.command",
    "agent.url",
    "agent.api_key_env",
    "inspector.linters",
    "inspector.rulebase.backend",
    "inspector.interface.backend",
    "inspector.test.backend",
    "inspector.quality.backend",
    "inspector.consistency.backend",
    "inspector.holistic.backend",
    "loop.lint",
    "loop.typecheck",
];

/// How far a repository's own files are trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trust {
    /// `--trust-repo-config`: the work tree's files as they are, edits included.
    pub work_tree: bool,
    /// Whether the repository's file may set [`UNTRUSTED_KEYS`] (false in a `retake serve`
    /// job unless the service trusts repositories).
    pub commands: bool,
}

impl Default for Trust {
    fn default() -> Self {
        Trust {
            work_tree: false,
            commands: true,
        }
    }
}

/// Why the repository's layer could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum SourceError {
    /// The review's base names no commit (git's message).
    UnknownBase(String),
    /// Anything else: unreadable file, git failing, a file that does not parse.
    Other(String),
}

/// The repository's layer and what the review should know about where it came from.
#[derive(Debug, Clone, Default)]
pub(super) struct RepoLayer {
    /// `retake.toml` as it will be layered; `None` when the source has no such file.
    pub file: Option<FileLayer>,
    /// The commit the repository-level files are read at; `None`: the work tree.
    pub commit: Option<String>,
    /// What the report should say (edits ignored, keys not trusted).
    pub notes: Vec<String>,
}

/// Reads the repository's layer of `repo`: as committed at `base` (else `HEAD`), or the work
/// tree when `trust` says so or there is no history. An unknown `base` or a git failure is an
/// error naming it (a gate that cannot read its configuration does not guess).
pub(super) fn repo_layer(
    repo: &Path,
    base: Option<&str>,
    trust: Trust,
) -> Result<RepoLayer, SourceError> {
    let read = read(repo, base, trust)?;
    let mut layer = RepoLayer {
        file: None,
        commit: read.commit,
        notes: read.notes,
    };
    let Some(text) = read.text else {
        return Ok(layer);
    };
    let why = if trust.commands {
        read.no_history
    } else {
        Some("this service trusts no repository's file ([serve] trust_repo_config = false)")
    };
    let text = match why {
        None => text,
        Some(why) => {
            let (kept, dropped) = without_untrusted_keys(&text)
                .map_err(|e| SourceError::Other(format!("{}: {e}", read.label)))?;
            if !dropped.is_empty() {
                let hint = if trust.commands {
                    "; --trust-repo-config applies them"
                } else {
                    ""
                };
                layer.notes.push(format!(
                    "{REPO_CONFIG}: ignored {} — a repository's file may not run commands or send code or credentials when {why}{hint}",
                    dropped.join(", "),
                ));
            }
            kept
        }
    };
    layer.file = Some(FileLayer {
        label: read.label,
        text,
    });
    Ok(layer)
}

/// The repository's file as read, before any key is dropped.
struct Read {
    /// Its text; `None` when the source has no such file.
    text: Option<String>,
    /// The path, with the revision when read from git.
    label: String,
    /// The commit it was read at; `None`: the work tree.
    commit: Option<String>,
    /// Edits ignored.
    notes: Vec<String>,
    /// Why the work tree was read without committed history to check it against.
    no_history: Option<&'static str>,
}

fn read(repo: &Path, base: Option<&str>, trust: Trust) -> Result<Read, SourceError> {
    let path = repo.join(REPO_CONFIG);
    let work_tree = read_work_tree(&path).map_err(SourceError::Other)?;
    let from_work_tree = |no_history| Read {
        text: work_tree.clone(),
        label: path.display().to_string(),
        commit: None,
        notes: handover_row_notes(read_handover(repo).as_deref()),
        no_history,
    };
    if trust.work_tree {
        return Ok(from_work_tree(None));
    }
    let rev = base.unwrap_or("HEAD");
    // The three files in one read (one `git cat-file --batch`).
    match files_at_revision(repo, rev, &[REPO_CONFIG, DECISIONS_PATH, HANDOVER_PATH]) {
        Ok(read) => {
            let commit = read.commit;
            let mut texts = read.files.into_iter().map(|f| f.text);
            let (committed, decisions, handover) = (
                texts.next().flatten(),
                texts.next().flatten(),
                texts.next().flatten(),
            );
            let mut notes = Vec::new();
            if committed != work_tree {
                notes.push(ignored_note(REPO_CONFIG, base));
            }
            notes.extend(decisions_note(repo, decisions, base));
            notes.extend(exceptions_note(repo, handover.as_deref(), base));
            notes.extend(handover_row_notes(handover.as_deref()));
            notes.extend(steering_notes(repo, &commit, base));
            let short = commit.get(..12).unwrap_or(&commit);
            Ok(Read {
                text: committed,
                label: format!("{} at {rev} ({short})", path.display()),
                commit: Some(commit.clone()),
                notes,
                no_history: None,
            })
        }
        Err(GitError::NotARepository { .. }) => Ok(from_work_tree(Some(
            "there is no committed history (not a git repository)",
        ))),
        Err(GitError::UnknownBase(_)) if base.is_none() => Ok(from_work_tree(Some(
            "there is no committed history (no commit yet)",
        ))),
        Err(e @ GitError::UnknownBase(_)) => Err(SourceError::UnknownBase(e.to_string())),
        Err(e) => Err(SourceError::Other(format!(
            "cannot read {REPO_CONFIG} at {rev}: {e}"
        ))),
    }
}

fn read_work_tree(path: &Path) -> Result<Option<String>, String> {
    if !path.is_file() {
        return Ok(None);
    }
    std::fs::read_to_string(path)
        .map(Some)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn ignored_note(file: &str, base: Option<&str>) -> String {
    match base {
        Some(base) => format!(
            "{file}: the change's edits are not applied — the review uses the file as it is at {base}"
        ),
        None => format!(
            "{file}: uncommitted edits ignored — the review uses the file as committed at HEAD (--trust-repo-config uses the work tree's)"
        ),
    }
}

/// The note for `.retake/decisions.yaml` when the work tree's differs from `committed` (the
/// Inspectors read it at the commit).
fn decisions_note(repo: &Path, committed: Option<String>, base: Option<&str>) -> Option<String> {
    let path = repo.join(DECISIONS_PATH);
    let work_tree = path
        .is_file()
        .then(|| std::fs::read_to_string(&path).ok())
        .flatten();
    (committed != work_tree).then(|| ignored_note(DECISIONS_PATH, base))
}

/// The note for the handover's Steering Exceptions when the work tree's differ from the
/// committed ones (a review applies them as committed, `review/context.rs`). Only the parsed
/// exceptions are compared: retake redrafts the rest of the file after every command.
fn exceptions_note(repo: &Path, committed: Option<&str>, base: Option<&str>) -> Option<String> {
    let parsed = |text: Option<&str>| text.map(exceptions::parse).unwrap_or_default().exceptions;
    let work_tree = read_handover(repo);
    if parsed(committed) == parsed(work_tree.as_deref()) {
        return None;
    }
    Some(match base {
        Some(base) => format!(
            "{HANDOVER_PATH}: the change's Steering Exceptions are not applied — the review uses them as they are at {base}"
        ),
        None => format!(
            "{HANDOVER_PATH}: Steering Exceptions not committed are not applied — the review uses them as committed at HEAD (--trust-repo-config uses the work tree's)"
        ),
    })
}

/// One note per row of the applied Steering Exceptions table that is not applied.
fn handover_row_notes(text: Option<&str>) -> Vec<String> {
    text.map(exceptions::parse)
        .unwrap_or_default()
        .problems
        .into_iter()
        .map(|p| format!("{HANDOVER_PATH}: {p}"))
        .collect()
}

/// The work tree's handover, when there is a readable one.
fn read_handover(repo: &Path) -> Option<String> {
    std::fs::read_to_string(repo.join(HANDOVER_PATH)).ok()
}

/// The notes for the `steering/*.md` files the work tree changed: their allow-lists and test
/// command are read at the commit (`review/context.rs`, the Inspectors' `Specs`).
fn steering_notes(repo: &Path, commit: &str, base: Option<&str>) -> Vec<String> {
    let files = review::steering::files(repo).unwrap_or_default();
    files
        .into_iter()
        .filter(|(rel, text)| {
            file_at_revision(repo, commit, rel)
                .is_ok_and(|(_, committed)| committed.as_deref() != Some(text.as_str()))
        })
        .map(|(rel, _)| ignored_note(&rel, base))
        .collect()
}

/// `text` without the [`UNTRUSTED_KEYS`] it sets, re-serialised, and the keys it had.
fn without_untrusted_keys(text: &str) -> Result<(String, Vec<String>), String> {
    let mut table = text.parse::<toml::Table>().map_err(|e| e.to_string())?;
    let mut dropped = Vec::new();
    for key in UNTRUSTED_KEYS {
        let segments: Vec<&str> = key.split('.').collect();
        if remove(&mut table, &segments) {
            dropped.push(key.to_string());
        }
    }
    if dropped.is_empty() {
        // The text as written, so that errors about it cite its own lines.
        return Ok((text.to_string(), dropped));
    }
    let text = toml::to_string(&table).map_err(|e| e.to_string())?;
    Ok((text, dropped))
}

/// Removes the key at `segments` from `table`; whether it was there.
fn remove(table: &mut toml::Table, segments: &[&str]) -> bool {
    match segments {
        [] => false,
        [last] => table.remove(*last).is_some(),
        [first, rest @ ..] => match table.get_mut(*first) {
            Some(toml::Value::Table(inner)) => remove(inner, rest),
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests;
