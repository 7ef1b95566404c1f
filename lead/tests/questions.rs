//! Pattern A through the real binary: an agent Inspector that needs the author's intent asks
//! (a `QUESTIONS:` row), the Lead journals the question and routes it — in a review to the
//! configured agent standing in for the author, in a run to the Implementer's agent — and the
//! answer comes back through the Lead; the agent is asked again with it. A question nobody
//! answers in time ends as a note and the first reply (so the verdict) stands.

#[path = "run_fixture/mod.rs"]
mod run_fixture;

use std::path::Path;
use std::process::Command;

/// The scripted agent: answers an author's question (slowly when `delay` is set), withdraws
/// its issue once it has the answer, and otherwise reports one and asks about it.
fn agent(dir: &Path, delay: u32) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("inspector-agent.sh");
    let body = format!(
        "#!/bin/sh
prompt=$(cat)
if printf '%s' \"$prompt\" | grep -q 'A reviewer asks about your change'; then
  sleep {delay}
  echo 'There is no database access on this path: sync is enough.'
elif printf '%s' \"$prompt\" | grep -q \"The author's answers\"; then
  echo 'VERDICT:GO'
  echo 'NOTES:'
  echo 'sync is deliberate'
else
  echo 'VERDICT:CONDITIONAL'
  echo 'ISSUES:'
  echo 'M|performance|src/lib.rs:1|blocking call on the request path'
  echo 'QUESTIONS:'
  echo 'src/lib.rs:1|why is load not async?'
fi
"
    );
    std::fs::write(&path, body).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_string_lossy().into_owned()
}

struct Reviewed {
    code: i32,
    json: serde_json::Value,
    report: serde_json::Value,
    questions: Vec<serde_json::Value>,
}

/// `retake review` of a folder whose quality Inspector is the scripted agent.
fn review(delay: u32, question_timeout_secs: u32) -> Reviewed {
    let repo = tempfile::tempdir().expect("repo");
    let tools = tempfile::tempdir().expect("tools");
    let root = repo.path();
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("src/lib.rs"), "pub fn load() -> u8 {\n    1\n}\n").expect("write");
    let agent = agent(tools.path(), delay);
    std::fs::write(
        root.join("retake.toml"),
        format!(
            "[inspector.quality]\nbackend = \"agent\"\n[agent]\ncommand = [\"{agent}\"]\ntimeout_secs = 20\n\
             [review]\nquestion_timeout_secs = {question_timeout_secs}\n"
        ),
    )
    .expect("write");
    // Not a git repository: its retake.toml sets an agent only when trusted.
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["review", "--format", "json", "--trust-repo-config"])
        .arg(root)
        .output()
        .expect("run retake");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!("no JSON: {}", String::from_utf8_lossy(&out.stderr));
    });
    let run_id = json["run_id"].as_str().expect("run id").to_string();
    let journal = root.join(".retake/runs").join(run_id);
    let report = std::fs::read_to_string(journal.join("reports/inspector-quality.json"))
        .expect("the quality report is journaled");
    let questions = std::fs::read_to_string(journal.join("questions.jsonl")).unwrap_or_default();
    Reviewed {
        code: out.status.code().expect("exit code"),
        json,
        report: serde_json::from_str(&report).expect("report json"),
        questions: questions
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect(),
    }
}

fn notes(report: &serde_json::Value) -> Vec<String> {
    report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect()
}

fn performance_findings(json: &serde_json::Value) -> usize {
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "cpf/performance")
        .count()
}

#[test]
fn a_review_s_question_is_answered_by_the_agent_standing_in_for_the_author() {
    let r = review(0, 10);
    assert_eq!(r.questions.len(), 1, "{:?}", r.questions);
    let q = &r.questions[0];
    assert_eq!(q["inspector"], "inspector-quality");
    assert_eq!(q["about"], "src/lib.rs:1");
    assert_eq!(q["question"], "why is load not async?");
    assert_eq!(q["by"], "the agent standing in for the author");
    assert_eq!(
        q["answer"],
        "There is no database access on this path: sync is enough."
    );
    let notes = notes(&r.report);
    assert!(
        notes.contains(&"quality-agent asked the author about src/lib.rs:1: \"why is load not async?\" — the agent standing in for the author answered: \"There is no database access on this path: sync is enough.\"".to_string()),
        "{notes:?}"
    );
    assert!(notes.contains(&"quality-agent: sync is deliberate".to_string()));
    assert_eq!(performance_findings(&r.json), 0, "{}", r.json);
}

#[test]
fn a_question_nobody_answers_in_time_is_a_note_and_the_verdict_stands() {
    // Not invited (timeout 0): the agent asks anyway, nobody answers, its reply stands.
    let unasked = review(0, 0);
    assert!(unasked.questions.is_empty());
    // The author takes 4 s; the question waits 1 s.
    let r = review(4, 1);
    assert_eq!(r.code, unasked.code);
    assert_eq!(r.json["verdict"], unasked.json["verdict"]);
    assert_eq!(performance_findings(&r.json), 1, "{}", r.json);
    let notes = notes(&r.report);
    assert!(
        notes.contains(&"quality-agent asked the author about src/lib.rs:1: \"why is load not async?\" — no answer within 1 s; judged without one".to_string()),
        "{notes:?}"
    );
    // The late answer may or may not have arrived before the review ended; it is never an
    // answer the Inspector received.
    assert_eq!(r.questions.len(), 1);
    assert!(r.questions[0]["answer"].is_null(), "{:?}", r.questions);
}

#[test]
fn a_run_s_question_is_answered_by_the_implementer_and_the_timeline_shows_both() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tools = tempfile::tempdir().expect("tools");
    let inspector = agent(tools.path(), 0);
    // The Implementer: answers a reviewer's question, else does its task.
    let script = format!(
        "prompt=$(cat)\nif printf '%s' \"$prompt\" | grep -q 'A reviewer asks about your change'; then\n  echo 'Task 1 keeps load sync: it never touches the database.'\n  exit 0\nfi\n{}",
        run_fixture::agent_script(dir.path(), run_fixture::Agent::Good)
    );
    let plan = run_fixture::first_task_plan();
    let repo = run_fixture::fixture_custom(
        dir.path(),
        &plan,
        &script,
        &format!(
            "\n[inspector.quality]\nbackend = \"both\"\n[agent]\ncommand = [\"{inspector}\"]\ntimeout_secs = 20\n\
             [review]\nquestion_timeout_secs = 30\n"
        ),
        &[],
    );
    let ran = run_fixture::run(&repo, "run-questions");
    let timeline =
        std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl")).unwrap_or_default();
    let events: Vec<serde_json::Value> = timeline
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let of = |kind: &str| -> Vec<&serde_json::Value> {
        events.iter().filter(|e| e["event_type"] == kind).collect()
    };
    let asked = of("QUESTION_ASKED");
    let answered = of("QUESTION_ANSWERED");
    assert_eq!(asked.len(), 1, "{}\n{}\n{timeline}", ran.stdout, ran.stderr);
    assert_eq!(asked[0]["content"]["actor"], "inspector-quality");
    assert_eq!(asked[0]["content"]["question"], "why is load not async?");
    assert_eq!(answered.len(), 1, "{timeline}");
    assert_eq!(answered[0]["content"]["actor"], "the Implementer of task 1");
    assert_eq!(
        answered[0]["content"]["answer"],
        "Task 1 keeps load sync: it never touches the database."
    );
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
}
