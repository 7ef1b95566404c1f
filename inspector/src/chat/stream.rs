//! A streamed answer (`"stream": true`: server-sent events, one `data: {chunk}` per token or
//! few) read as it arrives: after the first part each must come within the idle timeout (the
//! first waits for the model to read the prompt — over a minute for a 1.5B model on two CPU
//! cores — and has only the request's deadline), a looping answer is
//! stopped as soon as it shows, and what arrived is put together into the chat completion the
//! whole-answer reading takes ([`super::content_of`], [`super::usage_of`]) — the content, the
//! last finish reason, the usage of the final chunk. A stream that ends without a finish reason
//! or `[DONE]` was cut off, and is no answer.

use super::ChatError;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Tokens between two looks for a looping answer.
const LOOP_CHECK_EVERY: usize = 32;

/// The parts of a streamed answer, as they arrive.
#[derive(Debug, Default)]
pub(super) struct Assembly {
    content: String,
    finish: Option<String>,
    usage: Option<serde_json::Value>,
    done: bool,
    chunks: usize,
}

/// What one line of the stream meant.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Read on.
    More,
    /// The stream said `[DONE]`.
    Done,
}

impl Assembly {
    /// Takes one line of the event stream (without its line end).
    pub(super) fn feed(&mut self, line: &str) -> Result<Step, ChatError> {
        let Some(data) = line.strip_prefix("data:") else {
            // Blank lines end events; comments (`:`), `event:`, `id:` and `retry:` say nothing
            // about the answer. An error a server sends as an event is in a data line.
            return Ok(Step::More);
        };
        let data = data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(Step::Done);
        }
        let chunk: serde_json::Value = serde_json::from_str(data).map_err(|e| {
            ChatError::Retry(format!("a part of the streamed answer is not JSON: {e}"))
        })?;
        if let Some(error) = chunk.get("error") {
            let message = error["message"].as_str().unwrap_or("no message");
            return Err(ChatError::Retry(format!(
                "the endpoint reported an error while answering: {message}"
            )));
        }
        if let Some(text) = chunk
            .pointer("/choices/0/delta/content")
            .and_then(|c| c.as_str())
        {
            self.content.push_str(text);
            self.chunks += 1;
        }
        if let Some(finish) = chunk
            .pointer("/choices/0/finish_reason")
            .and_then(|f| f.as_str())
        {
            self.finish = Some(finish.to_string());
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = Some(usage.clone());
        }
        if self.finish.is_none() && self.chunks.is_multiple_of(LOOP_CHECK_EVERY) {
            if let Some(word) = super::repeats(&self.content) {
                return Err(ChatError::Retry(format!(
                    "the answer repeats itself ('{word}' over and over); stopped after {} parts",
                    self.chunks
                )));
            }
        }
        Ok(Step::More)
    }

    /// The chat completion the stream amounts to, once it has ended.
    pub(super) fn completion(self) -> Result<String, ChatError> {
        if self.finish.is_none() && !self.done {
            return Err(ChatError::Retry(
                "the streamed answer ended before it was complete (no finish reason, no [DONE])"
                    .into(),
            ));
        }
        let mut completion = serde_json::json!({
            "object": "chat.completion",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": self.content},
                "finish_reason": self.finish,
            }],
        });
        if let (Some(usage), Some(fields)) = (self.usage, completion.as_object_mut()) {
            fields.insert("usage".into(), usage);
        }
        Ok(completion.to_string())
    }
}

/// Reads the event stream `body` to its end: every line after the first within `idle` of the
/// one before, and all by `deadline`. A reader thread hands the lines
/// over; when this returns early it stops at its next line, and the request's own global
/// timeout ends it at the latest.
pub(super) fn read(
    url: &str,
    body: impl Read + Send + 'static,
    idle: Duration,
    deadline: Instant,
) -> Result<String, ChatError> {
    let (lines, arrived) = mpsc::sync_channel::<std::io::Result<String>>(64);
    std::thread::Builder::new()
        .name("chat-stream".into())
        .spawn(move || {
            let mut reader = BufReader::new(body);
            loop {
                let mut line = String::new();
                let read = reader.read_line(&mut line);
                let end = matches!(read, Ok(0) | Err(_));
                let sent = match read {
                    Ok(0) => Ok(()),
                    Ok(_) => lines.send(Ok(line)),
                    Err(e) => lines.send(Err(e)),
                };
                if end || sent.is_err() {
                    break;
                }
            }
        })
        .map_err(|e| ChatError::Retry(format!("cannot read {url}'s answer: {e}")))?;
    let mut assembly = Assembly::default();
    let mut started = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ChatError::Fatal(format!("{url} timed out")));
        }
        let wait = if started { idle.min(left) } else { left };
        match arrived.recv_timeout(wait) {
            Ok(Ok(line)) => {
                started = true;
                if assembly.feed(line.trim_end_matches(['\r', '\n']))? == Step::Done {
                    break;
                }
            }
            Ok(Err(e)) if e.kind() == std::io::ErrorKind::TimedOut => {
                return Err(ChatError::Fatal(format!("{url} timed out")))
            }
            Ok(Err(e)) => return Err(ChatError::Retry(format!("{url}: {e}"))),
            Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                return Err(ChatError::Fatal(format!("{url} timed out")))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(ChatError::Fatal(format!(
                    "{url} sent no part of its answer for {} s (the stream's idle timeout)",
                    idle.as_secs_f64()
                )))
            }
            // The stream ended.
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    assembly.completion()
}

#[cfg(test)]
mod tests;
