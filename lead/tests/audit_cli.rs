//! `retake audit` reproduces the Auditor spec's verdict table on hand-written CPF, with the exit codes
//! of the outputs spec, and refuses malformed CPF with one line naming the file and the line.

use std::path::Path;
use std::process::Command;

fn audit(dir: &Path, files: &[(&str, &str)]) -> (i32, serde_json::Value, String) {
    for (name, body) in files {
        std::fs::write(dir.join(name), body).expect("write cpf");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("audit")
        .arg(dir)
        .args(["--format", "json"])
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().expect("exit code"), json, stderr)
}

fn case(files: &[(&str, &str)]) -> (i32, serde_json::Value, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    audit(dir.path(), files)
}

#[test]
fn a_critical_is_no_go_exit_1() {
    let (code, json, _) = case(&[(
        "holistic.cpf",
        "VERDICT:NO-GO\nISSUES:\nC|operational-risk|src/a.rs:3|todo!() in library code\n",
    )]);
    assert_eq!((code, json["verdict"].as_str()), (1, Some("NO-GO")));
    assert_eq!(json["decision"], "REJECT");
}

#[test]
fn medium_and_low_only_is_go_exit_0() {
    let (code, json, _) = case(&[
        ("quality.cpf", "VERDICT:GO\nISSUES:\nM|incomplete|src/a.rs:3|TODO left\nL|naming-violation|src/b.rs:9|camelCase name\n"),
    ]);
    assert_eq!((code, json["verdict"].as_str()), (0, Some("GO")));
    assert_eq!(
        (json["decision"].as_str(), json["grade"].as_str()),
        (Some("APPROVE"), Some("B"))
    );
}

#[test]
fn more_than_three_high_is_conditional_exit_0_or_3_when_strict() {
    let rows: String = (1..=4)
        .map(|i| format!("H|error-handling-drift|src/a.rs:{i}|swallowed error {i}\n"))
        .collect();
    let body = format!("VERDICT:CONDITIONAL\nISSUES:\n{rows}");
    let (code, json, _) = case(&[("quality.cpf", &body)]);
    assert_eq!((code, json["verdict"].as_str()), (0, Some("CONDITIONAL")));
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("quality.cpf"), &body).expect("write");
    let strict = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("audit")
        .arg(dir.path())
        .arg("--strict")
        .output()
        .expect("run");
    assert_eq!(strict.status.code(), Some(3));
    let three: String = (1..=3)
        .map(|i| format!("H|error-handling-drift|src/a.rs:{i}|swallowed error {i}\n"))
        .collect();
    let (code, json, _) = case(&[(
        "quality.cpf",
        &format!("VERDICT:CONDITIONAL\nISSUES:\n{three}"),
    )]);
    assert_eq!(
        (code, json["verdict"].as_str()),
        (0, Some("GO")),
        "exactly three High stays GO"
    );
}

#[test]
fn a_test_failure_is_no_go() {
    let (code, json, _) = case(&[(
        "test.cpf",
        "VERDICT:CONDITIONAL\nISSUES:\nH|test-failure|tests/api.rs:12|test `api::create` failed\n",
    )]);
    assert_eq!((code, json["verdict"].as_str()), (1, Some("NO-GO")));
    assert_eq!(json["decision"], "STOP");
}

#[test]
fn two_agents_spec_defect_at_one_location_is_spec_update_needed_exit_4() {
    let row = "H|spec-defect|specs/auth/design.md#Spec 2|Spec 2 cannot be implemented: the token has no expiry field\n";
    let (code, json, _) = case(&[
        (
            "interface.cpf",
            &format!("VERDICT:CONDITIONAL\nISSUES:\n{row}"),
        ),
        (
            "rulebase.cpf",
            &format!("VERDICT:CONDITIONAL\nISSUES:\n{row}"),
        ),
    ]);
    assert_eq!(
        (code, json["verdict"].as_str()),
        (4, Some("SPEC-UPDATE-NEEDED"))
    );
}

#[test]
fn two_agents_reporting_one_problem_make_one_finding_with_both_agents() {
    let (code, json, _) = case(&[
        (
            "quality.cpf",
            "VERDICT:GO\nISSUES:\nM|dead-code|src/lib.rs:40|function `old_parse` is never used\n",
        ),
        (
            "holistic.cpf",
            "VERDICT:GO\nISSUES:\nM|dead-code|src/lib.rs:40|`old_parse` is unused\n",
        ),
    ]);
    assert_eq!(code, 0);
    let findings = json["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let agents: Vec<&str> = findings[0]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(agents, vec!["holistic", "quality"]);
}

#[test]
fn malformed_cpf_is_one_error_line_naming_file_and_line_exit_2() {
    let (code, json, stderr) = case(&[(
        "quality.cpf",
        "VERDICT:GO\nISSUES:\nX|incomplete|src/a.rs:3|TODO\n",
    )]);
    assert_eq!(code, 2);
    assert!(json.is_null(), "nothing on stdout");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains("quality.cpf") && lines[0].contains("line 3") && lines[0].contains("'X'"),
        "{stderr}"
    );
}

#[test]
fn a_missing_input_is_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["audit", "/nonexistent/reports"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("/nonexistent/reports: no such file or folder"));
}
