//! A fix group's files as bytes, and the attempt's footprint outside them.
//!
//! A group owns files and folders (`tests/` for a missing-integration-tests finding): its
//! snapshot holds every file under each owned folder, so a rollback can remove what an
//! attempt created there and write back, byte for byte, what it changed. Outside the group,
//! [`Footprint`] compares whole-tree snapshots from before and after the fixer
//! (`implementer::change::Snapshot`, the task runner's own): a file the attempt created is
//! removed, a changed text file is written back, a changed binary that `HEAD` tracks is
//! checked out — so nothing an attempt leaves outside its group survives it.

use super::FixError;
use implementer::change::{ChangeKind, ChangeSet, Snapshot};
use protocol::exec::git::work_tree;
use std::collections::BTreeMap;
use std::path::Path;

/// Whether `path` is one of `owned` or inside an owned folder (`tests/`).
pub fn owned_by(owned: &[String], path: &str) -> bool {
    owned.iter().any(|o| match o.strip_suffix('/') {
        Some(dir) => path.starts_with(o.as_str()) || path == dir,
        None => path == o,
    })
}

/// The group's files (owned folders expanded) → their bytes; `None`: an owned file that does
/// not exist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupFiles(BTreeMap<String, Option<Vec<u8>>>);

impl GroupFiles {
    /// Reads the group's files now.
    pub fn take(repo: &Path, owned: &[String]) -> Result<GroupFiles, FixError> {
        let mut files = BTreeMap::new();
        for entry in owned {
            if entry.ends_with('/') {
                let dir = repo.join(entry);
                if dir.is_dir() {
                    read_dir(repo, &dir, &mut files)?;
                }
            } else {
                files.insert(entry.clone(), read(repo, entry)?);
            }
        }
        Ok(GroupFiles(files))
    }

    /// The paths whose bytes differ between `self` (before) and `now`, files created under an
    /// owned folder included.
    pub fn differ(&self, now: &GroupFiles) -> Vec<String> {
        let mut paths: Vec<String> = now
            .0
            .iter()
            .filter(|(p, b)| self.0.get(*p).unwrap_or(&None) != *b)
            .map(|(p, _)| p.clone())
            .collect();
        for (p, b) in &self.0 {
            if b.is_some() && !now.0.contains_key(p) && !paths.contains(p) {
                paths.push(p.clone());
            }
        }
        paths.sort();
        paths
    }

    /// Puts `paths` back to their bytes in `self`: written back, or removed when they did not
    /// exist.
    pub fn restore(&self, repo: &Path, paths: &[String]) -> Result<(), FixError> {
        for path in paths {
            let full = repo.join(path);
            let result = match self.0.get(path).unwrap_or(&None) {
                Some(bytes) => write(&full, bytes),
                None => remove(&full),
            };
            result.map_err(|source| FixError::Io {
                context: format!("cannot roll back {path}"),
                source,
            })?;
        }
        Ok(())
    }
}

fn read(repo: &Path, path: &str) -> Result<Option<Vec<u8>>, FixError> {
    match std::fs::read(repo.join(path)) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(FixError::Io {
            context: format!("cannot read {path}"),
            source,
        }),
    }
}

fn read_dir(
    repo: &Path,
    dir: &Path,
    files: &mut BTreeMap<String, Option<Vec<u8>>>,
) -> Result<(), FixError> {
    let entries = std::fs::read_dir(dir).map_err(|source| FixError::Io {
        context: format!("cannot list {}", dir.display()),
        source,
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_dir(repo, &path, files)?;
        } else if let Ok(relative) = path.strip_prefix(repo) {
            let relative = relative.to_string_lossy().replace('\\', "/");
            let bytes = read(repo, &relative)?;
            files.insert(relative, bytes);
        }
    }
    Ok(())
}

fn write(full: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(parent) = full.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(full, bytes)
}

fn remove(full: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(full) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The whole work tree before an attempt, to find and undo what it changed outside its group.
pub struct Footprint {
    before: Snapshot,
}

impl Footprint {
    /// The tree before the fixer runs.
    pub fn before(repo: &Path) -> Result<Footprint, FixError> {
        Ok(Footprint {
            before: snapshot(repo)?,
        })
    }

    /// What changed since, as the task runner's change set.
    pub fn change(&self, repo: &Path) -> Result<ChangeSet, FixError> {
        Ok(snapshot(repo)?.changes_since(&self.before))
    }

    /// Undoes every change in `change` outside the group (`owned`) and outside `excluded`:
    /// created files removed, text written back, tracked binaries checked out from `HEAD`.
    /// The paths undone: (changed files that existed, files the attempt created).
    pub fn undo_outside(
        repo: &Path,
        change: &ChangeSet,
        owned: &[String],
        excluded: Option<&str>,
    ) -> Result<(Vec<String>, Vec<String>), FixError> {
        let mut undone = Vec::new();
        let mut created = Vec::new();
        let mut binaries = Vec::new();
        for file in &change.files {
            let path = file.path.as_str();
            if owned_by(owned, path) || excluded.is_some_and(|x| within(path, x)) {
                continue;
            }
            let full = repo.join(path);
            if file.kind == ChangeKind::Added {
                remove(&full).map_err(|source| FixError::Io {
                    context: format!("cannot remove {path}, which the fixer created"),
                    source,
                })?;
                created.push(path.to_string());
                continue;
            }
            let result = match (file.kind, &file.before) {
                (_, Some(text)) => write(&full, text.as_bytes()),
                (_, None) => {
                    binaries.push(path.to_string());
                    Ok(())
                }
            };
            result.map_err(|source| FixError::Io {
                context: format!("cannot undo the fixer's change to {path}"),
                source,
            })?;
            undone.push(path.to_string());
        }
        let tracked = work_tree::tracked(repo, &binaries).map_err(FixError::Git)?;
        if let Some(lost) = binaries.iter().find(|b| !tracked.contains(b)) {
            return Err(FixError::Internal(format!(
                "the fixer changed {lost}, an untracked binary file outside its group, which cannot be restored"
            )));
        }
        work_tree::restore(repo, &tracked).map_err(FixError::Git)?;
        Ok((undone, created))
    }
}

fn snapshot(repo: &Path) -> Result<Snapshot, FixError> {
    Snapshot::take(repo).map_err(|e| FixError::BadInput(e.to_string()))
}

/// Whether `path` is `dir` or inside it.
pub fn within(path: &str, dir: &str) -> bool {
    path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_matches_the_folder_and_its_contents_only() {
        assert!(within("reviews/r1", "reviews/r1"));
        assert!(within("reviews/r1/plan.json", "reviews/r1"));
        assert!(!within("reviews/r10/plan.json", "reviews/r1"));
    }

    #[test]
    fn owned_folders_cover_their_files_only() {
        let owned = ["tests/".to_string(), "src/a.rs".to_string()];
        assert!(owned_by(&owned, "tests/it.rs"));
        assert!(owned_by(&owned, "src/a.rs"));
        assert!(!owned_by(&owned, "testsuite/x.rs"));
        assert!(!owned_by(&owned, "src/a.rs.orig"));
    }

    #[test]
    fn a_rollback_removes_created_files_and_restores_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = dir.path();
        std::fs::create_dir_all(repo.join("tests")).expect("mkdir");
        std::fs::write(repo.join("tests/old.rs"), b"old\xff").expect("write");
        std::fs::write(repo.join("a.rs"), "a\n").expect("write");
        let owned = ["tests/".to_string(), "a.rs".to_string()];
        let before = GroupFiles::take(repo, &owned).expect("take");
        std::fs::write(repo.join("tests/new.rs"), "new\n").expect("write");
        std::fs::write(repo.join("tests/old.rs"), "changed\n").expect("write");
        std::fs::remove_file(repo.join("a.rs")).expect("rm");
        let now = GroupFiles::take(repo, &owned).expect("take");
        let differ = before.differ(&now);
        assert_eq!(differ, ["a.rs", "tests/new.rs", "tests/old.rs"]);
        before.restore(repo, &differ).expect("restore");
        assert_eq!(GroupFiles::take(repo, &owned).expect("take"), before);
        assert!(!repo.join("tests/new.rs").exists());
        assert_eq!(
            std::fs::read(repo.join("tests/old.rs")).expect("read"),
            b"old\xff"
        );
    }
}
