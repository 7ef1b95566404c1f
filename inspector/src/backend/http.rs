//! The HTTP transport: an OpenAI-compatible chat endpoint (hosted, or a local model server).
//! The prompt goes as one user message to `POST …/v1/chat/completions` asking for a JSON report
//! a schema constrains (`structured`); the reply's `choices[0].message.content` is that object,
//! turned into CPF, or — from an endpoint that ignores the schema — read as CPF text. An
//! endpoint that refuses the schema (400, 422) is asked again without it. The client itself
//! (`crate::chat`) is shared with the Implementers' `chat` executor.

use super::AttemptError;
use crate::chat::{self, ChatError};
use crate::chat::{content_of, endpoint, post, usage_of, Limits};

/// The temperature of a seeded (consensus) request.
const SAMPLED_TEMPERATURE: f64 = 0.3;

/// Sends the prompt once; the message content on success. The tokens the endpoint says it
/// used are added to `tokens` (prompt, completion), whether the answer is usable or not.
pub(super) fn ask(
    url: &str,
    model: &str,
    api_key_env: Option<&str>,
    prompt: &str,
    (seed, max_tokens): (Option<u64>, u32),
    limits: Limits,
    tokens: &mut (u64, u64),
) -> Result<String, AttemptError> {
    let url = endpoint(url);
    let key = chat::api_key(api_key_env, "agent.api_key_env").map_err(attempt)?;
    let mut body = serde_json::json!({
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "temperature": 0,
        "max_tokens": max_tokens,
        "response_format": super::structured::response_format(),
    });
    if let (Some(seed), Some(fields)) = (seed, body.as_object_mut()) {
        // A consensus pipeline's own opinion: sampled, reproducibly for its seed.
        fields.insert("seed".into(), seed.into());
        fields.insert("temperature".into(), SAMPLED_TEMPERATURE.into());
    }
    let (status, text) = post(&url, key.as_deref(), &body, limits).map_err(attempt)?;
    let (status, text) = if matches!(status, 400 | 422) {
        tracing::info!(
            url,
            status,
            "the endpoint refused a response schema: asking without one"
        );
        if let Some(fields) = body.as_object_mut() {
            fields.remove("response_format");
        }
        post(&url, key.as_deref(), &body, limits).map_err(attempt)?
    } else {
        (status, text)
    };
    chat::check_status(&url, status, &text).map_err(attempt)?;
    let (prompt_tokens, completion_tokens) = usage_of(&text);
    tokens.0 += prompt_tokens;
    tokens.1 += completion_tokens;
    let content = content_of(&text).map_err(AttemptError::Retry)?;
    match super::structured::as_cpf(&content) {
        Some(report) => report.map_err(|e| AttemptError::Retry(format!("the JSON report: {e}"))),
        None => Ok(content),
    }
}

/// Sends `prompt` once and returns the answer as text (no report schema): what an agent says
/// when it answers a reviewer's question for the author.
pub(super) fn ask_text(
    url: &str,
    model: &str,
    api_key_env: Option<&str>,
    prompt: &str,
    max_tokens: u32,
    limits: Limits,
) -> Result<String, String> {
    let url = endpoint(url);
    let key =
        chat::api_key(api_key_env, "agent.api_key_env").map_err(|e| e.reason().to_string())?;
    let body = serde_json::json!({
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "temperature": 0,
        "max_tokens": max_tokens,
    });
    let (status, text) =
        post(&url, key.as_deref(), &body, limits).map_err(|e| e.reason().to_string())?;
    chat::check_status(&url, status, &text).map_err(|e| e.reason().to_string())?;
    content_of(&text)
}

/// The shared client's error as an attempt's.
fn attempt(e: ChatError) -> AttemptError {
    match e {
        ChatError::Retry(r) => AttemptError::Retry(r),
        ChatError::Fatal(r) => AttemptError::Fatal(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::repeats;

    #[test]
    fn endpoints_accept_a_base_or_the_full_url() {
        assert_eq!(
            endpoint("http://127.0.0.1:8080"),
            "http://127.0.0.1:8080/v1/chat/completions"
        );
        assert_eq!(
            endpoint("https://api.example.com/v1/"),
            "https://api.example.com/v1/chat/completions"
        );
        assert_eq!(
            endpoint("http://h/openai/v1/chat/completions"),
            "http://h/openai/v1/chat/completions"
        );
    }

    /// Replies recorded from a real model server (llama.cpp's, SmolLM2-135M-Instruct at
    /// temperature 0; `bench/models/record-replies`), not written by hand.
    fn recorded(name: &str) -> &'static str {
        match name {
            "cpf_ok" => include_str!("tests/recorded/cpf_ok.json"),
            "prose" => include_str!("tests/recorded/prose.json"),
            "truncated" => include_str!("tests/recorded/truncated.json"),
            "loop" => include_str!("tests/recorded/loop.json"),
            "cpf_attempt" => include_str!("tests/recorded/cpf_attempt.json"),
            other => panic!("no recording {other}"),
        }
    }

    #[test]
    fn a_reply_says_how_many_tokens_it_used() {
        assert_eq!(
            usage_of(recorded("cpf_ok")),
            (usage_of(recorded("cpf_ok")).0, 15)
        );
        assert!(usage_of(recorded("cpf_ok")).0 > 0);
        assert_eq!(
            usage_of(recorded("cpf_attempt")).1,
            512,
            "cut at max_tokens"
        );
        assert_eq!(usage_of("{}"), (0, 0));
    }

    #[test]
    fn real_replies_end_in_a_report_or_a_named_reason() {
        let ok = content_of(recorded("cpf_ok")).expect("a whole answer");
        assert_eq!(ok, "VERDICT:GO\nISSUES:\nNOTES:");
        assert!(super::super::read_reply(&ok).is_ok());
        // Prose that stopped on its own: a whole answer, which the CPF reader then refuses.
        let prose = content_of(recorded("prose")).expect("a whole answer");
        let err = super::super::read_reply(&prose).expect_err("not CPF");
        assert!(err.starts_with("not CPF: line 1: "), "{err}");
        assert_eq!(
            content_of(recorded("truncated")),
            Err("the answer was cut off at the token limit (finish_reason: length)".into())
        );
        assert_eq!(
            content_of(recorded("cpf_attempt")),
            Err("the answer was cut off at the token limit (finish_reason: length, repeating 'VERY')".into())
        );
        assert_eq!(
            content_of(recorded("loop")),
            Err("the answer was cut off at the token limit (finish_reason: length, repeating 'token')".into())
        );
    }

    #[test]
    fn a_whole_answer_that_loops_is_refused_and_a_report_is_not_a_loop() {
        let looping = format!("VERDICT:GO\nNOTES:\n{}", "again ".repeat(80));
        let json = serde_json::json!({"choices": [{"message": {"content": looping}, "finish_reason": "stop"}]});
        assert_eq!(
            content_of(&json.to_string()),
            Err("the answer repeats itself ('again' over and over)".into())
        );
        let report: String = (1..=40)
            .map(|n| format!("M|style|src/m{n}.rs:{n}|line {n} is long\n"))
            .collect();
        assert_eq!(repeats(&format!("VERDICT:GO\nISSUES:\n{report}")), None);
    }

    #[test]
    fn reads_the_first_choice_content() {
        let json =
            r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"VERDICT:GO\n"}}]}"#;
        assert_eq!(content_of(json).as_deref(), Ok("VERDICT:GO\n"));
        assert!(content_of("{\"choices\":[]}")
            .unwrap_err()
            .contains("choices[0].message.content"));
        assert!(content_of("<html>")
            .unwrap_err()
            .starts_with("the response is not JSON"));
    }
}
