//! What the team hub does beyond claims in Phase B: the signals (`signals.jsonl`) as tasks
//! complete, the scoped reviews they and high-priority tasks call for, and pattern D's peer
//! notes.
//!
//! - Signals come from `team::signals` over the board's plan tasks; each is appended with the
//!   session id (deduplicated against every earlier line of this session, so a resumed run
//!   does not repeat one) and journaled (`SIGNAL`). `partial_review_recommended` queues a
//!   review of the finished plan tasks' files unless one task or none is left (the full review
//!   comes next anyway); `next_batch_recommended` is journaled (`NEXT_BATCH`) with the next
//!   batch's tasks — every task is registered up front and `blocked_by` opens that batch, so
//!   there is nothing more to register.
//! - A high-priority task is reviewed as soon as it completes, unless nothing else is left.
//! - Scoped reviews run one at a time on a thread of their own (each review is its own actix
//!   System), the team working on meanwhile; while one is queued or running the phase does not
//!   end and idle Implementers are told to ask again. Their findings become fix tasks when the
//!   gate would ask for changes (`review_round::scoped_fixes`); otherwise they are journaled
//!   and left to the full review.
//! - A peer note is checked against pattern D's route, journaled (`PEER_NOTE`) and handed to
//!   every other Implementer inside its next assignment. In a shared work tree an Implementer's
//!   change holds whatever the others wrote meanwhile, so a note about a file another task owns
//!   (that task's work), or one already routed (the same news seen from another task), is
//!   dropped.

use super::TeamHub;
use crate::review_round::{covers, review_files, scoped_fixes, ReviewInput, RoundError};
use crate::state::team_event;
use actix::prelude::*;
use host::Runtime;
use protocol::chaos::FaultPlan;
use protocol::{AuditOutcome, Task, TaskStatus};
use review::config::ReviewConfig;
use serde_json::json;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::PathBuf;
use team::gate::GateKind;
use team::patterns::{check_route, note_lines, Party, PeerNote, TeamMessage};
use team::signals::{on_completion, worth_acting, Signal, SignalKind};

/// What the hub needs to run scoped reviews.
#[derive(Debug, Clone)]
pub struct ReviewContext {
    /// The repository root.
    pub repo: PathBuf,
    /// The reviews' configuration.
    pub config: ReviewConfig,
    /// Where the review's actors run.
    pub runtime: Runtime,
    /// Faults to inject.
    pub faults: FaultPlan,
    /// The run's gate, which decides whether findings become fix tasks.
    pub gate: GateKind,
    /// The run's base commit: where a scoped review reads the repository-level files
    /// (`.retake/decisions.yaml`), so that no Implementer's edit configures the gate.
    pub base: String,
}

/// Phase B's settings of a team phase.
#[derive(Debug, Clone, Default)]
pub struct PhaseBConfig {
    /// Scoped reviews; `None` runs none (signals are still written).
    pub reviews: Option<ReviewContext>,
    /// Task ids marked high-priority in the plan.
    pub high_priority: BTreeSet<u32>,
}

impl PhaseBConfig {
    /// Scoped reviews in `reviews`, and the plan's high-priority tasks by task id (through
    /// `plans_mapping`, task id → plan id, so a resumed run keeps them).
    pub fn for_run(
        reviews: Option<ReviewContext>,
        plan: &team::plan::Plan,
        plans_mapping: &std::collections::BTreeMap<u32, String>,
    ) -> PhaseBConfig {
        let high_priority = plans_mapping
            .iter()
            .filter(|(_, plan_id)| plan.task(plan_id).is_some_and(|t| t.high_priority))
            .map(|(id, _)| *id)
            .collect();
        PhaseBConfig {
            reviews,
            high_priority,
        }
    }
}

/// Why a scoped review runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `partial_review_recommended`.
    PartialReview,
    /// A high-priority task completed.
    HighPriority,
}

impl Trigger {
    fn as_str(self) -> &'static str {
        match self {
            Trigger::PartialReview => "partial_review_recommended",
            Trigger::HighPriority => "high_priority",
        }
    }
}

/// A scoped review to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopedReview {
    /// Why.
    pub trigger: Trigger,
    /// The finished tasks it covers.
    pub tasks: Vec<u32>,
    /// Their files (owns entries: paths, folders or globs).
    pub files: Vec<String>,
}

/// A scoped review ended.
#[derive(Message)]
#[rtype(result = "()")]
pub struct ScopedReviewDone {
    /// The review.
    pub review: ScopedReview,
    /// Its outcome and run id, or why it failed.
    pub result: Result<(AuditOutcome, String), RoundError>,
}

/// The hub's Phase B bookkeeping.
#[derive(Debug, Default)]
pub(super) struct PhaseB {
    config: PhaseBConfig,
    emitted: Vec<Signal>,
    queue: VecDeque<ScopedReview>,
    running: bool,
    notes: Vec<(String, PeerNote)>,
    delivered: HashMap<String, usize>,
}

impl PhaseB {
    /// Phase B for a phase, with the signals already written (of any session).
    pub(super) fn new(config: PhaseBConfig, emitted: Vec<Signal>) -> PhaseB {
        PhaseB {
            config,
            emitted,
            ..PhaseB::default()
        }
    }

    /// Whether a scoped review is queued or running: the phase must not end yet.
    pub(super) fn busy(&self) -> bool {
        self.running || !self.queue.is_empty()
    }

    /// The notes `to` has not been handed yet, from others, as prompt lines; marks them handed.
    pub(super) fn notes_for(&mut self, to: &str) -> Vec<String> {
        let from = self.delivered.insert(to.to_string(), self.notes.len());
        let fresh: Vec<(String, PeerNote)> = self.notes[from.unwrap_or(0)..]
            .iter()
            .filter(|(sender, _)| sender != to)
            .cloned()
            .collect();
        note_lines(&fresh)
    }
}

/// The owns entries of `ids`, each once, in task order.
pub fn files_of(tasks: &[Task], ids: &[u32]) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for t in tasks.iter().filter(|t| ids.contains(&t.id)) {
        for f in &t.owns {
            if !files.contains(f) {
                files.push(f.clone());
            }
        }
    }
    files
}

/// What the Lead does once `task` completes: the signals due and the scoped reviews to queue.
pub fn after_completion(
    config: &PhaseBConfig,
    session_id: &str,
    tasks: &[Task],
    task: u32,
    emitted: &[Signal],
    now: &str,
) -> (Vec<Signal>, Vec<ScopedReview>) {
    let signals = on_completion(session_id, tasks, task, emitted, now);
    let mut reviews = Vec::new();
    let unfinished = tasks.iter().any(|t| {
        matches!(
            t.status,
            TaskStatus::Pending | TaskStatus::InProgress { .. }
        )
    });
    if config.high_priority.contains(&task) && unfinished {
        reviews.push(ScopedReview {
            trigger: Trigger::HighPriority,
            tasks: vec![task],
            files: files_of(tasks, &[task]),
        });
    }
    for s in &signals {
        if s.signal == SignalKind::PartialReviewRecommended
            && worth_acting(s, s.total.saturating_sub(s.completed))
        {
            let done: Vec<u32> = tasks
                .iter()
                .filter(|t| t.status == TaskStatus::Completed)
                .map(|t| t.id)
                .collect();
            reviews.push(ScopedReview {
                trigger: Trigger::PartialReview,
                files: files_of(tasks, &done),
                tasks: done,
            });
        }
    }
    reviews.retain(|r| !r.files.is_empty());
    (signals, reviews)
}

impl TeamHub {
    /// Signals and reviews after `task` completed.
    pub(super) fn completed(&mut self, task: u32, ctx: &mut Context<Self>) {
        let Some(board) = self.board.as_ref() else {
            return;
        };
        let now = chrono::Utc::now()
            .format("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string();
        let (signals, reviews) = after_completion(
            &self.phase_b.config,
            &self.config.session_id,
            &board.tasks,
            task,
            &self.phase_b.emitted,
            &now,
        );
        if !signals.is_empty() {
            let mut lines = Vec::new();
            for s in &signals {
                lines.push(team_event("SIGNAL", json!(s)));
                if let (SignalKind::NextBatchRecommended, Some(b)) = (s.signal, s.batch) {
                    let next = team::signals::batches(&board.tasks)
                        .into_iter()
                        .filter(|(_, level)| *level == b + 1)
                        .map(|(id, _)| id)
                        .collect::<Vec<u32>>();
                    lines.push(team_event(
                        "NEXT_BATCH",
                        json!({"batch": b + 1, "tasks": next, "registered": true}),
                    ));
                }
            }
            let (state, written) = (self.state.clone(), signals.clone());
            self.write("cannot append to signals.jsonl", move || {
                state.append_signals(&written)
            });
            self.events(&lines);
            self.phase_b.emitted.extend(signals);
        }
        if self.phase_b.config.reviews.is_some() {
            self.phase_b.queue.extend(reviews);
            self.next_review(ctx);
        }
    }

    /// Starts the next queued scoped review when none is running.
    fn next_review(&mut self, ctx: &mut Context<Self>) {
        if self.phase_b.running {
            return;
        }
        let Some(context) = self.phase_b.config.reviews.clone() else {
            self.phase_b.queue.clear();
            return;
        };
        let Some(review) = self.phase_b.queue.pop_front() else {
            return;
        };
        self.events(&[team_event(
            "SCOPED_REVIEW_STARTED",
            json!({"trigger": review.trigger.as_str(), "tasks": review.tasks, "files": review.files}),
        )]);
        self.phase_b.running = true;
        let hub = ctx.address();
        let thread = std::thread::Builder::new()
            .name("scoped-review".into())
            .spawn(move || {
                let input = ReviewInput {
                    repo: &context.repo,
                    base: &context.base,
                    config: &context.config,
                    runtime: context.runtime,
                    faults: &context.faults,
                    // A scoped review's actors are not the run's: the page shows its result.
                    live: None,
                    author: None,
                };
                let result = review_files(&input, &review.files);
                hub.do_send(ScopedReviewDone { review, result });
            });
        if let Err(e) = thread {
            tracing::error!(error = %e, "cannot start a scoped review");
            self.phase_b.running = false;
            self.phase_b.queue.clear();
        }
    }

    /// Routes an Implementer's peer note (pattern D).
    pub(super) fn peer_note(&mut self, from: &str, note: PeerNote) {
        let Some(board) = self.board.as_ref() else {
            return;
        };
        let holds = board.task(note.task).is_some_and(
            |t| matches!(&t.status, TaskStatus::InProgress { claimer } if claimer == from),
        );
        let owned_elsewhere = board
            .tasks
            .iter()
            .any(|t| t.id != note.task && t.owns.iter().any(|o| covers(o, &note.about)));
        // Another Implementer's view of the shared tree holds the same news: not worth repeating.
        let known = self
            .phase_b
            .notes
            .iter()
            .any(|(_, n)| (n.kind, &n.about, &n.text) == (note.kind, &note.about, &note.text));
        if !holds || owned_elsewhere || known {
            tracing::debug!(
                from,
                about = note.about,
                holds,
                known,
                "peer note not routed"
            );
            return;
        }
        let message = TeamMessage::PeerNote(note.clone());
        let sender = Party::Implementer(from.to_string());
        let to: Vec<String> = self
            .live()
            .into_iter()
            .filter(|peer| {
                check_route(&sender, &Party::Implementer(peer.clone()), &message).is_ok()
            })
            .collect();
        self.events(&[team_event(
            "PEER_NOTE",
            json!({"task": note.task, "actor": from, "to": to, "kind": note.kind.as_str(),
                   "about": note.about, "text": note.text}),
        )]);
        self.phase_b.notes.push((from.to_string(), note));
    }
}

impl Handler<ScopedReviewDone> for TeamHub {
    type Result = ();

    fn handle(&mut self, msg: ScopedReviewDone, ctx: &mut Self::Context) {
        self.phase_b.running = false;
        let review = msg.review;
        let base = json!({"trigger": review.trigger.as_str(), "tasks": review.tasks, "files": review.files});
        match (msg.result, self.board.as_mut()) {
            (Ok((outcome, run_id)), Some(board)) => {
                let gate = self
                    .phase_b
                    .config
                    .reviews
                    .as_ref()
                    .map_or(GateKind::default(), |c| c.gate);
                let fixes = scoped_fixes(gate, &outcome, &board.tasks);
                if let Err(e) = crate::fix_findings::record(
                    self.state.dir(),
                    &self.config.session_id,
                    &fixes,
                    &outcome.findings,
                ) {
                    return self.fail(format!("cannot record the fix tasks' findings: {e}"));
                }
                let ids: Vec<u32> = fixes.iter().map(|t| t.id).collect();
                board.tasks.extend(fixes);
                let mut content = base;
                content["review"] = json!(run_id);
                content["scope"] = json!(outcome.scope);
                content["verdict"] = json!(outcome.verdict.to_string());
                content["decision"] = json!(outcome.decision.to_string());
                content["grade"] = json!(outcome.grade.to_string());
                content["findings"] = json!(outcome
                    .findings
                    .iter()
                    .filter(|f| f.suppression.is_none())
                    .count());
                content["fix_tasks"] = json!(ids);
                self.events(&[team_event("SCOPED_REVIEW_COMPLETED", content)]);
                if !ids.is_empty() {
                    self.persist();
                }
            }
            (Err(reason), _) => {
                let mut content = base;
                content["reason"] = json!(reason.to_string());
                self.events(&[team_event("SCOPED_REVIEW_FAILED", content)]);
            }
            (Ok(_), None) => {}
        }
        self.next_review(ctx);
        self.maybe_finish(ctx);
    }
}

#[cfg(test)]
mod tests;
