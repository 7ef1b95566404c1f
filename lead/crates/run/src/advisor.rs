//! Phase 0's agent (`[loop] discussion = "agent"`): the configured executor's agent asked the
//! Planner's and the Critic's questions — a coding agent's CLI (the prompt on standard input,
//! its standard output the answer; with its fallbacks, as when it carries out a task) or a
//! `chat` endpoint (the prompt as one user message, at temperature 0). A planning answer must
//! change no file: the discussion checks the work tree afterwards (`phase_a::discuss`).

use implementer::executor::{AgentExecutor, ExecRequest, Executor};
use inspector::chat;
use protocol::message::{ExecutorMode, ExecutorSpec};
use protocol::{Task, TaskOrigin, TaskStatus};
use std::path::Path;
use std::time::Duration;
use team::discussion::Advisor;

/// The executor's agent as an [`Advisor`].
pub struct ExecutorAdvisor<'a> {
    spec: &'a ExecutorSpec,
    repo: &'a Path,
    agent: Option<AgentExecutor>,
    templates: &'a protocol::prompt::Templates,
}

impl<'a> ExecutorAdvisor<'a> {
    /// Asks `spec`'s agent (an `agent` or `chat` executor) in `repo`, prompted from
    /// `templates`.
    pub fn new(
        spec: &'a ExecutorSpec,
        repo: &'a Path,
        templates: &'a protocol::prompt::Templates,
    ) -> ExecutorAdvisor<'a> {
        let timeout = Duration::from_secs(spec.timeout_secs.max(1));
        let agent = (spec.mode == ExecutorMode::Agent).then(|| {
            AgentExecutor::new(spec.command.clone(), timeout).with_fallback(spec.fallback.clone())
        });
        ExecutorAdvisor {
            spec,
            repo,
            agent,
            templates,
        }
    }

    fn ask_chat(&self, prompt: &str) -> Result<String, String> {
        let s = self.spec;
        let url = chat::endpoint(&s.url);
        let key = chat::api_key(s.api_key_env.as_deref(), "executor.api_key_env")
            .map_err(|e| e.reason().to_string())?;
        let body = serde_json::json!({
            "model": s.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0,
            "max_tokens": s.max_tokens,
        });
        let limits = chat::Limits {
            timeout: Duration::from_secs(s.timeout_secs.max(1)),
            idle: (s.idle_timeout_secs > 0).then(|| Duration::from_secs(s.idle_timeout_secs)),
        };
        let (status, text) =
            chat::post(&url, key.as_deref(), &body, limits).map_err(|e| e.reason().to_string())?;
        chat::check_status(&url, status, &text).map_err(|e| e.reason().to_string())?;
        chat::content_of(&text)
    }
}

impl Advisor for ExecutorAdvisor<'_> {
    fn templates(&self) -> protocol::prompt::Templates {
        self.templates.clone()
    }

    fn ask(&mut self, prompt: &str) -> Result<String, String> {
        let Some(agent) = self.agent.as_mut() else {
            return match self.spec.mode {
                ExecutorMode::Chat => self.ask_chat(prompt),
                other => Err(format!(
                    "a {} executor cannot be asked: it runs no agent",
                    other.as_str()
                )),
            };
        };
        let task = Task {
            id: 0,
            subject: "Phase 0: planning discussion".into(),
            description: prompt.to_string(),
            owns: Vec::new(),
            blocked_by: Vec::new(),
            status: TaskStatus::Pending,
            attempts: 0,
            origin: TaskOrigin::Plan,
            active_form: "Planning".into(),
        };
        let outcome = agent.execute(&ExecRequest {
            repo: self.repo,
            task: &task,
            prompt,
            iteration: 1,
            modification: None,
        });
        match outcome.transient_problem() {
            Some(problem) => Err(problem),
            None => Ok(String::from_utf8_lossy(outcome.stdout()).into_owned()),
        }
    }
}
