//! The Lead's hub for one review, as an actix actor: it routes the actors' messages, journals
//! every report before forwarding it, tells the Auditor when every report is in, and carries out
//! what the [`Supervisor`] decides when an actor dies, hangs or stalls — re-spawn, give up
//! (partial coverage), nudge the Auditor, re-spawn it in recovery mode, or derive the verdict.

use super::plan::ReviewPlan;
use actix::prelude::*;
use host::hub;
use host::journal::Journal;
use host::supervisor::{Action, Role, State, Supervisor};
use host::writer::Writer;
use host::{ActorSpec, Spawner};
use outputs::progress::Stage;
use protocol::message::{AuditRequest, Phase, Progress, LEAD};
use protocol::wire::Outbox;
use protocol::{AuditOutcome, Body, Envelope, InspectorReport};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

mod messages;
mod questions;
mod recovery;

pub use host::hub::{Connected, Incoming, Lost};
pub use messages::{Finished, ReviewFailure, Stop};

/// How long a closed connection waits for the process's exit status, so the error and the
/// replacement can say how it died ("was killed by signal 9").
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(300);

/// The review's hub.
pub struct Coordinator {
    plan: ReviewPlan,
    journal: Journal,
    /// Journal writes run on its thread: the hub shares the System arbiter with every
    /// connection, which an fsync here would hold up.
    writer: Writer,
    sup: Supervisor,
    spawner: Option<Box<dyn Spawner>>,
    outboxes: HashMap<String, Outbox>,
    reports: BTreeMap<String, InspectorReport>,
    unavailable: Vec<(String, String)>,
    all_in: bool,
    auditor_gone: bool,
    initial: Vec<Action>,
    done: Option<oneshot::Sender<Result<Finished, ReviewFailure>>>,
    progress: Option<outputs::progress::Reporter>,
    /// The dashboard's view of the actors, when one watches.
    watch: Option<host::live::ActorWatch>,
    /// The Inspectors' questions to the author and their answers, in the order asked.
    exchanges: Vec<crate::questions::Exchange>,
    /// Questions asked per Inspector slot.
    asked: HashMap<String, usize>,
    /// When each question (Inspector slot, id) was asked.
    asked_at: HashMap<(String, u32), Instant>,
}

impl Coordinator {
    /// A hub for `plan` that starts actors with `spawner` and answers on `done`.
    pub fn new(
        plan: ReviewPlan,
        journal: Journal,
        spawner: Box<dyn Spawner>,
        done: oneshot::Sender<Result<Finished, ReviewFailure>>,
    ) -> Self {
        let done_already: Vec<String> = plan.preloaded.keys().cloned().collect();
        let (sup, initial) = Supervisor::new(
            &plan.actors(),
            &done_already,
            plan.policy.clone(),
            Instant::now(),
        );
        let reports = plan.preloaded.clone();
        Coordinator {
            plan,
            journal,
            writer: Writer::start(),
            sup,
            spawner: Some(spawner),
            outboxes: HashMap::new(),
            reports,
            unavailable: Vec::new(),
            all_in: false,
            auditor_gone: false,
            initial,
            done: Some(done),
            progress: None,
            watch: None,
            exchanges: Vec::new(),
            asked: HashMap::new(),
            asked_at: HashMap::new(),
        }
    }

    /// Publishes the actors as the supervisor sees them on `watch` (the dashboard's feed).
    pub fn with_watch(mut self, watch: Option<host::live::ActorWatch>) -> Self {
        self.watch = watch;
        self
    }

    /// Hands the actors' states to the dashboard's feed, if any (only what changed goes out).
    fn observed(&mut self) {
        if let Some(watch) = &mut self.watch {
            watch.update(self.sup.slots());
        }
    }

    /// Hands every actor's heartbeat (phase, progress) to `reporter`, for the progress display.
    pub fn with_progress(mut self, reporter: Option<outputs::progress::Reporter>) -> Self {
        self.progress = reporter;
        self
    }

    /// Tells the progress display, if any, what the actor `instance` is doing.
    fn show(&self, instance: &str, stage: Stage, progress: Progress, busy_since_ms: Option<u64>) {
        if let (Some(reporter), Some(slot)) = (&self.progress, self.sup.slot(instance)) {
            reporter.heartbeat(&slot.logical, stage, progress, busy_since_ms);
        }
    }

    fn send(&self, instance: &str, body: Body) {
        if let Some(outbox) = self.outboxes.get(instance) {
            if let Err(e) = outbox.try_send(Envelope::new(LEAD, instance, body)) {
                tracing::warn!(to = instance, error = %e, "send failed");
            }
        }
    }

    fn auditor_instance(&self) -> Option<String> {
        self.sup
            .by_logical(&self.plan.auditor)
            .map(|s| s.instance.clone())
    }

    fn finish(&mut self, result: Result<Finished, ReviewFailure>) {
        if let Some(done) = self.done.take() {
            let _receiver_gone = done.send(result);
        }
    }

    fn on_connected(&mut self, instance: &str) {
        let Some(slot) = self.sup.slot(instance).cloned() else {
            return;
        };
        let now = Instant::now();
        match slot.role {
            Role::Inspector => {
                let Some(request) = self.plan.request_for(&slot.logical) else {
                    return;
                };
                let deadline = now + self.plan.inspect_deadline(&slot.logical);
                self.send(instance, Body::InspectRequest(request));
                self.sup.working(instance, deadline);
            }
            Role::Auditor => {
                let mut request: AuditRequest = self.plan.audit.clone();
                request.unavailable = self.unavailable.clone();
                if self.all_in {
                    // RECOVERY MODE: every journaled report embedded; the audit starts at once.
                    request.recovery = Some(self.reports.values().cloned().collect());
                    self.send(instance, Body::AuditRequest(request));
                    self.sup.working(instance, now + self.plan.audit_deadline);
                } else {
                    self.send(instance, Body::AuditRequest(request));
                    for report in self.reports.values() {
                        self.send(instance, Body::InspectorReport(report.clone()));
                    }
                }
            }
            // A review has no Implementers: only a run's team hub supervises them.
            Role::Implementer => {}
        }
    }

    /// An Inspector's heartbeat at work: its report deadline moves with its progress.
    fn on_progress(&mut self, instance: &str, progress: &Progress) {
        if let Some(logical) = self.sup.slot(instance).map(|s| s.logical.clone()) {
            let extend_to = Instant::now() + self.plan.inspect_deadline(&logical);
            self.sup.progressed(instance, progress, extend_to);
        }
    }

    fn on_report(&mut self, from: &str, mut report: InspectorReport, ctx: &mut Context<Self>) {
        let Some(slot) = self
            .sup
            .slot(from)
            .filter(|s| s.role == Role::Inspector)
            .cloned()
        else {
            tracing::warn!(
                from,
                "report from an actor that is not a current Inspector: dropped"
            );
            return;
        };
        if matches!(slot.state, State::Delivered | State::GaveUp { .. }) {
            return;
        }
        // The slot's stable name, not the claimed one, names the report and its journal file.
        report.inspector = slot.logical.clone();
        for finding in &mut report.findings {
            for agent in &mut finding.agents {
                if agent == from {
                    *agent = slot.logical.clone();
                }
            }
        }
        report.review = self.plan.review.clone();
        let journal = self.journal.clone();
        let from = from.to_string();
        let write = move || journal.report(&report.inspector, &report).map(|_| report);
        self.writer
            .wait(ctx, write, move |this, written, ctx| match written {
                Ok(report) => this.forward(&from, report, ctx),
                Err(e) => this.finish(Err(ReviewFailure::Journal(e.to_string()))),
            });
    }

    /// A journaled report: delivered, and on to the Auditor.
    fn forward(&mut self, from: &str, report: InspectorReport, ctx: &mut Context<Self>) {
        if self.done.is_none() {
            return;
        }
        self.sup.delivered(from);
        if let Some(auditor) = self.auditor_instance() {
            self.send(&auditor, Body::InspectorReport(report.clone()));
        }
        self.reports.insert(report.inspector.clone(), report);
        self.check_all_in(ctx);
    }

    fn on_verdict(
        &mut self,
        from: &str,
        review: &str,
        outcome: AuditOutcome,
        ctx: &mut Context<Self>,
    ) {
        if Some(from.to_string()) != self.auditor_instance() || review != self.plan.review {
            tracing::warn!(
                from,
                review,
                "verdict from an unexpected actor or review: dropped"
            );
            return;
        }
        self.sup.delivered(from);
        self.conclude(outcome, ctx);
    }

    fn conclude(&mut self, mut outcome: AuditOutcome, ctx: &mut Context<Self>) {
        self.observed();
        for role in self.sup.degraded() {
            let role = match role {
                Role::Inspector => "inspector",
                Role::Auditor => "auditor",
                Role::Implementer => "implementer",
            };
            outcome.notes.push(format!(
                "DEGRADED:{role}|restart limit reached ({} in {} s)",
                self.plan.policy.max_restarts,
                self.plan.policy.restart_window.as_secs()
            ));
        }
        let cpf = protocol::cpf::format_verdict(&outcome.to_cpf());
        let journal = self.journal.clone();
        let write = move || journal.verdict(&cpf);
        self.writer.wait(ctx, write, move |this, written, _| {
            let finished = written.map(|_| Finished {
                outcome,
                reports: std::mem::take(&mut this.reports),
                restarts: this.sup.restarts(),
                questions: std::mem::take(&mut this.exchanges),
            });
            this.finish(finished.map_err(|e| ReviewFailure::Journal(e.to_string())));
        });
    }
}

impl Actor for Coordinator {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let initial = std::mem::take(&mut self.initial);
        self.execute(initial, ctx);
        self.observed();
        // A resumed review may have every report already: the Auditor then starts in recovery mode.
        self.check_all_in(ctx);
        ctx.run_interval(self.plan.policy.heartbeat / 2, |this, ctx| {
            if this.done.is_some() {
                let actions = this.sup.tick(Instant::now());
                this.execute(actions, ctx);
                this.observed();
            }
        });
    }
}

impl Handler<Connected> for Coordinator {
    type Result = bool;

    /// Whether the connection was taken (a refused one hears no more: its disconnect must not
    /// pass for the registered actor's).
    fn handle(&mut self, msg: Connected, _ctx: &mut Self::Context) -> bool {
        if self.done.is_none() || !self.sup.connected(&msg.name, Instant::now()) {
            tracing::warn!(
                name = msg.name,
                "unexpected, duplicate or replaced actor: refused"
            );
            let _refused = msg
                .outbox
                .try_send(Envelope::new(LEAD, &msg.name, Body::Goodbye));
            return false;
        }
        self.outboxes.insert(msg.name.clone(), msg.outbox);
        self.on_connected(&msg.name);
        true
    }
}

impl Handler<Incoming> for Coordinator {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        if !self.outboxes.contains_key(&msg.from) || self.done.is_none() {
            return;
        }
        self.sup.seen(&msg.from, Instant::now());
        match msg.env.body {
            Body::Heartbeat {
                phase,
                progress,
                busy_since_ms,
            } => {
                if let Phase::Inspect = phase {
                    self.on_progress(&msg.from, &progress);
                }
                self.show(&msg.from, Stage::At(phase), progress, busy_since_ms)
            }
            Body::ShutdownAck => {}
            Body::InspectorReport(report) => {
                self.show(&msg.from, Stage::Delivered, Progress::default(), None);
                self.on_report(&msg.from, report, ctx)
            }
            Body::AuditVerdict { review, outcome } => {
                self.show(&msg.from, Stage::Delivered, Progress::default(), None);
                self.on_verdict(&msg.from, &review, outcome, ctx)
            }
            Body::Question(question) => self.on_question(&msg.from, question, ctx),
            Body::InspectorFailed { reason, .. } => {
                // Given up like a lost actor: not shown as delivered.
                let actions = self.sup.failed(&msg.from, &reason);
                self.execute(actions, ctx);
            }
            Body::Goodbye => {
                let lost = Lost {
                    name: msg.from,
                    reason: "gave up (said goodbye)".into(),
                    how: hub::Ended::Instance,
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
        if self.done.is_none() {
            return;
        }
        // A plain disconnect usually means the process died: its exit status, reaped a moment
        // later, says how ("was killed by signal 9"). A bad frame is reason enough by itself.
        if msg.how == hub::Ended::Connection && msg.reason == hub::DISCONNECTED {
            ctx.run_later(EXIT_STATUS_WAIT, move |this, ctx| {
                let actions = this.sup.lost(&msg.name, &msg.reason, Instant::now());
                this.execute(actions, ctx);
                this.observed();
            });
        } else {
            let actions = self.sup.lost(&msg.name, &msg.reason, Instant::now());
            self.execute(actions, ctx);
            self.observed();
        }
    }
}

impl Handler<Stop> for Coordinator {
    type Result = Option<Box<dyn Spawner>>;

    fn handle(&mut self, _msg: Stop, _ctx: &mut Self::Context) -> Self::Result {
        self.finish(Err(ReviewFailure::Journal("the review was stopped".into())));
        let grace = self.plan.shutdown_grace.as_millis() as u64;
        for (name, outbox) in self.outboxes.drain() {
            let _gone = outbox.try_send(Envelope::new(
                LEAD,
                &name,
                Body::Shutdown { grace_ms: grace },
            ));
        }
        self.spawner.take()
    }
}
