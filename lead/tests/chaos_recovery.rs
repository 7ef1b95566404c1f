//! The recovery protocols on real processes, driven through `--chaos`: a hung or stalled
//! Inspector ends in partial coverage, a hung Auditor is replaced by a recovery-mode Auditor, an
//! Auditor that never answers leaves the verdict to the Lead — each well within a minute, with
//! nothing left running.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn repo(root: &Path) {
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(
        root.join("src/lib.rs"),
        "/// Adds.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
    )
    .expect("write");
}

struct Outcome {
    json: serde_json::Value,
    notes: Vec<String>,
    seconds: f64,
}

fn review(fault: &str) -> Outcome {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let tag = format!(
        "chaos-{}-{}",
        std::process::id(),
        fault.replace([':', '#', '='], "-")
    );
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(dir.path())
        .args(["--no-exec", "--format", "json", "--chaos", "--fault", fault])
        // Short deadlines keep the stalled cases fast; the protocol is the same as with defaults.
        .env("RETAKE__SUPERVISION__INSPECT_DEADLINE_SECS", "3")
        .env("RETAKE__SUPERVISION__AUDIT_DEADLINE_MS", "2000")
        .env("RETAKE__SUPERVISION__NUDGE_TIMEOUT_MS", "1000")
        .env("RETAKE_CHAOS_TAG", &tag)
        .output()
        .expect("run retake");
    let seconds = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{fault}: {stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let notes = json["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str().map(String::from))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        leftovers(&tag).is_empty(),
        "{fault}: processes left: {:?}",
        leftovers(&tag)
    );
    Outcome {
        json,
        notes,
        seconds,
    }
}

fn leftovers(tag: &str) -> Vec<String> {
    let needle = format!("RETAKE_CHAOS_TAG={tag}");
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

#[test]
fn an_inspector_that_hangs_on_every_spawn_gives_partial_coverage() {
    let o = review("inspector-quality:hang-at=inspect");
    assert!(
        o.notes
            .iter()
            .any(|n| n.starts_with("PARTIAL:inspector-quality|")),
        "{:?}",
        o.notes
    );
    assert_eq!(o.json["qualifiers"][0], "partial coverage (5/6)");
    assert_eq!(
        o.json["coverage"]["inspector-quality"]["status"],
        "unavailable"
    );
    assert_eq!(o.json["restarts"]["inspector-quality"], 1);
    assert!(o.seconds < 30.0, "{}", o.seconds);
}

#[test]
fn an_inspector_that_heartbeats_but_never_reports_gives_partial_coverage() {
    let o = review("inspector-holistic:stall-output");
    assert!(
        o.notes
            .iter()
            .any(|n| n.starts_with("PARTIAL:inspector-holistic|")),
        "{:?}",
        o.notes
    );
    assert_eq!(o.json["qualifiers"][0], "partial coverage (5/6)");
    assert!(o.seconds < 30.0, "{}", o.seconds);
}

#[test]
fn an_auditor_that_hangs_on_its_first_spawn_is_replaced_in_recovery_mode() {
    let o = review("auditor#1:hang-at=audit");
    assert_eq!(o.json["verdict"], "GO");
    assert!(
        !o.notes.iter().any(|n| n.starts_with("AUDITOR_UNAVAILABLE")),
        "{:?}",
        o.notes
    );
    assert!(
        !o.notes.iter().any(|n| n.starts_with("PARTIAL")),
        "{:?}",
        o.notes
    );
    assert_eq!(o.json["restarts"]["auditor"], 1);
    assert!(o.seconds < 30.0, "{}", o.seconds);
}

#[test]
fn an_auditor_that_never_answers_leaves_a_lead_derived_verdict() {
    let o = review("auditor:stall-output");
    assert!(
        o.notes
            .iter()
            .any(|n| n == "AUDITOR_UNAVAILABLE|lead-derived verdict"),
        "{:?}",
        o.notes
    );
    assert_eq!(o.json["verdict"], "GO");
    assert_eq!(o.json["restarts"]["auditor"], 1);
    assert!(o.seconds < 30.0, "{}", o.seconds);
}
