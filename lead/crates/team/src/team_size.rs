//! How many Implementers a run starts:
//!
//! `N = max(1, min(independent tasks, --parallel, planner_max_parallel, 5))`, where a bound that
//! was not given is left out, and with neither `--parallel` nor `planner_max_parallel` the cap
//! is 3 instead of 5. `max(1, …)` keeps a run from starving; 5 keeps it from over-spawning.
//!
//! | independent | --parallel | planner | N |
//! |---|---|---|---|
//! | 5 | – | – | 3 |
//! | 5 | 2 | – | 2 |
//! | 8 | 5 | 4 | 4 |
//! | 1 | 5 | – | 1 |
//! | 20 | 10 | – | 5 |

use protocol::Task;

/// The hard cap on Implementers.
pub const HARD_CAP: u32 = 5;
/// The cap when neither `--parallel` nor the planner gives one.
pub const DEFAULT_CAP: u32 = 3;

/// Tasks that can start at once: those waiting for no other task.
pub fn independent_tasks(tasks: &[Task]) -> u32 {
    tasks.iter().filter(|t| t.blocked_by.is_empty()).count() as u32
}

/// The Implementer count for `independent` tasks and the optional bounds.
pub fn implementer_count(
    independent: u32,
    parallel: Option<u32>,
    planner_max_parallel: Option<u32>,
) -> u32 {
    let cap = if parallel.is_none() && planner_max_parallel.is_none() {
        DEFAULT_CAP
    } else {
        HARD_CAP
    };
    [Some(independent), parallel, planner_max_parallel, Some(cap)]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(1)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_table_holds_row_by_row() {
        assert_eq!(implementer_count(5, None, None), 3);
        assert_eq!(implementer_count(5, Some(2), None), 2);
        assert_eq!(implementer_count(8, Some(5), Some(4)), 4);
        assert_eq!(implementer_count(1, Some(5), None), 1);
        assert_eq!(implementer_count(20, Some(10), None), 5);
    }

    #[test]
    fn bounds_at_the_edges() {
        assert_eq!(implementer_count(0, None, None), 1, "never starves");
        assert_eq!(implementer_count(2, None, None), 2);
        assert_eq!(
            implementer_count(9, None, Some(7)),
            5,
            "planner alone lifts the cap to 5"
        );
        assert_eq!(implementer_count(9, None, Some(2)), 2);
    }

    #[test]
    fn independent_means_blocked_by_nothing() {
        let reg = crate::registration::register(&[
            crate::testing::task("1", "Add a", &["a"], &[]),
            crate::testing::task("2", "Add b", &["b"], &["1"]),
            crate::testing::task("3", "Add c", &["c"], &[]),
        ]);
        assert_eq!(independent_tasks(&reg.tasks), 2);
    }
}
