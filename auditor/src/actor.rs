//! The thin actix shell: collects reports for the current review and audits when the Lead says
//! every report is in (never by counting arrivals), when told to output now, or at once in
//! recovery mode — with the request's design and steering context, and a source reader rooted at
//! the repository the request names.

use actix::prelude::*;
use protocol::message::{AuditRequest, Count, Phase, Progress, Unit, LEAD};
use protocol::session::Session;
use protocol::{Body, Envelope, InspectorReport};

/// The progress of holding `n` reports (`3 reports`).
fn reports_in(n: usize) -> Progress {
    Progress::counted(Count::tally(n as u64, Unit::Reports))
}

/// An envelope from the Lead.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming(pub Envelope);

/// The Auditor.
pub struct AuditorActor {
    session: Session,
    request: Option<AuditRequest>,
    reports: Vec<InspectorReport>,
    unavailable: Vec<(String, String)>,
}

impl AuditorActor {
    /// An Auditor speaking through `session`.
    pub fn new(session: Session) -> AuditorActor {
        AuditorActor {
            session,
            request: None,
            reports: Vec::new(),
            unavailable: Vec::new(),
        }
    }

    fn current(&self, review: &str) -> bool {
        self.request.as_ref().is_some_and(|r| r.review == review)
    }

    fn audit_now(&mut self, ctx: &mut Context<Self>) {
        let Some(request) = self.request.take() else {
            return;
        };
        let session = self.session.clone();
        let reports = std::mem::take(&mut self.reports);
        let unavailable = std::mem::take(&mut self.unavailable);
        session.status.set(Phase::Audit, reports_in(reports.len()));
        let work = async move {
            let review = request.review.clone();
            let outcome = tokio::task::spawn_blocking(move || {
                // The budget runs from when the audit starts; past it the audit jumps to step 10
                // and notes PARTIAL_VERIFICATION, so a verdict always comes out.
                let deadline =
                    std::time::Instant::now() + std::time::Duration::from_millis(request.budget_ms);
                let spent = move || std::time::Instant::now() > deadline;
                crate::audit_request(&request, &reports, &unavailable, &spent)
            })
            .await;
            match outcome {
                Ok(outcome) => {
                    session
                        .status
                        .set(Phase::Verdict, Progress::about(outcome.verdict.as_str()));
                    if let Err(e) = session
                        .send(LEAD, Body::AuditVerdict { review, outcome })
                        .await
                    {
                        tracing::error!(error = %e, "could not send the verdict");
                    }
                    session.status.set(Phase::Idle, Progress::default());
                }
                Err(e) => tracing::error!(error = %e, "the audit thread failed"),
            }
        };
        ctx.spawn(work.into_actor(self));
    }
}

impl Actor for AuditorActor {
    type Context = Context<Self>;
}

impl Handler<Incoming> for AuditorActor {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        match msg.0.body {
            Body::AuditRequest(mut req) => {
                self.reports.clear();
                let recovery = req.recovery.take();
                self.unavailable = std::mem::take(&mut req.unavailable);
                self.request = Some(req);
                if let Some(reports) = recovery {
                    self.reports = reports;
                    self.audit_now(ctx);
                } else {
                    self.session.status.set(Phase::Collect, reports_in(0));
                }
            }
            Body::InspectorReport(report) if self.current(&report.review) => {
                self.reports.retain(|r| r.inspector != report.inspector);
                self.reports.push(report);
                self.session
                    .status
                    .set(Phase::Collect, reports_in(self.reports.len()));
            }
            Body::InspectorUnavailable {
                review,
                name,
                reason,
                ..
            } if self.current(&review) => {
                self.unavailable.push((name, reason));
            }
            Body::AllReportsIn { review } | Body::OutputVerdictNow { review }
                if self.current(&review) =>
            {
                self.audit_now(ctx);
            }
            other => tracing::debug!(body = other.name(), "ignored"),
        }
    }
}
