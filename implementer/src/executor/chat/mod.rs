//! The `chat` executor: no agent CLI, no shell, no process — an OpenAI-compatible chat
//! endpoint (`[executor] url`, `model`, `api_key_env`, `max_tokens`; the client shared with the
//! Inspectors' HTTP backend, `inspector::chat`, with `timeout_secs` as the request's deadline)
//! is sent the iteration's prompt (the task, or after a REJECT the judge's modification prompt
//! with the original task), the current content of each owned file, and the form to answer in:
//! whole-file replacements under `FILE: <path>` lines, or a unified diff (`answer`). The answer
//! is checked whole before the tree is touched (`apply`: owned paths only, nothing outside the
//! repository, every diff applying in memory); then it is written, and the judge reads the
//! answer's prose with a line per written file.
//!
//! How a run ends: an endpoint that cannot be reached, answers an error status, times out or
//! sends no chat completion is a tool failure ([`ExecOutcome::Failed`], a RETRY); an answer
//! that cannot be carried out — none of the forms, cut off at the token limit, a path that is
//! not owned, a diff that does not apply — is [`ExecOutcome::Refused`]: nothing is written and
//! the judge REJECTs it with the reason, which the next iteration's prompt carries back.

mod answer;
mod apply;
mod patch;

use super::{ExecOutcome, ExecRequest, Executor};
use inspector::chat;
use std::path::Path;
use std::time::Duration;

/// Most bytes of one owned file shown to the model.
const FILE_BYTES: usize = 32 * 1024;
/// Most bytes of owned files shown in all.
const ALL_FILES_BYTES: usize = 128 * 1024;

/// Where the chat executor asks: `[executor]`'s endpoint settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatEndpoint {
    /// A base URL or the full chat completions URL.
    pub url: String,
    /// The model name sent.
    pub model: String,
    /// The environment variable holding the API key, if any (the key is never logged).
    pub api_key_env: Option<String>,
    /// The most tokens an answer may have.
    pub max_tokens: u32,
    /// Each part of the streamed answer after the first must arrive within this; `None` waits
    /// for the whole answer.
    pub idle_timeout: Option<Duration>,
}

/// Asks a chat endpoint for the owned files' new contents and writes them, all or nothing.
#[derive(Debug, Clone)]
pub struct ChatExecutor {
    endpoint: ChatEndpoint,
    timeout: Duration,
}

impl ChatExecutor {
    /// An executor asking `endpoint`, each request given `timeout`.
    pub fn new(endpoint: ChatEndpoint, timeout: Duration) -> ChatExecutor {
        ChatExecutor { endpoint, timeout }
    }

    /// The answer's content, or how the request failed as a tool (`Err(Failed)`) or was
    /// unusable (`Err(Refused)`).
    fn ask(&self, prompt: &str) -> Result<String, ExecOutcome> {
        let url = chat::endpoint(&self.endpoint.url);
        let key = chat::api_key(self.endpoint.api_key_env.as_deref(), "executor.api_key_env")
            .map_err(|e| ExecOutcome::Failed(e.reason().to_string()))?;
        let body = serde_json::json!({
            "model": self.endpoint.model,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": prompt},
            ],
            "temperature": 0,
            "max_tokens": self.endpoint.max_tokens,
        });
        let limits = chat::Limits {
            timeout: self.timeout,
            idle: self.endpoint.idle_timeout,
        };
        let (status, text) = chat::post(&url, key.as_deref(), &body, limits)
            .map_err(|e| ExecOutcome::Failed(e.reason().to_string()))?;
        chat::check_status(&url, status, &text)
            .map_err(|e| ExecOutcome::Failed(e.reason().to_string()))?;
        if serde_json::from_str::<serde_json::Value>(&text).is_err() {
            return Err(ExecOutcome::Failed(format!(
                "{url} did not answer with a chat completion (not JSON)"
            )));
        }
        chat::content_of(&text).map_err(|reason| ExecOutcome::Refused {
            answer: Vec::new(),
            reason,
        })
    }
}

/// The standing instructions: the form of the answer.
const SYSTEM: &str = "You change source files. Answer with the complete new content of every \
file you change: a line `FILE: <path>` followed by a fenced code block holding the whole file, \
with nothing left out. Alternatively answer with a unified diff in a ```diff block. Change only \
the files the task owns. Outside the blocks, say briefly what you changed.";

impl Executor for ChatExecutor {
    fn kind(&self) -> &str {
        "chat"
    }

    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome {
        let prompt = prompt(request);
        let content = match self.ask(&prompt) {
            Ok(content) => content,
            Err(outcome) => return outcome,
        };
        let refused = |reason: String| {
            tracing::info!(
                task = request.task.id,
                reason,
                "the chat answer is not applied"
            );
            ExecOutcome::Refused {
                answer: content.clone().into_bytes(),
                reason,
            }
        };
        let answer = match answer::read(&content) {
            Ok(answer) => answer,
            Err(reason) => return refused(reason),
        };
        let writes = match apply::plan(request.repo, &request.task.owns, &answer.edits) {
            Ok(writes) => writes,
            Err(reason) => return refused(reason),
        };
        if let Err(e) = apply::write(request.repo, &writes) {
            return ExecOutcome::Failed(e);
        }
        let mut out = answer.prose;
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        if writes.is_empty() {
            out.push_str("The answer left every file as it was.\n");
        }
        for w in &writes {
            out.push_str(&format!(
                "Wrote `{}` ({} lines) from the model's answer.\n",
                w.path,
                w.content.lines().count()
            ));
        }
        ExecOutcome::success(out)
    }
}

/// The user message: the iteration's prompt, the owned files as they are, the form to answer in.
fn prompt(request: &ExecRequest<'_>) -> String {
    let mut out = request.prompt.trim_end().to_string();
    out.push_str("\n\n## The files this task owns, as they are now\n");
    let mut budget = ALL_FILES_BYTES;
    for entry in &request.task.owns {
        out.push_str(&owned_file(request.repo, entry, &mut budget));
    }
    out.push_str(
        "\n## How to answer\nFor each file you change, write a line `FILE: <path>` and then a \
         fenced code block with the file's complete new content (every line, nothing elided). \
         Or give a unified diff (`--- a/<path>`, `+++ b/<path>`, `@@` hunks) in a ```diff block. \
         Change only the files listed above. Your answer is applied only if all of it applies.\n",
    );
    out
}

/// One owned entry for the prompt: the file's content in a block, or why it is not shown.
fn owned_file(repo: &Path, entry: &str, budget: &mut usize) -> String {
    let path = entry.trim_start_matches("./");
    if path.contains(['*', '?', '[', '{']) || path.ends_with('/') || repo.join(path).is_dir() {
        return format!("\n`{path}`: files matching this are owned; name each file you write.\n");
    }
    match std::fs::read(repo.join(path)) {
        Err(_) => format!("\nFILE: {path}\n(does not exist yet; you may create it)\n"),
        Ok(bytes) => match String::from_utf8(bytes) {
            Err(_) => format!("\n`{path}`: not text; leave it alone.\n"),
            Ok(text) if text.len() > FILE_BYTES || text.len() > *budget => format!(
                "\n`{path}`: {} bytes, too large to show; change it with a diff whose context you know.\n",
                text.len()
            ),
            Ok(text) => {
                *budget -= text.len();
                let fence = if text.contains("```") { "````" } else { "```" };
                format!("\nFILE: {path}\n{fence}\n{text}{}{fence}\n", if text.ends_with('\n') || text.is_empty() { "" } else { "\n" })
            }
        },
    }
}

#[cfg(test)]
mod tests;
