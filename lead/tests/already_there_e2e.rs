//! A change is judged by what it did (issue 16): a session review through the real `retake`
//! binary gates on the findings the change introduced, and reports the findings already on
//! untouched lines of the files it changed as "already there", never gating. The motivating
//! case: a commit that only deleted lines of a file with an `unsafe` block it did not touch.

mod support;

use std::path::Path;
use std::process::Command;
use support::{git, write};

/// The library at `main`: an `unsafe` block without a SAFETY comment on line 5, and a function
/// below it that the change deletes.
const BASE: &str = concat!(
    "//! Bytes.\n",
    "\n",
    "/// The first byte of `bytes`, which must not be empty.\n",
    "pub fn first(bytes: &[u8]) -> u8 {\n",
    "    unsafe { *bytes.as_ptr() }\n",
    "}\n",
    "\n",
    "/// Twice `x`.\n",
    "pub fn double(x: u32) -> u32 {\n",
    "    x * 2\n",
    "}\n",
);

/// `main` holds [`BASE`] and an integration test; branch `feature` deletes `double` (lines
/// 7–11) and nothing else.
fn deleting_change(root: &Path) {
    git(root, &["init", "-q"]);
    write(root, "src/lib.rs", BASE);
    write(
        root,
        "tests/first.rs",
        "#[test]\nfn first_byte() {\n    assert_eq!(bytes::first(&[7]), 7);\n}\n",
    );
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "feature"]);
    let kept = BASE.lines().take(6).collect::<Vec<_>>().join("\n") + "\n";
    write(root, "src/lib.rs", &kept);
    git(root, &["commit", "-q", "-am", "drop double"]);
}

struct Run {
    code: i32,
    terminal: String,
    json: serde_json::Value,
    sarif: serde_json::Value,
    markdown: String,
}

/// Reviews `repo` against `main` with `--no-exec` and `flags`: the terminal report from
/// standard output, the other formats from `--output`.
fn review(repo: &Path, flags: &[&str]) -> Run {
    let out_dir = tempfile::tempdir().expect("tempdir");
    let formats = ["terminal", "json", "sarif", "markdown"];
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--no-exec", "--base", "main"])
        // unsafe-without-safety, the case, is a pedantic rule.
        .args(["--profile", "pedantic"])
        .args(formats.iter().flat_map(|f| ["--format", f]))
        .arg("--output")
        .arg(out_dir.path())
        .args(flags)
        .output()
        .expect("run retake");
    let read = |name: &str| {
        std::fs::read_to_string(out_dir.path().join(name)).unwrap_or_else(|e| {
            panic!(
                "{name}: {e}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
    };
    let json = |name: &str| serde_json::from_str(&read(name)).expect(name);
    Run {
        code: out.status.code().expect("exit code"),
        terminal: String::from_utf8_lossy(&out.stdout).into_owned(),
        json: json("retake.json"),
        sarif: json("retake.sarif"),
        markdown: read("retake.md"),
    }
}

fn rules(list: &serde_json::Value) -> Vec<(String, u64)> {
    list.as_array()
        .expect("an array")
        .iter()
        .map(|f| {
            let rule = f["rule"].as_str().unwrap_or_default().to_string();
            (rule, f["line"].as_u64().unwrap_or(0))
        })
        .collect()
}

/// `(ruleId, baselineState)` of every SARIF result.
fn sarif_states(sarif: &serde_json::Value) -> Vec<(String, String)> {
    let mut states: Vec<(String, String)> = sarif["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .flat_map(|run| run["results"].as_array().cloned().unwrap_or_default())
        .map(|r| {
            let state = r["baselineState"].as_str().unwrap_or("-").to_string();
            (r["ruleId"].as_str().unwrap_or_default().to_string(), state)
        })
        .collect();
    states.sort();
    states
}

#[test]
fn a_change_that_only_deletes_lines_is_not_judged_by_an_unsafe_block_it_did_not_touch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    deleting_change(repo);

    let run = review(repo, &["--fail-level", "L"]);
    assert_eq!(run.json["verdict"], "GO", "{}", run.terminal);
    assert_eq!(run.json["decision"], "APPROVE", "{}", run.terminal);
    assert_eq!(run.code, 0, "--fail-level counts no finding already there");
    assert_eq!(rules(&run.json["findings"]), []);
    assert_eq!(
        rules(&run.json["already_there"]),
        [("holistic/unsafe-without-safety".to_string(), 5)]
    );
    assert!(
        run.terminal.contains(
            "\nalready there: 1 (findings this change did not introduce; they do not gate)\n  \
             1 × holistic/unsafe-without-safety (High): src/lib.rs:5\n"
        ),
        "{}",
        run.terminal
    );
    assert!(
        run.terminal
            .contains("  findings 0 Critical, 0 High, 0 Medium, 0 Low\n"),
        "the headline counts do not count it: {}",
        run.terminal
    );
    assert!(
        run.markdown.contains(
            "\n## Already there\n\nalready there: 1 — findings this change did not introduce; they do not gate.\n\n\
             - 1 × holistic/unsafe-without-safety (High): `src/lib.rs:5`\n"
        ),
        "{}",
        run.markdown
    );
    assert!(
        run.markdown
            .contains("| Findings | 0 Critical · 0 High · 0 Medium · 0 Low |\n"),
        "{}",
        run.markdown
    );
    assert!(
        run.markdown
            .contains("| Already there | 1 (not gating) |\n"),
        "{}",
        run.markdown
    );
    assert_eq!(
        sarif_states(&run.sarif),
        [(
            "holistic/unsafe-without-safety".to_string(),
            "unchanged".to_string()
        )]
    );
    // The journal's JSON reports keep it apart too.
    let reports = repo.join(".retake/runs");
    let run_dir = std::fs::read_dir(&reports)
        .expect("runs")
        .next()
        .expect("one run")
        .expect("entry")
        .path();
    let journaled =
        std::fs::read_to_string(run_dir.join("reports/inspector-holistic.json")).expect("report");
    let journaled: serde_json::Value = serde_json::from_str(&journaled).expect("json");
    assert_eq!(journaled["findings"], serde_json::json!([]));
    assert_eq!(journaled["preexisting"][0]["location"]["line"], 5);

    // Asked for explicitly, `--filter file` keeps its meaning: everything in a changed file
    // gates — the motivating case's REQUEST_CHANGES for a block the change did not touch.
    let file = review(repo, &["--filter", "file", "--fail-level", "H"]);
    assert_eq!(file.json["verdict"], "GO", "{}", file.terminal);
    assert_eq!(
        file.json["decision"], "REQUEST_CHANGES",
        "{}",
        file.terminal
    );
    assert_eq!(file.code, 1, "the High finding reaches --fail-level H");
    assert_eq!(
        rules(&file.json["findings"]),
        [("holistic/unsafe-without-safety".to_string(), 5)]
    );
    assert_eq!(file.json["already_there"], serde_json::json!([]));
    assert!(
        !file.terminal.contains("already there"),
        "{}",
        file.terminal
    );
}

#[test]
fn a_todo_the_change_adds_is_introduced_and_gates_beside_what_was_already_there() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    deleting_change(repo);
    // Uncommitted on top of the branch: `double` is back, its body now a todo!() (line 10).
    let added = BASE.replace("    x * 2\n", "    todo!(\"double\")\n");
    assert_ne!(added, BASE);
    write(repo, "src/lib.rs", &added);

    let run = review(repo, &[]);
    assert_eq!(run.json["verdict"], "NO-GO", "{}", run.terminal);
    assert_eq!(run.code, 1, "NO-GO exits 1, as before");
    assert_eq!(
        rules(&run.json["findings"]),
        [("holistic/todo-macro".to_string(), 10)]
    );
    assert_eq!(
        rules(&run.json["already_there"]),
        [("holistic/unsafe-without-safety".to_string(), 5)]
    );
    assert!(
        run.terminal.contains("\nalready there: 1 ("),
        "{}",
        run.terminal
    );
    assert_eq!(
        sarif_states(&run.sarif),
        [
            ("holistic/todo-macro".to_string(), "new".to_string()),
            (
                "holistic/unsafe-without-safety".to_string(),
                "unchanged".to_string()
            )
        ]
    );
}
