//! The reviewed repository is untrusted input, through the real `retake` binary: its
//! `.git/config` names an fsmonitor and a hooks folder, its retake.toml an executor, each a
//! script that appends to a file when started. `--no-exec` must start none of them (and refuse
//! `--fix`, which would run the executor); a test command that reads every process's
//! environment must find no wire secret.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn write(root: &Path, path: &str, body: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

/// A shell script at `path` that appends `name` to `log` and succeeds.
fn tripwire(path: &Path, name: &str, log: &Path) -> String {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        path,
        format!("#!/bin/sh\necho {name} >> '{}'\nexit 0\n", log.display()),
    )
    .expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.display().to_string()
}

/// Plain git with a fixed identity (building the fixture obeys nothing hostile: the hostile
/// settings are written last).
fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=retake",
            "-c",
            "user.email=retake@example.invalid",
        ])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn retake(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .current_dir(repo)
        .env("HOME", repo.parent().expect("parent"))
        .output()
        .expect("run retake")
}

/// A committed repository with a `todo!()` to find, an executor, an fsmonitor and a
/// pre-commit hook that all record their start in `ran`; returns (repo, ran).
fn hostile_repo(root: &Path) -> (PathBuf, PathBuf) {
    let repo = root.join("repo");
    let ran = root.join("ran");
    write(&repo, "src/lib.rs", "pub fn a() {\n    todo!(\"a\")\n}\n");
    let executor = tripwire(&root.join("tools/executor.sh"), "executor", &ran);
    write(
        &repo,
        "retake.toml",
        &format!("[executor]\nkind = \"script\"\ncommand = [\"sh\", \"{executor}\"]\n"),
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    let fsmonitor = tripwire(&root.join("tools/fsmonitor.sh"), "fsmonitor", &ran);
    tripwire(&root.join("hooks/pre-commit"), "pre-commit", &ran);
    tripwire(&root.join("hooks/post-checkout"), "post-checkout", &ran);
    let hooks = root.join("hooks").display().to_string();
    git(&repo, &["config", "core.fsmonitor", &fsmonitor]);
    git(&repo, &["config", "core.hooksPath", &hooks]);
    (repo, ran)
}

fn ran_log(ran: &Path) -> String {
    std::fs::read_to_string(ran).unwrap_or_default()
}

#[test]
fn no_exec_starts_none_of_the_repositorys_programs_and_refuses_fix() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, ran) = hostile_repo(tmp.path());
    // An uncommitted change makes the default scope a session (git status, diff, ls-files).
    write(&repo, "src/new.rs", "pub fn n() {\n    todo!(\"n\")\n}\n");

    let review = retake(&repo, &["review", "--no-exec"]);
    let stdout = String::from_utf8_lossy(&review.stdout);
    assert_eq!(review.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("src/new.rs"), "{stdout}");
    assert_eq!(ran_log(&ran), "", "programs started by `review --no-exec`");

    let fix = retake(&repo, &["review", "--no-exec", "--fix"]);
    let stderr = String::from_utf8_lossy(&fix.stderr);
    assert_eq!(fix.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "retake: error: --fix runs the repository's executor and tests, which --no-exec forbids: drop one of them"
    );
    assert_eq!(
        ran_log(&ran),
        "",
        "programs started by `review --no-exec --fix`"
    );

    // The control: the fixture's tripwires are live for plain git.
    git(&repo, &["status", "--porcelain"]);
    assert!(ran_log(&ran).contains("fsmonitor"), "{}", ran_log(&ran));
}
