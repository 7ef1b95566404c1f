//! The thin actix shell: receives an `InspectRequest`, runs the engine on a blocking thread (so
//! the heartbeat task keeps running), and sends the report to the Auditor through the Lead.

use crate::engine::{inspect, Context as ReviewContext, ContextError};
use actix::prelude::*;
use protocol::message::InspectRequest;
use protocol::session::Session;
use protocol::{Body, Envelope, InspectorKind, InspectorReport};
use std::path::Path;

/// Stack of the thread that runs a review.
const REVIEW_STACK_BYTES: usize = 256 * 1024 * 1024;

/// An envelope from the Lead.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming(pub Envelope);

/// One Inspector of one kind.
pub struct InspectorActor {
    kind: InspectorKind,
    session: Session,
}

impl InspectorActor {
    /// An Inspector of `kind` speaking through `session`.
    pub fn new(kind: InspectorKind, session: Session) -> InspectorActor {
        InspectorActor { kind, session }
    }
}

impl Actor for InspectorActor {
    type Context = Context<Self>;
}

/// Runs one request: build the scope's context and run the kind's rules.
pub fn review(
    kind: InspectorKind,
    name: &str,
    req: &InspectRequest,
) -> Result<InspectorReport, ContextError> {
    let ctx = ReviewContext::build(Path::new(&req.root), &req.scope, &req.options)?;
    Ok(inspect(kind, &ctx, name, &req.review))
}

impl Handler<Incoming> for InspectorActor {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        let Body::InspectRequest(req) = msg.0.body else {
            tracing::debug!(body = msg.0.body.name(), "ignored");
            return;
        };
        let session = self.session.clone();
        let kind = self.kind;
        session.status.set("inspect", &req.scope.label());
        let work = async move {
            let name = session.name.clone();
            let report_to = req.report_to.clone();
            let (tx, rx) = tokio::sync::oneshot::channel();
            // Its own thread with a large stack: syn recurses deeply on generated or heavily
            // nested code, and a review must not overflow where the 2 MiB default would.
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-review"))
                .stack_size(REVIEW_STACK_BYTES)
                .spawn(move || {
                    let _receiver_gone = tx.send(review(kind, &name, &req));
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start the review thread");
                let _gone = session.send(protocol::message::LEAD, Body::Goodbye).await;
                return;
            }
            match rx.await {
                Ok(Ok(report)) => {
                    session
                        .status
                        .set("report", &format!("{} findings", report.findings.len()));
                    if let Err(e) = session
                        .send(&report_to, Body::InspectorReport(report))
                        .await
                    {
                        tracing::error!(error = %e, "could not send the report");
                    }
                    session.status.set("idle", "");
                }
                Ok(Err(e)) => {
                    tracing::error!(error = %e, "cannot review this scope");
                    let _gone = session.send(protocol::message::LEAD, Body::Goodbye).await;
                }
                Err(_) => tracing::error!("the review thread ended without a report"),
            }
        };
        ctx.spawn(work.into_actor(self));
    }
}
