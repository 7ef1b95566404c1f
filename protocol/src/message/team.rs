//! What the Lead hands an Implementer with a task (the loops spec): the task, where the repository
//! is, which executor carries it out and how the task runner iterates and judges. Plain data,
//! so that an Implementer in its own process needs nothing but this message to do the work.
//!
//! Wire rule as in `message.rs`: append-only, no serde attribute bincode cannot carry.

use crate::domain::{Finding, Task};
use serde::{Deserialize, Serialize};

/// Which executor carries a task out (`[executor] kind`). Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExecutorMode {
    /// A coding agent: the prompt on stdin, its standard output judged.
    Agent,
    /// A script with the task in environment variables.
    Script,
    /// The built-in mechanical fixes (compiler and clippy suggestions, formatting).
    Builtin,
    /// An OpenAI-compatible chat endpoint asked for whole-file replacements or a unified diff
    /// of the owned files, applied by the Implementer itself: no agent CLI.
    Chat,
}

impl ExecutorMode {
    /// The text form (`agent`, `script`, `builtin`, `chat`), as `[executor] kind` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ExecutorMode::Agent => "agent",
            ExecutorMode::Script => "script",
            ExecutorMode::Builtin => "builtin",
            ExecutorMode::Chat => "chat",
        }
    }
}

/// The `[executor]` table as the Lead resolved it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecutorSpec {
    /// Which executor.
    pub mode: ExecutorMode,
    /// The argv of `agent` and `script` (no shell); empty for `builtin`.
    pub command: Vec<String>,
    /// Time limit of one executor run, seconds.
    pub timeout_secs: u64,
    /// `agent`: the commands tried in turn after `command` when a run fails as a tool.
    pub fallback: Vec<Vec<String>>,
    /// `chat`: the OpenAI-compatible endpoint, a base URL or the full chat completions URL.
    pub url: String,
    /// `chat`: the model name sent to the endpoint.
    pub model: String,
    /// `chat`: the environment variable holding the endpoint's API key (the key itself never
    /// travels in a message).
    pub api_key_env: Option<String>,
    /// `chat`: the most tokens an answer may have.
    pub max_tokens: u32,
    /// `chat`: each part of the streamed answer after the first must arrive within this many
    /// seconds; 0 waits for the whole answer.
    pub idle_timeout_secs: u64,
}

/// How the task runner iterates and judges (the task-runner spec), with the commands behind Q7–Q9.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopSpec {
    /// Iterations before the runner gives up (at least 1).
    pub max_iterations: u32,
    /// Pause before a RETRY, milliseconds.
    pub retry_delay_ms: u64,
    /// At the limit: escalate to the Lead instead of ending INCOMPLETE.
    pub escalate_on_max: bool,
    /// RETRYs allowed for timeouts and executor errors.
    pub max_retries: u32,
    /// Omission markers (Q3).
    pub omission_patterns: Vec<String>,
    /// Early termination claims (Q6).
    pub early_termination_patterns: Vec<String>,
    /// Q7: the test command (argv), when tests are judged.
    pub test: Option<Vec<String>>,
    /// Q8: the lint command (argv).
    pub lint: Option<Vec<String>>,
    /// Q9: the type-check command (argv).
    pub typecheck: Option<Vec<String>>,
    /// Time limit of each check command, seconds (0: the runner's default).
    pub check_timeout_secs: u64,
}

/// Lead → Implementer: a claimed task and everything needed to carry it out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskAssignment {
    /// The task (status in progress, claimed by the recipient).
    pub task: Task,
    /// This claim's attempt number for the task, from 1.
    pub attempt: u32,
    /// Absolute path of the repository root as the Implementer sees it.
    pub root: String,
    /// The executor.
    pub executor: ExecutorSpec,
    /// The task runner's settings.
    pub runner: LoopSpec,
    /// House rules for the executor prompt.
    pub rules: Vec<String>,
    /// Notes from other Implementers (pattern D) for the prompt.
    pub peer_notes: Vec<String>,
    /// The task's template id (`goal_drift_guard`), selecting an evaluator.
    pub template: Option<String>,
    /// For a fix task, the findings it was made for: its judge runs their rules again and
    /// passes it only when they are gone. Empty for a plan task.
    pub findings: Vec<Finding>,
    /// The prompt templates the Lead's `[agent] prompt_dir` holds (file name, text): the
    /// Implementer's, the modification prompt's, the evaluator's; empty for the built-in ones.
    pub prompts: Vec<(String, String)>,
}

/// What a peer note tells (pattern D). Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PeerNoteKind {
    /// A shared utility or helper now exists.
    UtilityCreated,
    /// An API other tasks use changed.
    ApiChanged,
    /// A constraint or pitfall others should know.
    Constraint,
}

impl PeerNoteKind {
    /// The text form (`utility-created`, `api-changed`, `constraint`).
    pub fn as_str(self) -> &'static str {
        match self {
            PeerNoteKind::UtilityCreated => "utility-created",
            PeerNoteKind::ApiChanged => "api-changed",
            PeerNoteKind::Constraint => "constraint",
        }
    }
}

/// Implementer → Lead → the other Implementers (pattern D): news about the sender's change.
/// It holds no task to carry out, so it cannot ask anyone for a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerNote {
    /// The task whose change it reports.
    pub task: u32,
    /// What kind of news.
    pub kind: PeerNoteKind,
    /// The file it is about (`src/utils/auth.rs`).
    pub about: String,
    /// The news (`new pub fn extract_auth_token(token: &str) -> Option<Claims>`).
    pub text: String,
}

impl PeerNote {
    /// The note as one line of a recipient's executor prompt, naming its sender.
    pub fn prompt_line(&self, from: &str) -> String {
        format!(
            "{from} ({}) {}: {}",
            self.kind.as_str(),
            self.about,
            self.text
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{TaskOrigin, TaskStatus};
    use crate::message::{Body, Envelope};
    use crate::wire::{decode, encode};

    fn assignment() -> TaskAssignment {
        TaskAssignment {
            task: Task {
                id: 2,
                subject: "2 Add multiplication".into(),
                description: "owns: src/mul.rs".into(),
                owns: vec!["src/mul.rs".into()],
                blocked_by: vec![1],
                status: TaskStatus::InProgress {
                    claimer: "implementer-1".into(),
                },
                attempts: 1,
                origin: TaskOrigin::Plan,
                active_form: "Adding multiplication".into(),
            },
            attempt: 1,
            root: "/repo".into(),
            executor: ExecutorSpec {
                mode: ExecutorMode::Agent,
                command: vec!["my-agent".into(), "-p".into()],
                timeout_secs: 600,
                fallback: vec![vec!["codex".into(), "exec".into(), "-".into()]],
                url: String::new(),
                model: String::new(),
                api_key_env: None,
                max_tokens: 4096,
                idle_timeout_secs: 0,
            },
            runner: LoopSpec {
                max_iterations: 3,
                retry_delay_ms: 1000,
                escalate_on_max: true,
                max_retries: 2,
                omission_patterns: vec!["...".into()],
                early_termination_patterns: vec!["Done.".into()],
                test: Some(vec!["cargo".into(), "test".into()]),
                lint: None,
                typecheck: None,
                check_timeout_secs: 0,
            },
            rules: Vec::new(),
            peer_notes: vec!["implementer-2: added src/util.rs".into()],
            template: None,
            findings: Vec::new(),
            prompts: Vec::new(),
        }
    }

    #[test]
    fn team_messages_cross_the_wire_unchanged() {
        let bodies = [
            Body::ClaimTask,
            Body::TaskAssigned(assignment()),
            Body::NoTaskAvailable {
                retry_after_ms: Some(200),
            },
            Body::TaskProgress {
                task: 2,
                event: r#"{"event_type":"QUALITY_JUDGMENT"}"#.into(),
            },
            Body::TaskCompleted {
                task: 2,
                evidence: "changed: src/mul.rs".into(),
                history: vec!["1 REJECT Q2,Q6".into(), "2 PASS".into()],
            },
            Body::TaskFailed {
                task: 2,
                attempt: 1,
                reason: "executor could not run".into(),
            },
            Body::Escalation {
                task: 2,
                reason: "Q2: TODO left".into(),
                attempts: 3,
                unresolved: vec!["incomplete src/mul.rs:4: TODO left".into()],
            },
            Body::PeerNote(PeerNote {
                task: 2,
                kind: PeerNoteKind::UtilityCreated,
                about: "src/util.rs".into(),
                text: "new pub fn clamp(x: i64) -> i64".into(),
            }),
        ];
        let names: Vec<&str> = bodies.iter().map(Body::name).collect();
        assert_eq!(
            names,
            [
                "ClaimTask",
                "TaskAssigned",
                "NoTaskAvailable",
                "TaskProgress",
                "TaskCompleted",
                "TaskFailed",
                "Escalation",
                "PeerNote"
            ]
        );
        for body in bodies {
            let env = Envelope::new("implementer-1", "lead", body);
            let bytes = encode(&env).expect("encode");
            assert_eq!(decode(&bytes, 1 << 20).expect("decode"), env);
        }
        assert_eq!(ExecutorMode::Builtin.as_str(), "builtin");
        assert_eq!(ExecutorMode::Chat.as_str(), "chat");
        let note = PeerNote {
            task: 1,
            kind: PeerNoteKind::ApiChanged,
            about: "src/a.rs".into(),
            text: "pub fn a(x: u8) now pub fn a(x: u16)".into(),
        };
        assert_eq!(
            note.prompt_line("implementer-1"),
            "implementer-1 (api-changed) src/a.rs: pub fn a(x: u8) now pub fn a(x: u16)"
        );
    }
}
