//! kill -9 of the Lead mid-review: its children (and the test command they run) die with it, the
//! stale lock is taken over, and `retake resume` finishes the review without re-running the
//! Inspectors whose reports were journaled.

mod support;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};
use support::write;

fn tagged(tag: &str) -> Vec<String> {
    let needle = format!("RETAKE_E2E_TAG={tag}");
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()))
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

fn journaled(run: &Path) -> Vec<(String, SystemTime)> {
    let mut out: Vec<(String, SystemTime)> = std::fs::read_dir(run.join("reports"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .map(|e| {
                    let modified = e.metadata().and_then(|m| m.modified()).expect("mtime");
                    (e.file_name().to_string_lossy().into_owned(), modified)
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn a_killed_lead_leaves_nothing_running_and_resume_finishes_the_review() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    write(repo, "src/lib.rs", "// TODO: tidy\npub fn a() {}\n");
    // The test Inspector is slow, so five reports are journaled while it still runs.
    write(
        repo,
        "retake.toml",
        "[test]\ncommand = [\"sleep\", \"30\"]\n",
    );
    let tag = format!("lead-crash-{}", std::process::id());
    let mut lead = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        // Not a git repository: its retake.toml sets a command only when trusted.
        .arg("--trust-repo-config")
        .env("RETAKE_E2E_TAG", &tag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn retake");
    let started = Instant::now();
    let runs = repo.join(".retake/runs");
    let run = loop {
        let run = std::fs::read_dir(&runs)
            .ok()
            .and_then(|mut d| d.next())
            .and_then(|e| e.ok())
            .map(|e| e.path());
        if let Some(run) = run.filter(|r| journaled(r).len() == 5) {
            break run;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "five reports were never journaled"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    lead.kill().expect("kill -9 the Lead");
    lead.wait().expect("reap");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !tagged(&tag).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        tagged(&tag).is_empty(),
        "children outlived the Lead: {:?}",
        tagged(&tag)
    );
    assert!(
        repo.join(".retake/state/active.json").is_file(),
        "the state file survives the crash"
    );
    assert!(
        repo.join(".retake/lock").is_file(),
        "the dead Lead's lock is left behind"
    );

    let before = journaled(&run);
    write(repo, "retake.toml", "[test]\ncommand = [\"true\"]\n");
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("resume")
        .arg(repo)
        .args(["--format", "json", "--trust-repo-config"])
        .env("RETAKE_E2E_TAG", &tag)
        .output()
        .expect("resume");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        json["run_id"].as_str(),
        run.file_name().and_then(|n| n.to_str())
    );
    assert!(
        json["qualifiers"].as_array().is_some_and(|q| q.is_empty()),
        "full coverage: {json}"
    );
    let after = journaled(&run);
    assert_eq!(
        after.len(),
        6,
        "the test Inspector's report joined the journal"
    );
    for (name, modified) in &before {
        assert!(
            after.contains(&(name.clone(), *modified)),
            "{name} was not re-run"
        );
    }
    assert!(run.join("verdict.cpf").is_file());
    assert!(
        !repo.join(".retake/state/active.json").exists(),
        "the state file is removed at the end"
    );
    assert!(!repo.join(".retake/lock").exists(), "the lock is released");
    let again = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("resume")
        .arg(repo)
        .output()
        .expect("resume");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing to resume"));
}
