//! `retake run --dry-run` on plans written into a temporary repository: the Implementer counts
//! of the loops spec's table, the task table, no state written, and bad plans refused with exit 2
//! and one line naming the problem.

use std::path::Path;
use std::process::Command;

fn retake(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .current_dir(dir)
        .arg("run")
        .args(args)
        .output()
        .expect("run retake");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A Plans.md of `n` independent tasks, each owning its own file.
fn plan_of(n: usize) -> String {
    let mut text = String::from("# Plans\n\n## Phase 1\n\n");
    for i in 1..=n {
        text.push_str(&format!(
            "### 1.{i} Add module {i} <!-- cc:TODO -->\n- write it\nowns: `src/m{i}.rs`\n\n"
        ));
    }
    text
}

fn dry_json(n: usize, parallel: Option<&str>) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("Plans.md"), plan_of(n)).expect("write plan");
    let mut args = vec!["all", "--dry-run", "--format", "json", "--no-discuss"];
    if let Some(p) = parallel {
        args.extend(["--parallel", p]);
    }
    let (code, stdout, stderr) = retake(dir.path(), &args);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(
        !dir.path().join(".retake").exists(),
        "a dry run writes no state"
    );
    serde_json::from_str(&stdout).expect("one JSON object")
}

#[test]
fn five_tasks_without_bounds_get_three_implementers() {
    let v = dry_json(5, None);
    assert_eq!(
        (v["independent_tasks"].as_u64(), v["implementers"].as_u64()),
        (Some(5), Some(3))
    );
    assert_eq!(v["tasks"].as_array().map(Vec::len), Some(5));
    assert_eq!(v["tasks"][0]["plan_id"], "1.1");
    assert_eq!(v["tasks"][0]["owns"], serde_json::json!(["src/m1.rs"]));
    assert_eq!(v["tasks"][4]["subject"], "1.5 Add module 5");
}

#[test]
fn five_tasks_with_parallel_two_get_two() {
    let v = dry_json(5, Some("2"));
    assert_eq!(
        (v["independent_tasks"].as_u64(), v["implementers"].as_u64()),
        (Some(5), Some(2))
    );
}

#[test]
fn one_task_with_parallel_five_gets_one() {
    let v = dry_json(1, Some("5"));
    assert_eq!(
        (v["independent_tasks"].as_u64(), v["implementers"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn twenty_tasks_with_parallel_ten_get_five() {
    let v = dry_json(20, Some("10"));
    assert_eq!(
        (v["independent_tasks"].as_u64(), v["implementers"].as_u64()),
        (Some(20), Some(5))
    );
    assert_eq!(v["tasks"].as_array().map(Vec::len), Some(20));
}

#[test]
fn terminal_output_shows_tasks_dependencies_and_team_from_a_subfolder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .current_dir(dir.path())
            .args(args)
            .output()
            .map(|o| o.status.success());
        assert_eq!(ok.ok(), Some(true), "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
    std::fs::write(
        dir.path().join("Plans.md"),
        "- 4.1 Add login cc:done\n- 4.2 Add auth middleware cc:TODO owns: `src/auth.rs`\n\
         - 4.3 Add session store cc:WIP owns: `src/auth.rs`\n",
    )
    .expect("write plan");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let (code, stdout, stderr) = retake(
        &dir.path().join("sub"),
        &["auth", "to", "session", "--dry-run"],
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(
        stdout.contains("Range: auth to session · plan: Plans.md\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "  #2   4.3 Add session store (cc:WIP)\n        owns: src/auth.rs · blocked by: #1\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("V5 repaired: tasks 4.2 and 4.3 both own src/auth.rs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 tasks (1 independent) with 1 Implementer in parallel.\n"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Warnings:"),
        "git work tree and cargo test known: {stdout}"
    );
    assert!(!dir.path().join(".retake").exists());
}

#[test]
fn bad_plans_and_ranges_exit_2_with_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = retake(dir.path(), &["--dry-run"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "retake: error: no plan found: write Plans.md at the repository root (tasks marked cc:TODO) or specs/<feature>/tasks.yaml\n"
    );
    std::fs::write(
        dir.path().join("Plans.md"),
        "- 1 A cc:TODO depends: 2\n- 2 B cc:TODO depends: 1\n",
    )
    .expect("write");
    let (code, _, stderr) = retake(dir.path(), &["--dry-run"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "retake: error: Plans.md: dependency cycle 1 → 2 → 1: no task in it can ever start; remove one depends\n"
    );
    let (code, _, stderr) = retake(dir.path(), &["payments", "--dry-run"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("retake: error: no task matches 'payments'"),
        "{stderr}"
    );
    assert!(!dir.path().join(".retake").exists());
}

#[test]
fn without_an_executor_the_run_stops_in_its_environment_check_and_leaves_no_state() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("Plans.md"), plan_of(2)).expect("write");
    let (code, stdout, stderr) = retake(dir.path(), &["all", "--yes", "--no-discuss"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("retake: error: the environment is not ready for a run"),
        "{stderr}"
    );
    assert!(stderr.contains("no executor is configured"), "{stderr}");
    assert!(!dir.path().join(".retake/state/active.json").exists());
}
