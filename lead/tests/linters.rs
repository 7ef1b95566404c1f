//! The opt-in linter adapters through the real binary: `[inspector] linters` in `retake.toml`
//! makes the quality Inspector run the linter and report its JSON diagnostics as findings; an
//! unknown linter name is a configuration error (exit 2). The linter here is a script named
//! `ruff` on the review's PATH printing what ruff prints, so the test needs no ruff install.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn review(repo: &Path, path_env: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .env("PATH", path_env)
        .env("HOME", repo)
        .args(["review", repo.to_str().expect("utf-8")])
        .args(["--paths", "**", "--format", "json", "--runtime", "inproc"])
        // Not a git repository: its retake.toml runs linters only when trusted.
        .arg("--trust-repo-config")
        .output()
        .expect("retake runs")
}

/// A repository with one Python file, opting into `linters`.
fn python_repo(linters: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("repo");
    std::fs::write(
        repo.path().join("app.py"),
        "import os\n\n\ndef f():\n    return 1\n",
    )
    .expect("write");
    std::fs::write(
        repo.path().join("retake.toml"),
        format!("[inspector]\nlinters = {linters}\n[test]\ncommand = [\"true\"]\n"),
    )
    .expect("write");
    repo
}

#[cfg(unix)]
fn fake_ruff(dir: &Path, repo: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let json = format!(
        r#"[{{"code": "F401", "end_location": {{"column": 10, "row": 1}}, "filename": "{}/app.py", "location": {{"column": 8, "row": 1}}, "message": "`os` imported but unused"}}]"#,
        repo.display()
    );
    let script = dir.join("ruff");
    std::fs::write(&script, format!("#!/bin/sh\ncat <<'EOF'\n{json}\nEOF\n")).expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[cfg(unix)]
#[test]
fn an_opted_in_linter_s_diagnostics_become_quality_findings() {
    let repo = python_repo("[\"ruff\"]");
    let bin = tempfile::tempdir().expect("bin");
    fake_ruff(bin.path(), repo.path());
    let path_env = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = review(repo.path(), &path_env);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "JSON report ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let linted: Vec<(String, u64, String)> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "quality/linter-finding")
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64().unwrap_or_default(),
                f["description"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        linted,
        vec![(
            "app.py".to_string(),
            1,
            "ruff `F401`: `os` imported but unused".to_string()
        )],
        "{stdout}"
    );
}

#[test]
fn an_unknown_linter_is_a_configuration_error() {
    let repo = python_repo("[\"pylint\"]");
    let out = review(repo.path(), &std::env::var("PATH").unwrap_or_default());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("inspector.linters: 'pylint' (expected clippy, ruff or eslint)"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
