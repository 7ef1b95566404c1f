//! Fault injection is refused unless enabled: `retake review --fault …` without `--chaos` (or
//! `[chaos] enabled = true`) exits 2 before any actor starts, and a malformed fault exits 2
//! naming it.

use std::path::Path;
use std::process::{Command, Output};

/// `retake review REPO ARGS…` with a HOME of its own, so no user configuration leaks in.
fn review(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(args)
        .env("HOME", repo)
        .env_remove("RETAKE__CHAOS__ENABLED")
        .output()
        .expect("run retake")
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
    std::fs::write(dir.path().join("src/lib.rs"), "pub fn a() {}\n").expect("write");
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_fault_without_chaos_is_refused_with_exit_2() {
    let dir = repo();
    let out = review(
        dir.path(),
        &["--fault", "inspector-quality:crash-at=inspect"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "retake: error: fault injection is disabled: pass --chaos or set [chaos] enabled = true \
         (faults given: inspector-quality:crash-at=inspect)"
    );
    assert!(out.stdout.is_empty(), "no review ran");
}

#[test]
fn a_configured_fault_without_chaos_is_refused_too() {
    let dir = repo();
    std::fs::write(
        dir.path().join("retake.toml"),
        "[[chaos.faults]]\nactor = \"auditor\"\nspawn = 1\nfault = \"stall-output\"\n",
    )
    .expect("write");
    let out = review(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("fault injection is disabled")
            && stderr(&out).contains("(faults given: auditor#1:stall-output)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_malformed_fault_exits_2_naming_it() {
    let dir = repo();
    let out = review(
        dir.path(),
        &["--chaos", "--fault", "inspector-quality:explode"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown fault 'explode'"),
        "{}",
        stderr(&out)
    );
    let out = review(
        dir.path(),
        &["--chaos", "--fault", "inspector-styl:stall-output"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown actor 'inspector-styl'"),
        "{}",
        stderr(&out)
    );
    let out = review(dir.path(), &["--chaos", "--fault", "hang-at=inspect"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("'hang-at=inspect' names no actor"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_malformed_configured_fault_exits_2_naming_the_entry() {
    let dir = repo();
    std::fs::write(
        dir.path().join("retake.toml"),
        "[chaos]\nenabled = true\n[[chaos.faults]]\nactor = \"auditor\"\nfault = \"hang-at=nap\"\n",
    )
    .expect("write");
    let out = review(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("[[chaos.faults]] entry 1 ('auditor:hang-at=nap'): unknown phase 'nap'"),
        "{}",
        stderr(&out)
    );
}
