//! Container scenarios (the deployment spec): a review job submitted to `retake serve` running in a
//! Docker Compose stack, with containers killed, paused, cut off or restarted at chosen moments,
//! checked against the same `[expect]` table as a local scenario.
//!
//! A scenario file with `runtime = "compose"` carries a `[compose]` table: the compose files (the
//! shipped `deploy/compose.yaml` and overrides), replicas per service, and the timed actions.
//! This module is the table and its checks; `docker` wraps the Compose and Docker command lines,
//! `logs` reads the Lead's log (which worker serves which instance), `run` runs one scenario.

mod api;
mod docker;
mod logs;
mod run;
mod run_error;

pub use docker::{compose_program, Compose, ComposeMissing, DockerError, COMPOSE_ENV};
pub use logs::{claims, registrations, worker_host, Claim};
pub use run::{execute, PROJECT_ENV};

use crate::file_error::ScenarioFileError as E;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The stack a container scenario runs in and what happens to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stack {
    /// Compose files, the base first (absolute paths).
    pub files: Vec<PathBuf>,
    /// Replicas of a service (`up --scale SERVICE=N`); absent services run one.
    pub scale: BTreeMap<String, u32>,
    /// The actions, done one after another, each at its trigger.
    pub actions: Vec<Action>,
    /// Instance → how many times the Lead claimed a worker for it over the whole job (from its
    /// log): a resumed review must not re-run a journaled Inspector.
    pub claims: BTreeMap<String, u32>,
    /// After the review: unpause, reconnect, restart what was killed, and require every worker
    /// to be registered with the Lead again (the stack is whole).
    pub heal: bool,
    /// How long after the `idle` actions the job is submitted.
    pub submit_after: Duration,
}

/// One timed action on a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// What starts its clock.
    pub when: Trigger,
    /// How long after the trigger it happens.
    pub after: Duration,
    /// What is done.
    pub verb: Verb,
    /// The compose service whose container it is done to.
    pub service: String,
    /// The compose network of `disconnect`/`connect`.
    pub network: String,
    /// `run`: the exit code the one-shot container must end with.
    pub exit_code: Option<i32>,
    /// `run`: text its standard error must hold.
    pub stderr: Option<String>,
}

/// What starts an action's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// Every worker is idle in the pool, before the job is submitted (the stack is whole, or
    /// the previous `idle` action was done): the action is done to the container of the
    /// service's worker the next claim would take, and the job waits for these actions.
    Idle,
    /// The job was submitted.
    Submitted,
    /// The Lead logged that a worker was claimed for this instance (`inspector-quality`); the
    /// action is done to that worker's container when it belongs to the service.
    Claimed(String),
}

/// What an action does to a container (the `docker` command of the same name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// `docker kill`: SIGKILL; Docker's restart policy does not restart it (a manual stop).
    Kill,
    /// SIGKILL to the container's first process from the host, as the kernel's OOM killer would
    /// do it: the container dies on its own, so its restart policy starts it again.
    Crash,
    /// `docker pause`: frozen, a real hang; its connections stay open.
    Pause,
    /// `docker unpause`.
    Unpause,
    /// `docker network disconnect`: cut off, connections silently dead.
    Disconnect,
    /// `docker network connect`.
    Connect,
    /// `docker restart`: SIGTERM, then started again.
    Restart,
    /// `compose run --rm SERVICE`: a one-shot container beside the stack (the service's own
    /// command, a whole review), checked against the action's `exit_code` and `stderr`.
    Run,
}

impl Verb {
    /// The action's name in a scenario file (`kill`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Kill => "kill",
            Verb::Crash => "crash",
            Verb::Pause => "pause",
            Verb::Unpause => "unpause",
            Verb::Disconnect => "disconnect",
            Verb::Connect => "connect",
            Verb::Restart => "restart",
            Verb::Run => "run",
        }
    }

    fn parse(text: &str) -> Option<Verb> {
        [
            Verb::Kill,
            Verb::Crash,
            Verb::Pause,
            Verb::Unpause,
            Verb::Disconnect,
            Verb::Connect,
            Verb::Restart,
            Verb::Run,
        ]
        .into_iter()
        .find(|v| v.as_str() == text)
    }
}

/// Where the Lead's service sees the reviewed repository: deploy/compose.yaml mounts
/// `RETAKE_REPO` there.
pub const REPO_IN_STACK: &str = "/repo";

/// The `[compose]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStack {
    files: Vec<PathBuf>,
    #[serde(default)]
    scale: BTreeMap<String, u32>,
    #[serde(default)]
    actions: Vec<RawAction>,
    #[serde(default)]
    claims: BTreeMap<String, u32>,
    #[serde(default = "yes")]
    heal: bool,
    #[serde(default)]
    submit_after_ms: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    #[serde(default = "submitted")]
    when: String,
    #[serde(default)]
    after_ms: u64,
    #[serde(rename = "do")]
    verb: String,
    service: String,
    #[serde(default = "private_network")]
    network: String,
    exit_code: Option<i32>,
    stderr: Option<String>,
}

fn yes() -> bool {
    true
}

fn submitted() -> String {
    "submitted".into()
}

fn private_network() -> String {
    "retake".into()
}

/// Checks the `[compose]` table; `base` anchors relative file paths (the scenario's folder).
/// Errors name the key.
pub(super) fn stack(raw: RawStack, base: &Path) -> Result<Stack, E> {
    if raw.files.is_empty() {
        return Err(E::NoComposeFiles);
    }
    let mut files = Vec::new();
    for (i, file) in raw.files.iter().enumerate() {
        let path = base.join(file);
        let path = std::fs::canonicalize(&path)
            .ok()
            .filter(|p| p.is_file())
            .ok_or_else(|| E::NoComposeFile {
                index: i,
                path: path.clone(),
            })?;
        files.push(path);
    }
    if let Some((service, _)) = raw.scale.iter().find(|(_, n)| **n == 0) {
        return Err(E::ZeroScale {
            service: service.clone(),
        });
    }
    let mut actions = Vec::new();
    for (index, a) in raw.actions.into_iter().enumerate() {
        let verb = Verb::parse(&a.verb).ok_or_else(|| E::UnknownAction {
            index,
            verb: a.verb.clone(),
        })?;
        let when = match a.when.as_str() {
            "idle" => Trigger::Idle,
            "submitted" => Trigger::Submitted,
            other => match other.strip_prefix("claimed:") {
                Some(instance) if !instance.is_empty() => Trigger::Claimed(instance.to_string()),
                _ => {
                    return Err(E::UnknownTrigger {
                        index,
                        when: other.to_string(),
                    })
                }
            },
        };
        if a.service.trim().is_empty() {
            return Err(E::NoService { index });
        }
        if when == Trigger::Idle && actions.iter().any(|a: &Action| a.when != Trigger::Idle) {
            return Err(E::LateIdle { index });
        }
        if verb != Verb::Run && (a.exit_code.is_some() || a.stderr.is_some()) {
            return Err(E::RunChecksElsewhere { index });
        }
        actions.push(Action {
            when,
            after: Duration::from_millis(a.after_ms),
            verb,
            service: a.service,
            network: a.network,
            exit_code: a.exit_code,
            stderr: a.stderr,
        });
    }
    Ok(Stack {
        files,
        scale: raw.scale,
        actions,
        claims: raw.claims,
        heal: raw.heal,
        submit_after: Duration::from_millis(raw.submit_after_ms),
    })
}

#[cfg(test)]
mod tests;
