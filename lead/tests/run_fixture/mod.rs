//! The fixture of the `retake run` end-to-end tests: an unseen repository written into a
//! temporary folder — a small Rust crate with passing tests, a two-task Plans.md, a
//! `retake.toml` — and a scripted coding agent beside it; helpers to run the real binary and
//! read what it left behind.

#![allow(dead_code)] // each test target uses its own part of the fixture

use std::path::Path;
use std::process::Command;

pub const PLAN: &str = "# Plans\n\n\
- [ ] 1 Add subtraction `cc:TODO` owns: `src/sub.rs`, `src/lib.rs`\n\
- [ ] 2 Add multiplication `cc:TODO` owns: `src/mul.rs`, `src/lib.rs`\n";

/// [`PLAN`] with its first task only.
pub fn first_task_plan() -> String {
    PLAN.lines().take(3).collect::<Vec<_>>().join("\n") + "\n"
}

/// How the scripted agent behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Its first call for a task writes the code with a TODO and claims "Done."; its later
    /// calls write the finished code (with a unit test) and describe it.
    Good,
    /// Every call is a first call: the judge is never satisfied.
    Stubborn,
    /// As `Good`, but task 2's finished code swallows an error (a High review finding); a fix
    /// task (id 3 and up, on `src/mul.rs`) writes clean code at once.
    Sloppy,
    /// As `Good`, but task 2's finished code takes and returns `i32` where the design says
    /// `i64` (with [`DESIGN`]: a Critical signature mismatch in the review).
    Reckless,
}

/// A spec of the calculator whose design declares `mul` over `i64` (see [`Agent::Reckless`]).
pub const DESIGN: &[(&str, &str)] = &[
    (
        "specs/calc/spec.yaml",
        "feature: calc\nversion: 1\nphase: implementation-complete\nfiles:\n  - src/lib.rs\n  - src/sub.rs\n  - src/mul.rs\n",
    ),
    (
        "specs/calc/design.md",
        "# Design: calc\n\n## Components\n| Component | Files | Responsibility |\n|---|---|---|\n\
         | Calculator | `src/lib.rs` | the modules |\n| Subtraction | `src/sub.rs` | differences |\n\
         | Multiplication | `src/mul.rs` | products |\n\n\
         ## Interfaces\n```rust\npub fn mul(a: i64, b: i64) -> i64;\n```\n",
    ),
];

/// The agent's shell script. It appends the task id to `invocations` when it starts, sleeps two
/// minutes in a child process when a file `slow-<task>` exists beside it (a slow task a test
/// can interrupt, with a grandchild of the Implementer to outlive it), and counts its calls per
/// task in `calls-<task>`.
pub fn agent_script(calls: &Path, agent: Agent) -> String {
    let first = match agent {
        Agent::Stubborn => "true",
        _ => "[ \"$n\" = 1 ] && [ \"$RETAKE_TASK_ID\" -le 2 ]",
    };
    let flag = |on: bool| if on { "true" } else { "false" };
    let sloppy = flag(agent == Agent::Sloppy);
    let reckless = flag(agent == Agent::Reckless);
    format!(
        r#"#!/bin/sh
echo "$RETAKE_TASK_ID" >> "{calls}/invocations"
if [ -f "{calls}/slow-$RETAKE_TASK_ID" ]; then sleep 120; fi
state="{calls}/calls-$RETAKE_TASK_ID"
n=$(cat "$state" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$state"
case "$RETAKE_TASK_ID" in
  1) name=sub; op='-'; word=difference ;;
  *) name=mul; op='*'; word=product ;;
esac
extra=''
if [ "$RETAKE_TASK_ID" = 2 ] && {sloppy}; then extra='    let _ = "2".parse::<i64>();\n'; fi
ty=i64
if [ "$RETAKE_TASK_ID" = 2 ] && {reckless}; then ty=i32; fi
grep -q "pub mod $name;" src/lib.rs || sed -i "s/^pub mod add;/pub mod add;\npub mod $name;/" src/lib.rs
if {first}; then
  printf '//! %s.\n\n/// The %s of two numbers.\npub fn %s(a: i64, b: i64) -> i64 {{\n    // TODO: implement\n    a %s b\n}}\n' "$name" "$word" "$name" "$op" > "src/$name.rs"
  echo "Done."
else
  printf '//! %s.\n\n/// The %s of two numbers.\npub fn %s(a: %s, b: %s) -> %s {{\n%b    a %s b\n}}\n\n#[cfg(test)]\nmod tests {{\n    #[test]\n    fn works() {{\n        assert_eq!(super::%s(6, 3), 6 %s 3);\n    }}\n}}\n' "$name" "$word" "$name" "$ty" "$ty" "$ty" "$extra" "$op" "$name" "$op" > "src/$name.rs"
  echo "Wrote src/$name.rs with $name and a unit test, and registered the module in src/lib.rs."
fi
"#,
        calls = calls.display()
    )
}

/// The task ids of the agent's calls, in the order they started.
pub fn invocations(root: &Path) -> Vec<u32> {
    std::fs::read_to_string(root.join("invocations"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

pub fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The crate, the plan and the configuration, committed; the agent script beside the repo.
pub fn fixture(root: &Path, agent: Agent, extra_config: &str) -> std::path::PathBuf {
    fixture_with(root, agent, extra_config, &[])
}

/// [`fixture`] with more files (path, text) in the first commit.
pub fn fixture_with(
    root: &Path,
    agent: Agent,
    extra_config: &str,
    files: &[(&str, &str)],
) -> std::path::PathBuf {
    fixture_custom(root, PLAN, &agent_script(root, agent), extra_config, files)
}

/// The crate with `plan` as Plans.md, `script` as the agent and more files (path, text) in the
/// first commit (a file of the crate's own, such as `src/lib.rs`, replaces it).
pub fn fixture_custom(
    root: &Path,
    plan: &str,
    script: &str,
    extra_config: &str,
    files: &[(&str, &str)],
) -> std::path::PathBuf {
    let repo = root.join("repo");
    for (path, text) in files {
        let path = repo.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    let given = |path: &str| files.iter().any(|(p, _)| *p == path);
    let write = |path: &str, text: &str| {
        if !given(path) {
            std::fs::write(repo.join(path), text).expect("write")
        }
    };
    write(
        "Cargo.toml",
        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n\n[workspace]\n",
    );
    write(
        "src/lib.rs",
        "//! A tiny calculator.\n\npub mod add;\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(crate::add::add(2, 3), 5);\n    }\n}\n",
    );
    write(
        "src/add.rs",
        "//! Addition.\n\n/// The sum of two numbers.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
    );
    write(".gitignore", "/target\n/Cargo.lock\n");
    write("Plans.md", plan);
    let script_path = root.join("agent.sh");
    std::fs::write(&script_path, script).expect("write agent");
    let script = script_path;
    write(
        "retake.toml",
        &format!(
            "[executor]\nkind = \"agent\"\ncommand = [\"sh\", \"{}\"]\ntimeout_secs = 120\n\n[loop]\nretry_delay_ms = 0\n{extra_config}",
            script.display()
        ),
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "chore: start"]);
    repo
}

pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(repo: &Path, tag: &str) -> Ran {
    run_with(repo, tag, &[])
}

pub fn run_with(repo: &Path, tag: &str, extra: &[&str]) -> Ran {
    let mut args = vec!["run", "all", "--yes", "--no-discuss"];
    args.extend(extra);
    retake(repo, tag, &args)
}

/// `retake ARGS` in `repo`, tagged, with a git identity for the run's commit.
pub fn retake(repo: &Path, tag: &str, args: &[&str]) -> Ran {
    ran(&mut retake_command(repo, tag, args))
}

/// Runs `command` (a [`retake_command`], perhaps with more environment) to its end.
pub fn ran(command: &mut Command) -> Ran {
    let out = command.output().expect("run retake");
    Ran {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The command `retake ARGS` in `repo`, tagged (children inherit `RETAKE_E2E_TAG`), with a git
/// identity for the run's commit.
pub fn retake_command(repo: &Path, tag: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
    command
        .args(args)
        .current_dir(repo)
        .env("RETAKE_E2E_TAG", tag)
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com");
    command
}

/// Processes still carrying this test's tag in their environment (children inherit it).
pub fn leftovers(tag: &str) -> Vec<String> {
    let needle = format!("RETAKE_E2E_TAG={tag}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

/// The task runner's judgments per task, in timeline order, with the failed criteria.
pub fn judgments(repo: &Path, task: u64) -> Vec<(String, Vec<String>)> {
    let text =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).expect("timeline");
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("one JSON object a line"))
        .filter(|e| e["event_type"] == "QUALITY_JUDGMENT" && e["content"]["task"] == task)
        .map(|e| {
            let failed = e["content"]["criteria_failed"]
                .as_array()
                .expect("criteria_failed")
                .iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect();
            (
                e["content"]["judgment"]
                    .as_str()
                    .expect("judgment")
                    .to_string(),
                failed,
            )
        })
        .collect()
}

/// The team events of the timeline (claims, releases, completions) as (type, task, actor).
pub fn team_events(repo: &Path) -> Vec<(String, u64, String)> {
    let text =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).expect("timeline");
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|e| {
            e["event_type"]
                .as_str()
                .is_some_and(|t| t.starts_with("TASK_"))
        })
        .map(|e| {
            (
                e["event_type"].as_str().unwrap_or_default().to_string(),
                e["content"]["task"].as_u64().unwrap_or_default(),
                e["content"]["actor"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

/// The acceptance run's ending since commit `before`: each task's first attempt (a TODO and
/// "Done.") rejected on Q2 and Q6, its second accepted, and one commit of both tasks.
pub fn assert_accepted(repo: &Path, before: &str) {
    for task in [1, 2] {
        assert_eq!(
            judgments(repo, task),
            vec![
                (
                    "REJECT".to_string(),
                    vec!["Q2".to_string(), "Q6".to_string()]
                ),
                ("PASS".to_string(), Vec::new()),
            ],
            "task {task}"
        );
    }
    let log = git(
        repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log, "feat: add subtraction, add multiplication\n");
}
