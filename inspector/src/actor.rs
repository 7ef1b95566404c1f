//! The thin actix shell: receives an `InspectRequest`, runs the engine on a blocking thread (so
//! the heartbeat task keeps running), and sends the report to the Auditor through the Lead.

use crate::engine::{inspect, Context as ReviewContext, ContextError};
use actix::prelude::*;
use protocol::message::InspectRequest;
use protocol::session::Session;
use protocol::{Body, Envelope, InspectorKind, InspectorReport};
use std::path::Path;

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
            match tokio::task::spawn_blocking(move || review(kind, &name, &req)).await {
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
                Err(e) => tracing::error!(error = %e, "the review thread failed"),
            }
        };
        ctx.spawn(work.into_actor(self));
    }
}
