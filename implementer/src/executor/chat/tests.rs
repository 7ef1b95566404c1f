//! The chat executor against a loopback chat endpoint started by the test.

use super::*;
use crate::config::LoopConfig;
use crate::evaluator::EvaluatorRegistry;
use crate::runner::{TaskJob, TaskRunner};
use crate::timeline::VecSink;
use protocol::domain::Task;

use inspector::chat::testing::serve;
use std::net::TcpListener;

fn chat_reply(content: &str) -> (u16, String) {
    let body = serde_json::json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    });
    (200, body.to_string())
}

const ADD: &str =
    "//! Addition.\n\n/// The sum.\npub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n";
const FIXED: &str =
    "//! Addition.\n\n/// The sum.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n";

/// A repository with `src/add.rs` (a bug) and `README.md`; the task owns `src/add.rs`.
fn fixture() -> (tempfile::TempDir, Task) {
    let repo = tempfile::tempdir().expect("repo");
    std::fs::create_dir_all(repo.path().join("src")).expect("src");
    std::fs::write(repo.path().join("src/add.rs"), ADD).expect("add");
    std::fs::write(repo.path().join("README.md"), "calc\n").expect("readme");
    let mut task = crate::testing::task("Fix add");
    task.owns = vec!["src/add.rs".into()];
    task.description = "add subtracts; make it add".into();
    (repo, task)
}

fn executor(url: &str, key_env: Option<&str>) -> ChatExecutor {
    ChatExecutor::new(
        ChatEndpoint {
            url: url.into(),
            model: "local-model".into(),
            api_key_env: key_env.map(str::to_string),
            max_tokens: 512,
            idle_timeout: None,
        },
        Duration::from_secs(2),
    )
}

fn run_once(url: &str, repo: &Path, task: &Task, modification: Option<&str>) -> ExecOutcome {
    executor(url, None).execute(&ExecRequest {
        repo,
        task,
        prompt: "# Task 7: Fix add",
        iteration: 1,
        modification,
    })
}

fn files(repo: &Path) -> (String, String) {
    let read = |p: &str| std::fs::read_to_string(repo.join(p)).expect("read");
    (read("src/add.rs"), read("README.md"))
}

#[test]
fn a_whole_file_answer_is_written_and_the_request_carries_the_files_and_the_key() {
    let (repo, task) = fixture();
    let answer = format!("Changed the operator.\n\nFILE: src/add.rs\n```rust\n{FIXED}```\n");
    let (url, requests) = serve(vec![chat_reply(&answer)]);
    std::env::set_var("RETAKE_CHAT_TEST_KEY", "sk-test-123");
    let outcome = executor(&url, Some("RETAKE_CHAT_TEST_KEY")).execute(&ExecRequest {
        repo: repo.path(),
        task: &task,
        prompt: "# Task 7: Fix add\n\n## Detected issues\n- Q1 src/add.rs unchanged",
        iteration: 2,
        modification: Some("## Detected issues"),
    });
    assert_eq!(
        outcome,
        ExecOutcome::success(
            "Changed the operator.\n\nWrote `src/add.rs` (6 lines) from the model's answer.\n"
        )
    );
    assert_eq!(
        files(repo.path()),
        (FIXED.to_string(), "calc\n".to_string())
    );
    let (head, body) = requests.recv().expect("a request");
    assert!(head.starts_with("POST /v1/chat/completions "), "{head}");
    assert!(head
        .to_ascii_lowercase()
        .contains("authorization: bearer sk-test-123"));
    let body: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(body["model"], "local-model");
    assert_eq!(body["max_tokens"], 512);
    let user = body["messages"][1]["content"]
        .as_str()
        .expect("user message");
    assert!(user.contains("## Detected issues"), "{user}");
    assert!(
        user.contains(&format!("FILE: src/add.rs\n```\n{ADD}```")),
        "{user}"
    );
}

#[test]
fn a_diff_is_applied_when_it_fits_and_refused_with_the_tree_untouched_when_not() {
    let (repo, task) = fixture();
    let good = "```diff\n--- a/src/add.rs\n+++ b/src/add.rs\n@@ -4,3 +4,3 @@\n pub fn add(a: i64, b: i64) -> i64 {\n-    a - b\n+    a + b\n }\n```\n";
    let bad = good.replace("-    a - b", "-    a * b");
    let (url, _) = serve(vec![chat_reply(&bad), chat_reply(good)]);
    let refused = run_once(&url, repo.path(), &task, None);
    let reason = refused.refusal().expect("refused");
    assert!(
        reason.starts_with("hunk 1 of the diff of `src/add.rs` does not apply"),
        "{reason}"
    );
    assert_eq!(refused.transient_problem(), None, "a REJECT, not a RETRY");
    assert_eq!(files(repo.path()).0, ADD);
    assert_eq!(run_once(&url, repo.path(), &task, None).refusal(), None);
    assert_eq!(files(repo.path()).0, FIXED);
}

#[test]
fn an_answer_touching_a_file_not_owned_is_refused_whole() {
    let (repo, task) = fixture();
    let answer = format!("FILE: src/add.rs\n```\n{FIXED}```\nFILE: README.md\n```\nhacked\n```\n");
    let (url, _) = serve(vec![chat_reply(&answer)]);
    let outcome = run_once(&url, repo.path(), &task, None);
    assert_eq!(
        outcome.refusal(),
        Some("`README.md` is not among the files this task owns: only they may be changed")
    );
    assert_eq!(
        outcome.stdout(),
        answer.as_bytes(),
        "the judge reads the answer"
    );
    assert_eq!(files(repo.path()), (ADD.to_string(), "calc\n".to_string()));
}

#[test]
fn prose_a_nameless_block_and_a_cut_off_answer_are_refused() {
    let (repo, task) = fixture();
    let cut = serde_json::json!({"choices": [{"message": {"content": "FILE: src/add.rs\n```\n//! Add"}, "finish_reason": "length"}]});
    let (url, _) = serve(vec![
        chat_reply("You should change the minus into a plus."),
        chat_reply(&format!("```rust\n{FIXED}```\n")),
        (200, cut.to_string()),
    ]);
    let reasons: Vec<String> = (0..3)
        .map(|_| {
            let outcome = run_once(&url, repo.path(), &task, None);
            outcome.refusal().expect("refused").to_string()
        })
        .collect();
    assert!(
        reasons[0].starts_with("the answer holds no file"),
        "{}",
        reasons[0]
    );
    assert!(reasons[1].contains("names no file"), "{}", reasons[1]);
    assert!(
        reasons[2].contains("cut off at the token limit"),
        "{}",
        reasons[2]
    );
    assert_eq!(files(repo.path()).0, ADD);
}

#[test]
fn an_http_error_a_timeout_or_no_server_is_a_tool_failure() {
    let (repo, task) = fixture();
    let (url, _) = serve(vec![
        (500, "{\"error\":\"overloaded\"}".into()),
        (0, String::new()),
    ]);
    let problem = |o: ExecOutcome| o.transient_problem().expect("a tool failure");
    let error = problem(run_once(&url, repo.path(), &task, None));
    assert!(
        error.contains("answered 500: {\"error\":\"overloaded\"}"),
        "{error}"
    );
    let slow = problem(run_once(&url, repo.path(), &task, None));
    assert!(slow.contains("timed out"), "{slow}");
    let closed = TcpListener::bind("127.0.0.1:0").expect("bind");
    let gone = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    assert!(run_once(&gone, repo.path(), &task, None)
        .transient_problem()
        .is_some());
    let unset = executor(&url, Some("RETAKE_CHAT_TEST_NO_SUCH_KEY")).execute(&ExecRequest {
        repo: repo.path(),
        task: &task,
        prompt: "x",
        iteration: 1,
        modification: None,
    });
    assert_eq!(
        unset.transient_problem().as_deref(),
        Some("executor could not run: the API key variable RETAKE_CHAT_TEST_NO_SUCH_KEY (executor.api_key_env) is not set")
    );
    assert_eq!(files(repo.path()).0, ADD);
}

#[test]
fn the_runner_rejects_a_refused_answer_with_its_reason_and_passes_the_next() {
    let (repo, task) = fixture();
    let (url, requests) = serve(vec![
        chat_reply("FILE: src/other.rs\n```\nfn x() {}\n```\n"),
        chat_reply(&format!(
            "Replaced the operator.\nFILE: src/add.rs\n```\n{FIXED}```\n"
        )),
    ]);
    let config = LoopConfig {
        retry_delay_ms: 0,
        ..LoopConfig::default()
    };
    let registry = EvaluatorRegistry::with_builtins();
    let job = TaskJob::new(task, repo.path());
    let mut sink = VecSink::default();
    let result = TaskRunner::new(&config, &registry)
        .run(&job, &mut executor(&url, None), &mut sink)
        .expect("ran");
    let judged: Vec<&str> = result
        .iteration_history
        .iter()
        .map(|r| r.judgment.as_str())
        .collect();
    assert_eq!(judged, ["REJECT", "PASS"]);
    let first = &result.iteration_history[0];
    let prompt = &first
        .rejection_details
        .as_ref()
        .expect("rejected")
        .modification_prompt;
    assert!(
        prompt.contains("the answer could not be applied, so nothing was written: `src/other.rs` is not among the files this task owns"),
        "{prompt}"
    );
    requests.recv().expect("first");
    let (_, second) = requests.recv().expect("second");
    assert!(
        second.contains("src/other.rs` is not among the files"),
        "fed back: {second}"
    );
    assert_eq!(files(repo.path()).0, FIXED);
}
