//! The loop of a run, shared by `retake run` (after Phase A) and `retake resume` (after the
//! state is restored): team phases while tasks are pending, a review of everything the run
//! changed, the gate's decision — accept, fix tasks and another round, or escalate / stop with
//! a report (exit 5) — and, once a review is accepted, Phase C. The accepted review is recorded
//! in `active.json` before Phase C, so a run resumed before its commit goes straight to Phase C
//! while the work tree is still the one the review accepted.

use super::complete::{complete, CompleteInput, Completed};
use super::phase::{run_phase, Team};
use super::review_round::{fix_round, record, review_changes, ReviewInput};
use super::spec_cascade::{self, Imported};
use super::state::{Accepted, ActiveRun, RunState};
use super::team_hub::{PhaseBConfig, ReviewContext};
use super::{report, Board, RunEnd, RunError, RunRequest};
use host::lock::RepoLock;
use outputs::ExitCode;
use protocol::exec::git::work_tree;
use protocol::live::RunPhase;
use protocol::message::ExecutorSpec;
use protocol::{AuditOutcome, Decision, Grade, Task, TaskStatus};
use team::cascade::{spec_files, SpecFiles, SpecUpdate};
use team::escalation::{
    escalation_report, manual_intervention_report, verification_failed_report, RetakeRound,
};
use team::fix_tasks::repository_wide_notes;
use team::gate::{self, GateAction, GateKind, GateState, StopKind};
use team::plan::Plan;
use team::team_size::{implementer_count, independent_tasks};

/// A run ready for its loop: fresh from Phase A, or restored by `retake resume`.
#[derive(Debug)]
pub struct Ready {
    /// The state file's content.
    pub active: ActiveRun,
    /// The state folder.
    pub state: RunState,
    /// The repository lock, held until the run ends.
    pub lock: Option<RepoLock>,
    /// The plan (Phase C marks its tasks done).
    pub plan: Plan,
    /// The executor.
    pub executor: ExecutorSpec,
    /// The test command every task is judged by (Q7).
    pub test: Option<Vec<String>>,
    /// Every task of the run, as `tasks.json` has them.
    pub tasks: Vec<Task>,
    /// Implementers of the next team phase.
    pub implementers: u32,
    /// The review rounds so far.
    pub history: Vec<RetakeRound>,
    /// Whether this Lead started the run: a team that cannot start at all then leaves nothing
    /// to resume.
    pub fresh: bool,
}

/// The gate a run uses: the one it was started with (a resumed run keeps its gate and the
/// counters that go with it), else the configured one.
pub fn gate_kind(active: &ActiveRun, configured: GateKind) -> GateKind {
    match &active.options {
        Some(o) => o.gate.parse().unwrap_or_default(),
        None => configured,
    }
}

/// Implementers for `tasks`: one per task that can start at once, within `--parallel` and the
/// planner's bound, never more than `cap` (the team Phase A started).
pub fn team_for(tasks: &[Task], parallel: Option<u32>, planner: Option<u32>, cap: u32) -> u32 {
    let done = |id: &u32| {
        tasks
            .iter()
            .any(|t| t.id == *id && t.status == TaskStatus::Completed)
    };
    let startable = tasks
        .iter()
        .filter(|t| t.status == TaskStatus::Pending && t.blocked_by.iter().all(done))
        .count() as u32;
    implementer_count(startable, parallel, planner).min(cap.max(1))
}

fn state_error(what: &str) -> impl Fn(std::io::Error) -> RunError + '_ {
    move |source| RunError::State {
        what: what.to_string(),
        source,
    }
}

/// The work tree's content id, the plan files left out (Phase C edits them); `None` when git
/// cannot tell (a resumed run then reviews again rather than trust an unknown tree).
fn tree_id(req: &RunRequest, r: &Ready) -> Option<String> {
    let scratch = r.state.dir().join("tree.index");
    work_tree::work_tree_id(&req.repo, &scratch, &r.plan.files)
        .inspect_err(|e| tracing::warn!(error = %e, "cannot read the work tree's content id"))
        .ok()
}

/// The accepted review Phase C may go on from: the recorded one while the tree is unchanged.
fn still_accepted(req: &RunRequest, r: &mut Ready) -> Result<Option<(Decision, Grade)>, RunError> {
    let Some(accepted) = r.active.accepted.clone() else {
        return Ok(None);
    };
    if tree_id(req, r).is_some_and(|id| !id.is_empty() && id == accepted.tree) {
        eprintln!(
            "retake run: review round {} accepted the work ({} {}); completing the run",
            accepted.round, accepted.decision, accepted.grade
        );
        return Ok(Some((accepted.decision, accepted.grade)));
    }
    eprintln!(
        "retake run: the work tree changed since review round {} accepted it; reviewing again",
        accepted.round
    );
    r.active.accepted = None;
    r.state
        .write_active(&r.active)
        .map_err(state_error("the state file"))?;
    Ok(None)
}

/// Drives `r` to its end: exit 0 committed, 5 escalated or stopped (the state file stays for
/// `retake resume`).
pub fn drive(req: &RunRequest, r: Ready) -> Result<RunEnd, RunError> {
    let mut run = Loop::new(req, r)?;
    let review = match still_accepted(req, &mut run.r)? {
        Some(review) => review,
        None => loop {
            if let Some(end) = run.team_phase()? {
                return Ok(end);
            }
            if run.cascade_due {
                run.cascade_due = false;
                let r = &mut run.r;
                let tasks = &mut run.board.tasks;
                match spec_cascade::import(
                    &req.repo,
                    tasks,
                    &mut r.active.plans_mapping,
                    &mut r.plan,
                ) {
                    Imported::Tasks(n) => {
                        eprintln!("retake run: the updated task list adds {n} task(s)");
                        r.state
                            .write_active(&r.active)
                            .and_then(|()| r.state.write_tasks(&r.active.session_id, tasks))
                            .map_err(state_error("the run's state"))?;
                        continue;
                    }
                    Imported::Nothing => {}
                    Imported::End(end) => return Ok(end),
                }
            }
            match run.review_round()? {
                Round::Accepted(decision, grade) => break (decision, grade),
                Round::Again => {}
                Round::Ended(end) => return Ok(end),
            }
        },
    };
    run.complete(review)
}

/// Where a review round leaves the loop.
enum Round {
    /// Accepted: Phase C goes on with this decision and grade.
    Accepted(Decision, Grade),
    /// Fix tasks were added: another team phase.
    Again,
    /// Escalated or stopped, with its report (exit 5).
    Ended(RunEnd),
}

/// The loop's state between team phases and review rounds.
struct Loop<'a> {
    req: &'a RunRequest,
    r: Ready,
    team: Team,
    session: String,
    team_size: u32,
    board: Board,
    gate_kind: GateKind,
    gate_state: GateState,
    phase_b: PhaseBConfig,
    first_phase: bool,
    /// Findings with no file are no fix task (no judge could pass one): the report names them.
    repository_wide: Vec<String>,
    /// The spec the cascade updates, when SPEC-UPDATE-NEEDED may cascade.
    spec: Option<SpecFiles>,
    /// The cascade's tasks ran: the updated task list is read before the next review.
    cascade_due: bool,
}

impl<'a> Loop<'a> {
    fn new(req: &'a RunRequest, mut r: Ready) -> Result<Loop<'a>, RunError> {
        let config = &req.config;
        let team = Team::new(req, &r.executor, r.test.clone()).map_err(|e| {
            if r.fresh && r.history.is_empty() {
                // The team cannot start at all: an early abort leaves nothing to resume.
                r.state.clear_active();
            }
            RunError::Hosting(e)
        })?;
        let session = r.active.session_id.clone();
        let team_size = r
            .active
            .team
            .as_ref()
            .map_or(r.implementers, |t| t.implementer_count);
        let board = Board::new(std::mem::take(&mut r.tasks), config.max_attempts);
        let gate_kind = gate_kind(&r.active, config.gate);
        let reviews = ReviewContext {
            repo: req.repo.clone(),
            config: config.review.clone(),
            runtime: req.runtime,
            faults: req.faults.clone(),
            gate: gate_kind,
            base: r.active.base_commit.clone(),
        };
        let phase_b = PhaseBConfig::for_run(Some(reviews), &r.plan, &r.active.plans_mapping);
        let spec = (config.spec_update == SpecUpdate::Agent)
            .then(|| spec_files(&r.plan, |p| req.repo.join(p).is_file()))
            .flatten();
        Ok(Loop {
            req,
            gate_state: GateState::from(r.active.review),
            r,
            team,
            session,
            team_size,
            board,
            gate_kind,
            phase_b,
            first_phase: true,
            repository_wide: Vec::new(),
            spec,
            cascade_due: false,
        })
    }

    /// A team phase over the pending tasks, if there are any; the end of the run when a task
    /// escalated.
    fn team_phase(&mut self) -> Result<Option<RunEnd>, RunError> {
        let pending = self
            .board
            .tasks
            .iter()
            .filter(|t| t.status == TaskStatus::Pending)
            .count();
        if pending == 0 {
            return Ok(None);
        }
        let r = &mut self.r;
        let (count, req) = (r.implementers, self.req);
        eprintln!("retake run: {pending} task(s) open, {count} Implementer(s)");
        req.show_phase(RunPhase::Implement, r.history.len());
        let input = self
            .team
            .phase(&self.session, r.implementers, &self.phase_b);
        let board = std::mem::replace(&mut self.board, Board::new(Vec::new(), 0));
        let first_phase = self.first_phase;
        let result = run_phase(input, board, r.state.clone()).map_err(|e| {
            if r.fresh && first_phase && r.history.is_empty() {
                // The team never started: an early abort leaves nothing to resume.
                r.state.clear_active();
            }
            RunError::Team(e)
        })?;
        self.first_phase = false;
        self.board = result.board;
        for (slot, n) in result.restarts.iter().filter(|(_, n)| *n > 0) {
            eprintln!("retake run: {slot} was re-spawned {n} time(s)");
        }
        let escalations = self.board.escalations();
        if escalations.is_empty() {
            return Ok(None);
        }
        let report =
            report::task_escalation_report(&escalations, &self.board.tasks, &self.r.history);
        Ok(Some(RunEnd {
            code: ExitCode::Escalated,
            report,
        }))
    }

    /// Reviews what the run changed and takes the gate's step: accept, fix tasks, or an end.
    fn review_round(&mut self) -> Result<Round, RunError> {
        let (req, r) = (self.req, &mut self.r);
        eprintln!("retake run: every task passed; reviewing the changes");
        let input = ReviewInput {
            repo: &req.repo,
            base: &r.active.base_commit,
            config: &req.config.review,
            runtime: req.runtime,
            faults: &req.faults,
            live: req.live.as_ref(),
            // Only an executor that runs an agent can answer; with a script or the built-in
            // fixers no Inspector is invited to ask (each question would wait out its time).
            author: req.config.executor.clone().filter(answers).map(|spec| {
                review::questions::AuthorRef(std::sync::Arc::new(crate::author::RunAuthor {
                    spec,
                    repo: req.repo.clone(),
                    templates: req.config.prompts.clone(),
                    tasks: self.board.tasks.clone(),
                }))
            }),
        };
        let (outcome, questions) = review_changes(&input)?;
        let round = r.history.len() as u32 + 1;
        r.history.push(RetakeRound::from_outcome(round, &outcome));
        let head = protocol::exec::git::head_commit(&req.repo).unwrap_or_default();
        let (next, action) = gate::step(
            self.gate_kind,
            self.gate_state,
            outcome.verdict,
            outcome.decision,
            self.spec.is_some(),
        );
        self.gate_state = next;
        r.active.review = next.into();
        if let GateAction::Accept { .. } = action {
            r.active.accepted = Some(Accepted {
                round,
                decision: outcome.decision,
                grade: outcome.grade,
                tree: tree_id(req, r).unwrap_or_default(),
            });
        }
        // The counters (and an acceptance) reach active.json before the round's record: a
        // Lead killed in between resumes with them, never with fewer.
        r.state
            .write_active(&r.active)
            .and_then(|()| {
                let round_record = (&outcome, questions.as_slice());
                record(&r.state, round_record, &head, &self.session, round)
            })
            .map_err(state_error("the run's state"))?;
        let said = format!(
            "review round {round}: {} ({}, grade {})",
            outcome.verdict, outcome.decision, outcome.grade
        );
        eprintln!("retake run: {said}");
        req.tell(said);
        let ended = |report| {
            Ok(Round::Ended(RunEnd {
                code: ExitCode::Escalated,
                report,
            }))
        };
        match action {
            GateAction::Accept { .. } => {
                self.repository_wide = repository_wide_notes(&outcome.findings);
                Ok(Round::Accepted(outcome.decision, outcome.grade))
            }
            GateAction::Fix => self.fix_tasks(&outcome),
            GateAction::Escalate(reason) => {
                ended(escalation_report(reason, &outcome.findings, &r.history))
            }
            GateAction::SpecCascade => match &self.spec {
                Some(spec) => {
                    let tasks = spec_cascade::start(&outcome, spec, &self.board.tasks);
                    eprintln!(
                        "retake run: the spec needs an update: {} and then {}",
                        tasks[0].subject, tasks[1].subject
                    );
                    self.board.tasks.extend(tasks);
                    self.r.implementers = 1;
                    self.cascade_due = true;
                    self.r
                        .state
                        .write_tasks(&self.session, &self.board.tasks)
                        .map_err(state_error("tasks.json"))?;
                    Ok(Round::Again)
                }
                None => ended(escalation_report(
                    gate::EscalationReason::NoSpecCascade,
                    &outcome.findings,
                    &r.history,
                )),
            },
            GateAction::Stop(StopKind::ManualIntervention) => {
                ended(manual_intervention_report(&outcome.findings))
            }
            GateAction::Stop(StopKind::VerificationFailed) => {
                ended(verification_failed_report(&outcome.findings, None))
            }
        }
    }

    /// The review's findings as fix tasks on the board for the next team phase; an end when
    /// it names none.
    fn fix_tasks(&mut self, outcome: &AuditOutcome) -> Result<Round, RunError> {
        let fixes = fix_round(outcome, &self.board.tasks);
        if fixes.is_empty() {
            let wide: String = repository_wide_notes(&outcome.findings)
                .iter()
                .map(|n| format!("- {n}\n"))
                .collect();
            let report = format!(
                "⚠ retake: the review asks for changes ({}) but names no finding to turn into a fix task\n\n\
                 {wide}{}Fix the problem by hand, then continue with `retake resume`.\n",
                outcome.verdict,
                if wide.is_empty() { "" } else { "\n" }
            );
            return Ok(Round::Ended(RunEnd {
                code: ExitCode::Escalated,
                report,
            }));
        }
        let (session, state) = (&self.session, &self.r.state);
        super::fix_findings::record(state.dir(), session, &fixes, &outcome.findings)
            .map_err(state_error("fix-findings.json"))?;
        self.r.implementers = implementer_count(independent_tasks(&fixes), self.req.parallel, None);
        self.board.tasks.extend(fixes);
        self.r
            .state
            .write_tasks(session, &self.board.tasks)
            .map_err(state_error("tasks.json"))?;
        Ok(Round::Again)
    }

    /// Phase C after an accepted review: verification, the plan marked done, one commit.
    fn complete(mut self, review: (Decision, Grade)) -> Result<RunEnd, RunError> {
        let r = &mut self.r;
        self.req.show_phase(RunPhase::Complete, r.history.len());
        let done = complete(&CompleteInput {
            repo: &self.req.repo,
            state: &r.state,
            session_id: &self.session,
            range: &r.active.task_range,
            duration_secs: elapsed_secs(&r.active.started_at),
            implementers: self.team_size,
            retakes: r.history.len().saturating_sub(1) as u32,
            tasks: &self.board.tasks,
            repository_wide: &self.repository_wide,
            plans_mapping: &r.active.plans_mapping,
            plan: &r.plan,
            review,
            verify_timeout: self.req.config.review.test_timeout,
            test: r.test.as_deref(),
        })?;
        drop(r.lock.take());
        Ok(match done {
            Completed::Done(report) => RunEnd {
                code: ExitCode::Success,
                report,
            },
            Completed::VerificationFailed(report) => RunEnd {
                code: ExitCode::Escalated,
                report,
            },
        })
    }
}

/// Seconds since the run started (its whole life, interruptions included).
fn elapsed_secs(started_at: &str) -> u64 {
    chrono::DateTime::parse_from_rfc3339(started_at)
        .map(|t| (chrono::Utc::now() - t.with_timezone(&chrono::Utc)).num_seconds())
        .map_or(0, |s| s.max(0) as u64)
}

/// Whether an executor can answer an Inspector's question: it runs an agent (a CLI or an
/// endpoint).
fn answers(spec: &protocol::message::ExecutorSpec) -> bool {
    use protocol::message::ExecutorMode;
    matches!(spec.mode, ExecutorMode::Agent | ExecutorMode::Chat)
}

#[cfg(test)]
mod tests;
