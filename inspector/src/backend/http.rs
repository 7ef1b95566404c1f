//! The HTTP transport: an OpenAI-compatible chat endpoint (hosted, or a local model server).
//! The prompt goes as one user message to `POST …/v1/chat/completions` asking for a JSON report
//! a schema constrains (`structured`); the reply's `choices[0].message.content` is that object,
//! turned into CPF, or — from an endpoint that ignores the schema — read as CPF text. An
//! endpoint that refuses the schema (400, 422) is asked again without it.

use super::AttemptError;
use std::time::Duration;

/// Largest response body read, in bytes.
const MAX_BODY: u64 = 16 * 1024 * 1024;

/// The temperature of a seeded (consensus) request.
const SAMPLED_TEMPERATURE: f64 = 0.3;

/// The chat completions URL for a configured endpoint: used as is when it already ends in
/// `/chat/completions`, else `/v1/chat/completions` is appended to the base.
pub(super) fn endpoint(url: &str) -> String {
    let url = url.trim_end_matches('/');
    if url.ends_with("/chat/completions") {
        url.to_string()
    } else if url.ends_with("/v1") {
        format!("{url}/chat/completions")
    } else {
        format!("{url}/v1/chat/completions")
    }
}

/// Sends the prompt once; the message content on success. The tokens the endpoint says it
/// used are added to `tokens` (prompt, completion), whether the answer is usable or not.
pub(super) fn ask(
    url: &str,
    model: &str,
    api_key_env: Option<&str>,
    prompt: &str,
    (seed, max_tokens): (Option<u64>, u32),
    timeout: Duration,
    tokens: &mut (u64, u64),
) -> Result<String, AttemptError> {
    let url = endpoint(url);
    let key = match api_key_env.filter(|v| !v.is_empty()) {
        Some(var) => Some(std::env::var(var).map_err(|_| {
            AttemptError::Fatal(format!(
                "the API key variable {var} (agent.api_key_env) is not set"
            ))
        })?),
        None => None,
    };
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
    let (status, text) = post(&url, key.as_deref(), &body.to_string(), timeout)?;
    let (status, text) = if matches!(status, 400 | 422) {
        tracing::info!(
            url,
            status,
            "the endpoint refused a response schema: asking without one"
        );
        if let Some(fields) = body.as_object_mut() {
            fields.remove("response_format");
        }
        post(&url, key.as_deref(), &body.to_string(), timeout)?
    } else {
        (status, text)
    };
    if !(200..300).contains(&status) {
        let first = text.lines().next().unwrap_or_default();
        let first: String = first.chars().take(200).collect();
        return Err(AttemptError::Retry(format!(
            "{url} answered {status}: {first}"
        )));
    }
    let (prompt_tokens, completion_tokens) = usage_of(&text);
    tokens.0 += prompt_tokens;
    tokens.1 += completion_tokens;
    let content = content_of(&text).map_err(AttemptError::Retry)?;
    match super::structured::as_cpf(&content) {
        Some(report) => report.map_err(|e| AttemptError::Retry(format!("the JSON report: {e}"))),
        None => Ok(content),
    }
}

/// One POST of `body`; the status and the response text.
fn post(
    url: &str,
    key: Option<&str>,
    body: &str,
    timeout: Duration,
) -> Result<(u16, String), AttemptError> {
    let loopback = ["://127.", "://localhost", "://[::1]"]
        .iter()
        .any(|h| url.contains(h));
    let mut config = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false);
    if loopback {
        // A proxy from the environment must not capture a local model server.
        config = config.proxy(None);
    }
    let agent: ureq::Agent = config.build().into();
    let mut request = agent.post(url).header("Content-Type", "application/json");
    if let Some(key) = key {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    let mut response = request.send(body).map_err(|e| transport_error(url, e))?;
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(|e| transport_error(url, e))?;
    Ok((status, text))
}

/// `usage.prompt_tokens` and `usage.completion_tokens` of a response (0 when absent).
fn usage_of(json: &str) -> (u64, u64) {
    let value: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let count = |key: &str| value["usage"][key].as_u64().unwrap_or(0);
    (count("prompt_tokens"), count("completion_tokens"))
}

fn transport_error(url: &str, e: ureq::Error) -> AttemptError {
    match e {
        ureq::Error::Timeout(_) => AttemptError::Fatal(format!("{url} timed out")),
        other => AttemptError::Retry(format!("{url}: {other}")),
    }
}

/// `choices[0].message.content` of a chat completion response, when it is a whole answer: one
/// cut off at the token limit (`finish_reason: length`) or that repeats itself is refused, even
/// when what arrived happens to parse — a truncated report is not a report.
pub(super) fn content_of(json: &str) -> Result<String, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("the response is not JSON: {e}"))?;
    let content = value
        .pointer("/choices/0/message/content")
        .and_then(|c| c.as_str())
        .ok_or_else(|| "the response has no choices[0].message.content".to_string())?;
    let finish = value
        .pointer("/choices/0/finish_reason")
        .and_then(|f| f.as_str());
    if finish == Some("length") {
        let loops = repeats(content).map(|w| format!(", repeating '{w}'"));
        return Err(format!(
            "the answer was cut off at the token limit (finish_reason: length{})",
            loops.unwrap_or_default()
        ));
    }
    if let Some(word) = repeats(content) {
        return Err(format!(
            "the answer repeats itself ('{word}' over and over)"
        ));
    }
    Ok(content.to_string())
}

/// The word a looping answer repeats: one word making up more than half of 64 or more.
fn repeats(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 64 {
        return None;
    }
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for w in &words {
        *counts
            .entry(w.trim_matches(|c: char| !c.is_alphanumeric()))
            .or_default() += 1;
    }
    let (word, n) = counts.into_iter().max_by_key(|(w, n)| (*n, *w))?;
    (n * 2 > words.len() && !word.is_empty()).then(|| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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
