//! The Planner and the Critic through an agent (`[loop] discussion = "agent"`): the prompts
//! that ask the configured agent to refine the built-in proposal and to red-team it, and the
//! checks of its answers. An agent's word is taken only as far as it is checked: owns only
//! for a task that declared none, each path resolved against the repository's files (or a
//! file the task may create) and inside it; a dependency only between two selected tasks and
//! never one that closes a cycle; a parallelism only from 1 to the graph's width; a Critic's
//! point only about a selected task, one line. What fails a check is left out and said; an
//! answer that is no JSON object of the asked-for shape is not used at all, and the built-in
//! Planner's proposal stands — the discussion only advises, and Phase A validates its result
//! again either way.

use super::planner::{max_parallel, resolve};
use super::{Added, Flag, Proposal, Why};
use crate::granularity::reaches;
use crate::plan::PlanTask;
use protocol::prompt::{Role, Templates};
use serde::Deserialize;
use std::collections::BTreeSet;

/// Most repository files listed in the Planner's prompt.
const MAX_LISTED_FILES: usize = 400;
/// Most points taken from one Critic answer.
const MAX_AGENT_FLAGS: usize = 10;
/// Longest point taken from the Critic, in characters.
const MAX_POINT_CHARS: usize = 300;

/// The agent behind the Planner and the Critic: one prompt in, the answer's text out, or why
/// there is none (it could not run, timed out, failed).
pub trait Advisor {
    /// Asks `prompt`.
    fn ask(&mut self, prompt: &str) -> Result<String, String>;

    /// The templates its prompts are written from (`[agent] prompt_dir`, else built in).
    fn templates(&self) -> Templates {
        Templates::default()
    }
}

/// The format of the Planner's answer (retake parses it).
const PLANNER_ANSWER: &str = "Answer with one JSON object and nothing else:\n\
    {\"tasks\": [{\"id\": \"2\", \"owns\": [\"src/auth/login.rs\"], \"after\": [\"1\"]}], \
    \"max_parallel\": 2}\n\
    List only tasks you change; paths are repository-relative. Change no file now: this is \
    planning only.\n";

/// The format of the Critic's answer.
const CRITIC_ANSWER: &str = "Answer with one JSON object and nothing else:\n\
    {\"points\": [{\"task\": \"2\", \"problem\": \"also changes src/session.rs\"}]}\n\
    An empty list when nothing is wrong. Change no file now.\n";

#[derive(Debug, Deserialize)]
struct PlannerAnswer {
    #[serde(default)]
    tasks: Vec<TaskAnswer>,
    #[serde(default)]
    max_parallel: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct TaskAnswer {
    id: String,
    #[serde(default)]
    owns: Vec<String>,
    #[serde(default)]
    after: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct CriticAnswer {
    #[serde(default)]
    points: Vec<PointAnswer>,
}

#[derive(Debug, Deserialize)]
struct PointAnswer {
    task: String,
    problem: String,
}

/// The tasks as the prompts show them: id, title, text, owns and dependencies.
fn tasks_block(tasks: &[PlanTask]) -> String {
    let mut out = String::new();
    for t in tasks {
        out.push_str(&format!("- id {}: {}\n", t.id, t.title));
        for line in t.description.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(&format!("    {}\n", line.trim()));
        }
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        out.push_str(&format!(
            "    owns: {} · after: {}\n",
            list(&t.owns),
            list(&t.depends)
        ));
    }
    out
}

/// The Planner's prompt from `templates`: the proposal so far, the repository's files, the
/// Critic's points.
pub fn planner_prompt(
    templates: &Templates,
    proposal: &Proposal,
    known: &[String],
    points: &[String],
) -> String {
    let mut critic = String::new();
    if !points.is_empty() {
        critic.push_str("\n## The Critic's points on this plan\n");
        for p in points {
            critic.push_str(&format!("- {p}\n"));
        }
    }
    let mut files = String::new();
    for f in known.iter().take(MAX_LISTED_FILES) {
        files.push_str(&format!("{f}\n"));
    }
    if known.len() > MAX_LISTED_FILES {
        files.push_str(&format!("… and {} more\n", known.len() - MAX_LISTED_FILES));
    }
    let tasks = tasks_block(&proposal.tasks);
    templates.render(
        Role::Planner,
        &[
            ("{{tasks}}", tasks.trim_end()),
            ("{{points}}", &critic),
            ("{{files}}", files.trim_end()),
        ],
        PLANNER_ANSWER,
    )
}

/// The Critic's prompt from `templates`: the proposal to red-team.
pub fn critic_prompt(templates: &Templates, proposal: &Proposal) -> String {
    let tasks = tasks_block(&proposal.tasks);
    templates.render(
        Role::Critic,
        &[("{{tasks}}", tasks.trim_end())],
        CRITIC_ANSWER,
    )
}

/// The first `{` to the last `}` of an agent's output.
fn json_object(output: &str) -> Option<&str> {
    let start = output.find('{')?;
    let end = output.rfind('}')?;
    (end > start).then(|| &output[start..=end])
}

/// A relative path that stays inside the repository.
fn inside(path: &str) -> bool {
    !path.is_empty()
        && protocol::Location::file(path)
            .resolve(std::path::Path::new(""))
            .is_ok()
}

/// What the Planner's answer changed, and the agent's recommended parallelism.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The moves taken, one line each.
    pub moves: Vec<String>,
    /// The suggestions left out, and why, one line each.
    pub left_out: Vec<String>,
    /// The agent's recommendation, when it is within the graph's width.
    pub max_parallel: Option<u32>,
}

/// Applies the Planner agent's `answer` to `proposal`; `Err` when the answer is not usable at
/// all (the proposal is then unchanged).
pub fn apply_planner(
    proposal: &mut Proposal,
    known: &[String],
    answer: &str,
) -> Result<Applied, String> {
    let text = json_object(answer).ok_or("it printed no JSON object")?;
    let answer: PlannerAnswer =
        serde_json::from_str(text).map_err(|e| format!("its JSON is not a plan: {e}"))?;
    let known: BTreeSet<&str> = known.iter().map(String::as_str).collect();
    let mut applied = Applied::default();
    for t in &answer.tasks {
        let Some(i) = proposal.tasks.iter().position(|p| p.id == t.id) else {
            applied
                .left_out
                .push(format!("task '{}' is not in the range", t.id));
            continue;
        };
        owns(proposal, i, &t.owns, &known, &mut applied);
        for on in &t.after {
            after(proposal, i, on, &mut applied);
        }
    }
    let width = max_parallel(&proposal.tasks);
    match answer.max_parallel {
        Some(n) if (1..=width).contains(&n) => applied.max_parallel = Some(n),
        Some(n) => applied.left_out.push(format!(
            "a parallelism of {n} (the task graph allows 1 to {width})"
        )),
        None => {}
    }
    Ok(applied)
}

/// Takes the agent's owns for task `i` when it declared and was estimated none.
fn owns(
    proposal: &mut Proposal,
    i: usize,
    paths: &[String],
    known: &BTreeSet<&str>,
    applied: &mut Applied,
) {
    if paths.is_empty() {
        return;
    }
    let id = proposal.tasks[i].id.clone();
    if !proposal.tasks[i].owns.is_empty() {
        applied.left_out.push(format!(
            "owns for {id}, which already owns {}",
            proposal.tasks[i].owns.join(", ")
        ));
        return;
    }
    let mut taken = Vec::new();
    for path in paths {
        let path = path.trim().trim_start_matches("./");
        match resolve(path, known).filter(|p| inside(p)) {
            Some(p) if !taken.contains(&p) => taken.push(p),
            Some(_) => {}
            None => applied.left_out.push(format!(
                "'{path}' for {id} (not a file or folder of the repository, nor one it can create)"
            )),
        }
    }
    if !taken.is_empty() {
        applied
            .moves
            .push(format!("{id} owns {} (estimated)", taken.join(", ")));
        proposal.tasks[i].owns = taken.clone();
        proposal.estimated_owns.insert(id, taken);
    }
}

/// Makes task `i` wait for `on` when both are selected and no cycle closes.
fn after(proposal: &mut Proposal, i: usize, on: &str, applied: &mut Applied) {
    let id = proposal.tasks[i].id.clone();
    if on == id || proposal.tasks[i].depends.iter().any(|d| d == on) {
        return;
    }
    let Some(target) = proposal.tasks.iter().position(|t| t.id == on) else {
        applied
            .left_out
            .push(format!("{id} after '{on}', which is not in the range"));
        return;
    };
    if reaches(&proposal.tasks, target, &id) {
        applied.left_out.push(format!(
            "{id} after {on} (it would close a dependency cycle)"
        ));
        return;
    }
    proposal.tasks[i].depends.push(on.to_string());
    proposal.added.push(Added {
        task: id.clone(),
        on: on.to_string(),
        why: Why::Agent,
        path: String::new(),
    });
    applied.moves.push(format!("{id} waits for {on}"));
}

/// The Critic agent's points about the selected tasks; `Err` when the answer is not usable.
pub fn critic_points(tasks: &[PlanTask], answer: &str) -> Result<Vec<Flag>, String> {
    let text = json_object(answer).ok_or("it printed no JSON object")?;
    let answer: CriticAnswer =
        serde_json::from_str(text).map_err(|e| format!("its JSON is not a list of points: {e}"))?;
    Ok(answer
        .points
        .into_iter()
        .filter(|p| tasks.iter().any(|t| t.id == p.task))
        .filter_map(|p| {
            let problem: String = p
                .problem
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(MAX_POINT_CHARS)
                .collect();
            (!problem.is_empty()).then_some(Flag::Agent {
                task: p.task,
                problem,
            })
        })
        .take(MAX_AGENT_FLAGS)
        .collect())
}

#[cfg(test)]
mod tests;
