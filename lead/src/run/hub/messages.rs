//! What the team hub is configured with, what it hands back, and the messages it handles.

use super::super::board::Board;
use crate::runtime::hub::{Ended, Hub};
use crate::runtime::supervisor::Policy;
use crate::runtime::Spawner;
use actix::prelude::*;
use futures::future::BoxFuture;
use futures::FutureExt as _;
use protocol::message::{ExecutorSpec, LoopSpec};
use protocol::wire::Outbox;
use protocol::Envelope;
use std::time::Duration;

/// What every assignment of a phase shares.
#[derive(Debug, Clone)]
pub struct AssignmentBase {
    /// The repository root (absolute).
    pub root: String,
    /// The executor.
    pub executor: ExecutorSpec,
    /// The task runner's settings.
    pub runner: LoopSpec,
    /// House rules for the prompt.
    pub rules: Vec<String>,
}

/// One team phase's settings.
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// The session id, for `tasks.json`.
    pub session_id: String,
    /// What assignments carry.
    pub base: AssignmentBase,
    /// Implementers to start (`implementer-1` …).
    pub implementers: u32,
    /// Liveness timing and restart limits.
    pub policy: Policy,
    /// How long one task may take an Implementer before it is overdue.
    pub task_budget: Duration,
    /// Grace of `Shutdown`.
    pub grace: Duration,
    /// Signals, scoped reviews and high-priority tasks.
    pub phase_b: super::PhaseBConfig,
}

/// How a team phase ended.
#[derive(Debug)]
pub struct PhaseResult {
    /// The board: every task completed or failed.
    pub board: Board,
    /// Re-spawns per Implementer slot.
    pub restarts: Vec<(String, u32)>,
}

/// An authenticated Implementer connected.
#[derive(Message)]
#[rtype(result = "bool")]
pub struct Connected {
    /// Its instance name.
    pub name: String,
    /// Where to send to it.
    pub outbox: Outbox,
}

/// An envelope from an authenticated Implementer.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming {
    /// The authenticated sender.
    pub from: String,
    /// The envelope.
    pub env: Envelope,
}

/// An Implementer's connection closed or its process ended.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Lost {
    /// Its instance name.
    pub name: String,
    /// Why.
    pub reason: String,
}

/// Ends the hub and hands its spawner back for reaping.
#[derive(Message)]
#[rtype(result = "Option<Box<dyn Spawner>>")]
pub struct StopHub;

impl Hub for Addr<super::TeamHub> {
    fn connected(&self, name: String, outbox: Outbox) -> BoxFuture<'static, bool> {
        // A hub that is gone took nobody.
        let sent = self.send(Connected { name, outbox });
        sent.map(|taken| taken.unwrap_or(false)).boxed()
    }

    fn incoming(&self, from: String, env: Envelope) {
        self.do_send(Incoming { from, env });
    }

    fn lost(&self, name: String, reason: String, _how: Ended) {
        // An Implementer's connection and its process are one: either ending loses it.
        self.do_send(Lost { name, reason });
    }
}
