//! What one review asks of its actors: a request per Inspector slot, the Auditor's request, and
//! the deadlines and limits the supervisor enforces — all derived from the review request and
//! the configuration before any actor starts.

use super::prepare::Prepared;
use super::questions::AuthorRef;
use super::{ReviewRequest, AUDITOR};
use host::supervisor::{Policy, Role};
use host::ActorKind;
use protocol::message::{now_ms, AuditRequest, InspectOptions, InspectRequest};
use protocol::{InspectorKind, InspectorReport};
use std::collections::BTreeMap;
use std::time::Duration;

/// The review's plan.
#[derive(Debug, Clone)]
pub struct ReviewPlan {
    /// The review (run) id.
    pub review: String,
    /// Inspector slots: logical name, kind, request.
    pub inspections: Vec<(String, InspectorKind, InspectRequest)>,
    /// The Auditor's logical name.
    pub auditor: String,
    /// The Auditor's request (recovery fields filled in when it is re-spawned).
    pub audit: AuditRequest,
    /// Supervision timing and limits.
    pub policy: Policy,
    /// Grace period of `Shutdown`.
    pub shutdown_grace: Duration,
    /// How long the Auditor has for its verdict after `AllReportsIn`.
    pub audit_deadline: Duration,
    /// How long a static Inspector has for its report.
    pub inspect_deadline: Duration,
    /// How long the test Inspector has (the test timeout plus the static deadline).
    pub test_deadline: Duration,
    /// Reports already journaled by an interrupted run: their Inspectors are not started again.
    pub preloaded: BTreeMap<String, InspectorReport>,
    /// Who answers the Inspectors' questions; `None`: the asking agent stands in for the author.
    pub author: Option<AuthorRef>,
    /// Whether commands may not run (then no agent stands in for the author).
    pub no_exec: bool,
    /// The repository root.
    pub root: std::path::PathBuf,
    /// The template the agent standing in for the author is prompted with.
    pub answer_template: String,
    /// How long an Inspector waits for an answer (zero: its agent is not invited to ask); an
    /// answer later than that is journaled as late and not handed on.
    pub question_timeout: Duration,
}

impl ReviewPlan {
    /// The plan for `req` under review id `review`, heartbeating every `heartbeat`; each actor
    /// works out for itself what [`Prepared`] would have shipped.
    pub fn build(req: &ReviewRequest, review: &str, heartbeat: Duration) -> ReviewPlan {
        ReviewPlan::build_with(req, review, heartbeat, &Prepared::default())
    }

    /// As [`ReviewPlan::build`], shipping `prepared` to the actors.
    pub fn build_with(
        req: &ReviewRequest,
        review: &str,
        heartbeat: Duration,
        prepared: &Prepared,
    ) -> ReviewPlan {
        let c = &req.config;
        let sv = &c.supervision;
        let options = prepared.ship(InspectOptions {
            no_exec: req.no_exec,
            repo_files_rev: req.repo_files_rev.clone(),
            ..c.inspect.clone()
        });
        // Someone answers the agents' questions: the request's author, else (when commands may
        // run) the asking agent standing in for the author.
        let asking = !c.questions.timeout.is_zero() && (req.author.is_some() || !req.no_exec);
        let question_ms = if asking {
            c.questions.timeout.as_millis() as u64
        } else {
            0
        };
        // An agent backend gets its attempts' timeouts on top (zero when every kind is built
        // in) and, when it may ask, the waits for its answers and the attempts that follow.
        let questions_budget = if asking && !c.agent_budget.is_zero() {
            c.questions.timeout * protocol::message::MAX_QUESTIONS as u32 + c.agent_budget
        } else {
            Duration::ZERO
        };
        let inspect_deadline = sv.inspect_deadline + c.agent_budget + questions_budget;
        let test_deadline = inspect_deadline + c.test_timeout;
        let deadline_ms = now_ms() + test_deadline.as_millis() as u64;
        let inspections: Vec<(String, InspectorKind, InspectRequest)> = InspectorKind::ALL
            .into_iter()
            .map(|kind| {
                let request = InspectRequest {
                    review: review.to_string(),
                    root: req.repo.to_string_lossy().into_owned(),
                    scope: req.scope.clone(),
                    report_to: AUDITOR.to_string(),
                    deadline_ms,
                    options: c.options_for(kind, options.clone()),
                };
                let mut request = request;
                if let Some(agent) = request.options.agent.as_mut() {
                    agent.question_timeout_ms = question_ms;
                }
                (kind.actor_name(), kind, request)
            })
            .collect();
        let audit = AuditRequest {
            review: review.to_string(),
            scope: req.scope.label(),
            expect: inspections.iter().map(|(n, _, _)| n.clone()).collect(),
            recovery: None,
            budget_ms: c.audit_budget_ms,
            test_failure: c.test_failure,
            unavailable: Vec::new(),
            root: Some(req.repo.to_string_lossy().into_owned()),
            context: super::context::load(
                &req.repo,
                &req.scope,
                req.repo_files_rev.as_deref(),
                prepared,
            ),
        };
        let policy = Policy {
            heartbeat,
            suspect_after: sv.suspect_after,
            connect_timeout: sv.connect_timeout,
            nudge_timeout: sv.nudge_timeout,
            max_restarts: sv.max_restarts,
            restart_window: sv.restart_window,
            respawns_per_slot: 1,
        };
        ReviewPlan {
            review: review.to_string(),
            inspections,
            auditor: AUDITOR.to_string(),
            audit,
            policy,
            shutdown_grace: sv.shutdown_grace,
            audit_deadline: sv.audit_deadline,
            inspect_deadline,
            test_deadline,
            preloaded: BTreeMap::new(),
            author: req.author.clone(),
            no_exec: req.no_exec,
            root: req.repo.clone(),
            answer_template: c.questions.template.clone(),
            question_timeout: Duration::from_millis(question_ms),
        }
    }

    /// Names this pipeline's Auditor (`auditor-impl-2` in consensus mode) and points every
    /// Inspector's report at it.
    pub fn rename_auditor(&mut self, name: &str) {
        self.auditor = name.to_string();
        for (_, _, request) in &mut self.inspections {
            request.report_to = name.to_string();
        }
    }

    /// Gives every agent backend of this pipeline the sampling seed `seed` (consensus pipeline
    /// `k` of several), so that each pipeline's agents are an opinion of their own.
    pub fn seed_agents(&mut self, seed: u64) {
        for (_, _, request) in &mut self.inspections {
            if let Some(agent) = request.options.agent.as_mut() {
                agent.seed = Some(seed);
            }
        }
    }

    /// Every slot with its role, Inspectors first.
    pub fn actors(&self) -> Vec<(String, Role)> {
        self.inspections
            .iter()
            .map(|(n, _, _)| (n.clone(), Role::Inspector))
            .chain(std::iter::once((self.auditor.clone(), Role::Auditor)))
            .collect()
    }

    /// The Inspector slots' names.
    pub fn inspector_names(&self) -> Vec<String> {
        self.inspections.iter().map(|(n, _, _)| n.clone()).collect()
    }

    /// What a logical name runs as.
    pub fn kind_of(&self, logical: &str) -> Option<ActorKind> {
        if logical == self.auditor {
            return Some(ActorKind::Auditor);
        }
        self.inspections
            .iter()
            .find(|(n, _, _)| n == logical)
            .map(|(_, k, _)| ActorKind::Inspector(*k))
    }

    /// The request for an Inspector slot.
    pub fn request_for(&self, logical: &str) -> Option<InspectRequest> {
        self.inspections
            .iter()
            .find(|(n, _, _)| n == logical)
            .map(|(_, _, r)| r.clone())
    }

    /// The report deadline of an Inspector slot: the test Inspector also gets the test timeout.
    pub fn inspect_deadline(&self, logical: &str) -> Duration {
        match self.kind_of(logical) {
            Some(ActorKind::Inspector(InspectorKind::Test)) => self.test_deadline,
            _ => self.inspect_deadline,
        }
    }
}
