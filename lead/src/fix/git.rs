//! The git a fix session needs beyond `run::git`'s: a commit of exactly a group's files (other
//! paths, staged or not, stay out of it), their restoration from `HEAD`, which paths `HEAD`
//! tracks, the identity check before any work, and finding a group's commit by its trailer.
//! Every call goes through `run::git::git` (argv, own process group, time limit).

use crate::run::git::git;
use std::path::Path;

/// `HEAD`'s commit, or `None` when the repository has none (or is no git work tree).
pub fn head(repo: &Path) -> Option<String> {
    git(repo, &["rev-parse", "--verify", "--quiet", "HEAD"])
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Whether git knows who commits (a group's commit would fail otherwise, after its tests).
pub fn committer_known(repo: &Path) -> Result<(), String> {
    git(repo, &["var", "GIT_COMMITTER_IDENT"]).map(|_| ())
}

/// Which of `paths` `HEAD` has.
pub fn tracked(repo: &Path, paths: &[String]) -> Result<Vec<String>, String> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let mut args = vec!["ls-tree", "-r", "--name-only", "-z", "HEAD", "--"];
    args.extend(paths.iter().map(String::as_str));
    let out = git(repo, &args)?;
    Ok(out
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect())
}

/// Restores `paths` (all tracked by `HEAD`) to `HEAD`'s content, index and work tree.
pub fn restore(repo: &Path, paths: &[String]) -> Result<(), String> {
    if paths.is_empty() {
        return Ok(());
    }
    let mut args = vec!["checkout", "HEAD", "--"];
    args.extend(paths.iter().map(String::as_str));
    git(repo, &args).map(|_| ())
}

/// Commits exactly `paths` (changed, added or deleted) with `message`; the short hash.
pub fn commit_paths(repo: &Path, paths: &[String], message: &str) -> Result<String, String> {
    let mut add = vec!["add", "-A", "--"];
    add.extend(paths.iter().map(String::as_str));
    git(repo, &add)?;
    let mut commit = vec!["commit", "-q", "--no-verify", "-m", message, "--only", "--"];
    commit.extend(paths.iter().map(String::as_str));
    git(repo, &commit)?;
    git(repo, &["rev-parse", "--short", "HEAD"]).map(|h| h.trim().to_string())
}

/// The newest commit (short hash) whose message holds `needle` as a fixed string.
pub fn commit_with(repo: &Path, needle: &str) -> Result<Option<String>, String> {
    let grep = format!("--grep={needle}");
    let out = git(
        repo,
        &["log", "-F", &grep, "--format=%h", "-n", "1", "HEAD"],
    )?;
    Ok(Some(out.trim().to_string()).filter(|h| !h.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(repo: &Path, args: &[&str]) -> String {
        git(repo, args).unwrap()
    }

    #[test]
    fn a_group_commit_holds_only_its_paths_and_restore_undoes_edits() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path();
        sh(repo, &["init", "-q"]);
        sh(repo, &["config", "user.name", "t"]);
        sh(repo, &["config", "user.email", "t@example.com"]);
        assert_eq!(head(repo), None);
        std::fs::write(repo.join("a.rs"), "a\n").unwrap();
        std::fs::write(repo.join("b.rs"), "b\n").unwrap();
        sh(repo, &["add", "."]);
        sh(repo, &["commit", "-q", "-m", "init"]);
        assert!(head(repo).is_some());
        assert_eq!(committer_known(repo), Ok(()));
        assert_eq!(
            tracked(repo, &["a.rs".into(), "new.rs".into()]).unwrap(),
            vec!["a.rs"]
        );
        std::fs::write(repo.join("a.rs"), "a fixed\n").unwrap();
        std::fs::write(repo.join("b.rs"), "b edited\n").unwrap();
        sh(repo, &["add", "b.rs"]);
        let hash =
            commit_paths(repo, &["a.rs".into()], "fix: a\n\nRetake-Fix: fix-1/G1\n").unwrap();
        assert!(hash.len() >= 7);
        assert_eq!(
            sh(repo, &["show", "--name-only", "--format=", "HEAD"]),
            "a.rs\n"
        );
        assert_eq!(
            commit_with(repo, "Retake-Fix: fix-1/G1").unwrap(),
            Some(hash)
        );
        assert_eq!(commit_with(repo, "Retake-Fix: fix-1/G2").unwrap(), None);
        restore(repo, &["b.rs".into()]).unwrap();
        assert_eq!(std::fs::read_to_string(repo.join("b.rs")).unwrap(), "b\n");
        assert_eq!(sh(repo, &["status", "--porcelain"]), "");
    }
}
