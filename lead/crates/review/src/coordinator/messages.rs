//! The messages the coordinator receives, and what a review ends with.

use actix::prelude::*;
use protocol::{AuditOutcome, InspectorReport};
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
    /// The Inspectors' questions to the author and what became of them.
    pub questions: Vec<crate::questions::Exchange>,
}

/// Ends the review: every actor is told to shut down; the spawner is handed back for reaping.
#[derive(Message)]
#[rtype(result = "Option<Box<dyn host::Spawner>>")]
pub struct Stop;
