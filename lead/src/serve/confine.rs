//! Where a job of `retake serve` may reach: its repository must resolve (symlinks followed)
//! inside the service's repositories root (`--repos-root`, `[serve] repos_root`), and a job
//! option that names a file (`--baseline`) inside that repository. Anything else is refused
//! before the job is queued, and checked again when it starts (the folder may have changed).
//!
//! A path that does not resolve is judged by its text (`.` and `..` applied), so a refusal
//! never tells a client whether something outside the root exists.

use std::path::{Component, Path, PathBuf};

/// Why a path was refused: outside what the job may reach (403), or not usable (400).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Resolves outside the root or the repository.
    Outside(String),
    /// Inside, but not what the option needs (missing, not a folder).
    Unusable(String),
}

impl Refusal {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Outside(_) => 403,
            Refusal::Unusable(_) => 400,
        }
    }

    /// What the client is told.
    pub fn message(&self) -> &str {
        match self {
            Refusal::Outside(m) | Refusal::Unusable(m) => m,
        }
    }
}

/// Why `--repos-root` cannot be the repositories root.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    /// It does not resolve (missing, unreadable).
    #[error("--repos-root {}: {source}", dir.display())]
    Unusable {
        /// The folder as given.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It resolves to something other than a folder.
    #[error("--repos-root {}: not a folder", .0.display())]
    NotAFolder(PathBuf),
}

/// The service's repositories root, canonical.
#[derive(Debug, Clone)]
pub struct ReposRoot(PathBuf);

impl ReposRoot {
    /// The root at `dir`, which must be a folder the service can read.
    pub fn new(dir: &Path) -> Result<ReposRoot, RootError> {
        let root = dir.canonicalize().map_err(|source| RootError::Unusable {
            dir: dir.to_path_buf(),
            source,
        })?;
        if !root.is_dir() {
            return Err(RootError::NotAFolder(dir.to_path_buf()));
        }
        Ok(ReposRoot(root))
    }

    /// The canonical root.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The canonical folder of a job's repository (absolute, or relative to the root).
    pub fn repository(&self, repo: &Path) -> Result<PathBuf, Refusal> {
        let shown = repo.display();
        let dir = inside(&self.0, repo).map_err(|()| {
            Refusal::Outside(format!(
                "repo '{shown}' is outside the service's repositories root"
            ))
        })?;
        match dir {
            Some(dir) if dir.is_dir() => Ok(dir),
            _ => Err(Refusal::Unusable(format!(
                "repo '{shown}' is not a folder under the service's repositories root"
            ))),
        }
    }
}

impl ReposRoot {
    /// The folder a job clones into: inside the root by its text, not there yet, in a folder
    /// that is (resolved, symlinks followed) inside the root.
    pub fn new_folder(&self, repo: &Path) -> Result<PathBuf, Refusal> {
        let shown = repo.display();
        let outside = || {
            Refusal::Outside(format!(
                "repo '{shown}' is outside the service's repositories root"
            ))
        };
        let path = lexical(&self.0.join(repo));
        let parent = path.parent().ok_or_else(outside)?;
        if path == self.0 || !path.starts_with(&self.0) {
            return Err(outside());
        }
        let parent = match parent.canonicalize() {
            Ok(real) if real.starts_with(&self.0) => real,
            Ok(_) => return Err(outside()),
            Err(_) => {
                return Err(Refusal::Unusable(format!(
                    "repo '{shown}': its parent folder does not exist under the service's repositories root"
                )))
            }
        };
        let target = parent.join(path.file_name().ok_or_else(outside)?);
        if target.symlink_metadata().is_ok() {
            return Err(Refusal::Unusable(format!(
                "repo '{shown}' exists already: a clone goes into a new folder"
            )));
        }
        Ok(target)
    }
}

/// The canonical file `option` names, inside the (canonical) repository `repo`; a relative
/// path is relative to the repository.
pub fn file_in_repo(repo: &Path, option: &str, file: &Path) -> Result<PathBuf, Refusal> {
    let shown = file.display();
    match inside(repo, file) {
        Err(()) => Err(Refusal::Outside(format!(
            "{option} '{shown}' is outside the job's repository"
        ))),
        Ok(Some(path)) if path.is_file() => Ok(path),
        Ok(_) => Err(Refusal::Unusable(format!(
            "{option} '{shown}' is not a file in the job's repository"
        ))),
    }
}

/// `path` (relative to `base`, or absolute) resolved: `Ok(Some(canonical))` inside `base`,
/// `Ok(None)` when it does not resolve but its text stays inside, `Err` when outside.
fn inside(base: &Path, path: &Path) -> Result<Option<PathBuf>, ()> {
    let joined = base.join(path);
    match joined.canonicalize() {
        Ok(real) if real.starts_with(base) => Ok(Some(real)),
        Ok(_) => Err(()),
        Err(_) if lexical(&joined).starts_with(base) => Ok(None),
        Err(_) => Err(()),
    }
}

/// `path` with `.` and `..` applied to its text (no filesystem access).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_repository_must_resolve_inside_the_root() {
        let top = tempfile::tempdir().expect("dir");
        let root = top.path().join("repos");
        std::fs::create_dir_all(root.join("shop/src")).expect("mkdir");
        std::fs::create_dir_all(top.path().join("secret")).expect("mkdir");
        symlink(top.path().join("secret"), root.join("escape")).expect("symlink");
        symlink(root.join("shop"), root.join("alias")).expect("symlink");
        let repos = ReposRoot::new(&root).expect("root");
        let real = root.canonicalize().expect("canonical");
        assert_eq!(repos.repository(Path::new("shop")), Ok(real.join("shop")));
        assert_eq!(repos.repository(&root.join("alias")), Ok(real.join("shop")));
        assert_eq!(
            repos.repository(&root.join("shop/src/..")),
            Ok(real.join("shop"))
        );
        for outside in [
            top.path().join("secret"),
            root.join("../secret"),
            root.join("escape"),
            root.join("shop/../../secret"),
            PathBuf::from("/"),
            root.join("../no-such-folder"),
        ] {
            let refusal = repos.repository(&outside).expect_err("outside");
            assert_eq!(refusal.status(), 403, "{}", outside.display());
            assert_eq!(
                refusal.message(),
                format!(
                    "repo '{}' is outside the service's repositories root",
                    outside.display()
                )
            );
        }
        let missing = repos.repository(Path::new("nope")).expect_err("missing");
        assert_eq!(
            missing,
            Refusal::Unusable(
                "repo 'nope' is not a folder under the service's repositories root".into()
            )
        );
        assert!(ReposRoot::new(&top.path().join("nope"))
            .expect_err("no root")
            .to_string()
            .starts_with("--repos-root "));
    }

    #[test]
    fn a_clone_goes_into_a_new_folder_inside_the_root() {
        let top = tempfile::tempdir().expect("dir");
        let root = top.path().join("repos");
        std::fs::create_dir_all(root.join("team")).expect("mkdir");
        std::fs::create_dir_all(root.join("taken")).expect("mkdir");
        symlink(top.path(), root.join("up")).expect("symlink");
        let repos = ReposRoot::new(&root).expect("root");
        let real = root.canonicalize().expect("canonical");
        assert_eq!(repos.new_folder(Path::new("fresh")), Ok(real.join("fresh")));
        assert_eq!(
            repos.new_folder(Path::new("team/app")),
            Ok(real.join("team/app"))
        );
        for outside in ["../x", "/tmp/x", "up/x", ".", "team/../.."] {
            assert_eq!(
                repos.new_folder(Path::new(outside)).map_err(|r| r.status()),
                Err(403),
                "{outside}"
            );
        }
        assert_eq!(
            repos.new_folder(Path::new("taken")),
            Err(Refusal::Unusable(
                "repo 'taken' exists already: a clone goes into a new folder".into()
            ))
        );
        assert_eq!(
            repos
                .new_folder(Path::new("no/such/x"))
                .map_err(|r| r.status()),
            Err(400)
        );
    }

    #[test]
    fn a_file_option_must_name_a_file_in_the_repository() {
        let top = tempfile::tempdir().expect("dir");
        let repo = top.path().join("repo");
        std::fs::create_dir_all(&repo).expect("mkdir");
        std::fs::write(repo.join("base.json"), "{}").expect("write");
        std::fs::write(top.path().join("shadow"), "x").expect("write");
        symlink(top.path().join("shadow"), repo.join("link")).expect("symlink");
        let repo = repo.canonicalize().expect("canonical");
        assert_eq!(
            file_in_repo(&repo, "--baseline", Path::new("base.json")),
            Ok(repo.join("base.json"))
        );
        for outside in ["../shadow", "link", "/etc/passwd", "/etc/no-such-file"] {
            let refusal = file_in_repo(&repo, "--baseline", Path::new(outside)).expect_err(outside);
            assert_eq!(
                refusal,
                Refusal::Outside(format!(
                    "--baseline '{outside}' is outside the job's repository"
                ))
            );
        }
        assert_eq!(
            file_in_repo(&repo, "--baseline", Path::new("."))
                .expect_err("folder")
                .status(),
            400
        );
    }
}
