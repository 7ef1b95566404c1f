//! What an executor changed in the repository: a snapshot of the work tree before the loop and
//! after each iteration, and the pure difference between two snapshots.
//!
//! The baseline is a snapshot, not git's HEAD, because in a team run earlier tasks stay
//! uncommitted until the run completes; and text is kept so the judge can tell lines the
//! executor added from lines that were already there (a TODO it did not write is not its fault).

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Text files up to this size are kept whole; larger or binary ones by hash only.
const MAX_KEPT: u64 = 1024 * 1024;

/// Reading the work tree failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the repository at {path}: {message}")]
pub struct SnapshotError {
    /// The file or folder that could not be read.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum FileState {
    Text(String),
    Opaque { hash: u64, len: u64 },
}

/// The work tree's files at one moment (`.git`, `.retake` but its `decisions.yaml`,
/// `.gitignore`d files and cache folders marked by `CACHEDIR.TAG`, such as cargo's `target/`,
/// left out).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    files: BTreeMap<String, FileState>,
}

impl Snapshot {
    /// Reads every file under `root`.
    pub fn take(root: &Path) -> Result<Snapshot, SnapshotError> {
        let mut files = BTreeMap::new();
        for entry in walk(root) {
            let entry = entry.map_err(|e| SnapshotError {
                path: root.to_path_buf(),
                message: e.to_string(),
            })?;
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let path = entry.path();
            let Ok(relative) = path.strip_prefix(root) else {
                continue;
            };
            let bytes = std::fs::read(path).map_err(|e| SnapshotError {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
            files.insert(slash_path(relative), state_of(bytes));
        }
        // `.retake/` is the Lead's state, except the accepted false positives: an executor
        // that writes a suppression there changed what a review reports.
        let decisions = root.join(crate::judge::evasion::DECISIONS_FILE);
        if decisions.is_file() {
            let bytes = std::fs::read(&decisions).map_err(|e| SnapshotError {
                path: decisions.clone(),
                message: e.to_string(),
            })?;
            files.insert(
                crate::judge::evasion::DECISIONS_FILE.to_string(),
                state_of(bytes),
            );
        }
        Ok(Snapshot { files })
    }

    /// Builds a snapshot from (path, content) pairs; for tests and callers that already hold
    /// the files.
    pub fn from_texts<'a>(texts: impl IntoIterator<Item = (&'a str, &'a str)>) -> Snapshot {
        let files = texts
            .into_iter()
            .map(|(p, t)| (p.to_string(), FileState::Text(t.to_string())))
            .collect();
        Snapshot { files }
    }

    /// Whether `path` (repository-relative, `/` separators) exists in the snapshot.
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// What changed from `baseline` to `self`.
    pub fn changes_since(&self, baseline: &Snapshot) -> ChangeSet {
        let mut files = Vec::new();
        for (path, now) in &self.files {
            match baseline.files.get(path) {
                None => files.push(ChangedFile::new(path, ChangeKind::Added, None, Some(now))),
                Some(before) if before != now => files.push(ChangedFile::new(
                    path,
                    ChangeKind::Modified,
                    Some(before),
                    Some(now),
                )),
                Some(_) => {}
            }
        }
        for (path, before) in &baseline.files {
            if !self.files.contains_key(path) {
                files.push(ChangedFile::new(
                    path,
                    ChangeKind::Deleted,
                    Some(before),
                    None,
                ));
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        ChangeSet { files }
    }
}

/// Walks the work tree as a snapshot sees it: `.git`, `.retake`, `.gitignore`d files and
/// folders holding a `CACHEDIR.TAG` (cargo's `target/`) are left out.
pub(crate) fn walk(root: &Path) -> ignore::Walk {
    ignore::WalkBuilder::new(root)
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .filter_entry(|entry| {
            let name = entry.file_name();
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            name != ".git"
                && name != ".retake"
                && !(is_dir && entry.path().join("CACHEDIR.TAG").is_file())
        })
        .build()
}

/// A repository-relative path with `/` separators.
pub(crate) fn slash_path(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

fn state_of(bytes: Vec<u8>) -> FileState {
    let len = bytes.len() as u64;
    if len <= MAX_KEPT && !bytes.contains(&0) {
        if let Ok(text) = String::from_utf8(bytes.clone()) {
            return FileState::Text(text);
        }
    }
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    FileState::Opaque {
        hash: hasher.finish(),
        len,
    }
}

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// New since the baseline.
    Added,
    /// Different content.
    Modified,
    /// Gone since the baseline.
    Deleted,
}

/// One changed file; the text sides are present when the file is text of a reasonable size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// Added, modified or deleted.
    pub kind: ChangeKind,
    /// The baseline text.
    pub before: Option<String>,
    /// The current text.
    pub after: Option<String>,
}

impl ChangedFile {
    fn new(
        path: &str,
        kind: ChangeKind,
        before: Option<&FileState>,
        after: Option<&FileState>,
    ) -> ChangedFile {
        let text = |s: Option<&FileState>| match s {
            Some(FileState::Text(t)) => Some(t.clone()),
            _ => None,
        };
        ChangedFile {
            path: path.to_string(),
            kind,
            before: text(before),
            after: text(after),
        }
    }

    /// The lines of the current text that the baseline did not have (as a multiset), with
    /// their 1-based line numbers; every line for an added file.
    pub fn added_lines(&self) -> Vec<(usize, &str)> {
        let Some(after) = &self.after else {
            return Vec::new();
        };
        let mut old: HashMap<&str, usize> = HashMap::new();
        for line in self.before.as_deref().unwrap_or("").lines() {
            *old.entry(line).or_default() += 1;
        }
        let mut added = Vec::new();
        for (i, line) in after.lines().enumerate() {
            match old.get_mut(line) {
                Some(n) if *n > 0 => *n -= 1,
                _ => added.push((i + 1, line)),
            }
        }
        added
    }
}

/// Every file that differs between the baseline and now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeSet {
    /// The changed files, by path.
    pub files: Vec<ChangedFile>,
}

impl ChangeSet {
    /// Only the changes to files `owns` covers.
    pub fn within(self, owns: &crate::ownership::Ownership) -> ChangeSet {
        ChangeSet {
            files: self
                .files
                .into_iter()
                .filter(|f| owns.contains(&f.path))
                .collect(),
        }
    }

    /// Only the changes to files `owns` covers, and to `also`.
    pub fn within_or(self, owns: &crate::ownership::Ownership, also: &str) -> ChangeSet {
        ChangeSet {
            files: self
                .files
                .into_iter()
                .filter(|f| f.path == also || owns.contains(&f.path))
                .collect(),
        }
    }

    /// Lines `path` gained (negative: lost) in the change; 0 when it did not change or is not
    /// text. A finding's line may move by this much and still be the same finding.
    pub fn line_shift(&self, path: &str) -> i64 {
        let lines = |t: &Option<String>| t.as_deref().map_or(0, |t| t.lines().count() as i64);
        self.get(path)
            .map_or(0, |f| lines(&f.after) - lines(&f.before))
    }

    /// The paths the change added (new since the baseline).
    pub fn added_paths(&self) -> Vec<&str> {
        self.files
            .iter()
            .filter(|f| f.kind == ChangeKind::Added)
            .map(|f| f.path.as_str())
            .collect()
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The change to `path`, if it changed.
    pub fn get(&self, path: &str) -> Option<&ChangedFile> {
        self.files.iter().find(|f| f.path == path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_modified_and_deleted_files_are_told_apart() {
        let before = Snapshot::from_texts([("a.rs", "x\n"), ("b.rs", "y\n"), ("c.rs", "z\n")]);
        let after = Snapshot::from_texts([("a.rs", "x\n"), ("b.rs", "y\nw\n"), ("d.rs", "n\n")]);
        let change = after.changes_since(&before);
        let kinds: Vec<(&str, ChangeKind)> = change
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("b.rs", ChangeKind::Modified),
                ("c.rs", ChangeKind::Deleted),
                ("d.rs", ChangeKind::Added)
            ]
        );
        assert_eq!(change.get("b.rs").expect("b").added_lines(), [(2, "w")]);
        assert!(after.changes_since(&after).is_empty());
    }

    #[test]
    fn added_lines_count_duplicates_once_each() {
        let before = Snapshot::from_texts([("f", "// TODO: old\nfn a() {}\n")]);
        let after = Snapshot::from_texts([("f", "// TODO: old\nfn a() {}\n// TODO: old\n")]);
        let change = after.changes_since(&before);
        assert_eq!(change.files[0].added_lines(), [(3, "// TODO: old")]);
    }

    #[test]
    fn the_walk_skips_git_state_ignored_and_cache_folders() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for (path, text) in [
            ("src/lib.rs", "fn f() {}\n"),
            (".git/HEAD", "ref\n"),
            (".retake/state/active.json", "{}"),
            ("target/CACHEDIR.TAG", "tag"),
            ("target/debug/out", "bin"),
            ("ignored.log", "noise"),
            (".gitignore", "*.log\n"),
        ] {
            let full = root.join(path);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(full, text).expect("write");
        }
        let snap = Snapshot::take(root).expect("snapshot");
        let paths: Vec<&str> = snap.files.keys().map(String::as_str).collect();
        assert_eq!(paths, [".gitignore", "src/lib.rs"]);
    }
}
