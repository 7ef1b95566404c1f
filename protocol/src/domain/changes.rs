//! What the Lead reads from git once and ships to every Inspector of the review, so that none
//! of them runs git again: a session's changes (`InspectOptions::session_changes`) and the
//! repository-level files at `repo_files_rev` (`InspectOptions::repo_files`). The Inspector's own `engine::diff::Changes` is built from (and back into) this, field
//! for field; the parsing and the `--filter` logic stay with it.

use serde::{Deserialize, Serialize};

/// The files a session changed against its merge base, with their changed lines. Append-only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionChanges {
    /// The base revision as given (`main`, `origin/HEAD`).
    pub base: String,
    /// The merge base of `base` and `HEAD` the diff was taken against.
    pub merge_base: String,
    /// Changed files that still exist (repository-relative), sorted by path.
    pub files: Vec<ChangedFile>,
}

/// How one file changed, in the new file's 1-based line numbers. Append-only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedFile {
    /// The repository-relative path.
    pub path: String,
    /// Added or rewritten lines, as inclusive ranges.
    pub added: Vec<(u32, u32)>,
    /// Deletions, each after this line of the new file (0: at the top).
    pub removed_after: Vec<u32>,
    /// The file did not exist at the merge base (new or untracked): every line is added.
    pub new_file: bool,
}

/// Repository-level files (`.retake/decisions.yaml`, `steering/tech.md`) as committed at
/// `InspectOptions::repo_files_rev`, read once by the Lead for every Inspector of the review.
/// A path not listed is read by the Inspector itself. Append-only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionFiles {
    /// The revision as given (the same text as `InspectOptions::repo_files_rev`).
    pub rev: String,
    /// The commit it named when the files were read.
    pub commit: String,
    /// Each file read there.
    pub files: Vec<RevisionFile>,
}

/// One file of [`RevisionFiles`]. Append-only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionFile {
    /// The path, relative to the reviewed root.
    pub path: String,
    /// Its text at the commit; `None` when the commit has no such file.
    pub text: Option<String>,
}
