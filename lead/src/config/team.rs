//! `[executor]` and `[loop]`: what carries a `retake run` task out, and how the team loop and
//! each Implementer's task runner iterate, judge and give up (the loops spec).

use implementer::executor::presets;
use protocol::message::{ExecutorMode, ExecutorSpec, LoopSpec};
use serde::{Deserialize, Serialize};
use team::cascade::SpecUpdate;
use team::discussion::DiscussionMode;
use team::gate::GateKind;

use super::choice::{key, Choice};

key!(executor_kind, opt ExecutorMode, "executor.kind");
key!(loop_gate, GateKind, "loop.gate");
key!(loop_evaluator, opt Evaluator, "loop.evaluator");
key!(loop_discussion, DiscussionMode, "loop.discussion");
key!(loop_spec_update, SpecUpdate, "loop.spec_update");

impl Choice for SpecUpdate {
    const ALL: &'static [Self] = &[SpecUpdate::Escalate, SpecUpdate::Agent];
    fn name(self) -> &'static str {
        match self {
            SpecUpdate::Escalate => "escalate",
            SpecUpdate::Agent => "agent",
        }
    }
}

impl Choice for DiscussionMode {
    const ALL: &'static [Self] = &[DiscussionMode::Builtin, DiscussionMode::Agent];
    fn name(self) -> &'static str {
        match self {
            DiscussionMode::Builtin => "builtin",
            DiscussionMode::Agent => "agent",
        }
    }
}

/// A template evaluator every task of a run is judged by besides Q1–Q9 (`[loop] evaluator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evaluator {
    /// The goal-drift guard (GD1–GD5): deferral, reduced scope, simplification or placeholders
    /// in the executor's own words, or no statement that every requirement is fulfilled.
    GoalDrift,
}

impl Evaluator {
    /// The template id the Implementers' evaluator registry knows it by.
    pub fn template_id(self) -> String {
        use implementer::TemplateEvaluator as _;
        match self {
            Evaluator::GoalDrift => implementer::GoalDriftGuard.template_id().to_string(),
        }
    }
}

impl Choice for Evaluator {
    const ALL: &'static [Self] = &[Evaluator::GoalDrift];
    fn name(self) -> &'static str {
        match self {
            Evaluator::GoalDrift => "goal-drift",
        }
    }
}

/// `[executor]`: `kind` (`agent`, `script`, `builtin`, `chat`), `command` (an argv, no shell)
/// or a `preset` (a seed CLI's command line), `fallback` (presets tried in turn when the agent
/// fails as a tool), `timeout_secs`; for `chat`, `url`, `model`, `api_key_env`, `max_tokens` and
/// `idle_timeout_secs` meaning what they mean under `[agent]` (an OpenAI-compatible endpoint;
/// `timeout_secs` is the deadline of one request). Unset `kind` and `preset` mean no executor is configured:
/// `retake run` says so.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExecutorSettings {
    /// `agent`, `script`, `builtin` or `chat`; a preset implies `agent`.
    #[serde(with = "executor_kind")]
    pub kind: Option<ExecutorMode>,
    /// The argv of `agent` and `script`.
    pub command: Vec<String>,
    /// `claude`, `codex`, `gemini` or `qwen`: the agent's command line.
    pub preset: Option<String>,
    /// Presets tried in turn, in this order, when the agent cannot run, times out or fails.
    pub fallback: Vec<String>,
    /// Time limit of one executor run, seconds.
    pub timeout_secs: u64,
    /// `chat`: the OpenAI-compatible endpoint, a base URL or the full chat completions URL.
    pub url: String,
    /// `chat`: the model name sent to the endpoint.
    pub model: String,
    /// `chat`: the environment variable holding the endpoint's API key, if it needs one.
    pub api_key_env: Option<String>,
    /// `chat`: the most tokens an answer may have.
    pub max_tokens: u32,
    /// `chat`: each part of the streamed answer after the first is due within this many
    /// seconds; 0 waits for the whole answer.
    pub idle_timeout_secs: u64,
}

impl Default for ExecutorSettings {
    fn default() -> Self {
        ExecutorSettings {
            kind: None,
            command: Vec::new(),
            preset: None,
            fallback: Vec::new(),
            timeout_secs: 600,
            url: String::new(),
            model: String::new(),
            api_key_env: None,
            max_tokens: 4096,
            idle_timeout_secs: super::agent::DEFAULT_IDLE_TIMEOUT_SECS,
        }
    }
}

impl ExecutorSettings {
    /// The executor as the Implementers receive it; `None` when neither `kind` nor `preset`
    /// is set.
    pub fn spec(&self) -> Option<ExecutorSpec> {
        let mode = match (self.kind, &self.preset) {
            (Some(kind), _) => kind,
            (None, Some(_)) => ExecutorMode::Agent,
            (None, None) => return None,
        };
        let command = match &self.preset {
            Some(name) => presets::preset(name)?,
            None => self.command.clone(),
        };
        Some(ExecutorSpec {
            mode,
            command,
            timeout_secs: self.timeout_secs,
            fallback: self
                .fallback
                .iter()
                .filter_map(|name| presets::preset(name))
                .collect(),
            url: self.url.clone(),
            model: self.model.clone(),
            api_key_env: self.api_key_env.clone().filter(|v| !v.is_empty()),
            max_tokens: self.max_tokens,
            idle_timeout_secs: self.idle_timeout_secs,
        })
    }

    /// Checks what the types allow but an executor cannot be made of.
    fn validate(&self) -> Result<(), String> {
        let e = self;
        if let Some(name) = &e.preset {
            if presets::preset(name).is_none() {
                return Err(format!(
                    "executor.preset = '{name}' (expected {})",
                    presets::names()
                ));
            }
            if !e.command.is_empty() {
                return Err("executor.preset and executor.command: set one, not both".into());
            }
        }
        if let Some(bad) = e.fallback.iter().find(|n| presets::preset(n).is_none()) {
            return Err(format!(
                "executor.fallback: '{bad}' (expected {})",
                presets::names()
            ));
        }
        if let Some(mode) = e.kind {
            let kind = mode.name();
            if mode != ExecutorMode::Agent && (e.preset.is_some() || !e.fallback.is_empty()) {
                return Err(format!(
                    "executor.preset and executor.fallback name coding agents: they need kind = \"agent\", not '{kind}'"
                ));
            }
            let chat = mode == ExecutorMode::Chat;
            let endpoint_set = !e.url.is_empty() || !e.model.is_empty() || e.api_key_env.is_some();
            if chat && !e.command.is_empty() {
                return Err("executor.kind = 'chat' asks an endpoint, not a command: set executor.url and executor.model instead of executor.command".into());
            }
            if !chat && endpoint_set {
                return Err(format!(
                    "executor.url, executor.model and executor.api_key_env are for kind = \"chat\", not '{kind}'"
                ));
            }
            if chat && e.url.trim().is_empty() {
                return Err("executor.kind = 'chat' needs executor.url, an OpenAI-compatible endpoint such as \"http://127.0.0.1:8080\"".into());
            }
            if chat && e.model.trim().is_empty() {
                return Err("executor.kind = 'chat' needs executor.model, the model name sent to the endpoint".into());
            }
            let no_command = e.command.first().is_none_or(String::is_empty);
            if !matches!(mode, ExecutorMode::Builtin | ExecutorMode::Chat)
                && no_command
                && e.preset.is_none()
            {
                return Err(format!(
                    "executor.kind = '{kind}' needs executor.command, an argv list such as [\"my-agent\", \"--print\"], or executor.preset"
                ));
            }
        }
        if e.timeout_secs == 0 {
            return Err("executor.timeout_secs must be at least 1".into());
        }
        if e.max_tokens == 0 {
            return Err("executor.max_tokens must be at least 1".into());
        }
        Ok(())
    }
}

/// `[loop]`: the review gate, the task runner's iteration control, and the limits that keep
/// the team loop from running forever.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoopSettings {
    /// `sdd` (by the Auditor's verdict, the default) or `breezing` (by the decision).
    #[serde(with = "loop_gate")]
    pub gate: GateKind,
    /// Phase 0: `builtin` (the built-in Planner and Critic alone, the default) or `agent` (the
    /// executor's agent as well).
    #[serde(with = "loop_discussion")]
    pub discussion: DiscussionMode,
    /// The sdd gate's SPEC-UPDATE-NEEDED: `escalate` (the default) or `agent` (the
    /// Architect → TaskGenerator → Builder cascade, carried out by the team).
    #[serde(with = "loop_spec_update")]
    pub spec_update: SpecUpdate,
    /// Task runner iterations per attempt.
    pub max_iterations: u32,
    /// Pause before a RETRY, milliseconds.
    pub retry_delay_ms: u64,
    /// At the iteration limit: escalate to the Lead (true) or end the attempt INCOMPLETE.
    pub escalate_on_max: bool,
    /// RETRYs allowed per attempt for executor timeouts and errors.
    pub max_retries: u32,
    /// Claims of one task (attempts) before it is escalated to the user.
    pub max_attempts: u32,
    /// breezing: REQUEST_CHANGES rounds before escalation.
    pub max_retakes: u32,
    /// Early termination claims the judge rejects (Q6).
    pub early_termination_patterns: Vec<String>,
    /// Omission markers the judge rejects (Q3).
    pub omission_patterns: Vec<String>,
    /// Q8: a lint command (argv) every task must pass; unset: not judged.
    pub lint: Option<Vec<String>>,
    /// Q9: a type-check command (argv) every task must pass; unset: not judged.
    pub typecheck: Option<Vec<String>>,
    /// House rules added to every executor prompt.
    pub rules: Vec<String>,
    /// A template evaluator every task is judged by as well (`goal-drift`); unset: none.
    #[serde(with = "loop_evaluator")]
    pub evaluator: Option<Evaluator>,
}

impl Default for LoopSettings {
    fn default() -> Self {
        let runner = implementer::LoopConfig::default();
        LoopSettings {
            gate: GateKind::Sdd,
            discussion: DiscussionMode::Builtin,
            spec_update: SpecUpdate::Escalate,
            max_iterations: runner.max_iterations,
            retry_delay_ms: runner.retry_delay_ms,
            escalate_on_max: runner.escalate_on_max,
            max_retries: runner.max_retries,
            max_attempts: 3,
            max_retakes: 3,
            early_termination_patterns: runner.early_termination_patterns,
            omission_patterns: runner.omission_patterns,
            lint: None,
            typecheck: None,
            rules: Vec::new(),
            evaluator: None,
        }
    }
}

impl LoopSettings {
    /// The task runner's settings, with `test` (Q7) as resolved by the Lead.
    pub fn spec(&self, test: Option<Vec<String>>, check_timeout_secs: u64) -> LoopSpec {
        LoopSpec {
            max_iterations: self.max_iterations,
            retry_delay_ms: self.retry_delay_ms,
            escalate_on_max: self.escalate_on_max,
            max_retries: self.max_retries,
            omission_patterns: self.omission_patterns.clone(),
            early_termination_patterns: self.early_termination_patterns.clone(),
            test,
            lint: self.lint.clone(),
            typecheck: self.typecheck.clone(),
            check_timeout_secs,
        }
    }
}

impl super::Settings {
    /// Checks the `[executor]` and `[loop]` values the types allow but retake does not.
    pub(super) fn validate_team(&self) -> Result<(), String> {
        self.executor.validate()?;
        let l = &self.team_loop;
        if l.max_iterations == 0 || l.max_attempts == 0 {
            return Err("loop.max_iterations and loop.max_attempts must be at least 1".into());
        }
        let agent = self.executor.spec().is_some_and(|e| {
            e.mode == ExecutorMode::Chat || (e.mode == ExecutorMode::Agent && !e.command.is_empty())
        });
        if l.discussion == DiscussionMode::Agent && !agent {
            return Err("loop.discussion = 'agent' asks the executor's agent: set [executor] kind = \"agent\" with a command or preset, or kind = \"chat\"".into());
        }
        if l.spec_update == SpecUpdate::Agent && self.executor.spec().is_none() {
            return Err("loop.spec_update = 'agent' has the team update the spec: set [executor] kind (or a preset)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::load;
    use team::gate::GateKind;

    #[test]
    fn executor_and_loop_load_validate_and_resolve() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = load(dir.path()).expect("defaults");
        assert_eq!(s.executor.spec(), None, "no executor unless configured");
        assert_eq!(
            (s.team_loop.gate, s.team_loop.max_iterations),
            (GateKind::Sdd, 3)
        );
        std::fs::write(
            dir.path().join("retake.toml"),
            "[executor]\nkind = \"agent\"\ncommand = [\"sh\", \"agent.sh\"]\ntimeout_secs = 60\n\n\
             [loop]\ngate = \"breezing\"\nmax_iterations = 2\ndiscussion = \"agent\"\n",
        )
        .expect("write");
        let s = load(dir.path()).expect("valid");
        assert_eq!(s.team_loop.gate, GateKind::Breezing);
        assert_eq!(
            s.run_config().discussion,
            team::discussion::DiscussionMode::Agent
        );
        assert_eq!(s.team_loop.evaluator, None);
        let spec = s.executor.spec().expect("configured");
        assert_eq!(spec.mode, protocol::message::ExecutorMode::Agent);
        assert_eq!((spec.command.len(), spec.timeout_secs), (2, 60));
        let runner = s
            .team_loop
            .spec(Some(vec!["cargo".into(), "test".into()]), 30);
        assert_eq!((runner.max_iterations, runner.max_retries), (2, 2));
        assert!(runner
            .early_termination_patterns
            .contains(&"Done.".to_string()));
        for (toml, message) in [
            ("[executor]\nkind = \"llm\"\n", "executor.kind = 'llm'"),
            ("[executor]\nkind = \"agent\"\n", "needs executor.command"),
            (
                "[executor]\nkind = \"chat\"\nmodel = \"m\"\n",
                "executor.kind = 'chat' needs executor.url",
            ),
            (
                "[executor]\nkind = \"chat\"\nurl = \"http://127.0.0.1:1\"\n",
                "executor.kind = 'chat' needs executor.model",
            ),
            (
                "[executor]\nkind = \"agent\"\ncommand = [\"a\"]\nurl = \"http://h\"\n",
                "are for kind = \"chat\", not 'agent'",
            ),
            ("[loop]\ngate = \"strict\"\n", "loop.gate = 'strict'"),
            (
                "[loop]\nevaluator = \"drift\"\n",
                "loop.evaluator = 'drift' (expected goal-drift)",
            ),
            ("[loop]\nmax_iterations = 0\n", "must be at least 1"),
            (
                "[loop]\nspec_update = \"always\"\n",
                "loop.spec_update = 'always' (expected escalate or agent)",
            ),
            (
                "[loop]\nspec_update = \"agent\"\n",
                "loop.spec_update = 'agent' has the team update the spec",
            ),
            (
                "[loop]\ndiscussion = \"panel\"\n",
                "loop.discussion = 'panel' (expected builtin or agent)",
            ),
            (
                "[executor]\nkind = \"builtin\"\n[loop]\ndiscussion = \"agent\"\n",
                "loop.discussion = 'agent' asks the executor's agent",
            ),
        ] {
            std::fs::write(dir.path().join("retake.toml"), toml).expect("write");
            let err = load(dir.path()).expect_err(toml).to_string();
            assert!(err.contains(message), "{err}");
        }
    }

    #[test]
    fn a_chat_executor_is_an_endpoint_and_a_model() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("retake.toml"),
            "[executor]\nkind = \"chat\"\nurl = \"http://127.0.0.1:8080\"\nmodel = \"smollm2\"\n\
             api_key_env = \"MY_KEY\"\nmax_tokens = 512\ntimeout_secs = 30\n",
        )
        .expect("write");
        let spec = load(dir.path())
            .expect("valid")
            .executor
            .spec()
            .expect("an executor");
        assert_eq!(spec.mode, protocol::message::ExecutorMode::Chat);
        assert!(spec.command.is_empty());
        assert_eq!(
            (
                spec.url.as_str(),
                spec.model.as_str(),
                spec.api_key_env.as_deref()
            ),
            ("http://127.0.0.1:8080", "smollm2", Some("MY_KEY"))
        );
        assert_eq!((spec.max_tokens, spec.timeout_secs), (512, 30));
    }

    #[test]
    fn a_preset_is_an_agent_command_line_and_its_fallbacks_follow_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("retake.toml"),
            "[executor]\npreset = \"gemini\"\nfallback = [\"qwen\", \"codex\"]\n",
        )
        .expect("write");
        let spec = load(dir.path())
            .expect("valid")
            .executor
            .spec()
            .expect("an executor");
        assert_eq!(spec.mode, protocol::message::ExecutorMode::Agent);
        assert_eq!(spec.command, ["gemini", "--approval-mode", "auto_edit"]);
        let fallback: Vec<&str> = spec.fallback.iter().map(|c| c[0].as_str()).collect();
        assert_eq!(fallback, ["qwen", "codex"]);
        for (toml, message) in [
            (
                "[executor]\npreset = \"aider\"\n",
                "executor.preset = 'aider' (expected claude, codex, gemini or qwen)",
            ),
            (
                "[executor]\npreset = \"claude\"\ncommand = [\"claude\"]\n",
                "executor.preset and executor.command: set one, not both",
            ),
            (
                "[executor]\nkind = \"agent\"\ncommand = [\"a\"]\nfallback = [\"gpt\"]\n",
                "executor.fallback: 'gpt' (expected claude, codex, gemini or qwen)",
            ),
            (
                "[executor]\nkind = \"script\"\ncommand = [\"a\"]\nfallback = [\"qwen\"]\n",
                "they need kind = \"agent\", not 'script'",
            ),
        ] {
            std::fs::write(dir.path().join("retake.toml"), toml).expect("write");
            let err = load(dir.path()).expect_err(toml).to_string();
            assert!(err.contains(message), "{err}");
        }
    }
}
