//! The Lead's hub for one review, as an actix actor: it knows which actors must connect, routes
//! their messages, journals every report before forwarding it, tells the Auditor when every
//! report is in, and notices an actor that disconnects, exits or stops heartbeating — failing the
//! review cleanly instead of waiting forever (full recovery is the supervision layer's job).

use crate::journal::Journal;
use actix::prelude::*;
use protocol::message::{AuditRequest, InspectRequest, LEAD};
use protocol::wire::Outbox;
use protocol::{AuditOutcome, Body, Envelope, InspectorReport};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// What the review needs from its actors.
#[derive(Debug, Clone)]
pub struct Plan {
    /// One request per Inspector actor name (the request names the Auditor to report to).
    pub inspections: Vec<(String, InspectRequest)>,
    /// The Auditor's name and its request.
    pub audit: (String, AuditRequest),
    /// Expected heartbeat interval.
    pub heartbeat: Duration,
    /// Silent intervals before an actor is unresponsive.
    pub suspect_after: u32,
    /// How long the actors have to connect.
    pub connect_timeout: Duration,
}

/// Why a review could not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewFailure {
    /// An actor died or disconnected before delivering what it owed.
    #[error("{name} {reason} before the review finished")]
    ActorLost {
        /// The actor.
        name: String,
        /// What happened.
        reason: String,
    },
    /// An actor stopped heartbeating.
    #[error("{name} is unresponsive: no heartbeat for {silent_ms} ms")]
    Unresponsive {
        /// The actor.
        name: String,
        /// How long it has been silent.
        silent_ms: u128,
    },
    /// Actors never connected.
    #[error("{names} did not connect within {secs} s")]
    NotConnected {
        /// Who is missing.
        names: String,
        /// The deadline.
        secs: u64,
    },
    /// The journal could not be written.
    #[error("cannot write the journal: {0}")]
    Journal(String),
}

/// A finished review.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The Auditor's outcome.
    pub outcome: AuditOutcome,
    /// The Inspectors' reports, by actor name.
    pub reports: BTreeMap<String, InspectorReport>,
}

/// An authenticated actor connected.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Connected {
    /// Its authenticated name.
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
    /// The actor.
    pub name: String,
    /// What happened ("was killed by signal 9", "disconnected").
    pub reason: String,
    /// The connection closed (rather than the process being seen to exit).
    pub connection_closed: bool,
}

/// How long a closed connection waits for the process's exit status before failing the review.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(300);

/// Asks for every connected actor's outbox (to shut them down).
#[derive(Message)]
#[rtype(result = "Vec<(String, Outbox)>")]
pub struct Outboxes;

/// The review's hub.
pub struct Coordinator {
    plan: Plan,
    journal: Journal,
    outboxes: HashMap<String, Outbox>,
    last_seen: HashMap<String, Instant>,
    reports: BTreeMap<String, InspectorReport>,
    started_at: Instant,
    dispatched: bool,
    done: Option<oneshot::Sender<Result<Finished, ReviewFailure>>>,
}

impl Coordinator {
    /// A hub for `plan`, journaling into `journal`, answering on `done`.
    pub fn new(
        plan: Plan,
        journal: Journal,
        done: oneshot::Sender<Result<Finished, ReviewFailure>>,
    ) -> Self {
        Coordinator {
            plan,
            journal,
            outboxes: HashMap::new(),
            last_seen: HashMap::new(),
            reports: BTreeMap::new(),
            started_at: Instant::now(),
            dispatched: false,
            done: Some(done),
        }
    }

    fn expected(&self) -> impl Iterator<Item = &String> {
        self.plan
            .inspections
            .iter()
            .map(|(n, _)| n)
            .chain(std::iter::once(&self.plan.audit.0))
    }

    fn send(&self, to: &str, body: Body) {
        if let Some(outbox) = self.outboxes.get(to) {
            if let Err(e) = outbox.try_send(Envelope::new(LEAD, to, body)) {
                tracing::warn!(to, error = %e, "send failed");
            }
        }
    }

    fn finish(&mut self, result: Result<Finished, ReviewFailure>, ctx: &mut Context<Self>) {
        if let Some(done) = self.done.take() {
            if let Err(e) = &result {
                // The command prints the failure as its one error line; this is for RUST_LOG=debug.
                tracing::debug!(error = %e, "review failed");
            }
            let _receiver_gone = done.send(result);
        }
        // The actor stays up after the result so the Lead can still reach every outbox to shut
        // the actors down; it ignores everything else from here on.
        let _ = ctx;
    }

    fn dispatch_if_ready(&mut self) {
        if self.dispatched || !self.expected().all(|n| self.outboxes.contains_key(n)) {
            return;
        }
        self.dispatched = true;
        let (auditor, request) = self.plan.audit.clone();
        self.send(&auditor, Body::AuditRequest(request));
        for (name, request) in self.plan.inspections.clone() {
            self.send(&name, Body::InspectRequest(request));
        }
    }

    fn on_report(
        &mut self,
        from: &str,
        to: &str,
        mut report: InspectorReport,
        ctx: &mut Context<Self>,
    ) {
        if !self.plan.inspections.iter().any(|(n, _)| n == from) {
            tracing::warn!(
                from,
                "report from an actor that is not an Inspector of this review: dropped"
            );
            return;
        }
        // The authenticated name, not the claimed one, names the journal file.
        report.inspector = from.to_string();
        let cpf = protocol::cpf::format_report(&report.to_cpf());
        if let Err(e) = self.journal.report(from, &cpf) {
            return self.finish(Err(ReviewFailure::Journal(e.to_string())), ctx);
        }
        let auditor = self.plan.audit.0.clone();
        if to != auditor {
            tracing::warn!(from, to, "report addressed to {to}, routed to {auditor}");
        }
        self.send(&auditor, Body::InspectorReport(report.clone()));
        self.reports.insert(from.to_string(), report);
        if self
            .plan
            .inspections
            .iter()
            .all(|(n, _)| self.reports.contains_key(n))
        {
            let review = self.plan.audit.1.review.clone();
            self.send(&auditor, Body::AllReportsIn { review });
        }
    }

    fn on_verdict(
        &mut self,
        from: &str,
        review: &str,
        outcome: AuditOutcome,
        ctx: &mut Context<Self>,
    ) {
        if from != self.plan.audit.0 || review != self.plan.audit.1.review {
            tracing::warn!(
                from,
                review,
                "verdict from an unexpected actor or review: dropped"
            );
            return;
        }
        let cpf = protocol::cpf::format_verdict(&outcome.to_cpf());
        if let Err(e) = self.journal.verdict(&cpf) {
            return self.finish(Err(ReviewFailure::Journal(e.to_string())), ctx);
        }
        let reports = std::mem::take(&mut self.reports);
        self.finish(Ok(Finished { outcome, reports }), ctx);
    }

    fn check_liveness(&mut self, ctx: &mut Context<Self>) {
        let limit = self.plan.heartbeat * self.plan.suspect_after;
        let silent = self
            .last_seen
            .iter()
            .find(|(_, seen)| seen.elapsed() > limit)
            .map(|(n, seen)| (n.clone(), seen.elapsed().as_millis()));
        if let Some((name, silent_ms)) = silent {
            return self.finish(Err(ReviewFailure::Unresponsive { name, silent_ms }), ctx);
        }
        if !self.dispatched && self.started_at.elapsed() > self.plan.connect_timeout {
            let missing: Vec<&str> = self
                .expected()
                .filter(|n| !self.outboxes.contains_key(*n))
                .map(String::as_str)
                .collect();
            let failure = ReviewFailure::NotConnected {
                names: missing.join(", "),
                secs: self.plan.connect_timeout.as_secs(),
            };
            self.finish(Err(failure), ctx);
        }
    }
}

impl Actor for Coordinator {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.run_interval(self.plan.heartbeat / 2, |this, ctx| {
            this.check_liveness(ctx)
        });
    }
}

impl Handler<Connected> for Coordinator {
    type Result = ();

    fn handle(&mut self, msg: Connected, _ctx: &mut Self::Context) {
        if !self.expected().any(|n| *n == msg.name) || self.outboxes.contains_key(&msg.name) {
            tracing::warn!(name = msg.name, "unexpected or duplicate actor: refused");
            let _refused = msg
                .outbox
                .try_send(Envelope::new(LEAD, &msg.name, Body::Goodbye));
            return;
        }
        self.last_seen.insert(msg.name.clone(), Instant::now());
        self.outboxes.insert(msg.name, msg.outbox);
        self.dispatch_if_ready();
    }
}

impl Handler<Incoming> for Coordinator {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        if !self.outboxes.contains_key(&msg.from) {
            return;
        }
        self.last_seen.insert(msg.from.clone(), Instant::now());
        match msg.env.body {
            Body::Heartbeat { .. } | Body::ShutdownAck => {}
            Body::InspectorReport(report) => self.on_report(&msg.from, &msg.env.to, report, ctx),
            Body::AuditVerdict { review, outcome } => {
                self.on_verdict(&msg.from, &review, outcome, ctx)
            }
            Body::Goodbye => {
                let lost = Lost {
                    name: msg.from,
                    reason: "said goodbye".into(),
                    connection_closed: false,
                };
                <Self as Handler<Lost>>::handle(self, lost, ctx);
            }
            other => tracing::debug!(from = msg.from, body = other.name(), "not routed"),
        }
    }
}

impl Handler<Lost> for Coordinator {
    type Result = ();

    fn handle(&mut self, msg: Lost, ctx: &mut Self::Context) {
        self.outboxes.remove(&msg.name);
        self.last_seen.remove(&msg.name);
        if self.done.is_none() || !self.expected().any(|n| *n == msg.name) {
            return;
        }
        let failure = ReviewFailure::ActorLost {
            name: msg.name,
            reason: msg.reason,
        };
        if msg.connection_closed {
            // A dead child's socket usually closes before its exit status is reaped; wait a
            // moment so the error can say how it died ("killed by signal 9").
            ctx.run_later(EXIT_STATUS_WAIT, move |this, ctx| {
                this.finish(Err(failure), ctx)
            });
        } else {
            self.finish(Err(failure), ctx);
        }
    }
}

impl Handler<Outboxes> for Coordinator {
    type Result = Vec<(String, Outbox)>;

    fn handle(&mut self, _msg: Outboxes, _ctx: &mut Self::Context) -> Self::Result {
        self.outboxes
            .iter()
            .map(|(n, o)| (n.clone(), o.clone()))
            .collect()
    }
}
