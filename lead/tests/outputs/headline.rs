//! The terminal report's headline from the real binary on `examples/shop-nogo`: the verdict, the
//! exit code and what it follows, and the decision as its explanation, on one line.

use super::{code, review};
use std::path::Path;
use std::process::Command;

#[test]
fn shop_nogo_has_one_headline_that_names_the_exit_code_and_the_decision() {
    let dir = tempfile::tempdir().expect("tempdir");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/shop-nogo/.");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(&example)
        .arg(dir.path())
        .status()
        .expect("cp");
    assert!(copied.success());
    let _ = std::fs::remove_dir_all(dir.path().join(".retake"));
    let _ = std::fs::remove_dir_all(dir.path().join("target"));
    let out = review(dir.path(), &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}");
    let headline: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  VERDICT  "))
        .collect();
    assert_eq!(headline, [HEADLINE], "{stdout}");
    assert!(
        !stdout.lines().any(|l| l.starts_with("  decision ")),
        "the decision is no separate line: {stdout}"
    );
}

const HEADLINE: &str = "  VERDICT  NO-GO (exit 1: the gate follows the verdict) — decision REJECT (grade D): 3 Critical findings";
