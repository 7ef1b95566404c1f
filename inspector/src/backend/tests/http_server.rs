//! The HTTP backend against a local chat endpoint started by the test.

use super::*;

use crate::chat::testing::serve;

fn chat(content: &str) -> String {
    serde_json::json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 7}
    })
    .to_string()
}

fn http_options(url: &str, key_env: Option<&str>) -> InspectOptions {
    InspectOptions {
        no_exec: false,
        backend: Backend::Agent,
        agent: Some(AgentSpec {
            transport: AgentTransport::Http {
                url: url.to_string(),
                model: "local-model".into(),
                api_key_env: key_env.map(str::to_string),
            },
            timeout_ms: 10_000,
            prompt_template: None,
            seed: None,
            max_tokens: 4096,
            idle_timeout_ms: 0,
            question_timeout_ms: 0,
        }),
        ..InspectOptions::default()
    }
}

#[test]
fn the_http_backend_posts_the_prompt_and_reads_cpf_from_the_reply() {
    let repo = tempfile::tempdir().expect("repo");
    write(
        repo.path(),
        "src/lib.rs",
        "pub fn secret() -> &'static str {\n    \"hunter2\"\n}\n",
    );
    let (url, requests) = serve(vec![
        (503, "{\"error\":\"loading model\"}".into()),
        (200, chat("```cpf\nVERDICT:NO-GO\nISSUES:\nC|operational-risk|src/lib.rs:2|hard-coded password\n```")),
    ]);
    // A variable every environment has stands in for the key: setting one in a threaded test
    // process would race with the other tests.
    let key = std::env::var("PATH").expect("PATH is set");
    let mut ctx = holistic_ctx(repo.path(), &http_options(&url, Some("PATH")));
    let report = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect("report");
    let rows: Vec<(&str, &str, Option<u32>, Severity)> = report
        .findings
        .iter()
        .map(|f| {
            (
                f.agents[0].as_str(),
                f.location.path.as_str(),
                f.location.line,
                f.severity,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![("holistic-agent", "src/lib.rs", Some(2), Severity::Critical)]
    );
    assert_eq!(report.notes.len(), 2);
    assert!(
        report.notes[0].starts_with("holistic-agent: attempt 1 unusable ("),
        "{:?}",
        report.notes
    );
    // Two calls; the tokens the endpoint reported (the first, unusable reply said none).
    let usage = report.notes[1]
        .strip_prefix("holistic-agent: 2 call(s), 120 prompt + 7 completion tokens, ")
        .expect("the usage note");
    let seconds: f64 = usage
        .strip_suffix(" s")
        .expect("seconds")
        .parse()
        .expect("a number");
    assert!((0.0..10.0).contains(&seconds), "{usage}");
    assert!(
        report.notes[0].contains("answered 503"),
        "{:?}",
        report.notes
    );
    let (head, body) = requests.recv().expect("first request");
    assert!(
        head.starts_with("POST /v1/chat/completions HTTP/1.1"),
        "{head}"
    );
    assert!(head.contains(&format!("Bearer {key}")), "{head}");
    let json: serde_json::Value = serde_json::from_str(&body).expect("json body");
    assert_eq!(json["model"], "local-model");
    assert_eq!(json["messages"][0]["role"], "user");
    let prompt = json["messages"][0]["content"].as_str().expect("prompt");
    // An endpoint cannot read the repository: the sources travel in the prompt.
    assert!(
        prompt.contains("--- src/lib.rs\npub fn secret()"),
        "{prompt}"
    );
}

#[test]
fn an_endpoint_that_never_answers_cpf_fails_the_inspector() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    let (url, _requests) = serve(vec![
        (200, chat("I cannot help with that.")),
        (200, "{\"choices\": []}".into()),
    ]);
    let mut ctx = holistic_ctx(repo.path(), &http_options(&url, None));
    let err = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect_err("fail-closed");
    assert_eq!(
        err.to_string(),
        "holistic-agent: no usable CPF in 2 attempt(s); last: the response has no choices[0].message.content"
    );
    let missing = http_options(&url, Some("RETAKE_TEST_HTTP_KEY_UNSET"));
    let mut ctx = holistic_ctx(repo.path(), &missing);
    let err = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect_err("no key");
    assert_eq!(
        err.to_string(),
        "holistic-agent: the API key variable RETAKE_TEST_HTTP_KEY_UNSET (agent.api_key_env) is not set"
    );
}

#[test]
fn the_endpoint_is_asked_for_a_json_report_and_one_that_refuses_the_schema_is_asked_without() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() -> u8 {\n    7\n}\n");
    let report = r#"{"verdict": "CONDITIONAL", "issues": [{"severity": "M", "category": "magic-number", "location": "src/lib.rs:2", "description": "7 has no name"}], "notes": []}"#;
    let (url, requests) = serve(vec![
        (
            400,
            "{\"error\":\"response_format is not supported\"}".into(),
        ),
        (200, chat(report)),
    ]);
    let mut ctx = holistic_ctx(repo.path(), &http_options(&url, None));
    let report = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect("report");
    let rows: Vec<(&str, &str, Option<u32>, Severity)> = report
        .findings
        .iter()
        .map(|f| {
            (
                f.category.as_str(),
                f.location.path.as_str(),
                f.location.line,
                f.severity,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![("magic-number", "src/lib.rs", Some(2), Severity::Medium)]
    );
    // One attempt: the refusal of the schema is not an unusable reply.
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert!(
        report.notes[0]
            .starts_with("holistic-agent: 1 call(s), 120 prompt + 7 completion tokens, "),
        "{:?}",
        report.notes
    );
    let (_, first) = requests.recv().expect("first request");
    let first: serde_json::Value = serde_json::from_str(&first).expect("json");
    assert_eq!(first["response_format"]["type"], "json_schema");
    let prompt = first["messages"][0]["content"].as_str().expect("prompt");
    assert!(
        prompt.contains("Answer with one JSON object and nothing else"),
        "{prompt}"
    );
    let (_, second) = requests.recv().expect("second request");
    let second: serde_json::Value = serde_json::from_str(&second).expect("json");
    assert!(second.get("response_format").is_none(), "{second}");
    assert_eq!(second["messages"], first["messages"]);
}

#[test]
fn a_consensus_pipeline_samples_with_its_seed_and_a_single_review_asks_for_the_one_answer() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    let report = r#"{"verdict": "GO", "issues": [], "notes": []}"#;
    let (url, requests) = serve(vec![(200, chat(report)), (200, chat(report))]);
    let mut seeded = http_options(&url, None);
    if let Some(agent) = seeded.agent.as_mut() {
        agent.seed = Some(2);
    }
    for options in [http_options(&url, None), seeded] {
        let mut ctx = holistic_ctx(repo.path(), &options);
        review(
            InspectorKind::Holistic,
            &mut ctx,
            "inspector-holistic",
            "r1",
            None,
        )
        .expect("report");
    }
    let body = |r: (String, String)| -> serde_json::Value {
        serde_json::from_str(&r.1).expect("json body")
    };
    let single = body(requests.recv().expect("first"));
    assert_eq!(
        (single["temperature"].as_f64(), single.get("seed")),
        (Some(0.0), None)
    );
    assert_eq!(single["max_tokens"], 4096);
    let pipeline = body(requests.recv().expect("second"));
    assert_eq!(
        (pipeline["temperature"].as_f64(), pipeline["seed"].as_u64()),
        (Some(0.3), Some(2))
    );
}

#[test]
fn with_an_idle_timeout_the_answer_is_streamed_and_read_as_it_arrives() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    // An event stream recorded from a real model server (`bench/models/record-replies`).
    let recorded = include_str!("../../chat/stream/recorded/whole.sse");
    let (url, requests) = serve(vec![(200, recorded.to_string())]);
    let mut options = http_options(&url, None);
    if let Some(agent) = options.agent.as_mut() {
        agent.idle_timeout_ms = 5_000;
    }
    let mut ctx = holistic_ctx(repo.path(), &options);
    let report = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect("report");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(ctx.agent_usage.calls, 1);
    assert!(ctx.agent_usage.prompt_tokens > 0 && ctx.agent_usage.completion_tokens > 0);
    let (_head, body) = requests.recv().expect("the request");
    let json: serde_json::Value = serde_json::from_str(&body).expect("json body");
    assert_eq!(
        (&json["stream"], &json["stream_options"]["include_usage"]),
        (&serde_json::json!(true), &serde_json::json!(true))
    );
}
