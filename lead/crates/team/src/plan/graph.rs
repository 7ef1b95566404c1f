//! The dependency graph of a plan's tasks, indexed once: cycle detection, dependency levels and
//! reachability in time linear in tasks plus dependencies, and without recursion.
//!
//! A plan is user input of any size: looking each dependency up by scanning the task list made a
//! 20,000-task chain take minutes, and a recursive depth-first search is as deep as the longest
//! chain (a stack overflow waiting for a long enough plan).

use super::PlanTask;
use std::collections::HashMap;

/// The tasks' dependencies as indexes into the task list (ids that name no task are left out:
/// `check_ids` reports those).
#[derive(Debug, Clone)]
pub struct DepGraph {
    deps: Vec<Vec<usize>>,
}

impl DepGraph {
    /// The graph of `tasks`; an id used twice stands for its first task.
    pub fn new(tasks: &[PlanTask]) -> DepGraph {
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(tasks.len());
        for (i, t) in tasks.iter().enumerate() {
            index.entry(t.id.as_str()).or_insert(i);
        }
        let deps = tasks
            .iter()
            .map(|t| {
                t.depends
                    .iter()
                    .filter_map(|d| index.get(d.as_str()).copied())
                    .collect()
            })
            .collect();
        DepGraph { deps }
    }

    /// Records that task `from` now also waits for task `on`.
    pub fn add(&mut self, from: usize, on: usize) {
        if let Some(deps) = self.deps.get_mut(from) {
            deps.push(on);
        }
    }

    /// The first cycle a depth-first search in task order meets, as task indexes with the first
    /// repeated at the end; `None` when there is none.
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        #[derive(Clone, Copy, PartialEq)]
        enum State {
            New,
            OnPath,
            Done,
        }
        let mut state = vec![State::New; self.deps.len()];
        // The current path, each node with the position of the next dependency to follow.
        let mut path: Vec<(usize, usize)> = Vec::new();
        for start in 0..self.deps.len() {
            if state[start] != State::New {
                continue;
            }
            state[start] = State::OnPath;
            path.push((start, 0));
            while let Some(&mut (at, ref mut next)) = path.last_mut() {
                let Some(&dep) = self.deps[at].get(*next) else {
                    state[at] = State::Done;
                    path.pop();
                    continue;
                };
                *next += 1;
                match state[dep] {
                    State::OnPath => {
                        let from = path.iter().position(|&(p, _)| p == dep).unwrap_or(0);
                        let mut cycle: Vec<usize> = path[from..].iter().map(|&(p, _)| p).collect();
                        cycle.push(dep);
                        return Some(cycle);
                    }
                    State::New => {
                        state[dep] = State::OnPath;
                        path.push((dep, 0));
                    }
                    State::Done => {}
                }
            }
        }
        None
    }

    /// Each task's level — 0 with no dependency, else one more than its deepest dependency's —
    /// or `None` when the dependencies form a cycle (Kahn's algorithm).
    pub fn levels(&self) -> Option<Vec<usize>> {
        let n = self.deps.len();
        let mut waiting_on: Vec<usize> = self.deps.iter().map(Vec::len).collect();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (task, deps) in self.deps.iter().enumerate() {
            for &dep in deps {
                dependents[dep].push(task);
            }
        }
        let mut level = vec![0usize; n];
        let mut ready: Vec<usize> = (0..n).filter(|&t| waiting_on[t] == 0).collect();
        let mut placed = 0;
        while let Some(task) = ready.pop() {
            placed += 1;
            for &next in &dependents[task] {
                level[next] = level[next].max(level[task] + 1);
                waiting_on[next] -= 1;
                if waiting_on[next] == 0 {
                    ready.push(next);
                }
            }
        }
        (placed == n).then_some(level)
    }

    /// Whether task `from` waits, directly or transitively, for task `target`.
    pub fn reaches(&self, from: usize, target: usize) -> bool {
        let mut seen = vec![false; self.deps.len()];
        let mut stack = vec![from];
        while let Some(at) = stack.pop() {
            for &dep in self.deps.get(at).map_or(&[][..], Vec::as_slice) {
                if dep == target {
                    return true;
                }
                if !seen[dep] {
                    seen[dep] = true;
                    stack.push(dep);
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::parse_plans_md;

    fn graph(text: &str) -> (Vec<String>, DepGraph) {
        let plan = parse_plans_md(text, "Plans.md").expect("plan");
        let ids = plan.tasks.iter().map(|t| t.id.clone()).collect();
        (ids, DepGraph::new(&plan.tasks))
    }

    #[test]
    fn levels_reachability_and_the_first_cycle() {
        let (_, g) = graph("- 1. a cc:TODO\n- 2. b cc:TODO depends: 1\n- 3. c cc:TODO depends: 1, 2\n- 4. d cc:TODO\n");
        assert_eq!(g.levels(), Some(vec![0, 1, 2, 0]));
        assert!(g.reaches(2, 0));
        assert!(!g.reaches(0, 2));
        assert_eq!(g.find_cycle(), None);
        let (ids, g) = graph("- 1. a cc:TODO depends: 3\n- 2. b cc:TODO depends: 1\n- 3. c cc:TODO depends: 2\n- 4. d cc:TODO depends: 4\n");
        let cycle: Vec<&str> = g
            .find_cycle()
            .expect("cycle")
            .into_iter()
            .map(|i| ids[i].as_str())
            .collect();
        assert_eq!(cycle, vec!["1", "3", "2", "1"]);
        assert_eq!(g.levels(), None);
    }

    #[test]
    fn a_chain_of_a_hundred_thousand_tasks_needs_no_recursion() {
        let n = 100_000;
        let mut text = String::from("- 1. t cc:TODO\n");
        for i in 2..=n {
            text.push_str(&format!("- {i}. t cc:TODO depends: {}\n", i - 1));
        }
        let (_, mut g) = graph(&text);
        assert_eq!(g.find_cycle(), None);
        assert_eq!(g.levels().and_then(|l| l.last().copied()), Some(n - 1));
        assert!(g.reaches(n - 1, 0));
        g.add(0, n - 1);
        assert_eq!(g.find_cycle().map(|c| c.len()), Some(n + 1));
    }
}
