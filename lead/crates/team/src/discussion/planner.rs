//! The built-in Planner: it reads the paths a task's text mentions, resolves them against the
//! repository's files, estimates owns for the tasks that declared none, makes a task that
//! mentions a file another task creates wait for it (never closing a cycle), recommends how
//! many Implementers the dependency graph can keep busy, and revises its proposal on the
//! Critic's points.

use super::{Added, Critique, Flag, Proposal, Why};
use crate::granularity::reaches;
use crate::plan::{DepGraph, PlanTask};
use std::collections::{BTreeMap, BTreeSet};

/// Extensions a bare file name (no `/`) must have to be taken for a path: "e.g." or "v1.2"
/// are not files.
const EXTENSIONS: &[&str] = &[
    "rs", "py", "ts", "tsx", "js", "jsx", "mjs", "go", "java", "kt", "c", "h", "cc", "cpp", "hpp",
    "cs", "rb", "php", "swift", "scala", "md", "toml", "yaml", "yml", "json", "sql", "sh", "html",
    "css", "scss", "proto", "txt", "xml", "ini", "cfg", "lock",
];

/// The path-like words of a task's text, in order, each once: words with a `/` between two
/// names, or a file name with a known extension; backticks, quotes, brackets and sentence
/// punctuation around them are dropped, and URLs are not paths.
pub fn mentioned_paths(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let w = word
            .trim_matches(|c: char| "`\"'()[]{}<>,;:!?*".contains(c))
            .trim_end_matches('.');
        let w = w.strip_prefix("./").unwrap_or(w);
        if w.is_empty() || w.contains("://") || w.starts_with('/') || w.starts_with('-') {
            continue;
        }
        let has_dir = w
            .trim_end_matches('/')
            .split('/')
            .filter(|s| !s.is_empty())
            .count()
            >= 2
            || (w.ends_with('/') && w.len() > 1);
        let has_ext = has_known_extension(w);
        let charset = w.chars().all(|c| c.is_alphanumeric() || "._-/".contains(c));
        if charset && (has_dir || has_ext) && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// Whether the last segment of `path` is a file name with a known extension.
fn has_known_extension(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// A mentioned path as the repository knows it: the file itself, a folder of it (kept with its
/// trailing `/`), the one file whose path ends with it, or — for a path with a folder and a
/// known extension — a file the task will create. `None` otherwise (a bare name that matches no
/// file or several, `and/or`).
pub fn resolve(mention: &str, known: &BTreeSet<&str>) -> Option<String> {
    let bare = mention.trim_end_matches('/');
    if known.contains(bare) {
        return Some(bare.to_string());
    }
    let folder = format!("{bare}/");
    if known.iter().any(|k| k.starts_with(&folder)) {
        return Some(folder);
    }
    let suffix = format!("/{bare}");
    let mut ends = known.iter().filter(|k| k.ends_with(&suffix));
    if let (Some(one), None) = (ends.next(), ends.next()) {
        return Some(one.to_string());
    }
    (bare.contains('/') && has_known_extension(bare)).then(|| bare.to_string())
}

/// The Planner's first proposal over `selection`, with its moves described.
pub fn propose(selection: &[PlanTask], known: &[String]) -> (Proposal, Vec<String>) {
    let known: BTreeSet<&str> = known.iter().map(String::as_str).collect();
    let mut tasks = selection.to_vec();
    let mut moves = Vec::new();
    let mut estimated_owns = BTreeMap::new();
    let mentions: Vec<Vec<String>> = tasks
        .iter()
        .map(|t| {
            let text = format!("{}\n{}", t.title, t.description);
            mentioned_paths(&text)
                .iter()
                .filter_map(|m| resolve(m, &known))
                .collect()
        })
        .collect();
    for (task, paths) in tasks.iter_mut().zip(&mentions) {
        if task.owns.is_empty() && !paths.is_empty() {
            task.owns = paths.clone();
            estimated_owns.insert(task.id.clone(), paths.clone());
            moves.push(format!(
                "{} owns {} (from its text)",
                task.id,
                paths.join(", ")
            ));
        }
    }
    let mut added = Vec::new();
    for (i, paths) in mentions.iter().enumerate() {
        for path in paths.iter().filter(|p| !known.contains(p.as_str())) {
            if tasks[i].owns.contains(path) {
                continue;
            }
            let Some(creator) = tasks
                .iter()
                .position(|t| t.id != tasks[i].id && t.owns.contains(path))
            else {
                continue;
            };
            let on = tasks[creator].id.clone();
            if tasks[i].depends.contains(&on) || reaches(&tasks, creator, &tasks[i].id) {
                continue;
            }
            moves.push(format!(
                "{} waits for {on} (it mentions {path}, which {on} creates)",
                tasks[i].id
            ));
            tasks[i].depends.push(on.clone());
            added.push(Added {
                task: tasks[i].id.clone(),
                on,
                why: Why::Mentions,
                path: path.clone(),
            });
        }
    }
    let proposal = Proposal {
        tasks,
        estimated_owns,
        added,
    };
    moves.push(recommendation(&proposal.tasks));
    (proposal, moves)
}

/// The Planner's answer to the Critic: it takes the dependencies the overlap points ask for.
/// Its moves; none when it has nothing to change (the discussion is over). It never adds a
/// dependency that closes a cycle (`propose` checks), so a cycle is always the plan's own.
pub(super) fn revise(proposal: &mut Proposal, critique: &Critique) -> Vec<String> {
    let mut moves = Vec::new();
    for flag in &critique.flags {
        match flag {
            Flag::Overlap {
                earlier,
                later,
                path,
            } => {
                if let Some(t) = proposal.tasks.iter_mut().find(|t| &t.id == later) {
                    if !t.depends.contains(earlier) {
                        t.depends.push(earlier.clone());
                        moves.push(format!("{later} waits for {earlier} (both own {path})"));
                        proposal.added.push(Added {
                            task: later.clone(),
                            on: earlier.clone(),
                            why: Why::Overlap,
                            path: path.clone(),
                        });
                    }
                }
            }
            // Beyond a built-in Planner: splitting a task, naming files its text does not,
            // or choosing which declared dependency of a cycle is wrong.
            // An agent's point goes to the Planner agent, when there is one.
            Flag::NoOwns { .. }
            | Flag::Oversized { .. }
            | Flag::Cycle { .. }
            | Flag::Agent { .. } => {}
        }
    }
    if !moves.is_empty() {
        moves.push(recommendation(&proposal.tasks));
    }
    moves
}

fn recommendation(tasks: &[PlanTask]) -> String {
    let n = max_parallel(tasks);
    format!(
        "recommends at most {n} Implementer{} in parallel",
        if n == 1 { "" } else { "s" }
    )
}

/// How many Implementers the dependency graph can keep busy: the most tasks on one level
/// (a task's level is one more than its deepest dependency's), where tasks with no owns count
/// once per level (they may touch any file, so two of them must not run side by side). 1 when
/// the dependencies form a cycle.
pub fn max_parallel(tasks: &[PlanTask]) -> u32 {
    width(tasks, true).unwrap_or(1)
}

/// Why the graph keeps fewer Implementers busy than its tasks' levels hold — the reason that
/// lets the Planner's recommendation bound the team (the loops spec's table decides otherwise): a
/// cycle, or tasks without owns that must run one at a time. `None` when the recommendation is
/// only the graph's width, which says nothing the table does not.
pub fn parallel_reason(tasks: &[PlanTask]) -> Option<String> {
    let Some(collapsed) = width(tasks, true) else {
        return Some("the dependencies form a cycle: its tasks can never start".into());
    };
    if collapsed >= width(tasks, false).unwrap_or(collapsed) {
        return None;
    }
    let unowned: Vec<&str> = tasks
        .iter()
        .filter(|t| t.owns.is_empty())
        .map(|t| t.id.as_str())
        .collect();
    Some(format!(
        "task{} {} declare{} no owns and may touch any file: they run one at a time",
        if unowned.len() == 1 { "" } else { "s" },
        unowned.join(", "),
        if unowned.len() == 1 { "s" } else { "" }
    ))
}

/// The most tasks on one level; with `collapse_unowned`, a level's tasks without owns count
/// once. `None` when the dependencies form a cycle.
fn width(tasks: &[PlanTask], collapse_unowned: bool) -> Option<u32> {
    // Levels in linear time; `None` when the dependencies form a cycle.
    let level = DepGraph::new(tasks).levels()?;
    let mut per_level: BTreeMap<usize, (u32, bool)> = BTreeMap::new();
    for (t, l) in tasks.iter().zip(&level) {
        let entry = per_level.entry(*l).or_insert((0, false));
        if t.owns.is_empty() && collapse_unowned {
            entry.1 = true;
        } else {
            entry.0 += 1;
        }
    }
    Some(
        per_level
            .values()
            .map(|(owned, unowned)| owned + u32::from(*unowned))
            .max()
            .unwrap_or(1)
            .max(1),
    )
}
