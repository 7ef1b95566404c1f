//! The team hub's actix side: starting the team and ticking the supervisor, and the handlers of
//! connections, envelopes, losses and the final stop.

use super::{attempts, Connected, Incoming, Lost, StopHub, TeamHub, IDLE_HORIZON};
use crate::board::Escalated;
use crate::state::team_event;
use actix::prelude::*;
use host::hub::Ended;
use host::writer::Written;
use protocol::message::LEAD;
use protocol::{Body, Envelope};
use serde_json::json;
use std::time::{Duration, Instant};

impl Actor for TeamHub {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        self.me = Some(ctx.address().recipient());
        let spawns = std::mem::take(&mut self.pending_spawns);
        self.execute(spawns, ctx);
        let every = self.config.policy.heartbeat.max(Duration::from_millis(50));
        ctx.run_interval(every, |act, ctx| {
            if act.board.is_none() {
                return;
            }
            let actions = act.supervisor.tick(Instant::now());
            if !actions.is_empty() {
                act.execute(actions, ctx);
            }
            act.observed();
        });
    }
}

impl Handler<Written> for TeamHub {
    type Result = ();
    fn handle(&mut self, written: Written, _: &mut Context<Self>) {
        self.written(written.0);
    }
}

impl Handler<Connected> for TeamHub {
    type Result = bool;

    /// Whether the connection was taken (a refused one hears no more).
    fn handle(&mut self, msg: Connected, _ctx: &mut Self::Context) -> bool {
        if self.board.is_none() || !self.supervisor.connected(&msg.name, Instant::now()) {
            // Not a slot waiting for its instance (or the phase is over): turn it away.
            let _refused = msg.outbox.try_send(Envelope::new(
                LEAD,
                msg.name.clone(),
                Body::Shutdown { grace_ms: 0 },
            ));
            return false;
        }
        self.outboxes.insert(msg.name, msg.outbox);
        true
    }
}

impl Handler<Incoming> for TeamHub {
    type Result = ();

    fn handle(&mut self, msg: Incoming, ctx: &mut Self::Context) {
        let from = msg.from;
        if !self.live().contains(&from) {
            // A replaced or finished instance: whatever it still says is not the team's work.
            tracing::debug!(
                from,
                body = msg.env.body.name(),
                "from an instance no longer in the team: ignored"
            );
            return;
        }
        self.supervisor.seen(&from, Instant::now());
        match msg.env.body {
            Body::ClaimTask => {
                let held = self
                    .board
                    .as_ref()
                    .and_then(|b| attempts::held_by(b, &from));
                match held {
                    // Its result never came (swallowed, or lost on the way): it is replaced
                    // like any Implementer that does not deliver, and the task goes back.
                    Some(task) => ctx.notify(Lost {
                        name: from.clone(),
                        reason: format!("asked for more work without reporting task {task}"),
                        how: Ended::Instance,
                    }),
                    None => self.claim(&from),
                }
            }
            Body::TaskProgress { event, .. } => {
                if serde_json::from_str::<serde_json::Value>(&event).is_ok() {
                    self.judged(&event);
                    self.events(&[event]);
                } else {
                    tracing::warn!(from, "a timeline event that is not JSON: dropped");
                }
            }
            Body::TaskCompleted { task, history, .. } => {
                self.supervisor
                    .working(&from, Instant::now() + IDLE_HORIZON);
                let completed = self.board.as_mut().is_some_and(|b| b.complete(task, &from));
                if completed {
                    self.events(&[team_event(
                        "TASK_COMPLETED",
                        json!({"task": task, "actor": from, "history": history}),
                    )]);
                    self.persist();
                    self.completed(task, ctx);
                }
            }
            Body::TaskFailed { task, reason, .. } => {
                let record = Escalated {
                    task,
                    reason,
                    attempts: 0,
                    unresolved: Vec::new(),
                };
                self.give_back(&from, false, record);
            }
            Body::Escalation {
                task,
                reason,
                unresolved,
                ..
            } => {
                let record = Escalated {
                    task,
                    reason,
                    attempts: 0,
                    unresolved,
                };
                self.give_back(&from, true, record);
            }
            Body::PeerNote(note) => self.peer_note(&from, note),
            Body::Goodbye => ctx.notify(Lost {
                name: from,
                reason: "said goodbye".into(),
                how: Ended::Instance,
            }),
            Body::Heartbeat { .. } | Body::ShutdownAck => {}
            other => tracing::debug!(from, body = other.name(), "ignored"),
        }
        self.maybe_finish(ctx);
    }
}

impl Handler<Lost> for TeamHub {
    type Result = ();

    fn handle(&mut self, msg: Lost, ctx: &mut Self::Context) {
        if self.board.is_none() {
            return;
        }
        tracing::info!(name = msg.name, reason = msg.reason, "Implementer lost");
        self.stop_instance(&msg.name);
        let actions = self.supervisor.lost(&msg.name, &msg.reason, Instant::now());
        self.execute(actions, ctx);
        self.observed();
    }
}

impl Handler<StopHub> for TeamHub {
    type Result = MessageResult<StopHub>;

    fn handle(&mut self, _msg: StopHub, ctx: &mut Self::Context) -> Self::Result {
        ctx.stop();
        MessageResult(self.spawner.take())
    }
}
