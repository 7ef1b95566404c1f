//! One review: validate the scope, start the actors in the chosen runtime, let the hub collect
//! and journal the reports and the verdict, then shut every actor down.

pub mod coordinator;
pub mod hub;

use crate::config::Settings;
use crate::journal::{new_run_id, Journal};
use crate::runtime::{inproc, local, ActorSpec, Runtime};
use actix::Actor;
use coordinator::{Coordinator, Finished, Outboxes, Plan, ReviewFailure};
use protocol::message::{
    now_ms, AuditRequest, InspectOptions, InspectRequest, TestFailurePolicy, LEAD,
};
use protocol::wire::{Secret, WireConfig};
use protocol::{Body, Envelope, InspectorKind, Scope};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The Auditor's actor name in a single-pipeline review.
pub const AUDITOR: &str = "auditor";

/// What to review and how.
#[derive(Debug, Clone)]
pub struct ReviewRequest {
    /// Repository root (absolute).
    pub repo: PathBuf,
    /// The scope.
    pub scope: Scope,
    /// Runtime.
    pub runtime: Runtime,
    /// Run no external command.
    pub no_exec: bool,
    /// Effective configuration.
    pub settings: Settings,
}

/// A finished review with where it was journaled.
#[derive(Debug, Clone)]
pub struct ReviewOutput {
    /// The run id.
    pub run_id: String,
    /// The run's journal folder.
    pub journal_dir: PathBuf,
    /// The outcome and reports.
    pub finished: Finished,
}

/// Why a review did not produce a verdict.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The scope is not reviewable (bad glob, phase gate, malformed spec).
    #[error("{0}")]
    Scope(String),
    /// An actor failed.
    #[error(transparent)]
    Failed(#[from] ReviewFailure),
    /// The whole review ran past its deadline.
    #[error("the review did not finish within {0} s")]
    TimedOut(u64),
    /// Local I/O failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: std::io::Error,
    },
}

fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> ReviewError {
    let context = context.into();
    move |source| ReviewError::Io { context, source }
}

/// Checks the scope before any actor starts, so a bad glob or a refused phase gate is one clear
/// error and not six failing actors.
pub fn validate_scope(repo: &Path, scope: &Scope) -> Result<(), ReviewError> {
    if let Scope::Feature { feature, .. } = scope {
        inspector::spec::phase_gate(repo, feature)
            .map_err(|e| ReviewError::Scope(e.to_string()))?;
    }
    let probe = InspectOptions {
        max_file_bytes: 0,
        ..InspectOptions::default()
    };
    // Building a context with a zero size limit resolves the scope and parses the specs without
    // reading any file content.
    inspector::Context::build(repo, scope, &probe)
        .map(|_| ())
        .map_err(|e| ReviewError::Scope(e.to_string()))
}

/// Runs one review to its verdict.
pub fn run(req: ReviewRequest) -> Result<ReviewOutput, ReviewError> {
    validate_scope(&req.repo, &req.scope)?;
    let state_dir = req.repo.join(".retake");
    let run_id = new_run_id();
    let journal =
        Journal::create(&state_dir, &run_id).map_err(io("cannot create the run journal"))?;
    let journal_dir = journal.dir().to_path_buf();
    let s = &req.settings;
    let heartbeat = Duration::from_millis(s.supervision.heartbeat_interval_ms);
    let wire = WireConfig {
        max_frame: s.wire.max_frame_bytes,
        handshake_timeout: Duration::from_millis(s.wire.handshake_timeout_ms),
    };
    let plan = plan(&req, &run_id, heartbeat);
    let specs: Vec<ActorSpec> = plan
        .inspections
        .iter()
        .filter_map(|(name, _)| {
            name.parse::<InspectorKind>()
                .ok()
                .map(|k| ActorSpec::Inspector(k, name.clone()))
        })
        .chain(std::iter::once(ActorSpec::Auditor(AUDITOR.to_string())))
        .collect();
    let timeout = Duration::from_secs(s.review.timeout_secs);
    let grace = Duration::from_millis(s.supervision.shutdown_grace_ms);
    let exe = std::env::current_exe().map_err(io("cannot find the retake executable"))?;
    let runtime = req.runtime;
    let finished = actix::System::new().block_on(async move {
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let coordinator = Coordinator::new(plan, journal, done_tx).start();
        let secret = Secret::generate();
        let mut children = Vec::new();
        let mut arbiters = Vec::new();
        match runtime {
            Runtime::Local => {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .map_err(io("cannot listen on loopback"))?;
                let addr = listener
                    .local_addr()
                    .map_err(io("cannot read the listen address"))?;
                actix::spawn(hub::accept_loop(
                    listener,
                    secret.clone(),
                    wire.clone(),
                    coordinator.clone(),
                ));
                for spec in &specs {
                    let child = local::spawn(
                        &exe,
                        spec,
                        addr,
                        &secret,
                        heartbeat,
                        wire.max_frame,
                        coordinator.clone(),
                    )
                    .map_err(io(format!("cannot start {}", spec.name())))?;
                    children.push(child);
                }
            }
            Runtime::Inproc => {
                for spec in &specs {
                    arbiters.push(inproc::spawn(
                        spec,
                        &secret,
                        &wire,
                        heartbeat,
                        coordinator.clone(),
                    ));
                }
            }
        }
        let result = match tokio::time::timeout(timeout, done_rx).await {
            Ok(Ok(result)) => result.map_err(ReviewError::from),
            Ok(Err(_)) => Err(ReviewError::Failed(ReviewFailure::Journal(
                "the hub stopped".into(),
            ))),
            Err(_) => Err(ReviewError::TimedOut(timeout.as_secs())),
        };
        let outboxes = coordinator.send(Outboxes).await.unwrap_or_default();
        for (name, outbox) in outboxes {
            let _gone = outbox.try_send(Envelope::new(
                LEAD,
                &name,
                Body::Shutdown {
                    grace_ms: grace.as_millis() as u64,
                },
            ));
        }
        local::reap(children, grace).await;
        for arbiter in arbiters {
            arbiter.stop();
        }
        result
    })?;
    Ok(ReviewOutput {
        run_id,
        journal_dir,
        finished,
    })
}

fn plan(req: &ReviewRequest, review: &str, heartbeat: Duration) -> Plan {
    let s = &req.settings;
    let options = InspectOptions {
        no_exec: req.no_exec,
        test_command: s.test.command.clone(),
        test_timeout_ms: s.test.timeout_secs * 1000,
        max_file_bytes: s.inspector.max_file_bytes,
        rule_overrides: s.rule_overrides(),
    };
    let deadline_ms = now_ms() + s.review.timeout_secs * 1000;
    let inspections = InspectorKind::ALL
        .into_iter()
        .map(|kind| {
            let name = kind.actor_name();
            let request = InspectRequest {
                review: review.to_string(),
                root: req.repo.to_string_lossy().into_owned(),
                scope: req.scope.clone(),
                report_to: AUDITOR.to_string(),
                deadline_ms,
                options: options.clone(),
            };
            (name, request)
        })
        .collect::<Vec<_>>();
    let audit = AuditRequest {
        review: review.to_string(),
        scope: req.scope.label(),
        expect: inspections.iter().map(|(n, _)| n.clone()).collect(),
        recovery: None,
        budget_ms: s.audit.budget_ms,
        test_failure: if s.audit.test_failure == "conditional" {
            TestFailurePolicy::Conditional
        } else {
            TestFailurePolicy::NoGo
        },
    };
    Plan {
        inspections,
        audit: (AUDITOR.to_string(), audit),
        heartbeat,
        suspect_after: s.supervision.suspect_after,
        connect_timeout: Duration::from_millis(s.supervision.connect_timeout_ms),
    }
}
