//! The typed messages every actor speaks, wrapped in an envelope.
//!
//! Wire rule: enums here are append-only — a new variant goes at the end and nothing is
//! renumbered, because bincode encodes a variant by its index. No serde attribute that bincode
//! cannot carry (`skip*`, `flatten`, `untagged`, `tag`) may appear on these types.

use crate::domain::{AuditOutcome, Dimension, InspectorReport, Scope, Severity};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

mod heartbeat;
mod policy;
mod profile;
mod question;
mod spec_context;
mod team;
pub use heartbeat::{Count, Phase, Progress, Unit};
pub use policy::TestFailurePolicy;
pub use profile::RuleProfile;
pub use question::{capped, Answer, Question, MAX_ANSWER_CHARS, MAX_QUESTIONS, MAX_QUESTION_CHARS};
pub use spec_context::{SpecContext, SpecExemption, SteeringException};
pub use team::{ExecutorMode, ExecutorSpec, LoopSpec, PeerNote, PeerNoteKind, TaskAssignment};

/// The protocol's major version: peers with a different major are refused.
///
/// 2: a heartbeat's phase and progress are typed ([`Phase`], [`Progress`]) rather than text, so
/// a version-1 peer would misread its frames. 4: a task assignment carries the configured
/// prompt templates. 5: an audit request's spec context carries the Steering Exceptions, an
/// agent's specification its question timeout (pattern A). 6: a project model's package carries
/// its Rust edition and whether it is a procedural macro.
pub const PROTOCOL_MAJOR: u16 = 6;
/// The protocol's minor version: informational.
pub const PROTOCOL_MINOR: u16 = 0;
/// The magic bytes that open a `Hello`.
pub const MAGIC: [u8; 4] = *b"RTK\x01";
/// The address of the Lead.
pub const LEAD: &str = "lead";
/// The broadcast address.
pub const BROADCAST: &str = "*";

/// Every message travels in an envelope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// `(major, minor)` of the sender's protocol.
    pub version: (u16, u16),
    /// The sender's actor name.
    pub from: String,
    /// The recipient's actor name, [`LEAD`] or [`BROADCAST`].
    pub to: String,
    /// Unique per sender.
    pub id: u64,
    /// The id of the message this answers.
    pub correlation: Option<u64>,
    /// Milliseconds since the Unix epoch at sending.
    pub sent_at_ms: u64,
    /// The message.
    pub body: Body,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Envelope {
    /// A new envelope with a fresh id and the current time.
    pub fn new(from: impl Into<String>, to: impl Into<String>, body: Body) -> Envelope {
        Envelope {
            version: (PROTOCOL_MAJOR, PROTOCOL_MINOR),
            from: from.into(),
            to: to.into(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            correlation: None,
            sent_at_ms: now_ms(),
            body,
        }
    }

    /// A reply to `self`: addressed to its sender, correlated with its id.
    pub fn reply(&self, from: impl Into<String>, body: Body) -> Envelope {
        let mut env = Envelope::new(from, self.from.clone(), body);
        env.correlation = Some(self.id);
        env
    }
}

/// The opening message of the handshake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// Must be [`MAGIC`].
    pub magic: [u8; 4],
    /// The client's protocol major version.
    pub major: u16,
    /// The client's protocol minor version.
    pub minor: u16,
    /// The client's role (`inspector`, `auditor`, `implementer`).
    pub role: String,
    /// The client's actor name (`inspector-quality`).
    pub name: String,
    /// A fresh random nonce.
    pub nonce: [u8; 32],
    /// The client's kind within its role (`quality` for an Inspector), empty when the role has
    /// none: a Lead that did not start the actor (the remote runtime) learns from it what work
    /// the actor takes.
    pub kind: String,
}

/// A rule's enablement or severity changed by configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleOverride {
    /// The rule id (`quality/todo-marker`).
    pub rule: String,
    /// `false` disables the rule.
    pub enabled: bool,
    /// A replacement severity.
    pub severity: Option<Severity>,
}

/// How an Inspector should run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InspectOptions {
    /// Run no external command at all.
    pub no_exec: bool,
    /// The test command (argv); `None` means detect it.
    pub test_command: Option<Vec<String>>,
    /// Timeout of the test command, in milliseconds.
    pub test_timeout_ms: u64,
    /// Files larger than this are skipped (and listed).
    pub max_file_bytes: u64,
    /// Rule overrides from configuration.
    pub rule_overrides: Vec<RuleOverride>,
    /// Run only the rules carrying one of these dimensions (`--dimensions`); empty means all.
    pub dimensions: Vec<Dimension>,
    /// Which reviewer this Inspector kind runs (`[inspector.<kind>] backend`).
    pub backend: Backend,
    /// The agent backend's settings; required when `backend` is `Agent` or `Both`.
    pub agent: Option<AgentSpec>,
    /// The coverage command (argv), when configured; its percentage is reported.
    pub coverage_command: Option<Vec<String>>,
    /// The analyzers the quality Inspector runs unless `no_exec`: `auto` (those of the languages
    /// in scope), or named (`clippy`, `ruff`, `eslint`, `go-vet`); empty runs none (the Lead
    /// sends `[inspector] linters`, whose default is `auto`).
    pub linters: Vec<String>,
    /// Reuse and store per-file rule results under the repository's `.retake/cache/`
    /// (`[inspector] cache`, `--no-cache`); off unless the Lead turns it on.
    pub cache: bool,
    /// The commit whose repository-level files (`.retake/decisions.yaml`, `steering/`) the
    /// Inspector reads, so that the change under review cannot configure its own gate; `None`
    /// reads the work tree (no committed history, or `--trust-repo-config`).
    pub repo_files_rev: Option<String>,
    /// The project model the Lead built for this review: the hex content hash of
    /// `.retake/cache/project-<hash>.bin`. `None` (or a file that is gone or does not match)
    /// makes the Inspector build the model itself, with the same function.
    pub project_model: Option<String>,
    /// Which rules run and how severe they may be (`[rules] profile`, `--profile`); explicit
    /// `rule_overrides` apply on top.
    pub profile: RuleProfile,
    /// A session's changes, read from git once by the Lead for every Inspector of the review;
    /// `None` (another scope, an offline or older caller) makes an Inspector read them itself.
    pub session_changes: Option<crate::SessionChanges>,
    /// The repository-level files at `repo_files_rev`, read once by the Lead; a file not in it
    /// (or `None`) is read by the Inspector itself.
    pub repo_files: Option<crate::RevisionFiles>,
}

impl Default for InspectOptions {
    fn default() -> Self {
        InspectOptions {
            no_exec: false,
            test_command: None,
            test_timeout_ms: 300_000,
            max_file_bytes: 1024 * 1024,
            rule_overrides: Vec::new(),
            dimensions: Vec::new(),
            backend: Backend::Builtin,
            agent: None,
            coverage_command: None,
            linters: Vec::new(),
            cache: false,
            repo_files_rev: None,
            project_model: None,
            profile: RuleProfile::Default,
            session_changes: None,
            repo_files: None,
        }
    }
}

/// Which reviewer an Inspector kind runs (the Inspectors spec, "Backends"). Append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Backend {
    /// The built-in rule catalog (default).
    #[default]
    Builtin,
    /// Only the configured agent.
    Agent,
    /// The catalog and the agent, findings merged in one report.
    Both,
}

/// How an agent backend is reached. Append-only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AgentTransport {
    /// A command (argv, no shell) that reads the prompt on stdin and writes CPF on stdout.
    Command {
        /// The argv; run in the repository root.
        argv: Vec<String>,
    },
    /// An OpenAI-compatible chat endpoint; the reply's message content is read as CPF.
    Http {
        /// The endpoint: a base URL (`http://127.0.0.1:8080`) or the full chat completions URL.
        url: String,
        /// The model name sent with each request.
        model: String,
        /// The environment variable holding the API key (sent as a bearer token), if any.
        api_key_env: Option<String>,
    },
}

/// An agent backend as the Lead resolved it from configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSpec {
    /// Command or HTTP endpoint.
    pub transport: AgentTransport,
    /// Deadline of one attempt, in milliseconds; past it the command's process group is killed.
    pub timeout_ms: u64,
    /// The user's prompt template for this kind; `None` uses the built-in one.
    pub prompt_template: Option<String>,
    /// A consensus pipeline's sampling seed: an endpoint samples its answer (temperature above
    /// 0) reproducibly per seed, so the pipelines are independent opinions; `None` asks for the
    /// one deterministic answer (temperature 0).
    pub seed: Option<u64>,
    /// An endpoint's answer may be this many tokens at most: a model that loops stops here
    /// (`finish_reason: length`, an unusable answer) instead of at the deadline.
    pub max_tokens: u32,
    /// An endpoint's answer is streamed and each part after the first must arrive within this
    /// many milliseconds (a model that stalls is given up on before the deadline); 0 waits for
    /// the whole answer.
    pub idle_timeout_ms: u64,
    /// How long the agent's question to the author (pattern A) waits for its answer, in
    /// milliseconds; 0: nobody can answer in this review, so the agent is not invited to ask.
    pub question_timeout_ms: u64,
}

/// Lead → Inspector: review this scope and report to the named Auditor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InspectRequest {
    /// The review id.
    pub review: String,
    /// Absolute path of the repository root as the Inspector sees it.
    pub root: String,
    /// What to review.
    pub scope: Scope,
    /// The Auditor to report to.
    pub report_to: String,
    /// When the report is owed, milliseconds since the epoch.
    pub deadline_ms: u64,
    /// How to run.
    pub options: InspectOptions,
}

/// Lead → Auditor: audit this review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRequest {
    /// The review id.
    pub review: String,
    /// The scope label.
    pub scope: String,
    /// The Inspectors whose reports are expected.
    pub expect: Vec<String>,
    /// Recovery mode: the journaled reports, embedded; audit at once.
    pub recovery: Option<Vec<InspectorReport>>,
    /// Time budget, in milliseconds.
    pub budget_ms: u64,
    /// Test failure policy.
    pub test_failure: TestFailurePolicy,
    /// Inspectors already given up on, with the reason (recovery mode carries them).
    pub unavailable: Vec<(String, String)>,
    /// Absolute path of the repository root as the Auditor sees it, for reading the source in
    /// step 7; `None` decides every conflict on evidence.
    pub root: Option<String>,
    /// What the design and the steering files say (steps 3, 4, 8 and 9).
    pub context: SpecContext,
}

/// Every message. Append-only: new variants go at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Body {
    /// Handshake 1: client → server.
    Hello(Hello),
    /// Handshake 2: server → client, the server's nonce.
    Challenge {
        /// A fresh random nonce.
        nonce: [u8; 32],
    },
    /// Handshake 3: client → server, HMAC over the context, both nonces, role and name.
    Auth {
        /// The HMAC-SHA256.
        mac: Vec<u8>,
    },
    /// Handshake 4: server → client, with the server's proof that it knows the secret.
    Welcome {
        /// HMAC-SHA256 proving the server holds the secret.
        proof: Vec<u8>,
    },
    /// Refusal; the connection closes after it.
    Reject {
        /// Why.
        reason: String,
    },
    /// Liveness, from a dedicated task in every actor.
    Heartbeat {
        /// The actor's phase ([`Phase::Idle`] between pieces of work).
        phase: Phase,
        /// How far its work has got (`module:** 120/300`, `3 reports`).
        progress: Progress,
        /// When the current work started, ms since the epoch.
        busy_since_ms: Option<u64>,
    },
    /// Lead → actor: finish within the grace period and exit.
    Shutdown {
        /// Grace period in milliseconds.
        grace_ms: u64,
    },
    /// Actor → Lead: shutting down.
    ShutdownAck,
    /// Either side: closing the connection on purpose.
    Goodbye,
    /// Lead → Inspector.
    InspectRequest(InspectRequest),
    /// Inspector → Auditor, through the Lead (which journals it first).
    InspectorReport(InspectorReport),
    /// Lead → Auditor.
    AuditRequest(AuditRequest),
    /// Lead → Auditor: every expected report has been forwarded.
    AllReportsIn {
        /// The review id.
        review: String,
    },
    /// Lead → Auditor: an Inspector could not be replaced; proceed with `have` of `of`.
    InspectorUnavailable {
        /// The review id.
        review: String,
        /// The Inspector's actor name.
        name: String,
        /// Why.
        reason: String,
        /// Reports available.
        have: u32,
        /// Reports expected.
        of: u32,
    },
    /// Lead → Auditor: output your verdict now, PARTIAL_VERIFICATION if incomplete.
    OutputVerdictNow {
        /// The review id.
        review: String,
    },
    /// Auditor → Lead.
    AuditVerdict {
        /// The review id.
        review: String,
        /// The verdict and everything behind it.
        outcome: AuditOutcome,
    },
    /// Implementer → Lead: give me the lowest-id claimable task.
    ClaimTask,
    /// Lead → Implementer: the claimed task, with how to carry it out.
    TaskAssigned(TaskAssignment),
    /// Lead → Implementer: nothing to claim now.
    NoTaskAvailable {
        /// Ask again after this many milliseconds; `None`: nothing will become claimable.
        retry_after_ms: Option<u64>,
    },
    /// Implementer → Lead: one task-runner timeline event, as its `timeline.jsonl` line.
    TaskProgress {
        /// The task id.
        task: u32,
        /// The event's JSON line (without the newline).
        event: String,
    },
    /// Implementer → Lead: the task runner judged the task PASS.
    TaskCompleted {
        /// The task id.
        task: u32,
        /// What shows the work is done: the files changed and the last executor output.
        evidence: String,
        /// One line per iteration (`1 REJECT Q2,Q6`, `2 PASS`).
        history: Vec<String>,
    },
    /// Implementer → Lead: the attempt could not run at all (executor or repository error).
    TaskFailed {
        /// The task id.
        task: u32,
        /// The attempt that failed, from 1.
        attempt: u32,
        /// Why.
        reason: String,
    },
    /// Implementer → Lead (pattern C): the task did not pass within the iteration limit.
    Escalation {
        /// The task id.
        task: u32,
        /// Why, in one line (the last judgment's summary).
        reason: String,
        /// Iterations run in this attempt.
        attempts: u32,
        /// The last REJECT's issues, one per line (`type location: description`).
        unresolved: Vec<String>,
    },
    /// Implementer → Lead (pattern D): news for the other Implementers, which the Lead journals
    /// and hands on in their next assignments.
    PeerNote(PeerNote),
    /// Inspector → Lead: it cannot produce a report for this review and a replacement would
    /// not either (its agent's output was unusable after every attempt, or the agent cannot
    /// run). The Lead gives the Inspector up with this reason instead of re-spawning it.
    InspectorFailed {
        /// The review id.
        review: String,
        /// Why (`agent output unusable: …`).
        reason: String,
    },
    /// Inspector → Lead (pattern A): a question for the change's author, which the Lead
    /// journals and routes without acting on it.
    Question(Question),
    /// Lead → Inspector: the author's answer to its question.
    Answer(Answer),
}

impl Body {
    /// A short name for logs and journals.
    pub fn name(&self) -> &'static str {
        match self {
            Body::Hello(_) => "Hello",
            Body::Challenge { .. } => "Challenge",
            Body::Auth { .. } => "Auth",
            Body::Welcome { .. } => "Welcome",
            Body::Reject { .. } => "Reject",
            Body::Heartbeat { .. } => "Heartbeat",
            Body::Shutdown { .. } => "Shutdown",
            Body::ShutdownAck => "ShutdownAck",
            Body::Goodbye => "Goodbye",
            Body::InspectRequest(_) => "InspectRequest",
            Body::InspectorReport(_) => "InspectorReport",
            Body::AuditRequest(_) => "AuditRequest",
            Body::AllReportsIn { .. } => "AllReportsIn",
            Body::InspectorUnavailable { .. } => "InspectorUnavailable",
            Body::OutputVerdictNow { .. } => "OutputVerdictNow",
            Body::AuditVerdict { .. } => "AuditVerdict",
            Body::ClaimTask => "ClaimTask",
            Body::TaskAssigned(_) => "TaskAssigned",
            Body::NoTaskAvailable { .. } => "NoTaskAvailable",
            Body::TaskProgress { .. } => "TaskProgress",
            Body::TaskCompleted { .. } => "TaskCompleted",
            Body::TaskFailed { .. } => "TaskFailed",
            Body::Escalation { .. } => "Escalation",
            Body::PeerNote(_) => "PeerNote",
            Body::InspectorFailed { .. } => "InspectorFailed",
            Body::Question(_) => "Question",
            Body::Answer(_) => "Answer",
        }
    }
}
