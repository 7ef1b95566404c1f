//! The one client of an OpenAI-compatible chat endpoint (`POST …/v1/chat/completions`), shared
//! by the Inspectors' HTTP agent backend and the Implementers' `chat` executor: the URL, the API
//! key from its environment variable (never logged), one POST with a global timeout (no proxy
//! for a loopback server), the answer streamed when an idle timeout is set (`stream`: each part
//! due within it, a looping answer stopped as it loops), and the reading of a reply — the first
//! choice's content, refused when it was cut off at the token limit or repeats itself. What to
//! ask and how to read the content is the caller's.

mod stream;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use std::time::{Duration, Instant};

/// Largest response body read, in bytes.
const MAX_BODY: u64 = 16 * 1024 * 1024;

/// Why a request has no usable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatError {
    /// Worth another attempt: a non-success status, a broken connection, an unusable reply.
    Retry(String),
    /// Not worth another attempt: a timeout, an API key variable that is not set.
    Fatal(String),
}

impl ChatError {
    /// The reason, whatever the kind.
    pub fn reason(&self) -> &str {
        match self {
            ChatError::Retry(r) | ChatError::Fatal(r) => r,
        }
    }
}

/// The chat completions URL for a configured endpoint: used as is when it already ends in
/// `/chat/completions`, else `/v1/chat/completions` is appended to the base.
pub fn endpoint(url: &str) -> String {
    let url = url.trim_end_matches('/');
    if url.ends_with("/chat/completions") {
        url.to_string()
    } else if url.ends_with("/v1") {
        format!("{url}/chat/completions")
    } else {
        format!("{url}/v1/chat/completions")
    }
}

/// The API key held by the environment variable `var` (none when `var` is unset or empty);
/// `key` names the setting in the error (`agent.api_key_env`).
pub fn api_key(var: Option<&str>, key: &str) -> Result<Option<String>, ChatError> {
    match var.filter(|v| !v.is_empty()) {
        Some(var) => std::env::var(var).map(Some).map_err(|_| {
            ChatError::Fatal(format!("the API key variable {var} ({key}) is not set"))
        }),
        None => Ok(None),
    }
}

/// What one request may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The whole exchange's deadline.
    pub timeout: Duration,
    /// With a value, the answer is asked for as a stream and each part after the first must
    /// arrive within it (a model that stalls is given up on long before `timeout`; the first
    /// part, which comes once the prompt is read, has `timeout`); `None` waits for the whole
    /// answer.
    pub idle: Option<Duration>,
}

/// One POST of the chat completion request `body` to the chat `url` (see [`endpoint`]), the key
/// as a bearer token; the status and the response text — a streamed answer put together into
/// the chat completion it amounts to.
pub fn post(
    url: &str,
    key: Option<&str>,
    body: &serde_json::Value,
    limits: Limits,
) -> Result<(u16, String), ChatError> {
    let started = Instant::now();
    let mut body = body.clone();
    if let (Some(_), Some(fields)) = (limits.idle, body.as_object_mut()) {
        fields.insert("stream".into(), true.into());
        fields.insert(
            "stream_options".into(),
            serde_json::json!({"include_usage": true}),
        );
    }
    let timeout = limits.timeout;
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
    let mut response = request
        .send(body.to_string())
        .map_err(|e| transport_error(url, e))?;
    let status = response.status().as_u16();
    let streamed = response
        .headers()
        .get("content-type")
        .and_then(|t| t.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"));
    if let (Some(idle), true, true) = (limits.idle, streamed, (200..300).contains(&status)) {
        let reader = response
            .into_body()
            .into_with_config()
            .limit(MAX_BODY)
            .reader();
        let text = stream::read(url, reader, idle, started + timeout)?;
        return Ok((status, text));
    }
    let text = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(|e| transport_error(url, e))?;
    Ok((status, text))
}

/// A non-success `status` as a RETRY naming the URL and the first line of the body.
pub fn check_status(url: &str, status: u16, text: &str) -> Result<(), ChatError> {
    if (200..300).contains(&status) {
        return Ok(());
    }
    let first = text.lines().next().unwrap_or_default();
    let first: String = first.chars().take(200).collect();
    Err(ChatError::Retry(format!(
        "{url} answered {status}: {first}"
    )))
}

fn transport_error(url: &str, e: ureq::Error) -> ChatError {
    match e {
        ureq::Error::Timeout(_) => ChatError::Fatal(format!("{url} timed out")),
        other => ChatError::Retry(format!("{url}: {other}")),
    }
}

/// `usage.prompt_tokens` and `usage.completion_tokens` of a response (0 when absent).
pub fn usage_of(json: &str) -> (u64, u64) {
    let value: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let count = |key: &str| value["usage"][key].as_u64().unwrap_or(0);
    (count("prompt_tokens"), count("completion_tokens"))
}

/// `choices[0].message.content` of a chat completion response, when it is a whole answer: one
/// cut off at the token limit (`finish_reason: length`) or that repeats itself is refused, even
/// when what arrived happens to parse — a truncated answer is not an answer.
pub fn content_of(json: &str) -> Result<String, String> {
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
pub fn repeats(text: &str) -> Option<String> {
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
