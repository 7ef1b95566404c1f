//! A review leaves the work tree as it found it, through the real `retake` binary: a small
//! cargo project with no `.gitignore` whose `[test] command` runs `cargo test` (which writes
//! `target/` and `Cargo.lock` when nothing sends them elsewhere). Reviewed twice, the tree's
//! `git status` is unchanged apart from retake's own state, and both reviews cover the same
//! scope with the same findings.

mod support;
use support::git;

use std::path::Path;
use std::process::Command;

/// `git status --porcelain` without retake's own state (`.retake/`, `verdicts.md`).
fn status(repo: &Path) -> Vec<String> {
    git(repo, &["status", "--porcelain", "--untracked-files=all"])
        .lines()
        .filter(|l| !l[3..].starts_with(".retake/") && &l[3..] != "verdicts.md")
        .map(str::to_string)
        .collect()
}

/// Reviews `repo` and returns (exit code, scope, fingerprints) from the JSON report.
fn review(repo: &Path) -> (Option<i32>, serde_json::Value, Vec<String>) {
    let home = std::env::var("HOME").unwrap_or_default();
    let cargo_home = std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{home}/.cargo"));
    let rustup_home = std::env::var("RUSTUP_HOME").unwrap_or_else(|_| format!("{home}/.rustup"));
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["review", "--format", "json"])
        .current_dir(repo)
        .env("HOME", repo.parent().expect("parent"))
        .env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        // The sandbox, not the caller, decides where the build goes.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run retake");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut fingerprints: Vec<String> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["fingerprint"].as_str().expect("fingerprint").to_string())
        .collect();
    fingerprints.sort();
    (out.status.code(), json["scope"].clone(), fingerprints)
}

#[test]
fn reviewing_twice_leaves_the_tree_as_found_with_the_same_scope_and_findings() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path().join("demo");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    let files = [
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "// TODO: document\npub fn double(x: u32) -> u32 {\n    x * 2\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn doubles() {\n        assert_eq!(super::double(2), 4);\n    }\n}\n",
        ),
        (
            "retake.toml",
            // The TODO is found by a pedantic rule.
            "[test]\ncommand = [\"cargo\", \"test\", \"--offline\"]\ntimeout_secs = 300\n\n[rules]\nprofile = \"pedantic\"\n",
        ),
    ];
    for (path, text) in files {
        std::fs::write(repo.join(path), text).expect("write");
    }
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "demo"]);
    assert_eq!(status(&repo), Vec::<String>::new());

    let first = review(&repo);
    assert_eq!(
        status(&repo),
        Vec::<String>::new(),
        "the first review changed the tree"
    );
    assert!(!repo.join("Cargo.lock").exists() && !repo.join("target").exists());
    assert!(
        repo.join(".retake/build/cargo-target").is_dir(),
        "cargo test ran, building under .retake/build"
    );
    let second = review(&repo);
    assert_eq!(
        status(&repo),
        Vec::<String>::new(),
        "the second review changed the tree"
    );
    assert!(!first.2.is_empty(), "the TODO is found: {first:?}");
    assert_eq!(first, second, "same exit code, scope and fingerprints");
}
