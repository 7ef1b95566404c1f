//! `[executor] kind = "chat"` through the real binary, against a loopback chat endpoint the test
//! serves: the first answer writes a file the task does not own, so nothing is written and the
//! judge rejects it with the reason; the second — the task's files in full, `src/lib.rs` taken
//! from the prompt the Implementer sent — is applied, judged PASS, reviewed and committed.

mod run_fixture;

use inspector::chat::testing::{read_request, respond};
use run_fixture::*;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

const SUB: &str = "//! sub.\n\n/// The difference of two numbers.\npub fn sub(a: i64, b: i64) -> i64 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn works() {\n        assert_eq!(super::sub(6, 3), 6 - 3);\n    }\n}\n";

/// The answer to one request's user message: the first a file outside the task, the others
/// the task done (the module registered in the `src/lib.rs` the prompt shows).
fn answer(n: usize, prompt: &str) -> String {
    if n == 0 {
        return "Added the function.\n\nFILE: README.md\n```\nsub\n```\n".into();
    }
    let lib = prompt
        .split("FILE: src/lib.rs\n```\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_default()
        .replacen("pub mod add;\n", "pub mod add;\npub mod sub;\n", 1);
    format!(
        "Wrote src/sub.rs with sub and a unit test, and registered the module in src/lib.rs.\n\n\
         FILE: src/sub.rs\n```rust\n{SUB}```\n\nFILE: src/lib.rs\n```rust\n{lib}```\n"
    )
}

/// Serves chat completions until the test ends; the user messages received, in order.
fn serve() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (_, body, stream) = read_request(stream);
            let request: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            let prompt = request["messages"][1]["content"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let n = {
                let mut seen = log.lock().expect("log");
                seen.push(prompt.clone());
                seen.len() - 1
            };
            let reply = serde_json::json!({
                "choices": [{"message": {"role": "assistant", "content": answer(n, &prompt)}, "finish_reason": "stop"}],
            })
            .to_string();
            respond(stream, 200, &reply);
        }
    });
    (url, seen)
}

#[test]
fn a_chat_executor_run_rejects_an_answer_outside_the_task_then_passes_and_commits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (url, seen) = serve();
    let config = format!(
        "[executor]\nkind = \"chat\"\nurl = \"{url}\"\nmodel = \"fake\"\ntimeout_secs = 60\n\n[loop]\nretry_delay_ms = 0\n"
    );
    let plan = "# Plans\n\n- [ ] 1 Add subtraction `cc:TODO` owns: `src/sub.rs`, `src/lib.rs`\n";
    let repo = fixture_custom(
        dir.path(),
        plan,
        "#!/bin/sh\nexit 1\n",
        "",
        &[("retake.toml", &config)],
    );
    let before = git(&repo, &["rev-parse", "HEAD"]);
    let tag = format!("run-chat-{}", std::process::id());
    let run = run(&repo, &tag);
    assert_eq!(
        run.code, 0,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    let judged = judgments(&repo, 1);
    assert_eq!(judged.len(), 2, "{judged:?}");
    assert_eq!(judged[0].0, "REJECT");
    assert!(judged[0].1.contains(&"Q5".to_string()), "{judged:?}");
    assert_eq!(judged[1], ("PASS".to_string(), Vec::new()));
    let prompts = seen.lock().expect("seen").clone();
    assert_eq!(prompts.len(), 2, "one request per iteration");
    assert!(
        prompts[1].contains("`README.md` is not among the files this task owns"),
        "the reason is fed back: {}",
        prompts[1]
    );
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log, "feat: add subtraction\n");
    assert_eq!(
        std::fs::read_to_string(repo.join("src/sub.rs")).expect("sub"),
        SUB
    );
    assert!(
        !repo.join("README.md").exists(),
        "the refused answer wrote nothing"
    );
}
