//! The analyzer adapters through the real binary: `[inspector] linters` in `retake.toml` makes
//! the quality Inspector run the analyzer and report its JSON diagnostics as findings, a
//! built-in finding on the same line steps aside for the analyzer's lint, and an unknown name
//! is a configuration error (exit 2); the ruff here is a script named `ruff` on the review's
//! PATH printing what ruff prints, so those tests need no ruff install. By default (`auto`) a
//! cargo project gets clippy's findings, built outside the reviewed tree (clippy is installed
//! where the suite runs; the test says so and passes when it is not).

mod support;
use support::git;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn review(repo: &Path, path_env: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .env("PATH", path_env)
        .env("HOME", repo)
        .args(["review", repo.to_str().expect("utf-8")])
        .args(["--profile", "pedantic"])
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
        "import os\n\n\ndef f():\n    try:\n        return 1\n    except:\n        pass\n",
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
        r#"[{{"code": "F401", "end_location": {{"column": 10, "row": 1}}, "filename": "{0}/app.py", "location": {{"column": 8, "row": 1}}, "message": "`os` imported but unused"}}, {{"code": "E722", "end_location": {{"column": 11, "row": 7}}, "filename": "{0}/app.py", "location": {{"column": 5, "row": 7}}, "message": "Do not use bare `except`"}}]"#,
        repo.display()
    );
    let script = dir.join("ruff");
    std::fs::write(&script, format!("#!/bin/sh\ncat <<'EOF'\n{json}\nEOF\n")).expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The (rule, line, description) of the report's findings on lines of `path`.
fn findings_on(json: &Value, path: &str) -> Vec<(String, u64, String)> {
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["path"] == path && f["line"].is_u64())
        .map(|f| {
            (
                f["rule"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64().unwrap_or_default(),
                f["description"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
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
    let on_app = findings_on(&json, "app.py");
    let s = |t: &str| t.to_string();
    assert_eq!(
        on_app,
        vec![
            (
                s("quality/linter-finding"),
                1,
                s("ruff `F401`: `os` imported but unused")
            ),
            (
                s("quality/linter-finding"),
                7,
                s("ruff `E722`: Do not use bare `except`")
            ),
        ],
        "the bare except is one finding, ruff's: {stdout}"
    );
    // Without the analyzer, the built-in rule reports the same line itself.
    let repo = python_repo("\"off\"");
    let out = review(repo.path(), &path_env);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let rules: Vec<(String, u64)> = findings_on(&json, "app.py")
        .into_iter()
        .map(|(rule, line, _)| (rule, line))
        .collect();
    assert_eq!(rules, vec![(s("quality/swallowed-error"), 7)]);
}

#[test]
fn an_unknown_linter_is_a_configuration_error() {
    let repo = python_repo("[\"pylint\"]");
    let out = review(repo.path(), &std::env::var("PATH").unwrap_or_default());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "inspector.linters: 'pylint' (expected auto, off, clippy, ruff, eslint or go-vet)"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `git status --porcelain` of everything, untracked files one by one.
fn status(repo: &Path) -> String {
    git(repo, &["status", "--porcelain", "--untracked-files=all"])
}

#[test]
fn a_cargo_project_gets_clippy_by_default_built_outside_the_tree() {
    let clippy = Command::new("cargo").args(["clippy", "--version"]).output();
    if !clippy.is_ok_and(|o| o.status.success()) {
        eprintln!("cargo clippy is not installed here: nothing to check");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, cache) = (tmp.path().join("demo"), tmp.path().join("cache"));
    let files = [
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "pub fn double(x: u32) -> u32 {\n    return x * 2;\n}\n",
        ),
        ("retake.toml", "[test]\ncommand = [\"true\"]\n"),
        // retake's own state is ignored; a build folder or Cargo.lock would show.
        (".gitignore", ".retake/\nverdicts.md\n"),
    ];
    for (path, text) in files {
        support::write(&repo, path, text);
    }
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "demo"]);
    let home = std::env::var("HOME").unwrap_or_default();
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["review", "--format", "json", "--runtime", "inproc"])
        .args(["--profile", "pedantic"])
        .current_dir(&repo)
        .env("XDG_CACHE_HOME", &cache)
        .env("HOME", tmp.path())
        .env(
            "CARGO_HOME",
            std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{home}/.cargo")),
        )
        .env(
            "RUSTUP_HOME",
            std::env::var("RUSTUP_HOME").unwrap_or_else(|_| format!("{home}/.rustup")),
        )
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("retake runs");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    assert!(
        findings_on(&json, "src/lib.rs").contains(&(
            "quality/linter-finding".to_string(),
            2,
            "clippy `clippy::needless_return`: unneeded `return` statement".to_string()
        )),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(status(&repo), "", "the review left files in the tree");
    let targets: Vec<_> = std::fs::read_dir(cache.join("retake/target"))
        .expect("clippy built under $XDG_CACHE_HOME/retake/target")
        .collect();
    assert_eq!(targets.len(), 1, "one build folder for the one repository");
}

#[cfg(unix)]
#[test]
fn without_cargo_clippy_one_note_and_cargo_check_still_finds_dead_code() {
    use std::os::unix::fs::PermissionsExt;
    let repo = tempfile::tempdir().expect("repo");
    support::write(
        repo.path(),
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
    );
    support::write(repo.path(), "src/lib.rs", "fn helper() {}\n");
    support::write(repo.path(), "retake.toml", "[test]\ncommand = [\"true\"]\n");
    // A cargo without clippy, as cargo says it; its `check` prints one dead-code warning.
    let bin = tempfile::tempdir().expect("bin");
    let warning = r#"{"reason":"compiler-message","message":{"code":{"code":"dead_code"},"level":"warning","message":"function `helper` is never used","children":[],"spans":[{"file_name":"src/lib.rs","is_primary":true,"line_start":1,"line_end":1}]}}"#;
    let script = format!(
        "#!/bin/sh\ncase \"$1\" in\n  clippy) echo 'error: no such command: `clippy`' >&2; exit 101 ;;\n  check) echo '{warning}' ;;\nesac\n"
    );
    std::fs::write(bin.path().join("cargo"), script).expect("write");
    std::fs::set_permissions(
        bin.path().join("cargo"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    let path_env = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = review(repo.path(), &path_env);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    assert_eq!(
        findings_on(&json, "src/lib.rs"),
        vec![(
            "quality/compiler-dead-code".to_string(),
            1,
            "function `helper` is never used (rustc `dead_code`)".to_string()
        )]
    );
    // The quality Inspector's report, as the run keeps it: the missing tool is one note.
    let runs = repo.path().join(".retake/runs");
    let run = std::fs::read_dir(&runs)
        .expect("runs")
        .flatten()
        .next()
        .expect("one run")
        .path();
    let report = std::fs::read(run.join("reports/inspector-quality.json")).expect("report");
    let report: Value = serde_json::from_slice(&report).expect("JSON");
    assert_eq!(
        report["notes"],
        serde_json::json!(["clippy not run: cargo-clippy not installed"])
    );
}
