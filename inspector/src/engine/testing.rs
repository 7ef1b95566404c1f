//! Test fixtures for the engine: files and git repositories built in a tempdir.

use std::path::Path;
use std::process::Command;

/// Writes `body` to `rel` under `root`, creating folders.
pub(crate) fn write(root: &Path, rel: &str, body: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

/// Runs git in `root` with a fixed identity; panics when it fails.
pub(crate) fn git(root: &Path, args: &[&str]) -> String {
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
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A repository with `main` holding `src/lib.rs` and `src/old.rs`, and a `feature` branch
/// checked out that rewrote line 2 of `src/lib.rs` and appended two lines to it (committed),
/// plus an untracked `src/new.rs` and an uncommitted deletion of `src/old.rs`.
pub(crate) fn session_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(
        root,
        "src/lib.rs",
        "pub fn a() {}\npub fn b() {}\npub fn c() {}\n",
    );
    write(root, "src/old.rs", "pub fn o() {}\n");
    write(root, "src/untouched.rs", "pub fn u() {}\n");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "feature"]);
    write(
        root,
        "src/lib.rs",
        "pub fn a() {}\npub fn b2() {}\npub fn c() {}\npub fn d() {}\npub fn e() {}\n",
    );
    git(root, &["commit", "-q", "-am", "change"]);
    write(root, "src/new.rs", "pub fn n() {}\n");
    std::fs::remove_file(root.join("src/old.rs")).expect("rm");
    dir
}
