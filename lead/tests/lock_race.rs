//! The repository lock under a race: 30 `retake review` processes of one repository started at
//! once. Each either runs to a verdict or exits 2 naming the Lead that holds the lock, and
//! `verdicts.md` holds exactly one batch per review that ran — none lost to two Leads
//! rewriting it at once.

use std::path::Path;
use std::process::{Command, Stdio};

fn write(root: &Path, path: &str, body: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

#[test]
fn thirty_simultaneous_reviews_of_one_repository_run_one_at_a_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    write(
        repo,
        "Cargo.toml",
        "[package]\nname = \"tally\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        repo,
        "src/lib.rs",
        "/// Adds.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
    );
    // Spawned back to back, before any is waited for: they all race for the lock.
    let children: Vec<_> = (0..30)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_retake"))
                .arg("review")
                .arg(repo)
                .args(["--runtime", "inproc", "--no-exec", "--format", "json"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn retake review")
        })
        .collect();
    let mut ran = 0;
    for child in children {
        let out = child.wait_with_output().expect("wait");
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
