//! What a review is configured with, as the review reads it: typed values the application
//! derives from its settings (`retake.toml`, the environment, flags), so that this crate never
//! sees a configuration file or a key name.

use host::setup::Hosting;
use protocol::message::{AgentSpec, Backend, InspectOptions, RuleProfile, TestFailurePolicy};
use protocol::InspectorKind;
use std::collections::BTreeMap;
use std::time::Duration;

/// A review's configuration.
#[derive(Debug, Clone)]
pub struct ReviewConfig {
    /// What every Inspector is sent before the review's own facts (scope, prepared session,
    /// `no_exec`, the trusted revision) and its kind's backend: the test and coverage commands,
    /// limits, rule profile and overrides, linters, cache, dimensions.
    pub inspect: InspectOptions,
    /// Each kind's backend and, when it uses one, its agent (a kind not listed runs the
    /// built-in rules).
    pub backends: BTreeMap<InspectorKind, (Backend, Option<AgentSpec>)>,
    /// Extra time an Inspector with an agent backend needs: every attempt's timeout (zero when
    /// every kind is built in).
    pub agent_budget: Duration,
    /// The test command's time limit.
    pub test_timeout: Duration,
    /// The audit's budget, milliseconds.
    pub audit_budget_ms: u64,
    /// What the audit does with test failures.
    pub test_failure: TestFailurePolicy,
    /// Supervision's timing and limits.
    pub supervision: Supervision,
    /// The whole review's deadline.
    pub timeout: Duration,
    /// How the actors are started.
    pub hosting: Hosting,
    /// The Inspectors' questions to the author (pattern A).
    pub questions: Questions,
}

/// How the Inspectors' questions to the author are answered.
#[derive(Debug, Clone)]
pub struct Questions {
    /// How long an agent's question waits for its answer; zero: no agent is invited to ask.
    pub timeout: Duration,
    /// The `answer.md` template the agent standing in for the author is prompted with.
    pub template: String,
}

/// Supervision's timing and limits (`[supervision]`).
#[derive(Debug, Clone)]
pub struct Supervision {
    /// Heartbeats missed before an actor is suspect.
    pub suspect_after: u32,
    /// How long a started actor has to connect.
    pub connect_timeout: Duration,
    /// How long the Auditor has to answer a nudge.
    pub nudge_timeout: Duration,
    /// Restarts per role within `restart_window`.
    pub max_restarts: u32,
    /// The window `max_restarts` counts in.
    pub restart_window: Duration,
    /// How long an actor told to shut down has to go.
    pub shutdown_grace: Duration,
    /// An Inspector's report deadline (without the agent budget).
    pub inspect_deadline: Duration,
    /// The Auditor's verdict deadline once every report is in.
    pub audit_deadline: Duration,
}

impl ReviewConfig {
    /// The rule profile the Inspectors run under.
    pub fn profile(&self) -> RuleProfile {
        self.inspect.profile
    }

    /// `base` completed with `kind`'s backend and agent.
    pub fn options_for(&self, kind: InspectorKind, base: InspectOptions) -> InspectOptions {
        let (backend, agent) = self.backends.get(&kind).cloned().unwrap_or_default();
        InspectOptions {
            backend,
            agent,
            ..base
        }
    }
}
