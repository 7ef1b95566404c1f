//! Phase 0 through the real binary: `retake run --dry-run` holds the planning discussion unless
//! `--no-discuss` — the Planner's estimated owns and dependencies reach Phase A, its
//! recommendation bounds (and lifts the default cap of) the team, and the JSON shows it.

use std::path::Path;
use std::process::Command;

const PLAN: &str = "# Plans\n\n\
- 1 Add token store cc:TODO\n  - create `src/auth/token.rs`\n\
- 2 Add login cc:TODO owns: `src/auth/login.rs`\n  - issue a token through src/auth/token.rs\n\
- 3 Add logout cc:TODO owns: `src/auth/login.rs`\n\
- 4 Add audit log cc:TODO owns: `src/audit.rs`\n\
- 5 Add metrics cc:TODO owns: `src/metrics.rs`\n\
- 6 Add tracing cc:TODO owns: `src/tracing.rs`\n\
- 7 Add config cc:TODO owns: `src/config.rs`\n";

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("src/auth")).expect("mkdir");
    std::fs::write(dir.path().join("src/auth/mod.rs"), "//! Auth.\n").expect("write");
    std::fs::write(dir.path().join("Plans.md"), PLAN).expect("write");
    dir
}

fn dry(dir: &Path, extra: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .current_dir(dir)
        .args(["run", "all", "--dry-run"])
        .args(extra)
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

#[test]
fn the_dry_run_json_shows_the_planners_recommendation_and_its_effect() {
    let dir = repo();
    let (stdout, _) = dry(dir.path(), &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        (
            &v["planner_max_parallel"],
            &v["independent_tasks"],
            &v["implementers"]
        ),
        (
            &serde_json::Value::Null,
            &serde_json::json!(5),
            &serde_json::json!(3)
        ),
        "levels {{1, 4, 5, 6, 7}}, {{2}}, {{3}}: the planner's 5 is the graph's width and gives no reason, so the team-size table's cap of 3 holds"
    );
    assert_eq!(
        (
            &v["discussion"]["planner_max_parallel"],
            &v["discussion"]["planner_reason"]
        ),
        (&serde_json::json!(5), &serde_json::Value::Null)
    );
    assert_eq!(
        v["tasks"][0]["owns"],
        serde_json::json!(["src/auth/token.rs"])
    );
    assert_eq!(v["tasks"][1]["blocked_by"], serde_json::json!([1]));
    assert_eq!(v["tasks"][2]["blocked_by"], serde_json::json!([2]));
    let d = &v["discussion"];
    assert_eq!(d["backend"], "builtin");
    assert_eq!(d["rounds"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        d["rounds"][0]["critic"],
        serde_json::json!([{"kind": "overlap", "earlier": "2", "later": "3", "path": "src/auth/login.rs"}])
    );
    assert_eq!(d["rounds"][1]["critic"], serde_json::json!([]));
    assert_eq!(d["open"], serde_json::json!([]));
    assert_eq!(
        v["validation"],
        serde_json::json!([{"check": "V5", "level": "repaired", "task": "3",
            "message": "tasks 2 and 3 both own src/auth/login.rs: 3 now waits for 2 (blocked_by added)"}]),
        "Phase A still validates the refined plan"
    );
    assert!(
        !dir.path().join(".retake").exists(),
        "a dry run writes no state"
    );

    let (stdout, _) = dry(dir.path(), &["--format", "json", "--no-discuss"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        (
            &v["planner_max_parallel"],
            &v["independent_tasks"],
            &v["implementers"]
        ),
        (
            &serde_json::Value::Null,
            &serde_json::json!(6),
            &serde_json::json!(3)
        )
    );
    assert_eq!(v["tasks"][0]["owns"], serde_json::json!([]));
    assert_eq!(v["discussion"], serde_json::Value::Null);
}

#[test]
fn the_terminal_dry_run_shows_the_discussion() {
    let dir = repo();
    let (stdout, stderr) = dry(dir.path(), &[]);
    assert_eq!(stderr, "", "a dry run shows its plan on stdout");
    assert!(
        stdout.contains(
            "Phase 0 — planning discussion (built-in Planner and Critic)\n  Round 1\n\
             \x20   Planner: 1 owns src/auth/token.rs (from its text)\n\
             \x20   Planner: 2 waits for 1 (it mentions src/auth/token.rs, which 1 creates)\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("  Planner's recommendation: at most 5 Implementers in parallel (the task graph's width only: the team-size table sizes the team)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("7 tasks (5 independent) with 3 Implementers in parallel.\n"),
        "{stdout}"
    );
}

/// `repo()` as a git work tree whose committed retake.toml makes `agent.sh` (the script given)
/// the executor and Phase 0's agent.
fn agent_repo(script: &str) -> tempfile::TempDir {
    let dir = repo();
    std::fs::write(dir.path().join("agent.sh"), script).expect("write");
    std::fs::write(
        dir.path().join("retake.toml"),
        "[executor]\nkind = \"agent\"\ncommand = [\"sh\", \"agent.sh\"]\ntimeout_secs = 30\n\n\
         [loop]\ndiscussion = \"agent\"\n",
    )
    .expect("write");
    for args in [
        &["init", "-q"][..],
        &["-c", "user.name=t", "-c", "user.email=t@e", "add", "."],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "commit",
            "-qm",
            "plan",
        ],
    ] {
        let ok = Command::new("git")
            .current_dir(dir.path())
            .args(args)
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    }
    dir
}

#[test]
fn with_discussion_agent_the_executors_agent_plans_and_red_teams_beside_the_built_in_pair() {
    // The Planner's prompt starts "# Planning", the Critic's "# Red team".
    let dir = agent_repo(
        "read first\ncase \"$first\" in\n\
         '# Planning'*) echo '{\"tasks\": [{\"id\": \"5\", \"after\": [\"4\"]}, {\"id\": \"6\", \"owns\": [\"/etc/passwd\"]}], \"max_parallel\": 2}' ;;\n\
         *) echo '{\"points\": [{\"task\": \"3\", \"problem\": \"logout also clears src/auth/session.rs\"}]}' ;;\n\
         esac\n",
    );
    let (stdout, _) = dry(dir.path(), &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let d = &v["discussion"];
    assert_eq!(d["backend"], "agent");
    assert_eq!(
        (&d["planner_max_parallel"], &d["planner_reason"]),
        (
            &serde_json::json!(2),
            &serde_json::json!("the planner agent's recommendation")
        )
    );
    assert_eq!(
        (&v["planner_max_parallel"], &v["implementers"]),
        (&serde_json::json!(2), &serde_json::json!(2)),
        "the agent's recommendation bounds the team"
    );
    assert_eq!(
        v["tasks"][4]["blocked_by"],
        serde_json::json!([4]),
        "5 waits for 4, as the agent said"
    );
    assert_eq!(
        d["rounds"][0]["critic"][1],
        serde_json::json!({"kind": "agent", "task": "3", "problem": "logout also clears src/auth/session.rs"})
    );
    assert_eq!(
        d["rounds"][0]["notes"],
        serde_json::json!(["the Planner agent's suggestion left out: owns for 6, which already owns src/tracing.rs"])
    );
}

#[test]
fn a_planning_agent_that_changes_files_stops_the_run_before_it_starts() {
    let dir = agent_repo("cat >/dev/null\necho '// planned' >> src/auth/mod.rs\necho '{}'\n");
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .current_dir(dir.path())
        .args(["run", "all", "--dry-run"])
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("the planning agent changed the work tree (src/auth/mod.rs): a planning answer must change no file"),
        "{stderr}"
    );
}
