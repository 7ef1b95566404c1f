//! The git a run needs, as argv: the work tree's uncommitted paths (Phase A wants a clean tree,
//! so that the run's one commit holds only the run's work) and Phase C's commit of everything
//! the run changed, `.retake/` excluded.

use super::command::run;
use std::path::Path;
use std::time::Duration;

const GIT_TIMEOUT: Duration = Duration::from_secs(120);

fn git(repo: &Path, args: &[&str]) -> Result<String, String> {
    let mut argv = vec!["git".to_string(), "-c".into(), "core.quotepath=off".into()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let ran = run(&argv, repo, &[("GIT_TERMINAL_PROMPT", "0")], GIT_TIMEOUT)
        .map_err(|e| format!("git {}: {e}", args.join(" ")))?;
    if ran.ok() {
        Ok(ran.stdout)
    } else {
        Err(format!(
            "git {} failed: {}",
            args.join(" "),
            ran.last_line()
        ))
    }
}

/// Whether a path is retake's own state, never part of a run's work.
fn is_retake_state(path: &str) -> bool {
    path.starts_with(".retake/") || path == ".retake" || path == "verdicts.md"
}

/// Paths with uncommitted changes (staged, unstaged, untracked), retake's own state excluded.
pub fn uncommitted(repo: &Path) -> Result<Vec<String>, String> {
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

/// Stages everything the run changed (`.retake/` excluded) and commits it with `message`;
/// the new commit's hash, or `None` when there was nothing to commit.
pub fn commit_all(repo: &Path, message: &str) -> Result<Option<String>, String> {
    git(repo, &["add", "-A", "--", ".", ":(exclude).retake"])?;
    let staged = git(repo, &["diff", "--cached", "--name-only", "-z"])?;
    if staged.split('\0').all(str::is_empty) {
        return Ok(None);
    }
    git(repo, &["commit", "-q", "--no-verify", "-m", message])?;
    let head = git(repo, &["rev-parse", "HEAD"])?;
    Ok(Some(head.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(repo: &Path, args: &[&str]) {
        let mut argv = vec![
            "git".to_string(),
            "-c".into(),
            "user.name=t".into(),
            "-c".into(),
            "user.email=t@example.com".into(),
        ];
        argv.extend(args.iter().map(|a| a.to_string()));
        let ran = run(&argv, repo, &[], GIT_TIMEOUT).expect("git");
        assert!(ran.ok(), "{args:?}: {}", ran.stderr);
    }

    #[test]
    fn uncommitted_paths_skip_retake_state_and_the_commit_leaves_it_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = dir.path();
        sh(repo, &["init", "-q"]);
        std::fs::write(repo.join("a.txt"), "a\n").expect("write");
        sh(repo, &["add", "a.txt"]);
        sh(repo, &["commit", "-q", "-m", "init"]);
        assert_eq!(uncommitted(repo), Ok(Vec::new()));
        std::fs::create_dir_all(repo.join(".retake/state")).expect("mkdir");
        std::fs::write(repo.join(".retake/state/active.json"), "{}").expect("write");
        assert_eq!(uncommitted(repo), Ok(Vec::new()));
        std::fs::write(repo.join("a.txt"), "b\n").expect("write");
        std::fs::write(repo.join("new file.rs"), "x\n").expect("write");
        assert_eq!(
            uncommitted(repo),
            Ok(vec!["a.txt".to_string(), "new file.rs".to_string()])
        );
        std::fs::write(repo.join(".git/info/exclude"), "").expect("write");
        let hash = run(
            &[
                "git".to_string(),
                "config".into(),
                "user.name".into(),
                "t".into(),
            ],
            repo,
            &[],
            GIT_TIMEOUT,
        )
        .and_then(|_| {
            run(
                &[
                    "git".to_string(),
                    "config".into(),
                    "user.email".into(),
                    "t@example.com".into(),
                ],
                repo,
                &[],
                GIT_TIMEOUT,
            )
        })
        .map(|_| commit_all(repo, "feat: add b\n\nbody\n"))
        .expect("config")
        .expect("commit")
        .expect("a commit");
        assert_eq!(hash.len(), 40);
        assert_eq!(uncommitted(repo), Ok(Vec::new()));
        let shown = git(repo, &["show", "--name-only", "--format=%s", "HEAD"]).expect("show");
        assert_eq!(shown, "feat: add b\n\na.txt\nnew file.rs\n");
        assert_eq!(commit_all(repo, "nothing"), Ok(None));
    }
}
