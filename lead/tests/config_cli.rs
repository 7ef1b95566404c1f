//! `retake config show` and `retake init` driven through the real binary, with a clean
//! environment: HOME is a temporary folder, so only the files a test writes are layered.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn retake(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retake"));
    cmd.env_clear().env("HOME", home).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("retake runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The (source, origin) of `key` in `config show --format json`.
fn source_of(json: &Value, key: &str) -> (String, Option<String>) {
    let entry = json["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .find(|e| e["key"] == key)
        .unwrap_or_else(|| panic!("{key} missing"));
    (
        entry["source"].as_str().expect("source").to_string(),
        entry["origin"].as_str().map(str::to_string),
    )
}

#[test]
fn config_show_names_the_default_each_file_the_environment_and_a_flag() {
    let home = tempfile::tempdir().expect("home");
    let repo = tempfile::tempdir().expect("repo");
    let user = home.path().join(".config/retake/retake.toml");
    std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &user,
        "[audit]\nbudget_ms = 1000\n[test]\ntimeout_secs = 5\n",
    )
    .expect("write");
    let local = repo.path().join("retake.toml");
    std::fs::write(
        &local,
        "[test]\ntimeout_secs = 30\n[wire]\nsecret = \"00ff\"\n",
    )
    .expect("write");
    let repo_arg = repo.path().to_str().expect("utf-8");
    let out = retake(
        home.path(),
        &[
            "config",
            "show",
            repo_arg,
            "--format",
            "json",
            "--runtime",
            "inproc",
        ],
        &[("RETAKE__SUPERVISION__MAX_RESTARTS", "5")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    let local = std::fs::canonicalize(&local).expect("canonical");
    let local = local.display().to_string();
    let user = user.display().to_string();
    assert_eq!(
        json["files"],
        serde_json::json!([user.clone(), local.clone()])
    );
    assert_eq!(
        source_of(&json, "audit.test_failure"),
        ("default".into(), None)
    );
    assert_eq!(
        source_of(&json, "audit.budget_ms"),
        ("file".into(), Some(user))
    );
    assert_eq!(
        source_of(&json, "test.timeout_secs"),
        ("file".into(), Some(local.clone()))
    );
    assert_eq!(
        source_of(&json, "supervision.max_restarts"),
        (
            "env".into(),
            Some("RETAKE__SUPERVISION__MAX_RESTARTS".into())
        )
    );
    assert_eq!(
        source_of(&json, "review.runtime"),
        ("flag".into(), Some("--runtime".into()))
    );
    let values: Vec<&Value> = [
        "test.timeout_secs",
        "supervision.max_restarts",
        "review.runtime",
        "wire.secret",
    ]
    .iter()
    .map(|k| {
        &json["keys"]
            .as_array()
            .expect("keys")
            .iter()
            .find(|e| e["key"] == *k)
            .expect("key")["value"]
    })
    .collect();
    assert_eq!(
        values,
        [
            &Value::from(30),
            &Value::from(5),
            &Value::from("inproc"),
            &Value::from("<redacted>")
        ]
    );

    let out = retake(home.path(), &["config", "show", repo_arg], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("test.timeout_secs = "))
        .expect("line");
    assert!(line.ends_with(&format!("  # file {local}")), "{line}");
    assert!(!stdout.contains("00ff"), "the secret is printed:\n{stdout}");
}

#[test]
fn config_show_uses_the_committed_file_unless_the_work_tree_is_trusted() {
    let home = tempfile::tempdir().expect("home");
    let repo = tempfile::tempdir().expect("repo");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(repo.path())
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}");
    };
    let local = repo.path().join("retake.toml");
    std::fs::write(&local, "[test]\ntimeout_secs = 30\n").expect("write");
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "config"]);
    std::fs::write(&local, "[test]\ntimeout_secs = 40\n").expect("write");
    let repo_arg = repo.path().to_str().expect("utf-8");
    let path = std::env::var("PATH").unwrap_or_default();
    let show = |extra: &[&str]| {
        let mut args = vec!["config", "show", repo_arg, "--format", "json"];
        args.extend_from_slice(extra);
        let out = retake(home.path(), &args, &[("PATH", &path)]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let json: Value = serde_json::from_slice(&out.stdout).expect("json");
        let value = json["keys"]
            .as_array()
            .expect("keys")
            .iter()
            .find(|e| e["key"] == "test.timeout_secs")
            .expect("key")["value"]
            .clone();
        (
            value,
            source_of(&json, "test.timeout_secs"),
            text(&out.stderr),
        )
    };
    let (value, (source, origin), stderr) = show(&[]);
    assert_eq!((value, source.as_str()), (Value::from(30), "file"));
    let origin = origin.expect("origin");
    assert!(
        origin.ends_with(")") && origin.contains("retake.toml at HEAD ("),
        "{origin}"
    );
    assert_eq!(
        stderr,
        "retake: note: retake.toml: uncommitted edits ignored — the review uses the file as committed at HEAD (--trust-repo-config uses the work tree's)\n"
    );
    let (value, (_, origin), stderr) = show(&["--trust-repo-config"]);
    assert_eq!(value, Value::from(40));
    let canonical = std::fs::canonicalize(&local).expect("canonical");
    assert_eq!(origin, Some(canonical.display().to_string()));
    assert_eq!(stderr, "");
}

#[test]
fn config_show_names_the_key_and_the_file_of_an_unknown_key() {
    let home = tempfile::tempdir().expect("home");
    let repo = tempfile::tempdir().expect("repo");
    std::fs::write(
        repo.path().join("retake.toml"),
        "[review]\nruntim = \"local\"\n",
    )
    .expect("write");
    let out = retake(
        home.path(),
        &["config", "show", repo.path().to_str().expect("utf-8")],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let file = std::fs::canonicalize(repo.path())
        .expect("canonical")
        .join("retake.toml");
    assert!(
        stderr.contains(&format!("configuration error in {}:", file.display()))
            && stderr.contains("unknown field `runtim`"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn init_writes_the_config_and_templates_and_refuses_to_overwrite_without_force() {
    let home = tempfile::tempdir().expect("home");
    let repo = tempfile::tempdir().expect("repo");
    let repo_arg = repo.path().to_str().expect("utf-8");
    let out = retake(home.path(), &["init", repo_arg], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 14);

    let shipped_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy");
    let shipped = std::fs::read_to_string(shipped_dir.join("retake.toml")).expect("shipped");
    let written = std::fs::read_to_string(repo.path().join("retake.toml")).expect("written");
    assert_eq!(
        written,
        shipped.replacen("# prompt_dir = ", "prompt_dir = ", 1)
    );
    for kind in [
        "rulebase",
        "interface",
        "test",
        "quality",
        "consistency",
        "holistic",
        "planner",
        "critic",
        "fix-planner",
        "implementer",
        "modification",
        "evaluator",
        "answer",
    ] {
        let name = format!("{kind}.md");
        assert_eq!(
            std::fs::read(repo.path().join(".retake/prompts").join(&name)).expect("prompt"),
            std::fs::read(shipped_dir.join("prompts").join(&name)).expect("shipped prompt"),
            "{name}"
        );
    }
    // The written configuration is valid and points at the written templates.
    let out = retake(
        home.path(),
        &["config", "show", repo_arg, "--format", "json"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(source_of(&json, "agent.prompt_dir").0, "file");

    let edited = repo.path().join(".retake/prompts/quality.md");
    std::fs::write(&edited, "my own prompt {{files}}").expect("edit");
    let out = retake(home.path(), &["init", repo_arg], &[]);
    assert_eq!(out.status.code(), Some(2));
    let config = std::fs::canonicalize(repo.path())
        .expect("canonical")
        .join("retake.toml");
    assert_eq!(
        text(&out.stderr),
        format!(
            "retake: error: {} already exists: pass --force to overwrite it\n",
            config.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(&edited).expect("kept"),
        "my own prompt {{files}}"
    );

    let out = retake(home.path(), &["init", repo_arg, "--force"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&edited).expect("restored"),
        std::fs::read(shipped_dir.join("prompts/quality.md")).expect("shipped")
    );
}

#[test]
fn init_refuses_a_single_existing_template_too() {
    let home = tempfile::tempdir().expect("home");
    let repo = tempfile::tempdir().expect("repo");
    let prompts = repo.path().join(".retake/prompts");
    std::fs::create_dir_all(&prompts).expect("mkdir");
    std::fs::write(prompts.join("holistic.md"), "mine").expect("write");
    let out = retake(
        home.path(),
        &["init", repo.path().to_str().expect("utf-8")],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("holistic.md already exists"));
    assert!(
        !repo.path().join("retake.toml").exists(),
        "nothing is written"
    );
}
