//! The messages the coordinator receives, and what a review ends with.

use crate::runtime::hub::{Ended, Hub};
use actix::prelude::*;
use futures::future::BoxFuture;
use futures::FutureExt as _;
use protocol::wire::Outbox;
use protocol::{AuditOutcome, Envelope, InspectorReport};
use std::collections::BTreeMap;

/// Why a review could not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewFailure {
    /// The journal could not be written.
    #[error("cannot write the journal: {0}")]
    Journal(String),
    /// The Lead could not start an actor at all (not a recoverable actor failure).
    #[error("cannot start {name}: {reason}")]
    Spawn {
        /// The actor.
        name: String,
        /// The error.
        reason: String,
    },
}

/// A finished review.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The verdict (the Auditor's, or the Lead's derived one).
    pub outcome: AuditOutcome,
    /// The Inspectors' reports, by logical name.
    pub reports: BTreeMap<String, InspectorReport>,
    /// Re-spawns per logical actor.
    pub restarts: BTreeMap<String, u32>,
}

/// An authenticated actor connected.
#[derive(Message)]
#[rtype(result = "bool")]
pub struct Connected {
    /// Its authenticated instance name.
    pub name: String,
    /// Where to send to it.
    pub outbox: Outbox,
}

/// An envelope arrived from an authenticated actor.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming {
    /// The authenticated sender.
    pub from: String,
    /// The envelope.
    pub env: Envelope,
}

/// An actor's connection closed or its process exited.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Lost {
    /// The instance.
    pub name: String,
    /// What happened ("was killed by signal 9", "disconnected").
    pub reason: String,
    /// The connection closed (rather than the process being seen to exit).
    pub connection_closed: bool,
}

/// Ends the review: every actor is told to shut down; the spawner is handed back for reaping.
#[derive(Message)]
#[rtype(result = "Option<Box<dyn crate::runtime::Spawner>>")]
pub struct Stop;

impl Hub for Addr<super::Coordinator> {
    fn connected(&self, name: String, outbox: Outbox) -> BoxFuture<'static, bool> {
        // A coordinator that is gone took nobody.
        let sent = self.send(Connected { name, outbox });
        sent.map(|taken| taken.unwrap_or(false)).boxed()
    }

    fn incoming(&self, from: String, env: Envelope) {
        self.do_send(Incoming { from, env });
    }

    fn lost(&self, name: String, reason: String, how: Ended) {
        self.do_send(Lost {
            name,
            reason,
            connection_closed: how == Ended::Connection,
        });
    }
}
