//! `retake run` commits its work whatever the repository ignores (see `run_fixture`): with
//! `.retake/` ignored by the project's `.gitignore`, not ignored at all, and ignored by a global
//! excludes file (`core.excludesFile` in the gitconfig of the `HOME` the run sees). Before, an
//! ignored `.retake/` made Phase C's `git add` fail after an approved review (exit 2, the state
//! file left behind).

mod run_fixture;

use run_fixture::*;
use std::path::Path;

/// The run's command with `home` as its `HOME` (cargo and rustup keep theirs).
fn run_at_home(repo: &Path, tag: &str, home: &Path) -> (i32, String) {
    let user_home = std::env::var("HOME").unwrap_or_default();
    let cargo_home = std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{user_home}/.cargo"));
    let rustup_home =
        std::env::var("RUSTUP_HOME").unwrap_or_else(|_| format!("{user_home}/.rustup"));
    let out = retake_command(repo, tag, &["run", "all", "--yes", "--no-discuss"])
        .env("HOME", home)
        .env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        .output()
        .expect("run retake");
    let text = format!(
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().expect("exit code"), text)
}

#[test]
fn the_run_commits_whether_retake_state_is_ignored_by_gitignore_by_nothing_or_globally() {
    for setup in ["gitignore", "none", "global-excludes"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).expect("mkdir");
        let gitignore = match setup {
            "gitignore" => "/target\n/Cargo.lock\n.retake/\n",
            _ => "/target\n/Cargo.lock\n",
        };
        if setup == "global-excludes" {
            let excludes = home.join("global-ignore");
            std::fs::write(&excludes, ".retake/\n").expect("write");
            std::fs::write(
                home.join(".gitconfig"),
                format!("[core]\n\texcludesFile = {}\n", excludes.display()),
            )
            .expect("write");
        }
        let repo = fixture_with(dir.path(), Agent::Good, "", &[(".gitignore", gitignore)]);
        let tag = format!("run-ignored-{setup}-{}", std::process::id());
        let before = git(&repo, &["rev-parse", "HEAD"]);

        let (code, text) = run_at_home(&repo, &tag, &home);
        assert_eq!(code, 0, "{setup}: {text}");
        let log = git(
            &repo,
            &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
        );
        assert_eq!(
            log, "feat: add subtraction, add multiplication\n",
            "{setup}: one commit"
        );
        let files = git(&repo, &["show", "--name-only", "--format=", "HEAD"]);
        assert_eq!(
            files, "Plans.md\nsrc/lib.rs\nsrc/mul.rs\nsrc/sub.rs\n",
            "{setup}: .retake stays out of the commit"
        );
        assert!(
            !repo.join(".retake/state/active.json").exists(),
            "{setup}: the state file is removed"
        );
    }
}
