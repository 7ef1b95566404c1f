//! `retake fix REVIEW-DIR` end to end with the real binary on a crate written into a temporary
//! folder: two unused imports (in `src/a.rs` and `src/b.rs`) that the builtin fixer removes, and
//! a test that pins `src/b.rs`'s text, so removing b's import breaks the tests. The review is a
//! journal folder written by the test in the format `retake review` leaves (`reports/*.json`,
//! `verdict.cpf`, whose VERIFIED rows drop a third, false-positive finding).
//!
//! Expected: a.rs's group is fixed, tested and committed; b.rs's group fails its tests on each
//! of its three attempts, is rolled back byte for byte, and the command exits 5 naming it;
//! the export, the plans, the progress files, the summary and the history say so in numbers.
//! `--resume` then retries only what history did not record as fixed.

use protocol::{Coverage, Dimension, Finding, InspectorReport, Location, Severity};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const A_RS: &str =
    "use std::collections::HashMap;\n\npub fn double(x: u32) -> u32 {\n    x * 2\n}\n";
const B_RS: &str = "use std::fmt::Write;\n\npub fn triple(x: u32) -> u32 {\n    x * 3\n}\n";
const GUARD: &str = "// Pins src/b.rs's text: removing its import breaks this test.\n\
#[test]\nfn b_keeps_its_import() {\n    assert!(include_str!(\"../src/b.rs\").contains(\"use std::fmt::Write;\"));\n}\n\n\
#[test]\nfn arithmetic() {\n    assert_eq!(fixdemo::a::double(2), 4);\n    assert_eq!(fixdemo::b::triple(2), 6);\n}\n";
const RUN_ID: &str = "20260222T143000Z-abcdef";

fn sh(repo: &Path, argv: &[&str]) -> String {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(repo)
        .output()
        .expect("spawn");
    assert!(
        out.status.success(),
        "{argv:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn git(repo: &Path, args: &[&str]) -> String {
    let mut argv = vec!["git"];
    argv.extend_from_slice(args);
    sh(repo, &argv)
}

fn unused_import(path: &str, name: &str) -> Finding {
    let mut f = Finding::new(
        "inspector-quality",
        "quality/compiler-dead-code",
        "dead-code",
        Severity::Low,
        Location::at(path, 1),
        format!("unused import: `{name}`"),
        name,
    );
    f.suggestion = Some("remove the unused import".into());
    f.auto_fixable = true;
    f.dimensions = vec![Dimension::Quality, Dimension::Maintainability];
    f
}

/// The crate, committed, and its review folder; returns (repo, review dir).
fn fixture(root: &Path) -> (PathBuf, PathBuf) {
    let repo = root.join("repo");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    std::fs::create_dir_all(repo.join("tests")).expect("mkdir");
    let files = [
        (
            "Cargo.toml",
            "[package]\nname = \"fixdemo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (".gitignore", "/target\n"),
        ("src/lib.rs", "pub mod a;\npub mod b;\n"),
        ("src/a.rs", A_RS),
        ("src/b.rs", B_RS),
        ("tests/guard.rs", GUARD),
    ];
    for (path, text) in files {
        std::fs::write(repo.join(path), text).expect("write");
    }
    sh(
        &repo,
        &["cargo", "generate-lockfile", "--offline", "--quiet"],
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["config", "user.name", "Fixer"]);
    git(&repo, &["config", "user.email", "fixer@example.com"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "init"]);

    let review = repo.join(".retake/runs").join(RUN_ID);
    std::fs::create_dir_all(review.join("reports")).expect("mkdir");
    let mut false_positive = unused_import("src/lib.rs", "a");
    false_positive.description = "module a is unused".into();
    let report = InspectorReport {
        review: RUN_ID.into(),
        inspector: "inspector-quality".into(),
        kind: Some(protocol::InspectorKind::Quality),
        scope: "repository".into(),
        findings: vec![
            unused_import("src/b.rs", "Write"),
            unused_import("src/a.rs", "HashMap"),
            false_positive,
        ],
        notes: vec![],
        claims: vec![],
        coverage: Coverage::default(),
        preexisting: Vec::new(),
    };
    std::fs::write(
        review.join("reports/inspector-quality.json"),
        serde_json::to_vec_pretty(&report).expect("json"),
    )
    .expect("write");
    std::fs::write(
        review.join("reports/inspector-quality.cpf"),
        protocol::cpf::format_report(&report.to_cpf()),
    )
    .expect("write");
    std::fs::write(
        review.join("verdict.cpf"),
        "VERDICT:CONDITIONAL\nVERIFIED:\n\
         inspector-quality|L|dead-code|src/a.rs:1|unused import: `HashMap`\n\
         inspector-quality|L|dead-code|src/b.rs:1|unused import: `Write`\n\
         REMOVED:\ninspector-quality|dead-code|src/lib.rs:1|false positive: the module is used by the tests\n",
    )
    .expect("write");
    (repo, review)
}

/// `retake ARGS` in `repo` with a HOME of its own (no user configuration) and a cargo target
/// folder outside the repository.
fn retake(repo: &Path, args: &[&str]) -> Output {
    let home = std::env::var("HOME").unwrap_or_default();
    let cargo_home = std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{home}/.cargo"));
    let rustup_home = std::env::var("RUSTUP_HOME").unwrap_or_else(|_| format!("{home}/.rustup"));
    let scratch = repo.parent().expect("parent");
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .current_dir(repo)
        .env("HOME", scratch)
        .env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        .env("CARGO_TARGET_DIR", scratch.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run retake")
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[test]
fn the_passing_group_is_committed_and_the_failing_one_rolled_back_with_exit_5() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, review) = fixture(tmp.path());
    let before = git(&repo, &["rev-parse", "HEAD"]);
    let dir = review.to_string_lossy().into_owned();

    let ran = retake(&repo, &["fix", &dir]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr),
    );
    assert_eq!(
        ran.status.code(),
        Some(5),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    assert!(
        stderr.contains("1 group not fixed after every attempt (rolled back): G2 (src/b.rs) after 3 attempts: the tests failed (exit 101): b_keeps_its_import\n"),
        "{stderr}"
    );

    // The repository: one new commit holding a.rs's fix; b.rs exactly as it was; clean.
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(
        log,
        "fix(quality): Fix quality/compiler-dead-code at src/a.rs:1 [FIX-001]\n"
    );
    let body = git(&repo, &["log", "-1", "--format=%B"]);
    assert!(body.contains("Retake-Fix: fix-"), "{body}");
    assert_eq!(
        git(&repo, &["show", "--name-only", "--format=", "HEAD"]),
        "src/a.rs\n"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("src/a.rs")).expect("a"),
        "pub fn double(x: u32) -> u32 {\n    x * 2\n}\n"
    );
    assert_eq!(
        std::fs::read(repo.join("src/b.rs")).expect("b"),
        B_RS.as_bytes()
    );
    let status = git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(
        status.lines().all(|l| l.starts_with("?? .retake/")),
        "{status}"
    );

    // The export: one task per verified finding (the verdict removed the third), plan.json.
    let mut tasks: Vec<String> = std::fs::read_dir(review.join(".task"))
        .expect("ls .task")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    tasks.sort();
    assert_eq!(tasks, vec!["FIX-001.json", "FIX-002.json"]);
    let task = json(&review.join(".task/FIX-002.json"));
    assert_eq!(
        task["files"],
        serde_json::json!([{"path": "src/b.rs", "action": "modify"}])
    );
    assert_eq!(
        (task["priority"].as_str(), task["scope"].as_str()),
        (Some("low"), Some("quality"))
    );
    assert_eq!(task["source"]["auto_fixable"], true);
    let plan = json(&review.join("plan.json"));
    assert_eq!(plan["task_ids"], serde_json::json!(["FIX-001", "FIX-002"]));
    assert_eq!(
        (plan["task_count"].as_u64(), plan["complexity"].as_str()),
        (Some(2), Some("Low"))
    );
    assert_eq!(plan["_metadata"]["plan_type"], "fix");
    assert_eq!(plan["_metadata"]["schema_version"], "2.0");
    assert_eq!(plan["_metadata"]["planning_mode"], "builtin");

    // The plans: one batch, two groups (one per file) side by side in one stage.
    let partial = json(&review.join("partial-plan-1.json"));
    assert_eq!(partial["metadata"]["groups_count"], 2);
    assert_eq!(partial["planner"], "builtin");
    let fix_plan = json(&review.join("fix-plan.json"));
    assert_eq!(
        fix_plan["timeline"],
        serde_json::json!([{"stage_id": 1, "groups": ["G1", "G2"], "execution_mode": "parallel"}])
    );
    assert_eq!(
        fix_plan["groups"][1]["files"],
        serde_json::json!(["src/b.rs"])
    );

    // Progress per group.
    let p1 = json(&review.join("fix-progress-1.json"));
    assert_eq!(
        (p1["status"].as_str(), p1["attempts"].as_u64()),
        (Some("completed"), Some(1))
    );
    let p2 = json(&review.join("fix-progress-2.json"));
    assert_eq!(
        (p2["status"].as_str(), p2["attempts"].as_u64()),
        (Some("failed"), Some(3))
    );
    assert!(
        p2["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("the tests failed (exit 101)")),
        "{p2}"
    );

    // Completion.
    let hash = git(&repo, &["rev-parse", "--short", "HEAD"])
        .trim()
        .to_string();
    let summary = std::fs::read_to_string(review.join("fix-summary.md")).expect("summary");
    assert!(
        summary.contains("- Findings: 2 — fixed 1, failed 1, skipped 0\n"),
        "{summary}"
    );
    assert!(summary.contains("| 1 | G1, G2 |\n"), "{summary}");
    assert!(
        summary.contains(&format!("| FIX-001 | src/a.rs:1 | G1 | {hash} |\n")),
        "{summary}"
    );
    assert!(
        summary.contains(
            "| FIX-002 | src/b.rs:1 | G2 | failed after 3 attempts: the tests failed (exit 101): b_keeps_its_import |\n"
        ),
        "{summary}"
    );
    let history = json(&review.join("fix-history.json"));
    let sessions = history["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 1);
    assert_eq!(
        (
            sessions[0]["fixed"].as_u64(),
            sessions[0]["failed"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(sessions[0]["commits"], serde_json::json!([hash]));
    assert_eq!(sessions[0]["review_dir"], format!(".retake/runs/{RUN_ID}"));
    assert!(!review.join("active-fix-session.json").exists());
    assert_eq!(
        stdout.matches("G2: rolled back src/b.rs").count(),
        3,
        "{stdout}"
    );

    // --resume: history says FIX-001 is fixed, so only b.rs's group runs again.
    let ran = retake(&repo, &["fix", &dir, "--resume", "--max-retries", "1"]);
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(ran.status.code(), Some(5), "{stdout}");
    assert!(stdout.contains("1 finding(s) already fixed"), "{stdout}");
    assert!(stdout.contains("1 finding(s) in 1 group(s)"), "{stdout}");
    assert!(
        !stdout.contains("src/a.rs"),
        "the committed group is not redone: {stdout}"
    );
    assert_eq!(
        git(
            &repo,
            &["rev-list", "--count", &format!("{}..HEAD", before.trim())]
        )
        .trim(),
        "1"
    );
    assert_eq!(
        std::fs::read(repo.join("src/b.rs")).expect("b"),
        B_RS.as_bytes()
    );
    let history = json(&review.join("fix-history.json"));
    assert_eq!(history["sessions"].as_array().map(Vec::len), Some(2));
    assert_eq!(history["sessions"][1]["failed"], 1);
    assert_eq!(
        history["sessions"][1]["fixes"][0]["attempts"], 1,
        "--max-retries 1: one attempt"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, review) = fixture(tmp.path());
    let dir = review.to_string_lossy().into_owned();
    let err = |ran: &Output| String::from_utf8_lossy(&ran.stderr).trim().to_string();

    let ran = retake(&repo, &["fix", "no/such/dir"]);
    assert_eq!(ran.status.code(), Some(2));
    assert_eq!(
        err(&ran),
        "retake: error: cannot fix from 'no/such/dir': no such review folder"
    );

    let ran = retake(&repo, &["fix", "src"]);
    assert_eq!(ran.status.code(), Some(2));
    assert!(
        err(&ran).contains("src is not a review folder: it has no journaled reports"),
        "{}",
        err(&ran)
    );

    let ran = retake(&repo, &["fix", &dir, "--resume"]);
    assert_eq!(ran.status.code(), Some(2));
    assert!(err(&ran).contains("nothing to resume in"), "{}", err(&ran));

    std::fs::write(repo.join("src/a.rs"), "// a user's edit\n").expect("write");
    let ran = retake(&repo, &["fix", &dir]);
    assert_eq!(ran.status.code(), Some(2));
    assert!(
        err(&ran).ends_with("the work tree has uncommitted changes (src/a.rs): commit or stash them first, so that a rolled-back fix cannot take them with it"),
        "{}",
        err(&ran)
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("src/a.rs")).expect("a"),
        "// a user's edit\n",
        "a refused session touches nothing"
    );
    assert!(!review.join("plan.json").exists());

    // A dry run plans and exports on a dirty tree too: it changes no source.
    let ran = retake(&repo, &["fix", &dir, "--dry-run"]);
    assert_eq!(ran.status.code(), Some(0), "{}", err(&ran));
    assert!(review.join(".task/FIX-001.json").is_file());
    assert_eq!(json(&review.join("plan.json"))["task_count"], 2);
    assert!(!review.join("fix-summary.md").exists());
    assert_eq!(git(&repo, &["rev-list", "--count", "HEAD"]).trim(), "1");

    std::fs::write(review.join("verdict.cpf"), "VERIFIED:\nnot a row\n").expect("write");
    let ran = retake(&repo, &["fix", &dir, "--dry-run"]);
    assert_eq!(ran.status.code(), Some(2));
    assert!(err(&ran).contains("malformed verdict"), "{}", err(&ran));

    let ran = retake(
        &repo,
        &[
            "review",
            "--fix",
            "--consensus",
            "2",
            "--profile",
            "pedantic",
        ],
    );
    assert_eq!(ran.status.code(), Some(2));
    assert!(
        err(&ran).contains("--fix works on a single review"),
        "{}",
        err(&ran)
    );
}

#[test]
fn review_fix_reviews_then_fixes_that_reviews_findings() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, _) = fixture(tmp.path());
    // The configured fixer: a script that gives each owned source file (the test-writing task
    // owns src/c.rs and tests/c.rs: Rust's in-file test module or an integration test) a
    // unit test of `half`.
    let script = tmp.path().join("add-test.sh");
    std::fs::write(
        &script,
        "#!/bin/sh
for f in $RETAKE_TASK_OWNS; do
  case \"$f\" in src/*) ;; *) continue ;; esac
  printf '\\n#[cfg(test)]\\nmod tests {\\n    #[test]\\n    fn halves() {\\n        assert_eq!(super::half(4), 2);\\n    }\\n}\\n' >> \"$f\"\ndone\necho \"added a unit test to $RETAKE_TASK_OWNS\"\n",
    )
    .expect("write");
    std::fs::write(
        repo.join("retake.toml"),
        format!(
            "[executor]\nkind = \"script\"\ncommand = [\"sh\", \"{}\"]\n",
            script.display()
        ),
    )
    .expect("write");
    // A module no test mentions: the review's test Inspector reports it (missing-test-file).
    std::fs::write(
        repo.join("src/c.rs"),
        "pub fn half(x: u32) -> u32 {\n    x / 2\n}\n",
    )
    .expect("write");
    std::fs::write(
        repo.join("src/lib.rs"),
        "pub mod a;\npub mod b;\npub mod c;\n",
    )
    .expect("write");
    git(&repo, &["add", "-A"]);
    git(
        &repo,
        &["commit", "-q", "-m", "add c and configure the fixer"],
    );
    let before = git(&repo, &["rev-parse", "HEAD"]);

    let ran = retake(
        &repo,
        &[
            "review",
            "--paths",
            "src/c.rs",
            "--fix",
            "--profile",
            "pedantic",
        ],
    );
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(
        ran.status.code(),
        Some(0),
        "stdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(
        stdout.contains("[missing-test-file]"),
        "the review's report prints: {stdout}"
    );
    assert!(stdout.contains("1 finding(s) in 1 group(s)"), "{stdout}");
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(
        log.starts_with("fix(") && log.contains("src/c.rs") && log.contains("[FIX-001]"),
        "{log}"
    );
    assert!(std::fs::read_to_string(repo.join("src/c.rs"))
        .expect("a")
        .ends_with("    fn halves() {\n        assert_eq!(super::half(4), 2);\n    }\n}\n"));
    let runs: Vec<PathBuf> = std::fs::read_dir(repo.join(".retake/runs"))
        .expect("runs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n != RUN_ID))
        .collect();
    assert_eq!(runs.len(), 1, "one new review journal: {runs:?}");
    let summary = std::fs::read_to_string(runs[0].join("fix-summary.md")).expect("summary");
    assert!(
        summary.contains("- Findings: 1 — fixed 1, failed 0, skipped 0\n"),
        "{summary}"
    );
    assert!(runs[0].join(".task/FIX-001.json").is_file());
}
