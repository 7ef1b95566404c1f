//! A child actor killed mid-review makes the Lead fail cleanly with exit 2 — promptly, naming the
//! actor — and leaves no process behind (not even the test command the dead Inspector started).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn write(root: &Path, path: &str, body: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

/// Pids of processes whose environment carries `tag` and whose command line contains `needle`.
fn tagged(tag: &str, needle: &str) -> Vec<i32> {
    let env_needle = format!("RETAKE_E2E_TAG={tag}");
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if !env.split(|b| *b == 0).any(|kv| kv == env_needle.as_bytes()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(needle) {
            pids.push(pid);
        }
    }
    pids
}

#[test]
fn a_killed_inspector_fails_the_review_with_exit_2_and_no_leftovers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    write(repo, "src/lib.rs", "pub fn a() {}\n");
    // The test Inspector's command sleeps, so the review is still running when we kill it.
    write(
        repo,
        "retake.toml",
        "[test]\ncommand = [\"sleep\", \"60\"]\n",
    );
    let tag = format!("dead-child-{}", std::process::id());
    let started = Instant::now();
    let lead = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .env("RETAKE_E2E_TAG", &tag)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn retake");
    let victim = loop {
        // Wait until the test command runs: then inspector-test is surely busy.
        if !tagged(&tag, "sleep 60").is_empty() {
            if let Some(pid) = tagged(&tag, "--kind test").first() {
                break *pid;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the test command never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    // SAFETY: kill(2) on a pid we just found; no memory effects.
    unsafe {
        libc::kill(victim, libc::SIGKILL);
    }
    let out = lead.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("inspector-test was killed by signal 9"),
        "{stderr}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the Lead noticed promptly"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        tagged(&tag, "").is_empty(),
        "left over: {:?}",
        tagged(&tag, "")
    );
}
