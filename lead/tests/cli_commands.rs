//! `retake rules` and `retake status` through the real binary: every rule of the catalog on its
//! own line, a reader that closes the pipe early ending the listing quietly, and the status of a
//! repository before and after a review.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn retake(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .output()
        .expect("retake runs")
}

#[test]
fn rules_lists_every_catalog_rule_once_with_its_fields() {
    let out = retake(&["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("RULE "), "header: {}", lines[0]);
    let catalog = inspector::rules::catalog();
    assert_eq!(lines.len(), catalog.len() + 1, "one line per rule");
    for (_, meta) in &catalog {
        let listed = lines
            .iter()
            .filter(|l| l.split_whitespace().next() == Some(meta.id))
            .count();
        assert_eq!(listed, 1, "{} listed once", meta.id);
    }
    let unwrap = lines
        .iter()
        .find(|l| l.starts_with("quality/unwrap-in-library "))
        .expect("unwrap-in-library listed");
    let fields: Vec<&str> = unwrap.split_whitespace().collect();
    assert_eq!(
        &fields[1..6],
        [
            "error-handling-drift",
            "M",
            "default",
            "rust",
            "quality,best-practices"
        ]
    );
    let profile_of = |id: &str| {
        let line = lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(id))
            .expect("listed");
        line.split_whitespace().nth(3).map(str::to_string)
    };
    for (_, meta) in &catalog {
        let expected = inspector::rules::profile::profile_of(meta.id);
        assert_eq!(
            profile_of(meta.id).as_deref(),
            Some(expected.as_str()),
            "{}",
            meta.id
        );
    }
    assert_eq!(
        profile_of("quality/naming-violation").as_deref(),
        Some("pedantic")
    );
}

#[test]
fn a_closed_pipe_ends_the_listing_without_an_error_message() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("rules")
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("retake runs");
    assert_eq!(
        out.status.code(),
        Some(141),
        "128 + SIGPIPE, like a Unix tool"
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn status_shows_nothing_in_progress_then_the_reviews_journal_and_verdict() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("shop");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/shop-nogo");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(&example)
        .arg(&repo)
        .status()
        .expect("cp");
    assert!(copied.success());
    let _ = std::fs::remove_dir_all(repo.join(".retake"));
    let repo = repo.to_str().expect("utf-8 path");

    let before = retake(&["status", repo, "--format", "json"]);
    assert_eq!(before.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&before.stdout).expect("json");
    assert!(
        json["active"].is_null() && json["journal"].is_null(),
        "{json}"
    );
    assert!(json["lead_pid"].is_null(), "{json}");

    let review = retake(&["review", repo, "--no-exec"]);
    assert_eq!(review.status.code(), Some(1), "shop-nogo is NO-GO");
    let after = retake(&["status", repo, "--format", "json"]);
    assert_eq!(after.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&after.stdout).expect("json");
    assert!(json["active"].is_null(), "the review ended: {json}");
    assert_eq!(json["journal"]["verdict"], "NO-GO", "{json}");
    let reports = json["journal"]["reports"].as_array().expect("reports");
    assert_eq!(reports.len(), 6, "six Inspectors journaled: {json}");
    assert!(
        json["journal"]["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .any(|n| n == "verdict: NO-GO (3 Critical)"),
        "{json}"
    );
    let text = retake(&["status", repo]);
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(text.contains("in progress  nothing\n"), "{text}");
    assert!(text.contains(", NO-GO\n"), "{text}");
}

#[test]
fn status_of_a_missing_directory_is_one_error_line_and_exit_2() {
    let out = retake(&["status", "/nonexistent/retake-status-test"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("retake: error: cannot show the status of '/nonexistent/retake-status-test': no such directory"),
        "{err}"
    );
}
