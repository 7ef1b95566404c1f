//! The thin actix shell of an Implementer: it claims a task from the Lead, carries it out on a
//! thread of its own (so the heartbeat task keeps running while the executor works), forwards
//! every timeline event as it happens, reports the result (after the peer notes its change
//! calls for), and claims again. The Lead decides everything else — which task, when there is
//! nothing left, when to stop — and hands it the other Implementers' notes with its next task.

use crate::assignment::carry_out;
use crate::timeline::TimelineEvent;
use actix::prelude::*;
use protocol::message::{Phase, Progress, TaskAssignment, LEAD};
use protocol::session::Session;
use protocol::{Body, Envelope};
use std::time::Duration;

/// An envelope from the Lead.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming(pub Envelope);

/// One Implementer.
pub struct ImplementerActor {
    session: Session,
    busy: bool,
}

impl ImplementerActor {
    /// An Implementer speaking through `session`.
    pub fn new(session: Session) -> ImplementerActor {
        ImplementerActor {
            session,
            busy: false,
        }
    }

    /// Asks the Lead for a task.
    fn claim(&self, ctx: &mut Context<Self>) {
        let session = self.session.clone();
        let ask = async move {
            // Where a `hang-at=claim` or `crash-at=claim` fault strikes.
            session.status.set(Phase::Claim, Progress::default());
            if let Err(e) = session.send(LEAD, Body::ClaimTask).await {
                tracing::warn!(error = %e, "could not ask for a task");
            }
        };
        ctx.spawn(ask.into_actor(self));
    }

    /// Carries `assignment` out, forwarding events in order, then claims the next task.
    fn work(&mut self, assignment: TaskAssignment, ctx: &mut Context<Self>) {
        self.busy = true;
        let session = self.session.clone();
        let work = async move {
            session.status.set(
                Phase::Execute,
                Progress::about(assignment.task.subject.clone()),
            );
            if session.status.stopped() {
                // An in-process crash struck on entering the phase: a crashed process would
                // write nothing, so neither does this one (its replacement takes the task).
                return;
            }
            let name = session.name.clone();
            // One channel for the events and the final message keeps them in order on the wire.
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Body>();
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-task"))
                .spawn(move || {
                    let task = assignment.task.id;
                    let progress = tx.clone();
                    let mut forward = move |event: TimelineEvent| {
                        let event = event.to_json_line();
                        // A closed channel means the actor is gone; the work is moot.
                        let _gone = progress.send(Body::TaskProgress { task, event });
                    };
                    let carried = carry_out(&assignment, &name, &mut forward);
                    // Notes first: the Lead routes a note only while the task is the sender's.
                    for note in carried.notes {
                        let _gone = tx.send(Body::PeerNote(note));
                    }
                    let _gone = tx.send(carried.report);
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start the task thread");
                let _gone = session.send(LEAD, Body::Goodbye).await;
                return;
            }
            while let Some(body) = rx.recv().await {
                if let Err(e) = session.send(LEAD, body).await {
                    tracing::error!(error = %e, "could not report to the Lead");
                    return;
                }
            }
            session.status.set(Phase::Idle, Progress::default());
        };
        ctx.spawn(work.into_actor(self).map(|(), act, ctx| {
            act.busy = false;
            act.claim(ctx);
        }));
    }
}

impl Actor for ImplementerActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        self.claim(ctx);
    }
}

impl Handler<Incoming> for ImplementerActor {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        match msg.0.body {
            Body::TaskAssigned(assignment) if !self.busy => self.work(assignment, ctx),
            Body::TaskAssigned(assignment) => {
                // The Lead gives one task at a time; a second one is its mistake, not ours to run.
                tracing::warn!(
                    task = assignment.task.id,
                    "assigned a task while busy: ignored"
                );
            }
            Body::NoTaskAvailable {
                retry_after_ms: Some(ms),
            } if !self.busy => {
                ctx.run_later(Duration::from_millis(ms), |act, ctx| {
                    if !act.busy {
                        act.claim(ctx);
                    }
                });
            }
            Body::NoTaskAvailable { .. } => self
                .session
                .status
                .set(Phase::Idle, Progress::about("no task left")),
            other => tracing::debug!(body = other.name(), "ignored"),
        }
    }
}
