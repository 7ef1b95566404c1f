//! The outputs of the outputs spec from the real binary: every format's key fields, `--output DIR`,
//! `--fail-level`, and `--baseline` with `--new-only`, on repositories and CPF files built here.

mod gating;
mod headline;

#[path = "../support/mod.rs"]
mod support;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use support::write;

fn retake(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run retake")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exit code")
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A tiny crate with a `todo!()` (Critical) and a TODO marker (Medium, pedantic profile).
fn repo(root: &Path) {
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        root,
        "src/lib.rs",
        "/// Adds.\npub fn add(a: u32, b: u32) -> u32 {\n    // TODO: saturate instead of wrapping\n    a.wrapping_add(b)\n}\n\n/// Not yet.\npub fn refund(amount: u32) -> u32 {\n    todo!()\n}\n",
    );
}

fn review(root: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["review", root.to_str().expect("utf-8 path"), "--no-exec"];
    args.extend_from_slice(extra);
    retake(&args)
}

/// As [`review`] under the pedantic profile, where the fixture's TODO marker (a rule off by
/// default) is reported too.
fn pedantic_review(root: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["--profile", "pedantic"];
    args.extend_from_slice(extra);
    review(root, &args)
}

/// CPF reports in a folder, for `retake audit` (no actors run).
fn cpf_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).expect("write cpf");
    }
    dir
}

fn audit(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["audit", dir.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    retake(&args)
}

const FOUR_SEVERITIES: &str = "VERDICT:NO-GO\nISSUES:\nC|operational-risk|src/a.rs:3|todo!() in library code\nH|error-handling-drift|src/b.rs:4|swallowed error\nM|incomplete|src/c.rs:5|TODO left\nL|naming-violation|src/d.rs:6|camelCase name\n";

fn fingerprints(report: &Value) -> Vec<String> {
    let mut fps: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["fingerprint"].as_str().expect("fingerprint").to_string())
        .collect();
    fps.sort();
    fps
}

#[test]
fn sarif_of_a_review_has_a_run_per_inspector_and_located_fingerprinted_results() {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let out = pedantic_review(dir.path(), &["--format", "sarif"]);
    assert_eq!(code(&out), 1, "todo!() is Critical: NO-GO");
    let log = stdout_json(&out);
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 6);
    for run in runs {
        let id = run["automationDetails"]["id"]
            .as_str()
            .expect("automation id");
        assert!(id.starts_with("retake/inspector-"), "{id}");
        assert_eq!(run["tool"]["driver"]["name"], "retake");
        assert_eq!(run["invocations"][0]["exitCode"], 1);
        assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    }
    let results: Vec<&Value> = runs
        .iter()
        .flat_map(|r| r["results"].as_array().expect("results"))
        .collect();
    let todo = results
        .iter()
        .find(|r| r["ruleId"] == "holistic/todo-macro")
        .expect("the todo!() result");
    assert_eq!(todo["level"], "error");
    let phys = &todo["locations"][0]["physicalLocation"];
    assert_eq!(phys["artifactLocation"]["uri"], "src/lib.rs");
    assert_eq!(phys["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(phys["region"]["startLine"], 9);
    for r in &results {
        let fp = r["partialFingerprints"]["retake/v1"]
            .as_str()
            .expect("fingerprint");
        assert_eq!(fp.len(), 16);
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("a located result");
        assert!(
            !uri.starts_with('/') && !uri.contains("://"),
            "relative: {uri}"
        );
    }
    let marker = results
        .iter()
        .find(|r| r["ruleId"] == "quality/todo-marker")
        .expect("the TODO result");
    assert_eq!(marker["level"], "warning");
}

#[test]
fn output_dir_writes_every_format_and_still_prints_the_terminal_report() {
    let cpf = cpf_dir(&[("quality.cpf", FOUR_SEVERITIES)]);
    let out_dir = tempfile::tempdir().expect("tempdir");
    let dest = out_dir.path().join("reports");
    let mut args = vec!["--output", dest.to_str().expect("utf-8")];
    for f in [
        "markdown", "json", "sarif", "rdjson", "rdjsonl", "junit", "gitlab", "terminal",
    ] {
        args.extend(["--format", f]);
    }
    let out = audit(cpf.path(), &args);
    assert_eq!(code(&out), 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("VERDICT  NO-GO"), "{stdout}");
    let read = |name: &str| std::fs::read_to_string(dest.join(name)).expect(name);
    assert!(read("retake.md").starts_with("<!-- retake:report fingerprints="));
    assert!(read("retake.md").contains(" round=1 head=none -->"));
    let json: Value = serde_json::from_str(&read("retake.json")).expect("json");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(4));
    let sarif: Value = serde_json::from_str(&read("retake.sarif")).expect("sarif");
    assert_eq!(
        sarif["runs"][0]["automationDetails"]["id"],
        "retake/quality/"
    );
    let rdjson: Value = serde_json::from_str(&read("retake.rdjson")).expect("rdjson");
    assert_eq!(rdjson["diagnostics"].as_array().map(Vec::len), Some(4));
    assert_eq!(read("retake.rdjsonl").lines().count(), 4);
    assert!(read("retake-junit.xml").starts_with("<?xml"));
    let gitlab: Value = serde_json::from_str(&read("retake-gitlab.json")).expect("gitlab");
    assert_eq!(gitlab.as_array().map(Vec::len), Some(4));
}

#[test]
fn two_formats_on_standard_output_are_a_usage_error_before_any_work() {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let out = review(dir.path(), &["--format", "json", "--format", "sarif"]);
    assert_eq!(code(&out), 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "--format json, --format sarif would all go to standard output: pass --output DIR"
        ),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert!(!dir.path().join(".retake").exists(), "nothing ran");
}

#[test]
fn terminal_beside_one_format_on_standard_output_moves_to_standard_error() {
    let cpf = cpf_dir(&[("quality.cpf", FOUR_SEVERITIES)]);
    let out = audit(cpf.path(), &["--format", "terminal", "--format", "gitlab"]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout_json(&out).as_array().map(Vec::len), Some(4));
    assert!(String::from_utf8_lossy(&out.stderr).contains("VERDICT  NO-GO"));
    let only = audit(cpf.path(), &["--format", "gitlab"]);
    assert!(only.stderr.is_empty(), "no terminal report unless asked");
}

#[test]
fn junit_has_a_suite_per_inspector_and_failures_at_the_level() {
    let cpf = cpf_dir(&[
        ("quality.cpf", FOUR_SEVERITIES),
        (
            "holistic.cpf",
            "VERDICT:GO\nISSUES:\nL|operational-risk|src/e.rs:1|unwrap & <friends>\n",
        ),
    ]);
    let out = audit(cpf.path(), &["--format", "junit"]);
    let xml = String::from_utf8_lossy(&out.stdout);
    assert_eq!(xml.matches("<testsuite ").count(), 2);
    assert_eq!(
        xml.matches("<failure ").count(),
        2,
        "C and H fail by default"
    );
    assert!(xml.contains("<testcase name=\"cpf/operational-risk\" classname=\"holistic\">"));
    assert!(xml.contains("L src/e.rs:1 unwrap &amp; &lt;friends&gt;"));
    let all = audit(cpf.path(), &["--format", "junit", "--fail-level", "L"]);
    assert_eq!(
        String::from_utf8_lossy(&all.stdout)
            .matches("<failure ")
            .count(),
        5
    );
    assert_eq!(code(&all), 1);
}

#[test]
fn gitlab_and_rdjson_map_severities() {
    let cpf = cpf_dir(&[("quality.cpf", FOUR_SEVERITIES)]);
    let gitlab = stdout_json(&audit(cpf.path(), &["--format", "gitlab"]));
    let words: Vec<&str> = gitlab
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|i| i["severity"].as_str())
        .collect();
    assert_eq!(words, ["critical", "major", "minor", "info"]);
    assert_eq!(gitlab[0]["check_name"], "cpf/operational-risk");
    assert_eq!(gitlab[0]["location"]["path"], "src/a.rs");
    assert_eq!(gitlab[0]["location"]["lines"]["begin"], 3);
    let rdjson = stdout_json(&audit(cpf.path(), &["--format", "rdjson"]));
    let d = &rdjson["diagnostics"];
    let levels: Vec<&str> = (0..4).filter_map(|i| d[i]["severity"].as_str()).collect();
    assert_eq!(levels, ["ERROR", "ERROR", "WARNING", "INFO"]);
    assert_eq!(d[0]["code"]["value"], "cpf/operational-risk");
    assert_eq!(d[0]["location"]["range"]["start"]["line"], 3);
    assert_eq!(d[0]["source"]["name"], "retake");
}

#[test]
fn markdown_marker_names_the_round_and_the_head_commit() {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(dir.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .output()
            .expect("git")
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "init"]);
    let head = String::from_utf8_lossy(&git(&["rev-parse", "HEAD"]).stdout)
        .trim()
        .to_string();
    assert_eq!(head.len(), 40);
    let first = review(dir.path(), &["--format", "markdown"]);
    let second = review(dir.path(), &["--format", "markdown"]);
    let md = String::from_utf8_lossy(&second.stdout);
    let marker = md.lines().next().expect("marker line");
    assert!(
        marker.ends_with(&format!(" round=2 head={head} -->")),
        "{marker}"
    );
    assert_eq!(
        String::from_utf8_lossy(&first.stdout)
            .lines()
            .next()
            .map(|l| l.replace("round=1", "round=2")),
        Some(marker.to_string()),
        "same fingerprints both times"
    );
    assert!(md.contains("## Executive Summary") && md.contains("## Recommended actions"));
    assert!(
        md.contains("| Verdict | **NO-GO** (exit 1: the gate follows the verdict) — decision REJECT (grade D): 1 Critical finding |"),
        "{md}"
    );
}
