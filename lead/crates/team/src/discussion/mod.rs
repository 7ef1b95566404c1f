//! Phase 0 — the planning discussion (the team-loop spec; `--no-discuss` skips it). A Planner and a
//! Critic, built in — and, with `[loop] discussion = "agent"`, the configured agent as well
//! (`agent`: its answers checked before they count) — discuss the selected tasks for at most
//! [`MAX_ROUNDS`] rounds:
//!
//! - the Planner estimates each task's `owns` (paths its text mentions, resolved against the
//!   repository's files), its dependencies (a task that mentions a file another task creates
//!   waits for it) and a recommended parallelism (`planner_max_parallel`);
//! - the Critic red-teams the proposal: tasks without owns, overlapping owns without a
//!   dependency, oversized tasks, dependency cycles;
//! - the Planner revises what it can (it takes the dependency the Critic asks for); what it
//!   cannot (no owns, oversized, a declared cycle) stays open for the user — or goes to the
//!   Planner agent, with the Critic agent's own points, which may estimate owns and add
//!   dependencies.
//!
//! The refined plan is shown and handed to Phase A as reference ([`Discussion::reference`]):
//! estimated owns and the Planner's dependencies go in, and Phase A's validation still runs on
//! the result (its V5 repair re-derives the overlap dependencies the Critic asked for).
//! Everything here is a pure function of the tasks, the repository's file list and what the
//! [`Advisor`] answers.

pub mod agent;
mod critic;
mod planner;
mod render;
#[cfg(test)]
mod tests;

pub use agent::Advisor;
pub use critic::{critique, Critique, Flag};
pub use planner::{max_parallel, mentioned_paths, parallel_reason, propose, resolve};

use super::granularity::Limits;
use super::plan::{Plan, PlanTask};
use serde::Serialize;
use std::collections::BTreeMap;

/// Who discusses besides the built-in Planner and Critic (`[loop] discussion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiscussionMode {
    /// The built-in pair alone (the default).
    #[default]
    Builtin,
    /// The configured executor's agent as well.
    Agent,
}

/// Most rounds of one discussion.
pub const MAX_ROUNDS: u32 = 3;

/// Why the Planner made a task wait for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// The task mentions a file the other task creates.
    Mentions,
    /// Both own a path (the Critic's point, taken).
    Overlap,
    /// The Planner agent said so (checked: both tasks selected, no cycle).
    Agent,
}

/// A dependency the Planner added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Added {
    /// The task that waits.
    pub task: String,
    /// The task it waits for.
    pub on: String,
    /// Why.
    pub why: Why,
    /// The path behind it.
    pub path: String,
}

/// The Planner's current proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// The tasks with declared and estimated owns and dependencies.
    pub tasks: Vec<PlanTask>,
    /// Owns estimated for tasks that declared none: task id → paths.
    pub estimated_owns: BTreeMap<String, Vec<String>>,
    /// Dependencies the Planner added, in the order it added them.
    pub added: Vec<Added>,
}

/// One round: what the Planner did, and what the Critic said about the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Round {
    /// 1-based.
    pub round: u32,
    /// The Planner's moves, one line each.
    pub planner: Vec<String>,
    /// The Critic's flags on the proposal after those moves.
    pub critic: Vec<Flag>,
    /// What an agent said that was not used, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// How the discussion ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discussion {
    /// The rounds held (1 to [`MAX_ROUNDS`]).
    pub rounds: Vec<Round>,
    /// The refined plan.
    pub proposal: Proposal,
    /// The Planner's recommended parallelism.
    pub planner_max_parallel: u32,
    /// Why the recommendation is below the graph's width (`planner::parallel_reason`); without
    /// one it does not bound the team.
    pub planner_reason: Option<String>,
    /// The Critic's points the Planner could not settle.
    pub open: Vec<Flag>,
    /// Whether an agent took part.
    pub agent: bool,
}

/// Holds the discussion over the selected tasks; `known` are the repository's files. With an
/// `advisor`, the agent plans and red-teams beside the built-in pair.
pub fn discuss(
    selection: &[PlanTask],
    known: &[String],
    limits: &Limits,
    mut advisor: Option<&mut dyn Advisor>,
) -> Discussion {
    let agent = advisor.is_some();
    let (mut proposal, mut moves) = propose(selection, known);
    let mut notes = Vec::new();
    let mut agent_parallel = None;
    if let Some(a) = advisor.as_deref_mut() {
        ask_planner(
            a,
            &mut proposal,
            known,
            &[],
            (&mut moves, &mut notes),
            &mut agent_parallel,
        );
    }
    let mut rounds = Vec::new();
    let mut open = Vec::new();
    for round in 1..=MAX_ROUNDS {
        let critique = critique(&proposal.tasks, limits);
        let mut flags = critique.flags.clone();
        if let Some(a) = advisor.as_deref_mut() {
            match a
                .ask(&agent::critic_prompt(&a.templates(), &proposal))
                .and_then(|answer| agent::critic_points(&proposal.tasks, &answer))
            {
                Ok(points) => flags.extend(points),
                Err(why) => notes.push(format!("the Critic agent's answer was not used: {why}")),
            }
        }
        rounds.push(Round {
            round,
            planner: std::mem::take(&mut moves),
            critic: flags.clone(),
            notes: std::mem::take(&mut notes),
        });
        if round < MAX_ROUNDS {
            moves = planner::revise(&mut proposal, &critique);
            if let Some(a) = advisor.as_deref_mut() {
                // What the built-in Planner cannot settle goes to the agent.
                let points: Vec<String> = flags
                    .iter()
                    .filter(|f| !matches!(f, Flag::Overlap { .. }))
                    .map(Flag::message)
                    .collect();
                if !points.is_empty() {
                    let lines = (&mut moves, &mut notes);
                    ask_planner(a, &mut proposal, known, &points, lines, &mut agent_parallel);
                }
            }
        }
        if moves.is_empty() {
            open = flags;
            break;
        }
    }
    if let Some(last) = rounds.last_mut() {
        // What the Planner agent said after the last round's points.
        last.notes.append(&mut notes);
    }
    let width = max_parallel(&proposal.tasks);
    let (planner_max_parallel, planner_reason) = match agent_parallel {
        Some(n) if n < width => (n, Some("the planner agent's recommendation".to_string())),
        _ => (width, parallel_reason(&proposal.tasks)),
    };
    Discussion {
        rounds,
        proposal,
        planner_max_parallel,
        planner_reason,
        open,
        agent,
    }
}

/// One question to the Planner agent: its checked changes join `moves`, what was left out or
/// why the answer was not used joins `notes`.
fn ask_planner(
    advisor: &mut dyn Advisor,
    proposal: &mut Proposal,
    known: &[String],
    points: &[String],
    (moves, notes): (&mut Vec<String>, &mut Vec<String>),
    parallel: &mut Option<u32>,
) {
    let prompt = agent::planner_prompt(&advisor.templates(), proposal, known, points);
    match advisor
        .ask(&prompt)
        .and_then(|answer| agent::apply_planner(proposal, known, &answer))
    {
        Ok(applied) => {
            moves.extend(applied.moves.into_iter().map(|m| format!("{m} (agent)")));
            notes.extend(
                applied
                    .left_out
                    .into_iter()
                    .map(|l| format!("the Planner agent's suggestion left out: {l}")),
            );
            if applied.max_parallel.is_some() {
                *parallel = applied.max_parallel;
            }
        }
        Err(why) => notes.push(format!("the Planner agent's answer was not used: {why}")),
    }
}

impl Discussion {
    /// The bound the Planner puts on the Implementer count (`planner_max_parallel` of chapter
    /// 04's formula): its recommendation when it says why, else none — the table's default cap
    /// of 3 then applies, as with `--no-discuss`.
    pub fn bound(&self) -> Option<u32> {
        self.planner_reason
            .as_ref()
            .map(|_| self.planner_max_parallel)
    }

    /// `plan` with the discussion's outcome for Phase A: estimated owns for the tasks that
    /// declared none and the dependencies the Planner found in the tasks' text. The overlap
    /// dependencies the Critic asked for are left to Phase A's V5 repair, which finds the same
    /// ones and reports them.
    pub fn reference(&self, plan: &Plan) -> Plan {
        let mut plan = plan.clone();
        for task in plan.tasks.iter_mut() {
            if let Some(owns) = self.proposal.estimated_owns.get(&task.id) {
                if task.owns.is_empty() {
                    task.owns = owns.clone();
                }
            }
            for added in &self.proposal.added {
                if matches!(added.why, Why::Mentions | Why::Agent)
                    && added.task == task.id
                    && !task.depends.contains(&added.on)
                {
                    task.depends.push(added.on.clone());
                }
            }
        }
        plan
    }

    /// The discussion as shown to the user (stderr of a run, part of a dry run's output).
    pub fn render(&self) -> String {
        render::terminal(self)
    }

    /// The discussion as JSON (`--dry-run --format json`, key `discussion`).
    pub fn to_json(&self) -> serde_json::Value {
        render::json(self)
    }
}
