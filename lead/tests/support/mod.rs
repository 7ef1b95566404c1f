//! Helpers the end-to-end test targets share: git in a fixture repository, writing its files,
//! and copies of the bundled example repositories (reviewed in a temporary folder, never in
//! place).

#![allow(dead_code)] // each test target uses its own part of the helpers

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs git in `root` as a fixed test identity (no signing, `main` as the first branch) and
/// returns its standard output; a failing git call fails the test with git's message.
pub fn git(root: &Path, args: &[&str]) -> String {
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

/// Writes `body` to `root/rel`, creating its folders.
pub fn write(root: &Path, rel: &str, body: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

/// The bundled example repository `name` (`examples/<name>`).
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
}

/// Copies the tree `from` into `to` (created), files and folders alike.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A fresh copy of the example `name` at `to`, without any retake state or build output a
/// local run may have left in the example.
pub fn copy_example(name: &str, to: &Path) {
    copy_tree(&example(name), to);
    let _ = std::fs::remove_dir_all(to.join(".retake"));
    let _ = std::fs::remove_dir_all(to.join("target"));
}

pub mod serve;
pub mod workers;
