//! Phase A's task granularity validation, before any task is registered:
//!
//! | check | fires when | level |
//! |---|---|---|
//! | V1 description | the subject is empty, or only abstract words ("improve", "refactor", 改善 …) with no body | warning |
//! | V2 owns | the task declares no `owns` | warning |
//! | V3 size | more than 10 owned paths, or 5 or more sub-items | warning |
//! | V4 cycle | dependencies form a cycle | error (the run cannot start) |
//! | V5 undeclared dependency | two tasks own one path with no dependency path between them | repaired: the later task gets `blocked_by` the earlier |
//!
//! The V3 limits and the abstract-word list are the source document's (scope > 10 files or 5+
//! sub-items; abstract keywords without acceptance criteria). V5 only links tasks that are not
//! already ordered (directly or transitively), and links each to the nearest earlier owner, so
//! the repair never makes a cycle and builds chains, not fans.

use super::plan::{DepGraph, PlanTask};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Check {
    /// Description present.
    V1,
    /// Owns declared.
    V2,
    /// Size within limits.
    V3,
    /// No dependency cycle.
    V4,
    /// Undeclared dependency (repaired).
    V5,
}

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Shown; the run may go on.
    Warning,
    /// The plan cannot run as written.
    Error,
    /// Found and fixed automatically.
    Repaired,
}

/// One finding of the validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The check.
    pub check: Check,
    /// Its level.
    pub level: Level,
    /// The task it is about.
    pub task: String,
    /// What is wrong and what to do.
    pub message: String,
}

/// The V3 limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most owned paths a task may have.
    pub max_owns: usize,
    /// Most sub-items a task may have.
    pub max_subtasks: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_owns: 10,
            max_subtasks: 4,
        }
    }
}

/// The tasks after the V5 repair, and every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validation {
    /// The tasks, with the `depends` V5 added.
    pub tasks: Vec<PlanTask>,
    /// Problems in check order (V1–V3 task by task, then V4, then V5).
    pub problems: Vec<Problem>,
}

impl Validation {
    /// Whether no problem is an error.
    pub fn is_runnable(&self) -> bool {
        !self.problems.iter().any(|p| p.level == Level::Error)
    }
}

/// Runs V1–V5 over the selected tasks.
pub fn validate(tasks: Vec<PlanTask>, limits: &Limits) -> Validation {
    let mut problems = Vec::new();
    for t in &tasks {
        let mut add = |check, message: String| {
            problems.push(Problem {
                check,
                level: Level::Warning,
                task: t.id.clone(),
                message,
            })
        };
        if t.title.trim().is_empty() && t.description.trim().is_empty() {
            add(
                Check::V1,
                format!(
                    "task {} has no description: say what it changes and how to tell it is done",
                    t.id
                ),
            );
        } else if t.description.trim().is_empty() && abstract_only(&t.title) {
            add(Check::V1, format!("task {} \"{}\" does not say what to do: name the files, functions or behaviour it changes and how to tell it is done", t.id, t.title));
        }
        if t.owns.is_empty() {
            add(Check::V2, format!("task {} declares no owns: Implementers cannot be kept off each other's files; add owns: `path`", t.id));
        }
        if t.owns.len() > limits.max_owns {
            add(
                Check::V3,
                format!(
                    "task {} owns {} paths (limit {}): split it",
                    t.id,
                    t.owns.len(),
                    limits.max_owns
                ),
            );
        }
        if t.subtasks > limits.max_subtasks {
            add(
                Check::V3,
                format!(
                    "task {} has {} sub-items (limit {}): split it",
                    t.id, t.subtasks, limits.max_subtasks
                ),
            );
        }
    }
    if let Some(cycle) = find_cycle(&tasks) {
        problems.push(Problem {
            check: Check::V4,
            level: Level::Error,
            task: cycle[0].clone(),
            message: format!(
                "dependency cycle {}: no task in it can ever start; remove one depends",
                cycle.join(" → ")
            ),
        });
        return Validation { tasks, problems };
    }
    let mut tasks = tasks;
    let mut graph = DepGraph::new(&tasks);
    let owners = Owners::new(&tasks);
    for j in 0..tasks.len() {
        for i in owners.earlier_sharers(&tasks[j], j) {
            let Some(path) = shared_path(&tasks[i], &tasks[j]) else {
                continue;
            };
            if graph.reaches(j, i) || graph.reaches(i, j) {
                continue;
            }
            let (earlier, later) = (tasks[i].id.clone(), tasks[j].id.clone());
            graph.add(j, i);
            tasks[j].depends.push(earlier.clone());
            problems.push(Problem {
                check: Check::V5,
                level: Level::Repaired,
                task: later.clone(),
                message: format!("tasks {earlier} and {later} both own {path}: {later} now waits for {earlier} (blocked_by added)"),
            });
        }
    }
    Validation { tasks, problems }
}

const ABSTRACT_WORDS: &[&str] = &[
    "improve",
    "improvement",
    "improvements",
    "improving",
    "refactor",
    "refactoring",
    "optimize",
    "optimise",
    "optimization",
    "optimisation",
    "cleanup",
    "clean",
    "up",
    "fix",
    "fixes",
    "update",
    "updates",
    "misc",
    "various",
    "stuff",
    "things",
    "tbd",
    "todo",
    "tweak",
    "tweaks",
    "polish",
    "changes",
    "work",
    "performance",
    "code",
    "codebase",
    "quality",
    "ui",
    "ux",
    "overall",
    "general",
    "everything",
    "all",
    "the",
    "of",
    "and",
    "a",
    "some",
];
const ABSTRACT_CJK: &[&str] = &[
    "リファクタリング",
    "パフォーマンス",
    "最適化",
    "改善",
    "修正",
    "対応",
    "全体",
    "色々",
    "いろいろ",
    "コード",
    "品質",
];

/// Whether the subject is only abstract words ("Refactoring", "パフォーマンス改善").
pub fn abstract_only(title: &str) -> bool {
    let mut rest = title.to_lowercase();
    for word in ABSTRACT_CJK {
        rest = rest.replace(word, " ");
    }
    rest.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .all(|w| ABSTRACT_WORDS.contains(&w) || w.chars().all(|c| "のをとにはがもやへ".contains(c)))
}

/// A path both tasks own (one may be a folder or `dir/*` glob holding the other).
pub(crate) fn shared_path(a: &PlanTask, b: &PlanTask) -> Option<String> {
    for x in &a.owns {
        for y in &b.owns {
            let (nx, ny) = (normalise(x), normalise(y));
            let nested = |outer: &str, inner: &str| {
                inner.len() > outer.len()
                    && inner.starts_with(outer)
                    && inner.as_bytes()[outer.len()] == b'/'
            };
            if nx == ny || nested(nx, ny) || nested(ny, nx) {
                return Some(if nx.len() >= ny.len() {
                    x.clone()
                } else {
                    y.clone()
                });
            }
        }
    }
    None
}

fn normalise(path: &str) -> &str {
    let p = path.strip_prefix("./").unwrap_or(path);
    let p = p
        .strip_suffix("/**")
        .or_else(|| p.strip_suffix("/*"))
        .unwrap_or(p);
    p.trim_end_matches('/')
}

/// Whether task `from` depends, directly or transitively, on the task `target`.
pub(crate) fn reaches(tasks: &[PlanTask], from: usize, target: &str) -> bool {
    let graph = DepGraph::new(tasks);
    tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.id == target)
        .any(|(i, _)| graph.reaches(from, i))
}

/// The first dependency cycle, as ids with the first repeated at the end.
pub(crate) fn find_cycle(tasks: &[PlanTask]) -> Option<Vec<String>> {
    let cycle = DepGraph::new(tasks).find_cycle()?;
    Some(cycle.into_iter().map(|i| tasks[i].id.clone()).collect())
}

/// Which tasks own which (normalised) paths, so the tasks sharing a path with one task are
/// found by lookups, not by comparing every pair of tasks.
struct Owners {
    by_path: BTreeMap<String, Vec<usize>>,
}

impl Owners {
    fn new(tasks: &[PlanTask]) -> Owners {
        let mut by_path: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, t) in tasks.iter().enumerate() {
            for path in &t.owns {
                by_path
                    .entry(normalise(path).to_string())
                    .or_default()
                    .push(i);
            }
        }
        Owners { by_path }
    }

    /// The tasks before `at` that own one of `task`'s paths, a folder holding one, or a path
    /// inside one (the candidates [`shared_path`] confirms), nearest first.
    fn earlier_sharers(&self, task: &PlanTask, at: usize) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        for path in &task.owns {
            let path = normalise(path);
            // The path itself and every folder above it.
            let mut prefix = path;
            loop {
                found.extend(self.by_path.get(prefix).into_iter().flatten());
                match prefix.rfind('/') {
                    Some(cut) => prefix = &prefix[..cut],
                    None => break,
                }
            }
            // Paths inside it: keys from `path/` up to `path0` ('0' follows '/').
            let (low, high) = (format!("{path}/"), format!("{path}0"));
            for (_, owners) in self.by_path.range::<str, _>((
                std::ops::Bound::Included(low.as_str()),
                std::ops::Bound::Excluded(high.as_str()),
            )) {
                found.extend(owners);
            }
        }
        found.retain(|&i| i < at);
        found.sort_unstable_by(|a, b| b.cmp(a));
        found.dedup();
        found
    }
}

#[cfg(test)]
pub(crate) mod tests;
