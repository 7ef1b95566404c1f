//! The Lead's git, as typed operations over the workspace's one hardened runner
//! ([`super`]): the work tree's uncommitted paths (Phase A wants a clean tree, so
//! that the run's one commit holds only the run's work), the repository's files (Phase 0's
//! Planner resolves the paths a task mentions against them), the work tree's content id (a
//! resumed run knows whether its accepted review still covers the tree), Phase C's commit of
//! everything the run changed (`.retake/` excluded); and a fix session's: a commit of exactly a
//! group's files (other paths, staged or not, stay out of it), their restoration from `HEAD`,
//! which paths `HEAD` tracks, the identity check before any work, and finding a group's commit
//! by its trailer.

use super::GitError;
use std::path::{Path, PathBuf};

/// What went wrong with the work tree's git.
#[derive(Debug, thiserror::Error)]
pub enum WorkTreeError {
    /// A git command failed, could not run or timed out.
    #[error(transparent)]
    Git(#[from] GitError),
    /// The scratch index's folder could not be created.
    #[error("cannot create {}: {source}", dir.display())]
    Scratch {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs `git ARGS` in `repo` through the workspace's one hardened git runner
/// ([`super`]: no hook, fsmonitor, filter or diff driver of the repository runs);
/// its standard output, or a one-line error naming the command and git's error line.
pub(crate) fn git(repo: &Path, args: &[&str]) -> Result<String, WorkTreeError> {
    git_with(repo, args, &[])
}

fn git_with(repo: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<String, WorkTreeError> {
    Ok(super::git_with(repo, args, env)?)
}

/// Stages every change of the work tree except retake's own state (`.retake/` stays as `HEAD`
/// has it). Naming `.retake` in `git add`'s pathspec, even to exclude it, fails when the
/// repository ignores it (`.gitignore`, `info/exclude` or a global excludes file), so
/// everything is staged and `.retake` unstaged again.
fn stage_all_but_state(repo: &Path, env: &[(&str, &str)]) -> Result<(), WorkTreeError> {
    git_with(repo, &["add", "-A"], env)?;
    git_with(repo, &["reset", "-q", "--", ".retake"], env).map(|_| ())
}

/// Whether a path is retake's own state, never part of a run's work.
fn is_retake_state(path: &str) -> bool {
    path.starts_with(".retake/") || path == ".retake" || path == "verdicts.md"
}

/// Paths with uncommitted changes (staged, unstaged, untracked), retake's own state excluded.
pub fn uncommitted(repo: &Path) -> Result<Vec<String>, WorkTreeError> {
    let out = git(
        repo,
        &["status", "--porcelain=v1", "-z", "--untracked-files=all"],
    )?;
    let mut paths = Vec::new();
    let mut entries = out.split('\0').filter(|e| !e.is_empty());
    while let Some(entry) = entries.next() {
        let (status, path) = entry.split_at(entry.len().min(3));
        if status.starts_with('R') || status.starts_with('C') {
            // A rename or copy is followed by its source path.
            let _source = entries.next();
        }
        if !is_retake_state(path) {
            paths.push(path.to_string());
        }
    }
    Ok(paths)
}

/// The repository's files, tracked and untracked (`.gitignore` respected), retake's state left
/// out.
pub fn files(repo: &Path) -> Result<Vec<String>, WorkTreeError> {
    let out = git(
        repo,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
    )?;
    let mut paths: Vec<String> = out
        .split('\0')
        .filter(|p| !p.is_empty() && !is_retake_state(p))
        .map(str::to_string)
        .collect();
    paths.sort();
    paths.dedup();
    Ok(paths)
}

/// The id of the tree the work tree holds now — tracked and untracked files (`.gitignore`
/// respected); retake's state, `verdicts.md` and `excluded` paths left out — built in the temporary index
/// `scratch` (a copy of the real one, so unchanged files are not hashed again) and removed
/// after; the real index is never touched. Equal ids mean equal content.
pub fn work_tree_id(
    repo: &Path,
    scratch: &Path,
    excluded: &[String],
) -> Result<String, WorkTreeError> {
    let index = git(repo, &["rev-parse", "--git-path", "index"])?;
    let index = repo.join(index.trim());
    if let Some(dir) = scratch.parent() {
        std::fs::create_dir_all(dir).map_err(|source| WorkTreeError::Scratch {
            dir: dir.to_path_buf(),
            source,
        })?;
    }
    if std::fs::copy(&index, scratch).is_err() {
        // No index yet (nothing was ever staged): git starts the scratch index empty.
        let _none = std::fs::remove_file(scratch);
    }
    let scratch_text = scratch.display().to_string();
    let env = [("GIT_INDEX_FILE", scratch_text.as_str())];
    // Left out entirely (not kept at their indexed version), so that Phase C's own edits of
    // the plan and its commit do not change the id.
    let mut left_out = vec![":(literal)verdicts.md".to_string()];
    left_out.extend(excluded.iter().map(|p| format!(":(literal){p}")));
    let mut rm: Vec<&str> = vec!["rm", "-q", "-r", "--cached", "--ignore-unmatch", "--"];
    rm.extend(left_out.iter().map(String::as_str));
    let tree = stage_all_but_state(repo, &env)
        .and_then(|_| git_with(repo, &rm, &env))
        .and_then(|_| git_with(repo, &["write-tree"], &env));
    // Best effort: a leftover scratch index is overwritten next time.
    let _removed = std::fs::remove_file(scratch);
    Ok(tree?.trim().to_string())
}

/// Stages everything the run changed (`.retake/` excluded) and commits it with `message`;
/// the new commit's hash, or `None` when there was nothing to commit.
pub fn commit_all(repo: &Path, message: &str) -> Result<Option<String>, WorkTreeError> {
    stage_all_but_state(repo, &[])?;
    let staged = git(repo, &["diff", "--cached", "--name-only", "-z"])?;
    if staged.split('\0').all(str::is_empty) {
        return Ok(None);
    }
    git(repo, &["commit", "-q", "--no-verify", "-m", message])?;
    let head = git(repo, &["rev-parse", "HEAD"])?;
    Ok(Some(head.trim().to_string()))
}

/// HEAD's hash and subject when HEAD is the commit of session `session_id` (its message carries
/// `Retake-Session: <id>`): the run committed before its Lead stopped.
pub fn session_commit(
    repo: &Path,
    session_id: &str,
) -> Result<Option<(String, String)>, WorkTreeError> {
    let Ok(out) = git(repo, &["log", "-1", "--format=%H%n%s%n%b"]) else {
        // No commit at all: none of this session either.
        return Ok(None);
    };
    let mut lines = out.lines();
    let hash = lines.next().unwrap_or_default().trim().to_string();
    let subject = lines.next().unwrap_or_default().to_string();
    let trailer = format!("Retake-Session: {session_id}");
    Ok(lines
        .any(|l| l.trim() == trailer)
        .then_some((hash, subject)))
}

/// `HEAD`'s commit, or `None` when the repository has none (or is no git work tree).
pub fn head(repo: &Path) -> Option<String> {
    git(repo, &["rev-parse", "--verify", "--quiet", "HEAD"])
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Whether git knows who commits (a group's commit would fail otherwise, after its tests).
pub fn committer_known(repo: &Path) -> Result<(), WorkTreeError> {
    git(repo, &["var", "GIT_COMMITTER_IDENT"]).map(|_| ())
}

/// Which of `paths` `HEAD` has.
pub fn tracked(repo: &Path, paths: &[String]) -> Result<Vec<String>, WorkTreeError> {
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
pub fn restore(repo: &Path, paths: &[String]) -> Result<(), WorkTreeError> {
    if paths.is_empty() {
        return Ok(());
    }
    let mut args = vec!["checkout", "HEAD", "--"];
    args.extend(paths.iter().map(String::as_str));
    git(repo, &args).map(|_| ())
}

/// Commits exactly `paths` (changed, added or deleted) with `message`; the short hash.
pub fn commit_paths(repo: &Path, paths: &[String], message: &str) -> Result<String, WorkTreeError> {
    let mut add = vec!["add", "-A", "--"];
    add.extend(paths.iter().map(String::as_str));
    git(repo, &add)?;
    let mut commit = vec!["commit", "-q", "--no-verify", "-m", message, "--only", "--"];
    commit.extend(paths.iter().map(String::as_str));
    git(repo, &commit)?;
    git(repo, &["rev-parse", "--short", "HEAD"]).map(|h| h.trim().to_string())
}

/// The newest commit (short hash) whose message holds `needle` as a fixed string.
pub fn commit_with(repo: &Path, needle: &str) -> Result<Option<String>, WorkTreeError> {
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

    fn sh(repo: &Path, args: &[&str]) {
        let mut argv = vec!["-c", "user.name=t", "-c", "user.email=t@example.com"];
        argv.extend(args);
        git(repo, &argv).expect("git");
    }

    #[test]
    fn uncommitted_paths_skip_retake_state_and_the_commit_leaves_it_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = dir.path();
        sh(repo, &["init", "-q"]);
        std::fs::write(repo.join("a.txt"), "a\n").expect("write");
        sh(repo, &["add", "a.txt"]);
        sh(repo, &["commit", "-q", "-m", "init"]);
        assert_eq!(uncommitted(repo).ok(), Some(Vec::new()));
        std::fs::create_dir_all(repo.join(".retake/state")).expect("mkdir");
        std::fs::write(repo.join(".retake/state/active.json"), "{}").expect("write");
        assert_eq!(uncommitted(repo).ok(), Some(Vec::new()));
        std::fs::write(repo.join("a.txt"), "b\n").expect("write");
        std::fs::write(repo.join("new file.rs"), "x\n").expect("write");
        assert_eq!(
            uncommitted(repo).ok(),
            Some(vec!["a.txt".to_string(), "new file.rs".to_string()])
        );
        std::fs::write(repo.join(".git/info/exclude"), "").expect("write");
        sh(repo, &["config", "user.name", "t"]);
        sh(repo, &["config", "user.email", "t@example.com"]);
        let hash = commit_all(repo, "feat: add b\n\nbody\n")
            .expect("commit")
            .expect("a commit");
        assert_eq!(hash.len(), 40);
        assert_eq!(uncommitted(repo).ok(), Some(Vec::new()));
        let shown = git(repo, &["show", "--name-only", "--format=%s", "HEAD"]).expect("show");
        assert_eq!(shown, "feat: add b\n\na.txt\nnew file.rs\n");
        assert_eq!(commit_all(repo, "nothing").ok(), Some(None));
        assert_eq!(session_commit(repo, "retake-1").ok(), Some(None));
        std::fs::write(repo.join("c.txt"), "c\n").expect("write");
        let hash = commit_all(
            repo,
            "feat: add c\n\n- 1 Add c\n\nRetake-Session: retake-1\n",
        )
        .expect("commit")
        .expect("a commit");
        assert_eq!(
            session_commit(repo, "retake-1").ok(),
            Some(Some((hash, "feat: add c".to_string())))
        );
        assert_eq!(session_commit(repo, "retake-2").ok(), Some(None));
    }

    #[test]
    fn the_work_tree_id_follows_content_and_leaves_the_index_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = dir.path();
        sh(repo, &["init", "-q"]);
        std::fs::write(repo.join("a.txt"), "a\n").expect("write");
        std::fs::write(repo.join("Plans.md"), "- 1 A cc:TODO\n").expect("write");
        sh(repo, &["add", "-A"]);
        sh(repo, &["commit", "-q", "-m", "init"]);
        let scratch = repo.join(".retake/state/tree.index");
        let plan = vec!["Plans.md".to_string()];
        let id = |repo: &Path| work_tree_id(repo, &scratch, &plan).expect("tree id");
        let head_tree = git(repo, &["rev-parse", "HEAD^{tree}"]).expect("tree");
        let clean = id(repo);
        assert_ne!(clean, head_tree.trim(), "Plans.md is left out");
        std::fs::write(repo.join("new.rs"), "fn x() {}\n").expect("write");
        let added = id(repo);
        assert_ne!(added, clean, "an untracked file counts");
        std::fs::write(repo.join("Plans.md"), "- 1 A cc:done\n").expect("write");
        std::fs::create_dir_all(repo.join(".retake/runs")).expect("mkdir");
        std::fs::write(repo.join(".retake/runs/x"), "x").expect("write");
        assert_eq!(id(repo), added, "the plan and retake's state do not count");
        std::fs::remove_file(repo.join("new.rs")).expect("rm");
        assert_eq!(id(repo), clean, "same content, same id");
        assert!(!scratch.exists(), "the scratch index is removed");
        assert_eq!(
            git(repo, &["diff", "--cached", "--name-only"]).expect("diff"),
            "",
            "the real index is untouched"
        );
        assert_eq!(
            files(repo).expect("files"),
            vec!["Plans.md".to_string(), "a.txt".to_string()]
        );
    }

    /// The three ways a repository can treat `.retake/`: ignored by its `.gitignore`, not
    /// ignored at all, ignored by an excludes file outside the repository.
    #[test]
    fn the_commit_and_the_tree_id_work_whatever_ignores_retake_state() {
        for setup in ["gitignore", "none", "excludes-file"] {
            let dir = tempfile::tempdir().expect("tempdir");
            let repo = &dir.path().join("repo");
            std::fs::create_dir(repo).expect("mkdir");
            sh(repo, &["init", "-q"]);
            sh(repo, &["config", "user.name", "t"]);
            sh(repo, &["config", "user.email", "t@example.com"]);
            match setup {
                "gitignore" => std::fs::write(repo.join(".gitignore"), ".retake/\n").expect("w"),
                "excludes-file" => {
                    let excludes = dir.path().join("global-ignore");
                    std::fs::write(&excludes, ".retake/\n").expect("write");
                    let path = excludes.display().to_string();
                    sh(repo, &["config", "core.excludesFile", &path]);
                }
                _ => {}
            }
            std::fs::write(repo.join("a.txt"), "a\n").expect("write");
            let first = commit_all(repo, "init").expect(setup).expect("a commit");
            std::fs::create_dir_all(repo.join(".retake/state")).expect("mkdir");
            std::fs::write(repo.join(".retake/state/active.json"), "{}").expect("write");
            std::fs::write(repo.join("b.txt"), "b\n").expect("write");
            let scratch = repo.join(".retake/state/tree.index");
            let before = work_tree_id(repo, &scratch, &[]).expect(setup);
            let second = commit_all(repo, "feat: b").expect(setup).expect("a commit");
            assert_ne!(first, second);
            let shown = git(repo, &["show", "--name-only", "--format=", "HEAD"]).expect("show");
            assert_eq!(shown, "b.txt\n", "{setup}: .retake stays out of the commit");
            assert_eq!(uncommitted(repo).ok(), Some(Vec::new()), "{setup}");
            let head_tree = git(repo, &["rev-parse", "HEAD^{tree}"]).expect("tree");
            assert_eq!(
                before,
                head_tree.trim(),
                "{setup}: the id leaves .retake out"
            );
        }
    }

    fn out(repo: &Path, args: &[&str]) -> String {
        git(repo, args).unwrap()
    }

    #[test]
    fn a_group_commit_holds_only_its_paths_and_restore_undoes_edits() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path();
        out(repo, &["init", "-q"]);
        out(repo, &["config", "user.name", "t"]);
        out(repo, &["config", "user.email", "t@example.com"]);
        assert_eq!(head(repo), None);
        std::fs::write(repo.join("a.rs"), "a\n").unwrap();
        std::fs::write(repo.join("b.rs"), "b\n").unwrap();
        out(repo, &["add", "."]);
        out(repo, &["commit", "-q", "-m", "init"]);
        assert!(head(repo).is_some());
        assert_eq!(committer_known(repo).ok(), Some(()));
        assert_eq!(
            tracked(repo, &["a.rs".into(), "new.rs".into()]).unwrap(),
            vec!["a.rs"]
        );
        std::fs::write(repo.join("a.rs"), "a fixed\n").unwrap();
        std::fs::write(repo.join("b.rs"), "b edited\n").unwrap();
        out(repo, &["add", "b.rs"]);
        let hash =
            commit_paths(repo, &["a.rs".into()], "fix: a\n\nRetake-Fix: fix-1/G1\n").unwrap();
        assert!(hash.len() >= 7);
        assert_eq!(
            out(repo, &["show", "--name-only", "--format=", "HEAD"]),
            "a.rs\n"
        );
        assert_eq!(
            commit_with(repo, "Retake-Fix: fix-1/G1").unwrap(),
            Some(hash)
        );
        assert_eq!(commit_with(repo, "Retake-Fix: fix-1/G2").unwrap(), None);
        restore(repo, &["b.rs".into()]).unwrap();
        assert_eq!(std::fs::read_to_string(repo.join("b.rs")).unwrap(), "b\n");
        assert_eq!(out(repo, &["status", "--porcelain"]), "");
    }
}
