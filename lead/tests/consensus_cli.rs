//! `retake consensus` reproduces the Auditor spec's consensus table on hand-written verdict CPF, with the
//! exit codes of the outputs spec, and refuses malformed CPF with one line naming the file and the line.

use std::path::Path;
use std::process::Command;

const H_DEAD: &str = "quality|H|dead-code|src/a.rs:3|unused function f\n";
const C_TODO: &str = "holistic|C|operational-risk|src/b.rs:7|todo!() in library code\n";
const M_TODO: &str = "quality|M|incomplete|src/c.rs:9|TODO marker left\n";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).expect("one JSON object on stdout")
    }
}

/// Writes `files` into `dir` and runs `retake consensus` on them, in order, with `extra` arguments.
fn consensus(dir: &Path, files: &[(&str, &str)], extra: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retake"));
    cmd.arg("consensus");
    for (name, body) in files {
        let path = dir.join(name);
        std::fs::write(&path, body).expect("write cpf");
        cmd.arg(path);
    }
    let out = cmd.args(extra).output().expect("run retake");
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn verdict(v: &str, rows: &[&str]) -> String {
    if rows.is_empty() {
        format!("VERDICT:{v}\nSCOPE:repository\n")
    } else {
        format!(
            "VERDICT:{v}\nSCOPE:repository\nVERIFIED:\n{}",
            rows.concat()
        )
    }
}

#[test]
fn one_finding_in_three_of_five_verdicts_is_no_go_exit_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let no_go = verdict("NO-GO", &[H_DEAD]);
    let lone = verdict("NO-GO", &[H_DEAD, C_TODO]);
    let go = verdict("GO", &[]);
    let files = [
        ("v1.cpf", lone.as_str()),
        ("v2.cpf", &no_go),
        ("v3.cpf", &no_go),
        ("v4.cpf", &go),
        ("v5.cpf", &go),
    ];
    let run = consensus(dir.path(), &files, &["--format", "json"]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let json = run.json();
    assert_eq!(json["verdict"], "NO-GO");
    assert_eq!(
        (json["threshold"].as_u64(), json["answered"].as_u64()),
        (Some(3), Some(5))
    );
    assert_eq!(json["consensus"][0]["key"], "dead-code|src/a.rs:3");
    assert_eq!(json["consensus"][0]["freq"], 3);
    assert_eq!(json["noise"][0]["key"], "operational-risk|src/b.rs:7");
    assert_eq!(json["noise"][0]["freq"], 1);
    assert_eq!(json["pipelines"][3]["verdict"], "GO");

    let terminal = consensus(dir.path(), &files, &[]);
    assert_eq!(terminal.code, 1);
    assert!(terminal
        .stdout
        .starts_with("CONSENSUS VERDICT: NO-GO\nanswered 5/5 · threshold 3/5\n"));
    assert!(terminal.stdout.contains(
        "Consensus (1):\n  H dead-code src/a.rs:3 freq 3/5 [quality] unused function f\n"
    ));
    assert!(terminal
        .stdout
        .contains("Noise (1):\n  C operational-risk src/b.rs:7 freq 1/5"));
}

#[test]
fn a_medium_in_four_of_five_is_conditional_exit_0_or_3_when_strict() {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = verdict("CONDITIONAL", &[M_TODO]);
    let go = verdict("GO", &[]);
    let files = [
        ("a.cpf", m.as_str()),
        ("b.cpf", &m),
        ("c.cpf", &m),
        ("d.cpf", &m),
        ("e.cpf", &go),
    ];
    let run = consensus(dir.path(), &files, &["--format", "json"]);
    assert_eq!(
        (run.code, run.json()["verdict"].as_str()),
        (0, Some("CONDITIONAL"))
    );
    assert_eq!(run.json()["consensus"][0]["freq"], 4);
    assert_eq!(consensus(dir.path(), &files, &["--strict"]).code, 3);
}

#[test]
fn one_finding_in_one_of_three_is_noise_and_go_exit_0() {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = verdict("NO-GO", &[C_TODO]);
    let go = verdict("GO", &[]);
    let files = [("a.cpf", c.as_str()), ("b.cpf", &go), ("c.cpf", &go)];
    let run = consensus(dir.path(), &files, &["--format", "json"]);
    let json = run.json();
    assert_eq!((run.code, json["verdict"].as_str()), (0, Some("GO")));
    assert_eq!(json["consensus"].as_array().map(Vec::len), Some(0));
    assert_eq!(json["noise"][0]["key"], "operational-risk|src/b.rs:7");
    let strict = consensus(
        dir.path(),
        &files,
        &["--threshold", "1", "--format", "json"],
    );
    assert_eq!(
        (strict.code, strict.json()["verdict"].as_str()),
        (1, Some("NO-GO"))
    );
}

#[test]
fn failed_pipelines_make_a_partial_consensus() {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = verdict("NO-GO", &[C_TODO]);
    let files = [("a.cpf", c.as_str()), ("b.cpf", &c)];
    let run = consensus(dir.path(), &files, &["--runs", "5", "--format", "json"]);
    let json = run.json();
    assert_eq!((run.code, json["verdict"].as_str()), (1, Some("NO-GO")));
    assert_eq!(
        (json["runs"].as_u64(), json["answered"].as_u64()),
        (Some(5), Some(2))
    );
    assert_eq!(
        (json["partial"].as_bool(), json["threshold"].as_u64()),
        (Some(true), Some(2))
    );
    assert_eq!(json["pipelines"][4]["verdict"], serde_json::Value::Null);
    let terminal = consensus(dir.path(), &files, &["--runs", "5"]);
    assert!(terminal
        .stdout
        .contains("PARTIAL: fewer than half of the pipelines answered\n"));
    assert!(terminal
        .stdout
        .contains("  V5 no verdict (pipeline failed)\n"));
}

#[test]
fn spec_updates_of_at_least_k_verdicts_exit_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = verdict("SPEC-UPDATE-NEEDED", &[]);
    let go = verdict("GO", &[]);
    let run = consensus(
        dir.path(),
        &[("a.cpf", &spec), ("b.cpf", &spec), ("c.cpf", &go)],
        &[],
    );
    assert_eq!(run.code, 4, "stdout: {}", run.stdout);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = verdict("GO", &[]);
    let bad = "VERDICT:GO\nVERIFIED:\nquality|X|dead-code|src/a.rs:3|unused\n";
    let run = consensus(dir.path(), &[("good.cpf", &good), ("bad.cpf", bad)], &[]);
    assert_eq!(run.code, 2);
    let line = run.stderr.trim_end();
    assert_eq!(line.lines().count(), 1, "one line: {line}");
    assert!(
        line.contains("bad.cpf: line 3:") && line.contains("'X'"),
        "{line}"
    );
    assert!(run.stdout.is_empty());

    let run = consensus(dir.path(), &[("good.cpf", &good)], &["--threshold", "2"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("threshold 2 is out of range"),
        "{}",
        run.stderr
    );
    let run = consensus(
        dir.path(),
        &[("a.cpf", &good), ("b.cpf", &good)],
        &["--runs", "1"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--runs 1 is fewer than the 2 verdict files"),
        "{}",
        run.stderr
    );
    let missing = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["consensus", "/nonexistent/x.cpf"])
        .output()
        .expect("run");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read /nonexistent/x.cpf"));
}
