//! The repository lock under a race: 30 `retake review` processes of one repository started at
//! once (released together through a FIFO). First while a Lead of another container on this
//! kernel holds the lock — its pid means nothing here, its `flock` does — so every one exits 2
//! naming it; then over the lock that Lead left when it died, which every one of them finds
//! stale at the same moment: each either runs to a verdict or exits 2 naming the Lead that
//! holds the lock, and `verdicts.md` has exactly one batch per review that ran — none lost to
//! two Leads rewriting it at once.

mod support;
use support::write;

use std::os::unix::io::AsRawFd as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// 30 reviews of `repo`, started at once: each child blocks opening a FIFO for reading until
/// this process opens it for writing, so all of them start in the same instant.
fn thirty_at_once(repo: &Path, scratch: &Path) -> Vec<Output> {
    let gate = scratch.join("gate");
    let _old = std::fs::remove_file(&gate);
    let status = Command::new("mkfifo").arg(&gate).status().expect("mkfifo");
    assert!(status.success());
    let children: Vec<_> = (0..30)
        .map(|_| {
            Command::new("sh")
                .arg("-c")
                .arg("read _ < \"$1\"; shift; exec \"$@\"")
                .arg("gate")
                .arg(&gate)
                .arg(env!("CARGO_BIN_EXE_retake"))
                .arg("review")
                .arg(repo)
                .args(["--runtime", "inproc", "--no-exec", "--format", "json"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn retake review")
        })
        .collect();
    // Time for every child to block on the FIFO; then open and close it: all read EOF at once.
    std::thread::sleep(std::time::Duration::from_millis(500));
    drop(
        std::fs::OpenOptions::new()
            .write(true)
            .open(&gate)
            .expect("open the gate"),
    );
    children
        .into_iter()
        .map(|c| c.wait_with_output().expect("wait"))
        .collect()
}

#[test]
fn thirty_simultaneous_reviews_of_one_repository_run_one_at_a_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    write(
        &repo,
        "Cargo.toml",
        "[package]\nname = \"tally\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        &repo,
        "src/lib.rs",
        "/// Adds.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
    );
    // A Lead in another container on this kernel (same boot id, another hostname) holds the
    // lock: its pid 4194999 is nobody here, its flock is held.
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").expect("boot id");
    write(
        &repo,
        ".retake/lock",
        &format!("4194999 0 lead-container-2 {}\n", boot.trim()),
    );
    let held = std::fs::File::open(repo.join(".retake/lock")).expect("open");
    // SAFETY: flock takes a descriptor `held` owns.
    let rc = unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(rc, 0, "flock");
    for out in thirty_at_once(&repo, dir.path()) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("another retake (pid 4194999 on lead-container-2) is running"),
            "{stderr}"
        );
    }
    assert!(!repo.join(".retake/verdicts.md").exists(), "no review ran");

    // That Lead died: its flock went with it, its lock file stayed.
    drop(held);
    let mut ran = 0;
    for out in thirty_at_once(&repo, dir.path()) {
        let code = out.status.code().expect("exit code");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if code == 2 {
            assert!(
                stderr.contains("another retake (pid ")
                    && stderr.contains(" is running on this repository"),
                "an exit 2 names the holder: {stderr}"
            );
        } else {
            assert!(
                matches!(code, 0 | 1),
                "a review that ran has a verdict: {code} {stderr}"
            );
            ran += 1;
        }
    }
    assert!(ran >= 1, "at least the first review ran");
    let md = std::fs::read_to_string(repo.join(".retake/verdicts.md")).expect("verdicts.md");
    assert_eq!(md.matches("\n## [B").count(), ran, "{md}");
    for seq in 1..=ran {
        assert!(
            md.contains(&format!("## [B{seq}] ")),
            "batch {seq} of {ran}: {md}"
        );
    }
    assert!(
        !repo.join(".retake/lock").exists(),
        "every Lead released the lock"
    );
}
