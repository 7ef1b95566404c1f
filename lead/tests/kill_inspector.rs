//! kill -9 of a working Inspector from outside: the Lead re-spawns it under a new name, counts
//! the restart, and still produces a verdict with full coverage — and nothing is left behind,
//! not even the test command the killed Inspector had started.

mod support;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::write;

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
fn a_killed_inspector_is_replaced_counted_and_the_verdict_has_full_coverage() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    write(repo, "src/lib.rs", "pub fn a() {}\n");
    // The test Inspector's command sleeps, so the review is still running when we kill it.
    write(
        repo,
        "retake.toml",
        "[test]\ncommand = [\"sleep\", \"3\"]\n",
    );
    let tag = format!("dead-child-{}", std::process::id());
    let started = Instant::now();
    let lead = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        // Not a git repository: its retake.toml sets a command only when trusted.
        .args(["--format", "json", "--trust-repo-config"])
        .env("RETAKE_E2E_TAG", &tag)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn retake");
    let victim = loop {
        // Wait until the test command runs: then inspector-test is surely busy.
        if !tagged(&tag, "sleep 3").is_empty() {
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
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "a verdict, not a failure: {stderr}"
    );
    assert!(json["verdict"].is_string(), "{json}");
    assert_eq!(json["restarts"]["inspector-test"], 1, "{json}");
    assert_eq!(json["restarts"]["inspector-quality"], 0, "{json}");
    let notes: Vec<&str> = json["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        !notes.iter().any(|n| n.starts_with("PARTIAL")),
        "full coverage: {notes:?}"
    );
    assert_eq!(json["coverage"]["inspector-test"]["status"], "ok");
    let agents: Vec<&str> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .flat_map(|f| f["agents"].as_array().cloned().unwrap_or_default())
        .filter_map(|a| {
            a.as_str()
                .map(|s| s.to_owned())
                .filter(|s| s.ends_with("-r1"))
                .map(|_| "renamed")
        })
        .collect();
    assert!(
        agents.is_empty(),
        "findings name the stable Inspector, not the replacement instance"
    );
    assert!(
        json["qualifiers"].as_array().is_some_and(|q| q.is_empty()),
        "{json}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "recovered promptly"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        tagged(&tag, "").is_empty(),
        "left over: {:?}",
        tagged(&tag, "")
    );
}
