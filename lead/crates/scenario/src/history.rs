//! The copy's git history: a git-less copy (a shipped fixture is kept without `.git`) made a
//! work tree with one commit for a run scenario, or with two for a review scenario's
//! `review.added`, and the commits a run added on top.

use super::{io, ScenarioError};
use std::path::Path;

/// The identity of the fixture's first commit and of the run's own commit in the copy.
const IDENTITY: [(&str, &str); 3] = [
    ("user.name", "retake scenario"),
    ("user.email", "scenario@retake.invalid"),
    ("commit.gpgsign", "false"),
];

/// Makes `copy` a git work tree with a commit, when it is not one (a shipped fixture is kept
/// without `.git`), with an identity for the run's own commit; returns its HEAD.
pub(super) fn work_tree(copy: &Path) -> Result<String, ScenarioError> {
    let fresh = !copy.join(".git").exists();
    if fresh {
        git(copy, &["init", "-q"])?;
    }
    for (key, value) in IDENTITY {
        git(copy, &["config", key, value])?;
    }
    if fresh {
        git(copy, &["add", "-A"])?;
        git(
            copy,
            &["commit", "-q", "-m", "chore: the scenario's fixture"],
        )?;
    }
    Ok(git(copy, &["rev-parse", "HEAD"])?.trim().to_string())
}

/// Makes the git-less `copy` a work tree of two commits: the first without `added`, the second
/// adding it (a review scenario's `review.added`: `--base HEAD~1` reviews that change).
pub(super) fn history_adding(copy: &Path, added: &Path) -> Result<(), ScenarioError> {
    let path = copy.join(added);
    let text = std::fs::read(&path).map_err(io(format!("cannot read {}", path.display())))?;
    std::fs::remove_file(&path).map_err(io(format!("cannot move {} aside", path.display())))?;
    work_tree(copy)?;
    std::fs::write(&path, text).map_err(io(format!("cannot write {}", path.display())))?;
    let shown = added.to_string_lossy();
    git(copy, &["add", "--", &shown])?;
    git(copy, &["commit", "-q", "-m", &format!("feat: add {shown}")])?;
    Ok(())
}

/// How many commits `repo`'s HEAD has on top of `base` (0 when git cannot tell).
pub(super) fn commits_since(repo: &Path, base: &str) -> u32 {
    git(repo, &["rev-list", "--count", &format!("{base}..HEAD")])
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Runs git in `repo`; a failure is the environment's (git missing or refusing).
fn git(repo: &Path, args: &[&str]) -> Result<String, ScenarioError> {
    protocol::exec::git::git(repo, args).map_err(|error| ScenarioError::Git {
        repo: repo.to_path_buf(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_added_file_is_the_second_commit_of_the_copy() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/lib.rs"), "pub fn a() {}\n").expect("write");
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").expect("write");
        history_adding(dir.path(), Path::new("src/lib.rs")).expect("history");
        let changed = git(dir.path(), &["diff", "--name-status", "HEAD~1", "HEAD"]).expect("diff");
        assert_eq!(changed, "A\tsrc/lib.rs\n");
        let first = git(dir.path(), &["ls-tree", "-r", "--name-only", "HEAD~1"]).expect("ls-tree");
        assert_eq!(first, "Cargo.toml\n");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("src/lib.rs")).expect("read"),
            "pub fn a() {}\n"
        );
    }

    #[test]
    fn a_git_less_copy_becomes_a_work_tree_with_one_commit_and_an_identity() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("Plans.md"), "# Plans\n").expect("write");
        let head = work_tree(dir.path()).expect("git");
        assert_eq!(head.len(), 40, "{head}");
        assert_eq!(commits_since(dir.path(), &head), 0);
        assert_eq!(
            git(dir.path(), &["config", "user.email"])
                .expect("config")
                .trim(),
            "scenario@retake.invalid"
        );
        std::fs::write(dir.path().join("a.txt"), "a\n").expect("write");
        git(dir.path(), &["add", "-A"]).expect("add");
        git(dir.path(), &["commit", "-q", "-m", "feat: a"]).expect("commit");
        assert_eq!(commits_since(dir.path(), &head), 1);
        assert_eq!(
            work_tree(dir.path()).expect("again").len(),
            40,
            "an existing tree is kept"
        );
        assert_eq!(commits_since(dir.path(), &head), 1);
    }
}
