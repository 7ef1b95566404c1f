//! Hostile state files, as issue #14 found them: `retake resume` and `retake status` refuse a
//! state file whose ids are paths or whose counts are out of range — one error line naming the
//! file and the field, exit 2 — and leave every file where it was, writing nothing outside
//! `.retake/`.

use protocol::Scope;
use review::state::ActiveReview;
use std::path::Path;
use std::process::Command;

fn retake(args: &[&str], repo: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .arg(repo)
        .output()
        .expect("run retake");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under `root`, relative, sorted.
fn files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("ls").flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(root).expect("inside").display().to_string());
            }
        }
    }
    out.sort();
    out
}

fn check_refused(outer: &Path, repo: &Path, field_message: &str) {
    let active = repo.join(".retake/state/active.json");
    let before = std::fs::read(&active).expect("state file");
    let tree = files(outer);
    for command in ["resume", "status"] {
        let (code, stderr) = retake(&[command], repo);
        assert_eq!(code, 2, "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: one line: {stderr}");
        assert!(
            stderr.contains(&active.display().to_string()) && stderr.contains(field_message),
            "{command} names the file and field: {stderr}"
        );
        assert_eq!(std::fs::read(&active).expect("kept"), before, "{command}");
        assert_eq!(files(outer), tree, "{command}: nothing written or deleted");
    }
}

#[test]
fn a_run_id_that_is_a_path_and_a_million_pipelines_are_refused() {
    let outer = tempfile::tempdir().expect("tempdir");
    let repo = outer.path().join("a/b/repo");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    std::fs::write(repo.join("src/lib.rs"), "pub fn a() {}\n").expect("write");
    let state_dir = repo.join(".retake");
    let good = ActiveReview {
        kind: "review".into(),
        run_id: "20261122T000000Z-abcdef".into(),
        scope: Scope::Module {
            globs: vec!["src/**".into()],
        },
        runtime: "inproc".into(),
        no_exec: true,
        pipelines: 1,
        started_at: "2026-11-22T00:00:00Z".into(),
        profile: None,
    };
    ActiveReview {
        run_id: "../../..".into(),
        ..good.clone()
    }
    .write(&state_dir)
    .expect("write");
    check_refused(
        outer.path(),
        &repo,
        "field run_id: \"../../..\" is not a name",
    );
    ActiveReview {
        pipelines: 1_000_000,
        ..good
    }
    .write(&state_dir)
    .expect("write");
    check_refused(
        outer.path(),
        &repo,
        "field pipelines: 1000000 is outside 1..=9",
    );
}

#[test]
fn a_run_whose_session_id_is_a_path_is_refused() {
    let outer = tempfile::tempdir().expect("tempdir");
    let repo = outer.path().join("a/b/repo");
    std::fs::create_dir_all(repo.join(".retake/state")).expect("mkdir");
    std::fs::write(
        repo.join(".retake/state/active.json"),
        r#"{"kind":"run","session_id":"../../..","started_at":"2026-02-22T14:30:00Z","impl_mode":"script","task_range":"all","base_commit":"abc","team":{"implementer_count":1000000,"reviewer_count":1,"runtime":"inproc"},"plans_mapping":{},"options":{"parallel":null,"no_discuss":true,"yes":true,"gate":"sdd"},"review":{"retake_count":0,"max_retakes":3,"retry_count":0,"spec_update_count":0}}"#,
    )
    .expect("write");
    check_refused(
        outer.path(),
        &repo,
        "field session_id: \"../../..\" is not a name",
    );
}
