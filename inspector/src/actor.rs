//! The thin actix shell: receives an `InspectRequest`, runs the engine (and the kind's agent
//! backend, when configured) on a thread of its own (so the heartbeat task keeps running), and
//! sends the report to the Auditor through the Lead. A review that cannot be done — a bad scope,
//! an agent that gave no usable report — sends no report at all: the Inspector says Goodbye, so
//! the Lead sees a failed Inspector and never a fake clean result. An agent's questions to the
//! author go to the Lead as `Question`s; the review thread waits for the `Answer` this actor
//! receives (pattern A).

use crate::backend::{self, Asker, BackendError};
use crate::engine::{Context as ReviewContext, ContextError, Progress};
use actix::prelude::*;
use protocol::message::{self, Count, InspectRequest, Phase, Unit};
use protocol::session::{AgentUsage, Session};
use protocol::{Body, Envelope, InspectorKind, InspectorReport};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How often the review's progress is copied into the heartbeat status.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Stack of the thread that runs a review.
const REVIEW_STACK_BYTES: usize = 256 * 1024 * 1024;

/// An envelope from the Lead.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming(pub Envelope);

/// The questions waiting for their answers, by review and question id.
type Pending = Arc<Mutex<HashMap<(String, u32), mpsc::Sender<(String, String)>>>>;

/// One Inspector of one kind.
pub struct InspectorActor {
    kind: InspectorKind,
    session: Session,
    pending: Pending,
}

impl InspectorActor {
    /// An Inspector of `kind` speaking through `session`.
    pub fn new(kind: InspectorKind, session: Session) -> InspectorActor {
        InspectorActor {
            kind,
            session,
            pending: Pending::default(),
        }
    }
}

/// The review thread's way to the author: a `Question` to the Lead, then a wait for the answer
/// the actor hands over.
struct SessionAsker {
    session: Session,
    runtime: tokio::runtime::Handle,
    pending: Pending,
}

impl Asker for SessionAsker {
    fn ask(&self, question: &message::Question, timeout: Duration) -> Option<(String, String)> {
        let key = (question.review.clone(), question.id);
        let (tx, rx) = mpsc::channel();
        self.pending.lock().ok()?.insert(key.clone(), tx);
        let session = self.session.clone();
        let body = Body::Question(question.clone());
        self.runtime.spawn(async move {
            if let Err(e) = session.send(protocol::message::LEAD, body).await {
                tracing::warn!(error = %e, "could not send a question");
            }
        });
        let answer = rx.recv_timeout(timeout).ok();
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&key);
        }
        answer
    }
}

impl Actor for InspectorActor {
    type Context = Context<Self>;
}

/// Why an Inspector produced no report.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The scope could not be resolved.
    #[error(transparent)]
    Context(#[from] ContextError),
    /// The agent backend failed (fail-closed).
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl ReviewError {
    /// What the Lead is told (`InspectorFailed`), and the review's coverage shows.
    pub fn reason(&self) -> String {
        match self {
            ReviewError::Backend(e @ BackendError::Unusable { .. }) => {
                format!("agent output unusable: {e}")
            }
            ReviewError::Backend(e) => format!("agent failed: {e}"),
            ReviewError::Context(e) => format!("no scope to review: {e}"),
        }
    }
}

/// Runs one request: build the scope's context and run the kind's backend over it (its agent's
/// questions through `asker`); also what its agent backend cost, report or not.
pub fn review(
    kind: InspectorKind,
    name: &str,
    req: &InspectRequest,
    progress: &Progress,
    asker: Option<&dyn Asker>,
) -> (Result<InspectorReport, ReviewError>, AgentUsage) {
    let mut ctx = match ReviewContext::build(Path::new(&req.root), &req.scope, &req.options) {
        Ok(ctx) => ctx,
        Err(e) => return (Err(e.into()), AgentUsage::default()),
    };
    ctx.progress = progress.clone();
    let report =
        backend::review(kind, &mut ctx, name, &req.review, asker).map_err(ReviewError::from);
    (report, ctx.agent_usage)
}

impl Handler<Incoming> for InspectorActor {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        let req = match msg.0.body {
            Body::InspectRequest(req) => req,
            Body::Answer(answer) => {
                let key = (answer.review, answer.id);
                let waiting = self.pending.lock().ok().and_then(|mut p| p.remove(&key));
                match waiting {
                    Some(tx) => {
                        let _thread_gone = tx.send((answer.by, answer.text));
                    }
                    None => tracing::debug!(id = key.1, "an answer nobody waits for: ignored"),
                }
                return;
            }
            other => {
                tracing::debug!(body = other.name(), "ignored");
                return;
            }
        };
        let session = self.session.clone();
        let kind = self.kind;
        let scope = req.scope.label();
        session
            .status
            .set(Phase::Inspect, message::Progress::about(scope.clone()));
        let progress = Progress::default();
        let asker = SessionAsker {
            session: session.clone(),
            runtime: tokio::runtime::Handle::current(),
            pending: self.pending.clone(),
        };
        let work = async move {
            let name = session.name.clone();
            let report_to = req.report_to.clone();
            let review_id = req.review.clone();
            let (tx, rx) = tokio::sync::oneshot::channel();
            // Its own thread with a large stack: syn recurses deeply on generated or heavily
            // nested code, and a review must not overflow where the 2 MiB default would.
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-review"))
                .stack_size(REVIEW_STACK_BYTES)
                .spawn({
                    let progress = progress.clone();
                    move || {
                        let asked = review(kind, &name, &req, &progress, Some(&asker));
                        let _receiver_gone = tx.send(asked);
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start the review thread");
                let _gone = session.send(protocol::message::LEAD, Body::Goodbye).await;
                return;
            }
            // The heartbeat carries the rules' progress: the Lead extends the report deadline of
            // an Inspector whose progress moves (the supervision spec's "idle but no output" is no progress).
            let mut rx = std::pin::pin!(rx);
            let mut tick = tokio::time::interval(PROGRESS_EVERY);
            let outcome = loop {
                tokio::select! {
                    outcome = &mut rx => break outcome.map(|(report, usage)| {
                        session.on_agent(usage);
                        report
                    }),
                    _ = tick.tick() => {
                        let moved = message::Progress::about(scope.clone());
                        session.status.progress(moved.with_count(progress.count()));
                    }
                }
            };
            match outcome {
                Ok(Ok(report)) => {
                    let findings = Count::tally(report.findings.len() as u64, Unit::Findings);
                    session
                        .status
                        .set(Phase::Report, message::Progress::counted(findings));
                    if let Err(e) = session
                        .send(&report_to, Body::InspectorReport(report))
                        .await
                    {
                        tracing::error!(error = %e, "could not send the report");
                    }
                    session
                        .status
                        .set(Phase::Idle, message::Progress::default());
                }
                Ok(Err(e)) => {
                    // Deterministic (the agent's output, the scope): a replacement would fail
                    // the same way, so the Lead is told why instead of re-spawning.
                    tracing::error!(error = %e, "no report: this Inspector failed");
                    let failed = Body::InspectorFailed {
                        review: review_id,
                        reason: e.reason(),
                    };
                    let _gone = session.send(protocol::message::LEAD, failed).await;
                }
                Err(_) => {
                    // The review thread panicked: a failed Inspector, never a silent one.
                    tracing::error!("the review thread ended without a report");
                    let _gone = session.send(protocol::message::LEAD, Body::Goodbye).await;
                }
            }
        };
        ctx.spawn(work.into_actor(self));
    }
}
