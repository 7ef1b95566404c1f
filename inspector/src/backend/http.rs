//! The HTTP transport: an OpenAI-compatible chat endpoint (hosted, or a local model server).
//! The prompt goes as one user message to `POST …/v1/chat/completions`; the reply's
//! `choices[0].message.content` is read as CPF.

use super::AttemptError;
use std::time::Duration;

/// Largest response body read, in bytes.
const MAX_BODY: u64 = 16 * 1024 * 1024;

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

/// Sends the prompt once; the message content on success.
pub(super) fn ask(
    url: &str,
    model: &str,
    api_key_env: Option<&str>,
    prompt: &str,
    timeout: Duration,
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
    let body = serde_json::json!({
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "temperature": 0,
    })
    .to_string();
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
    let mut request = agent.post(&url).header("Content-Type", "application/json");
    if let Some(key) = key {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    let mut response = request.send(body).map_err(|e| transport_error(&url, e))?;
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(|e| transport_error(&url, e))?;
    if !(200..300).contains(&status) {
        let first = text.lines().next().unwrap_or_default();
        let first: String = first.chars().take(200).collect();
        return Err(AttemptError::Retry(format!(
            "{url} answered {status}: {first}"
        )));
    }
    content_of(&text).map_err(AttemptError::Retry)
}

fn transport_error(url: &str, e: ureq::Error) -> AttemptError {
    match e {
        ureq::Error::Timeout(_) => AttemptError::Fatal(format!("{url} timed out")),
        other => AttemptError::Retry(format!("{url}: {other}")),
    }
}

/// `choices[0].message.content` of a chat completion response.
pub(super) fn content_of(json: &str) -> Result<String, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("the response is not JSON: {e}"))?;
    value
        .pointer("/choices/0/message/content")
        .and_then(|c| c.as_str())
        .map(str::to_string)
        .ok_or_else(|| "the response has no choices[0].message.content".to_string())
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
