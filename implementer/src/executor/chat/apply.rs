//! Carrying an answer out, all or nothing: every edit is checked first — its path relative,
//! inside the repository (no `..`, no `.git`, no symbolic link on the way), among the task's
//! owned files; a diff applied in memory to the file as it is — and only when every one holds
//! are the new contents written, each to a temporary file beside its target and then renamed
//! over it. Any error leaves the tree as it was.

use super::answer::Edit;
use super::patch;
use crate::ownership::Ownership;
use std::path::{Component, Path, PathBuf};

/// One file to write: its repository-relative path and new content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Write {
    /// The repository-relative `/` path.
    pub(super) path: String,
    /// The new content.
    pub(super) content: String,
}

/// Checks every edit against the repository and the owned files; the files to write.
pub(super) fn plan(repo: &Path, owns: &[String], edits: &[Edit]) -> Result<Vec<Write>, String> {
    if owns.is_empty() {
        return Err("the task owns no file, and the chat executor writes only owned files".into());
    }
    let ownership = Ownership::new(owns)?;
    let mut writes = Vec::new();
    for edit in edits {
        let (raw, content) = match edit {
            Edit::Replace { path, content } => {
                let path = checked(repo, &ownership, path)?;
                if let Some(current) = read(repo, &path)? {
                    if current == *content {
                        continue;
                    }
                }
                (path, content.clone())
            }
            Edit::Patch(p) => {
                let Some(new) = &p.new else {
                    let old = p.old.as_deref().unwrap_or_default();
                    return Err(format!(
                        "the diff deletes `{old}`: the chat executor does not delete files; give the file's new content instead"
                    ));
                };
                if let Some(old) = p.old.as_deref().filter(|old| old != new) {
                    return Err(format!(
                        "the diff renames `{old}` to `{new}`: the chat executor does not rename files"
                    ));
                }
                let path = checked(repo, &ownership, new)?;
                let current = read(repo, &path)?;
                let content = patch::apply(p, current.as_deref(), &path)?;
                (path, content)
            }
        };
        writes.push(Write { path: raw, content });
    }
    Ok(writes)
}

/// `path` as a clean repository-relative path, when it is safe and owned.
fn checked(repo: &Path, ownership: &Ownership, path: &str) -> Result<String, String> {
    let given = Path::new(path);
    let mut parts = Vec::new();
    for part in given.components() {
        match part {
            Component::Normal(p) => {
                let p = p.to_str().ok_or_else(|| format!("`{path}` is not UTF-8"))?;
                if p == ".git" {
                    return Err(format!("`{path}` is inside .git"));
                }
                parts.push(p.to_string());
            }
            Component::CurDir => {}
            _ => {
                return Err(format!(
                    "`{path}` is not a plain path inside the repository (absolute or with `..`)"
                ))
            }
        }
    }
    let clean = parts.join("/");
    if clean.is_empty() {
        return Err(format!("`{path}` names no file"));
    }
    if !ownership.contains(&clean) {
        return Err(format!(
            "`{clean}` is not among the files this task owns: only they may be changed"
        ));
    }
    let mut at = repo.to_path_buf();
    for part in &parts {
        at.push(part);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "`{clean}` goes through a symbolic link; it is not written"
            ));
        }
    }
    if at.is_dir() {
        return Err(format!("`{clean}` is a folder, not a file"));
    }
    Ok(clean)
}

/// The current text of a repository file; `None` when it does not exist.
fn read(repo: &Path, path: &str) -> Result<Option<String>, String> {
    match std::fs::read(repo.join(path)) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            format!("`{path}` is not UTF-8 text; the chat executor does not change it")
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read `{path}`: {e}")),
    }
}

/// Writes every file of `writes`: each to a temporary file beside it, then (all written) each
/// renamed over its target, keeping an existing file's permissions. A failure before the
/// renames removes the temporary files and leaves the tree as it was.
pub(super) fn write(repo: &Path, writes: &[Write]) -> Result<(), String> {
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = writes.iter().try_for_each(|w| {
        let target = repo.join(&w.path);
        let dir = target.parent().unwrap_or(repo);
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the folder of `{}`: {e}", w.path))?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = dir.join(format!(".{name}.retake-chat-{}.tmp", std::process::id()));
        std::fs::write(&temp, &w.content).map_err(|e| format!("cannot write `{}`: {e}", w.path))?;
        staged.push((temp.clone(), target.clone()));
        if let Ok(meta) = std::fs::metadata(&target) {
            std::fs::set_permissions(&temp, meta.permissions())
                .map_err(|e| format!("cannot keep the permissions of `{}`: {e}", w.path))?;
        }
        Ok::<(), String>(())
    });
    if let Err(e) = result {
        for (temp, _) in &staged {
            std::fs::remove_file(temp).ok();
        }
        return Err(e);
    }
    for (temp, target) in &staged {
        std::fs::rename(temp, target)
            .map_err(|e| format!("cannot replace {}: {e}", target.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replace(path: &str, content: &str) -> Edit {
        Edit::Replace {
            path: path.into(),
            content: content.into(),
        }
    }

    #[test]
    fn only_plain_owned_paths_inside_the_repository_are_planned() {
        let repo = tempfile::tempdir().expect("repo");
        std::fs::create_dir_all(repo.path().join("src")).expect("src");
        std::fs::write(repo.path().join("src/a.rs"), "old\n").expect("a");
        let owns = vec!["src/a.rs".to_string(), "src/new/".to_string()];
        let plan_of = |edits: &[Edit]| plan(repo.path(), &owns, edits);
        assert_eq!(
            plan_of(&[
                replace("./src/a.rs", "new\n"),
                replace("src/new/b.rs", "b\n")
            ])
            .expect("owned"),
            vec![
                Write {
                    path: "src/a.rs".into(),
                    content: "new\n".into()
                },
                Write {
                    path: "src/new/b.rs".into(),
                    content: "b\n".into()
                },
            ]
        );
        assert_eq!(
            plan_of(&[replace("src/a.rs", "old\n")]),
            Ok(Vec::new()),
            "unchanged"
        );
        for (path, says) in [
            (
                "src/b.rs",
                "`src/b.rs` is not among the files this task owns",
            ),
            ("../x/src/a.rs", "absolute or with `..`"),
            ("/etc/passwd", "absolute or with `..`"),
            ("src/new/.git/config", "inside .git"),
        ] {
            let err = plan_of(&[replace("src/a.rs", "new\n"), replace(path, "x\n")]).unwrap_err();
            assert!(err.contains(says), "{path}: {err}");
        }
        std::os::unix::fs::symlink("/tmp", repo.path().join("src/new")).expect("link");
        let err = plan_of(&[replace("src/new/b.rs", "b\n")]).unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
        assert!(plan(repo.path(), &[], &[replace("src/a.rs", "x\n")]).is_err());
    }

    #[test]
    fn writing_replaces_the_files_and_leaves_no_temporary_file() {
        let repo = tempfile::tempdir().expect("repo");
        write(
            repo.path(),
            &[Write {
                path: "d/a.txt".into(),
                content: "a\n".into(),
            }],
        )
        .expect("written");
        assert_eq!(
            std::fs::read_to_string(repo.path().join("d/a.txt")).expect("a"),
            "a\n"
        );
        let names: Vec<_> = std::fs::read_dir(repo.path().join("d"))
            .expect("d")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
