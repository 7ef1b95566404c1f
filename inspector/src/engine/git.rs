//! Reading a session's changes from git: read-only commands through the hardened runner
//! (argv, no shell, a timeout, its own process group, `GIT_OPTIONAL_LOCKS=0` so not even the
//! index is refreshed on disk, none of the repository's programs started).

use super::diff::{parse_unified_zero, Changes, FileChange};
use protocol::{ChangedFile, RevisionFile, RevisionFiles, SessionChanges};
use std::path::Path;

/// Bases tried, in order, for the default session: the default branch first (a session's
/// branch changes are what it adds over it), then the branch's upstream, then `HEAD`
/// (uncommitted changes only).
const DEFAULT_BASES: [&str; 5] = ["origin/HEAD", "main", "master", "@{upstream}", "HEAD"];

/// Why a session's changes could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// The reviewed folder is not inside a git work tree.
    #[error("not a git repository: '{root}' (a session review, --base, needs one){detail}")]
    NotARepository {
        /// The reviewed folder.
        root: String,
        /// git's own words, when they say more than "not a git repository".
        detail: String,
    },
    /// The base revision does not name a commit.
    #[error("unknown base revision '{0}': name a branch, tag or commit of this repository")]
    UnknownBase(String),
    /// A git command failed or could not run.
    #[error("git {command} failed: {reason}")]
    Failed {
        /// The arguments after `git`.
        command: String,
        /// What went wrong (git's first error line, or why it could not run).
        reason: String,
    },
}

/// Runs `git ARGS` in `root` through the workspace's one hardened git runner
/// ([`protocol::exec::git`]: no hook, fsmonitor, filter or diff driver of the reviewed
/// repository runs, no optional lock is taken); stdout on success.
fn git(root: &Path, args: &[&str]) -> Result<String, GitError> {
    protocol::exec::git::git(root, args).map_err(|e| GitError::Failed {
        command: args.join(" "),
        reason: e.reason().to_string(),
    })
}

/// Fails unless `root` is inside a git work tree.
fn ensure_repository(root: &Path) -> Result<(), GitError> {
    match git(root, &["rev-parse", "--is-inside-work-tree"]) {
        Ok(out) if out.trim() == "true" => Ok(()),
        Ok(_) => Err(not_a_repository(root, String::new())),
        Err(GitError::Failed { reason, .. }) => {
            let detail = if reason.contains("not a git repository") {
                String::new()
            } else {
                format!(" — git: {reason}")
            };
            Err(not_a_repository(root, detail))
        }
        Err(other) => Err(other),
    }
}

fn not_a_repository(root: &Path, detail: String) -> GitError {
    GitError::NotARepository {
        root: root.display().to_string(),
        detail,
    }
}

/// The commit `rev` names, when it names one.
fn commit_of(root: &Path, rev: &str) -> Option<String> {
    // A revision starting with `-` would be read as an option.
    if rev.starts_with('-') {
        return None;
    }
    let spec = format!("{rev}^{{commit}}");
    git(root, &["rev-parse", "--verify", "--quiet", &spec])
        .ok()
        .map(|out| out.trim().to_string())
        .filter(|sha| !sha.is_empty())
}

/// A file of the repository as committed at `rev`: the commit `rev` names and the text of
/// `path` (relative to `root`, which may be a folder inside the work tree) there, `None` when
/// the commit has no such file. The gate reads its own configuration this way, so the change
/// under review cannot edit it (`lead/src/config/source.rs`).
pub fn file_at_revision(
    root: &Path,
    rev: &str,
    path: &str,
) -> Result<(String, Option<String>), GitError> {
    let commit = revision_commit(root, rev)?;
    let text = blob_at(root, &commit, path)?;
    Ok((commit, text))
}

/// Several files at `rev`, as [`file_at_revision`] reads each (the commit resolved once): what
/// the Lead ships to its Inspectors (`InspectOptions::repo_files`).
pub fn files_at_revision(
    root: &Path,
    rev: &str,
    paths: &[&str],
) -> Result<RevisionFiles, GitError> {
    let commit = revision_commit(root, rev)?;
    let files = blobs_at(root, &commit, paths)?
        .into_iter()
        .zip(paths)
        .map(|(text, path)| RevisionFile {
            path: path.to_string(),
            text,
        })
        .collect();
    Ok(RevisionFiles {
        rev: rev.to_string(),
        commit,
        files,
    })
}

/// The commit `rev` names. Whether `root` is a repository at all is asked only when it names
/// none, to say which error it is.
fn revision_commit(root: &Path, rev: &str) -> Result<String, GitError> {
    match commit_of(root, rev) {
        Some(commit) => Ok(commit),
        None => {
            ensure_repository(root)?;
            Err(GitError::UnknownBase(rev.into()))
        }
    }
}

/// The texts of `paths` at `commit` (`None`: no such file), in one `git cat-file --batch`; a
/// path with a line break, which the batch input cannot carry, is read on its own.
fn blobs_at(root: &Path, commit: &str, paths: &[&str]) -> Result<Vec<Option<String>>, GitError> {
    if paths.iter().any(|p| p.contains('\n')) {
        return paths.iter().map(|p| blob_at(root, commit, p)).collect();
    }
    let input: String = paths.iter().map(|p| format!("{commit}:./{p}\n")).collect();
    let failed = |reason: String| GitError::Failed {
        command: "cat-file --batch".into(),
        reason,
    };
    let out = protocol::exec::git::git_with_input(root, &["cat-file", "--batch"], input.into())
        .map_err(|e| failed(e.reason().to_string()))?;
    let mut rest = out.as_slice();
    let mut texts = Vec::new();
    for path in paths {
        let end = rest.iter().position(|&b| b == b'\n');
        let header = String::from_utf8_lossy(end.map_or(rest, |n| &rest[..n])).into_owned();
        rest = end.map_or(&[][..], |n| &rest[n + 1..]);
        if header.ends_with(" missing") {
            texts.push(None);
            continue;
        }
        // `<sha> blob <size>`, the content, a line break; a tree or anything else is an error.
        let size = match header.split(' ').collect::<Vec<_>>()[..] {
            [_, "blob", size] => size.parse::<usize>().ok(),
            _ => None,
        };
        let Some(size) = size.filter(|&n| n < rest.len()) else {
            return Err(failed(format!("{path} at {commit}: {header}")));
        };
        texts.push(Some(String::from_utf8_lossy(&rest[..size]).into_owned()));
        rest = &rest[size + 1..];
    }
    Ok(texts)
}

/// The text of `path` at `commit`, `None` when the commit has no such file: one git call when
/// it has, two when it has not.
fn blob_at(root: &Path, commit: &str, path: &str) -> Result<Option<String>, GitError> {
    // `<commit>:./<path>` is relative to the folder git runs in, like the reviewed root.
    let object = format!("{commit}:./{path}");
    match git(root, &["cat-file", "blob", &object]) {
        Ok(text) => Ok(Some(text)),
        // No such file at that commit; any other failure (a folder there, say) is an error.
        Err(_) if git(root, &["cat-file", "-e", &object]).is_err() => Ok(None),
        Err(e) => Err(e),
    }
}

/// [`file_at_revision`], answered from `shipped` when the Lead read `path` at `rev` already
/// (`rev` as the Lead was given it, or the full commit it named).
pub fn file_at_revision_or_shipped(
    shipped: Option<&RevisionFiles>,
    root: &Path,
    rev: &str,
    path: &str,
) -> Result<(String, Option<String>), GitError> {
    let found = shipped
        .filter(|s| s.rev == rev || s.commit == rev)
        .and_then(|s| Some((s, s.files.iter().find(|f| f.path == path)?)));
    match found {
        Some((s, file)) => Ok((s.commit.clone(), file.text.clone())),
        None => file_at_revision(root, rev, path),
    }
}

/// The files changed under `root` against the merge base of `base` and `HEAD` — committed,
/// staged, unstaged and untracked (not ignored) — with their changed lines.
pub fn session_changes(root: &Path, base: &str) -> Result<Changes, GitError> {
    // The base is resolved on its own only when the merge base cannot be taken from it as
    // given: to say why (not a repository, no such commit), one git call fewer otherwise.
    let direct = (!base.starts_with('-')).then(|| git(root, &["merge-base", base, "HEAD"]));
    let merge_base = match direct {
        Some(Ok(out)) => out,
        _ => {
            let base_commit = revision_commit(root, base)?;
            git(root, &["merge-base", &base_commit, "HEAD"])?
        }
    }
    .trim()
    .to_string();
    let common = [
        "--no-renames",
        "--relative",
        "--no-ext-diff",
        "--no-textconv",
    ];
    let mut names = vec!["diff", "--name-only", "-z"];
    names.extend(common);
    names.extend([merge_base.as_str(), "--"]);
    let mut patch = vec![
        "diff",
        "-U0",
        "--no-color",
        "--src-prefix=a/",
        "--dst-prefix=b/",
    ];
    patch.extend(common);
    patch.extend([merge_base.as_str(), "--"]);
    // The three listings are independent, and each walks the whole index or tree: side by side.
    let (patch, names, untracked) = std::thread::scope(|s| {
        let patch = s.spawn(|| git(root, &patch));
        let names = s.spawn(|| git(root, &names));
        let untracked = git(root, &["ls-files", "--others", "--exclude-standard", "-z"]);
        let join = |h: std::thread::ScopedJoinHandle<'_, _>| {
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        };
        (join(patch), join(names), untracked)
    });
    let mut lines = parse_unified_zero(&patch?);
    let mut files = std::collections::BTreeMap::new();
    for path in names?.split('\0').filter(|p| !p.is_empty()) {
        // Deleted files have nothing left to review.
        if root.join(path).is_file() && !is_retake_state(path) {
            let change = lines.remove(path).unwrap_or_default();
            files.insert(path.to_string(), change);
        }
    }
    for path in untracked?.split('\0').filter(|p| !p.is_empty()) {
        if !is_retake_state(path) {
            files.insert(path.to_string(), FileChange::new_file());
        }
    }
    Ok(Changes {
        base: base.to_string(),
        merge_base,
        files,
    })
}

/// The wire form of a session's changes, as the Lead ships them to its Inspectors.
impl From<&Changes> for SessionChanges {
    fn from(changes: &Changes) -> SessionChanges {
        let Changes {
            base,
            merge_base,
            files,
        } = changes;
        let files = files
            .iter()
            .map(|(path, change)| {
                // Destructured whole: a field added to `FileChange` must be added here too.
                let FileChange {
                    added,
                    removed_after,
                    new_file,
                } = change;
                ChangedFile {
                    path: path.clone(),
                    added: added.clone(),
                    removed_after: removed_after.clone(),
                    new_file: *new_file,
                }
            })
            .collect();
        SessionChanges {
            base: base.clone(),
            merge_base: merge_base.clone(),
            files,
        }
    }
}

/// A session's changes as shipped by the Lead: the same [`Changes`] [`session_changes`] reads.
impl From<SessionChanges> for Changes {
    fn from(shipped: SessionChanges) -> Changes {
        let files = shipped
            .files
            .into_iter()
            .map(|f| {
                let ChangedFile {
                    path,
                    added,
                    removed_after,
                    new_file,
                } = f;
                let change = FileChange {
                    added,
                    removed_after,
                    new_file,
                };
                (path, change)
            })
            .collect();
        Changes {
            base: shipped.base,
            merge_base: shipped.merge_base,
            files,
        }
    }
}

/// retake's own output (`.retake/`, `verdicts.md`) is never a change to review: otherwise the
/// verdicts.md a review appends would turn the next plain `retake review` into a session.
fn is_retake_state(path: &str) -> bool {
    path.starts_with(".retake/") || path == "verdicts.md" || path.ends_with("/verdicts.md")
}

/// The base of the default session: when `root` is in a git work tree with uncommitted
/// changes or commits its branch adds over the default branch, the first of `origin/HEAD`,
/// `main`, `master`, the upstream, `HEAD` that names a commit; `None` otherwise (not a
/// repository, no commit yet, nothing changed), which means the whole repository.
pub fn default_session_base(root: &Path) -> Option<String> {
    ensure_repository(root).ok()?;
    commit_of(root, "HEAD")?;
    let base = DEFAULT_BASES
        .iter()
        .find(|b| commit_of(root, b).is_some())?;
    let changes = session_changes(root, base).ok()?;
    (!changes.files.is_empty()).then(|| base.to_string())
}

/// The diff of the session with three lines of context, for an agent's prompt.
pub fn session_diff(root: &Path, merge_base: &str) -> Result<String, GitError> {
    git(
        root,
        &[
            "diff",
            "--no-color",
            "--no-renames",
            "--relative",
            "--no-ext-diff",
            "--no-textconv",
            merge_base,
            "--",
        ],
    )
}

#[cfg(test)]
mod tests;
