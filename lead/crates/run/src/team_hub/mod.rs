//! The team hub of Phase B: one actor per team phase that starts the Implementers, answers
//! their claims from the [`Board`] (one message at a time, so claims are atomic), journals
//! their timeline events and the team's own events, persists `tasks.json` after every change,
//! and supervises them with the review's supervision core: a dead, silent or overdue
//! Implementer is killed, its task goes back to pending (the attempt counted) and it is
//! re-spawned once within the restart limit. When nothing is left to claim (and no scoped
//! review is under way) it shuts the team down and hands the board back. Signals, scoped
//! reviews and peer notes are `phase_b`'s.

use super::board::{Board, Escalated, Returned};
use super::state::{team_event, RunState};
use actix::prelude::*;
use host::supervisor::{Action, Role, State, Supervisor};
use host::writer::{Writer, Written};
use host::{ActorKind, ActorSpec, Spawner};
use protocol::message::{TaskAssignment, LEAD};
use protocol::wire::Outbox;
use protocol::{Body, Envelope};
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use team::claim::ClaimOutcome;
use tokio::sync::oneshot;

pub(crate) mod attempts;
mod handlers;
mod messages;
mod phase_b;
pub use host::hub::{Connected, Incoming, Lost};
pub use messages::{AssignmentBase, HubConfig, PhaseResult, StopHub};
pub use phase_b::{
    after_completion, files_of, PhaseBConfig, ReviewContext, ScopedReview, ScopedReviewDone,
    Trigger,
};

/// How long an Implementer waits before asking again when nothing is claimable yet.
const RETRY_CLAIM_MS: u64 = 250;
/// An idle Implementer owes nothing: its output deadline is pushed this far out.
const IDLE_HORIZON: Duration = Duration::from_secs(30 * 24 * 3600);

/// The team hub actor.
pub struct TeamHub {
    config: HubConfig,
    board: Option<Board>,
    state: RunState,
    spawner: Option<Box<dyn Spawner>>,
    supervisor: Supervisor,
    pending_spawns: Vec<Action>,
    outboxes: HashMap<String, Outbox>,
    done: Option<oneshot::Sender<Result<PhaseResult, String>>>,
    phase_b: phase_b::PhaseB,
    attempts: attempts::Attempts,
    /// State writes run on its thread, in order: the hub shares the System arbiter with every
    /// connection, which an fsync here would hold up.
    writer: Writer,
    /// The hub's own address, for the writer to report its writes to; set when it starts.
    me: Option<Recipient<Written>>,
    /// State writes submitted and not yet done.
    unwritten: usize,
    /// What the hub said while a state write was under way: sent, in order, once every write
    /// before it is on disk (an Implementer never acts on a claim the state does not hold).
    held: Vec<(String, Body)>,
    /// The dashboard's view of the Implementers, when one watches.
    watch: Option<host::live::ActorWatch>,
}

impl TeamHub {
    /// A hub for `board`, reporting the result on `done`.
    pub fn new(
        config: HubConfig,
        board: Board,
        state: RunState,
        spawner: Box<dyn Spawner>,
        done: oneshot::Sender<Result<PhaseResult, String>>,
    ) -> TeamHub {
        let actors: Vec<(String, Role)> = (1..=config.implementers.max(1))
            .map(|n| (format!("implementer-{n}"), Role::Implementer))
            .collect();
        let (supervisor, spawns) =
            Supervisor::new(&actors, &[], config.policy.clone(), Instant::now());
        let phase_b = phase_b::PhaseB::new(config.phase_b.clone(), state.signals());
        let attempts = attempts::Attempts::persisted(state.dir().join(crate::state::ATTEMPTS));
        let watch = config
            .live
            .as_ref()
            .map(|feed| host::live::ActorWatch::new(feed.clone(), "team"));
        TeamHub {
            config,
            board: Some(board),
            state,
            spawner: Some(spawner),
            supervisor,
            pending_spawns: spawns,
            outboxes: HashMap::new(),
            done: Some(done),
            phase_b,
            attempts,
            writer: Writer::start(),
            me: None,
            unwritten: 0,
            held: Vec::new(),
            watch,
        }
    }

    fn live(&self) -> Vec<String> {
        self.supervisor
            .slots()
            .iter()
            .filter(|s| !matches!(s.state, State::GaveUp { .. } | State::Delivered))
            .map(|s| s.instance.clone())
            .collect()
    }

    /// Appends to the timeline on the writer's thread, in order; a failure stops the run.
    fn events(&mut self, lines: &[String]) {
        let (state, lines) = (self.state.clone(), lines.to_vec());
        self.write("cannot append to the run's timeline", move || {
            state.append_timeline(&lines)
        });
    }

    /// Queues a state write; one that fails ends the phase ([`Written`]), what the hub says
    /// meanwhile is held until it is done, and the phase's result waits for every write.
    fn write(&mut self, what: &str, write: impl FnOnce() -> std::io::Result<()> + Send + 'static) {
        match &self.me {
            Some(me) => {
                self.unwritten += 1;
                self.writer.submit(me.clone(), what.to_string(), write);
            }
            // Before the hub runs there is nothing to write.
            None => tracing::error!(what, "a state write before the team hub started: dropped"),
        }
    }

    /// Hands the Implementers' states to the dashboard's feed, if any.
    fn observed(&mut self) {
        if let Some(watch) = &mut self.watch {
            watch.update(self.supervisor.slots());
        }
    }

    /// A task runner's timeline line that is a judgment, to the dashboard's feed, if any.
    fn judged(&self, line: &str) {
        if let (Some(feed), Some(event)) = (&self.config.live, protocol::live::of_timeline(line)) {
            feed.publish(event);
        }
    }

    fn persist(&mut self) {
        if let (Some(board), Some(feed)) = (&self.board, &self.config.live) {
            feed.publish(crate::live::board(&board.tasks));
        }
        if let Some(board) = &self.board {
            let (state, session, tasks) = (
                self.state.clone(),
                self.config.session_id.clone(),
                board.tasks.clone(),
            );
            self.write("cannot write the run's tasks.json", move || {
                state.write_tasks(&session, &tasks)
            });
        }
    }

    /// Ends the phase on a state write that failed: a run whose journal or task board can no
    /// longer be written could not be resumed or trusted, so the Implementers are told to stop
    /// and the run fails (what was persisted before stays as it was).
    fn fail(&mut self, why: String) {
        tracing::error!(error = %why, "the team's state cannot be written: stopping the run");
        let Some(done) = self.done.take() else {
            return;
        };
        // What waited for a write is not said; a Shutdown is not about the state.
        self.held.clear();
        let grace_ms = self.config.grace.as_millis() as u64;
        let names: Vec<String> = self.outboxes.keys().cloned().collect();
        for name in names {
            self.send_now(&name, Body::Shutdown { grace_ms });
        }
        let _gone = done.send(Err(why));
    }

    /// A state write is done: a failure ends the phase; the last one releases what was held.
    fn written(&mut self, done: Result<(), String>) {
        self.unwritten = self.unwritten.saturating_sub(1);
        if let Err(why) = done {
            return self.fail(why);
        }
        if self.unwritten == 0 {
            for (to, body) in std::mem::take(&mut self.held) {
                self.send_now(&to, body);
            }
        }
    }

    /// Sends `body` to `to` once every state write asked before it is done.
    fn send(&mut self, to: &str, body: Body) {
        if self.unwritten > 0 {
            self.held.push((to.to_string(), body));
        } else {
            self.send_now(to, body);
        }
    }

    fn send_now(&self, to: &str, body: Body) {
        if let Some(outbox) = self.outboxes.get(to) {
            let env = Envelope::new(LEAD, to, body);
            if outbox.try_send(env).is_err() {
                tracing::warn!(to, "could not queue a message");
            }
        }
    }

    fn execute(&mut self, actions: Vec<Action>, ctx: &mut Context<Self>) {
        for action in actions {
            match action {
                Action::Spawn {
                    logical,
                    instance,
                    spawn_no,
                } => {
                    if spawn_no > 1 {
                        self.events(&[team_event(
                            "IMPLEMENTER_RESPAWNED",
                            json!({"actor": instance, "slot": logical, "spawn": spawn_no}),
                        )]);
                    }
                    let spec = ActorSpec {
                        kind: ActorKind::Implementer,
                        logical,
                        instance: instance.clone(),
                        spawn_no,
                    };
                    let spawned = match self.spawner.as_mut() {
                        Some(s) => s.spawn(&spec, std::sync::Arc::new(ctx.address())),
                        None => Ok(()),
                    };
                    if let Err(e) = spawned {
                        let reason = format!("could not be started ({e})");
                        ctx.notify(Lost {
                            name: instance,
                            reason,
                            how: host::hub::Ended::Instance,
                        });
                    }
                }
                Action::Shutdown { instance } | Action::Kill { instance } => {
                    self.stop_instance(&instance);
                }
                Action::GiveUp {
                    instance, reason, ..
                } => {
                    tracing::warn!(instance, reason, "Implementer given up on");
                    self.events(&[team_event(
                        "IMPLEMENTER_LOST",
                        json!({"actor": instance, "reason": reason}),
                    )]);
                }
                Action::Nudge { .. } => {}
            }
        }
        self.maybe_finish(ctx);
    }

    /// Kills an instance and gives its task back (the attempt counted).
    fn stop_instance(&mut self, instance: &str) {
        if let Some(s) = self.spawner.as_mut() {
            s.kill(instance);
        }
        self.outboxes.remove(instance);
        let others = self.live().len().saturating_sub(1);
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let released = board.release_claims_of(instance, others);
        if released.is_empty() {
            return;
        }
        for (task, back) in &released {
            if *back == Returned::Pending {
                self.attempts.lost(*task);
            }
        }
        let lines: Vec<String> = released
            .iter()
            .map(|(task, back)| {
                team_event(
                    "TASK_RELEASED",
                    json!({"task": task, "actor": instance, "returned": returned(*back)}),
                )
            })
            .collect();
        self.events(&lines);
        self.persist();
    }

    fn claim(&mut self, from: &str) {
        let Some(board) = self.board.as_mut() else {
            self.send(
                from,
                Body::NoTaskAvailable {
                    retry_after_ms: None,
                },
            );
            return;
        };
        match board.claim(from) {
            ClaimOutcome::Assigned(id) => {
                let Some(task) = board.task(id).cloned() else {
                    return;
                };
                let attempt = task.attempts;
                let root = std::path::Path::new(&self.config.base.root);
                let restored = self.attempts.claimed(root, &task);
                if let Some(why) = self.attempts.unwritten() {
                    return self.fail(why);
                }
                if !restored.is_empty() {
                    self.events(&[team_event(
                        "TASK_RESTORED",
                        json!({"task": id, "actor": from, "files": restored}),
                    )]);
                }
                let peer_notes = self.phase_b.notes_for(from);
                let notes = peer_notes.len();
                let base = &self.config.base;
                // A fix task's findings, for its judge to run their rules again.
                let findings =
                    super::fix_findings::of(self.state.dir(), &self.config.session_id, &task);
                let assignment = TaskAssignment {
                    task,
                    attempt,
                    root: base.root.clone(),
                    executor: base.executor.clone(),
                    runner: base.runner.clone(),
                    rules: base.rules.clone(),
                    peer_notes,
                    template: base.template.clone(),
                    findings,
                    prompts: base.prompts.overrides(),
                };
                self.events(&[team_event(
                    "TASK_CLAIMED",
                    json!({"task": id, "actor": from, "attempt": attempt, "peer_notes": notes}),
                )]);
                self.persist();
                let deadline = Instant::now() + self.config.task_budget;
                self.supervisor.working(from, deadline);
                self.send(from, Body::TaskAssigned(assignment));
            }
            ClaimOutcome::Wait => self.send(
                from,
                Body::NoTaskAvailable {
                    retry_after_ms: Some(RETRY_CLAIM_MS),
                },
            ),
            ClaimOutcome::AllDone | ClaimOutcome::Stuck(_) => {
                // A scoped review under way may still add fix tasks: ask again then.
                let retry = self.phase_b.busy().then_some(RETRY_CLAIM_MS);
                self.send(
                    from,
                    Body::NoTaskAvailable {
                        retry_after_ms: retry,
                    },
                )
            }
        }
    }

    /// An attempt ended without a PASS.
    fn give_back(&mut self, from: &str, escalation: bool, record: Escalated) {
        let others = self.live().len().saturating_sub(1);
        self.supervisor.working(from, Instant::now() + IDLE_HORIZON);
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let task = record.task;
        let reason = record.reason.clone();
        let Some(back) = board.give_back(task, from, escalation, record, others) else {
            return;
        };
        let kind = if escalation {
            "TASK_ESCALATED"
        } else {
            "TASK_FAILED"
        };
        self.events(&[team_event(
            kind,
            json!({"task": task, "actor": from, "reason": reason, "returned": returned(back)}),
        )]);
        self.persist();
    }

    fn maybe_finish(&mut self, ctx: &mut Context<Self>) {
        if self.phase_b.busy() {
            return;
        }
        let live = self.live();
        let Some(board) = self.board.as_mut() else {
            return;
        };
        if !board.settled(&live) {
            return;
        }
        let left = board.fail_leftovers();
        if !left.is_empty() {
            let lines: Vec<String> = left
                .iter()
                .map(|t| {
                    team_event(
                        "TASK_ESCALATED",
                        json!({"task": t, "actor": LEAD, "reason": "never finished"}),
                    )
                })
                .collect();
            self.events(&lines);
        }
        self.persist();
        let Some(board) = self.board.take() else {
            return;
        };
        for instance in &live {
            self.supervisor.delivered(instance);
        }
        self.observed();
        // What waited for a write is not said; a Shutdown is not about the state.
        self.held.clear();
        let grace_ms = self.config.grace.as_millis() as u64;
        let names: Vec<String> = self.outboxes.keys().cloned().collect();
        for name in names {
            self.send_now(&name, Body::Shutdown { grace_ms });
        }
        let restarts = self.supervisor.restarts().into_iter().collect();
        let result = PhaseResult { board, restarts };
        // The board is handed back once every state write is on disk.
        let flushed = actix::fut::wrap_future::<_, Self>(self.writer.flush());
        ctx.wait(flushed.map(move |written, this, _| {
            if let Some(done) = this.done.take() {
                let result = written.map(|()| result).map_err(|e| e.to_string());
                let _gone = done.send(result);
            }
        }));
    }
}

fn returned(back: Returned) -> &'static str {
    match back {
        Returned::Pending => "pending",
        Returned::Escalated => "escalated",
    }
}
