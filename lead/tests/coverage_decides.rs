//! Coverage decides the verdict (the supervision spec, issue #14): through the real binary, a review that
//! lost an Inspector is never GO and never exits 0 under `--strict`, every output says which
//! Inspector and why, and a review that lost them all has no verdict (exit 2).

mod support;
use support::copy_example;

use std::path::Path;
use std::process::{Command, Output};

/// A fresh copy of the example `name` in a temporary folder.
fn copy_of(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_example(name, dir.path());
    dir
}

fn retake(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--no-exec"])
        .args(args)
        // Short deadlines keep the lost Inspector's retry fast; the protocol is the same.
        .env("RETAKE__SUPERVISION__INSPECT_DEADLINE_SECS", "3")
        .env("RETAKE__SUPERVISION__AUDIT_DEADLINE_MS", "2000")
        .env("RETAKE__SUPERVISION__NUDGE_TIMEOUT_MS", "1000")
        .env("NO_COLOR", "1")
        .output()
        .expect("run retake")
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

/// Validates a document against a JSON Schema with python3's jsonschema, the checker the
/// project's other schema tests use.
fn validate(document: &Path, schema: &Path) {
    let out = Command::new("python3")
        .args([
            "-c",
            "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
        ])
        .arg(document)
        .arg(schema)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{} is not valid against {}: {}",
        document.display(),
        schema.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_frame_limit_that_kills_every_actor_is_no_verdict_exit_2() {
    // The exact input: shop-nogo with a change that sets a 64-byte frame limit, so no
    // actor can send a single frame. It used to print GO (partial coverage (0/6)) and exit 0.
    let repo = copy_of("shop-nogo");
    std::fs::write(
        repo.path().join("retake.toml"),
        "[wire]\nmax_frame_bytes = 64\n",
    )
    .expect("write retake.toml");
    for gate in [&["--strict", "--fail-level", "L"][..], &[]] {
        let out = retake(repo.path(), &[&["--format", "json"], gate].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{gate:?}: {stderr}");
        let line = stderr
            .lines()
            .find(|l| l.starts_with("retake: error: no Inspector reported: "))
            .unwrap_or_else(|| panic!("no error line: {stderr}"));
        for kind in [
            "rulebase",
            "interface",
            "test",
            "quality",
            "consistency",
            "holistic",
        ] {
            assert!(
                line.contains(&format!("inspector-{kind} (inspector-{kind}")),
                "{kind} not named with its reason: {line}"
            );
        }
        assert!(line.contains("exited with code 2"), "{line}");
        // No verdict: nothing printed on stdout, nothing appended to verdicts.md.
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(!repo.path().join(".retake/verdicts.md").exists());
    }
}

#[test]
fn one_lost_inspector_on_a_go_repository_is_conditional_exit_3_under_strict() {
    let repo = copy_of("shop-go");
    // The same repository with every Inspector is GO: the fault alone changes the verdict.
    let clean = retake(repo.path(), &["--strict", "--format", "json"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let clean: serde_json::Value = serde_json::from_slice(&clean.stdout).expect("json");
    assert_eq!(clean["verdict"], "GO");

    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = retake(
        repo.path(),
        &[
            "--strict",
            "--chaos",
            "--fault",
            "inspector-quality:crash-at=inspect",
            "--format",
            "json",
            "--format",
            "sarif",
            "--format",
            "junit",
            "--format",
            "markdown",
            "--output",
            out_dir.path().to_str().expect("utf-8 path"),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let reason = "inspector-quality-r1 was killed by signal 6; its replacement failed too";

    let json_path = out_dir.path().join("retake.json");
    validate(
        &json_path,
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/retake-report.schema.json"),
    );
    let json = read_json(&json_path);
    assert_eq!(json["verdict"], "CONDITIONAL");
    assert_eq!(json["qualifiers"][0], "partial coverage (5/6)");
    assert_eq!(
        (json["decision"].as_str(), json["grade"].as_str()),
        (Some("STOP"), Some("N/A"))
    );
    assert_eq!(
        json["coverage"]["inspector-quality"]["status"],
        "unavailable"
    );
    assert_eq!(json["coverage"]["inspector-quality"]["reason"], reason);
    let notes: Vec<&str> = json["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes.contains(&format!("PARTIAL:inspector-quality|{reason}").as_str()),
        "{notes:?}"
    );
    assert!(
        notes.contains(
            &"verdict: CONDITIONAL (partial coverage (5/6): GO needs every Inspector's report)"
        ),
        "{notes:?}"
    );

    let sarif_path = out_dir.path().join("retake.sarif");
    validate(
        &sarif_path,
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/schemas/sarif-schema-2.1.0.json"),
    );
    let sarif = read_json(&sarif_path);
    let runs = sarif["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 6);
    for run in runs {
        let invocation = &run["invocations"][0];
        assert_eq!(invocation["exitCode"], 3);
        let lost = run["properties"]["inspector"] == "inspector-quality";
        assert_eq!(invocation["executionSuccessful"], !lost, "{run}");
        let notifications = invocation["toolExecutionNotifications"].as_array();
        if lost {
            let notifications = notifications.expect("notifications");
            assert_eq!(notifications.len(), 1);
            assert_eq!(notifications[0]["level"], "error");
            assert_eq!(
                notifications[0]["message"]["text"],
                format!("inspector-quality sent no report: {reason}")
            );
        } else {
            assert!(notifications.is_none(), "{run}");
        }
    }

    let junit = std::fs::read_to_string(out_dir.path().join("retake-junit.xml")).expect("junit");
    assert!(
        junit.contains(&format!(
            "<error message=\"inspector-quality sent no report: {reason}\" type=\"unavailable\"/>"
        )),
        "{junit}"
    );
    assert!(junit.contains("failures=\"0\" errors=\"1\">"), "{junit}");
    let md = std::fs::read_to_string(out_dir.path().join("retake.md")).expect("markdown");
    assert!(
        md.contains(&format!("unavailable: inspector-quality ({reason})")),
        "{md}"
    );

    // Without --strict CONDITIONAL is exit 0 (the outputs spec), but never with GO's words.
    let lenient = retake(
        repo.path(),
        &["--chaos", "--fault", "inspector-quality:crash-at=inspect"],
    );
    assert_eq!(lenient.status.code(), Some(0));
    let text = String::from_utf8_lossy(&lenient.stdout);
    assert!(
        text.contains("VERDICT  CONDITIONAL (partial coverage (5/6))"),
        "{text}"
    );
    assert!(text.contains("decision STOP (grade N/A)"), "{text}");
    assert!(
        text.contains(&format!("inspector-quality        unavailable: {reason}")),
        "{text}"
    );
}

#[test]
fn an_offline_audit_with_expected_agents_is_partial_or_no_verdict() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("quality.cpf"), "VERDICT:GO\nISSUES:\n").expect("write");
    let audit = |expect: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_retake"));
        cmd.arg("audit").arg(dir.path().join("quality.cpf"));
        for agent in expect {
            cmd.args(["--expect", agent]);
        }
        cmd.args(["--strict", "--format", "json"])
            .output()
            .expect("run retake")
    };
    // Without --expect the files are the whole team: GO.
    let all = audit(&[]);
    assert_eq!(all.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&all.stdout).expect("json");
    assert_eq!(json["verdict"], "GO");
    // A missing file of an expected agent is partial coverage: CONDITIONAL, exit 3 with --strict.
    let partial = audit(&["quality", "test"]);
    assert_eq!(partial.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&partial.stdout).expect("json");
    assert_eq!(json["verdict"], "CONDITIONAL");
    assert_eq!(json["qualifiers"][0], "partial coverage (1/2)");
    assert_eq!(json["coverage"]["test"]["status"], "unavailable");
    // None of the expected agents: no verdict.
    let none = audit(&["test", "holistic"]);
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&none.stderr).trim(),
        "retake: error: no Inspector reported: test (no report); holistic (no report)"
    );
}
