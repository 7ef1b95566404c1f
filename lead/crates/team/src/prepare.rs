//! Phase A's plan, as one pure step: select the range, validate granularity (V5 repaired),
//! register the tasks and count the Implementers. `retake run --dry-run` prints its result;
//! a real run goes on to start the team with it.

use super::granularity::{validate, Level, Limits, Problem};
use super::plan::{select, Plan, PlanTask, Range, RangeError};
use super::registration::{register, Registration};
use super::team_size::{implementer_count, independent_tasks};

/// The bounds on parallelism a run was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Parallelism {
    /// `--parallel N`.
    pub parallel: Option<u32>,
    /// Phase 0's planner recommendation.
    pub planner_max_parallel: Option<u32>,
}

/// Everything Phase A decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The range.
    pub range: Range,
    /// The plan file(s).
    pub plan_files: Vec<String>,
    /// The selected plan tasks after the V5 repair, in plan order.
    pub selection: Vec<PlanTask>,
    /// The registered tasks and `plans_mapping`.
    pub registration: Registration,
    /// Validation problems (warnings and repairs; errors stop [`prepare`]).
    pub problems: Vec<Problem>,
    /// Tasks that can start at once.
    pub independent_tasks: u32,
    /// Implementers to start.
    pub implementers: u32,
    /// The bounds used.
    pub parallelism: Parallelism,
}

/// Why Phase A cannot plan the run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// The range selects nothing usable.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// Validation found errors (a dependency cycle); the first one is shown.
    #[error("{file}: {}", .errors[0].message)]
    Invalid {
        /// The plan file(s).
        file: String,
        /// The errors, at least one.
        errors: Vec<Problem>,
    },
}

/// Plans the run of `range` over `plan`.
pub fn prepare(
    plan: &Plan,
    range: &Range,
    parallelism: Parallelism,
    limits: &Limits,
) -> Result<Prepared, PrepareError> {
    let selection = select(plan, range)?;
    let validation = validate(selection, limits);
    if !validation.is_runnable() {
        return Err(PrepareError::Invalid {
            file: plan.files.join(", "),
            errors: validation
                .problems
                .into_iter()
                .filter(|p| p.level == Level::Error)
                .collect(),
        });
    }
    let registration = register(&validation.tasks);
    let independent = independent_tasks(&registration.tasks);
    Ok(Prepared {
        range: range.clone(),
        plan_files: plan.files.clone(),
        selection: validation.tasks,
        registration,
        problems: validation.problems,
        independent_tasks: independent,
        implementers: implementer_count(
            independent,
            parallelism.parallel,
            parallelism.planner_max_parallel,
        ),
        parallelism,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::granularity::Check;
    use crate::plan::{parse_plans_md, parse_range};

    fn plan(n: usize) -> Plan {
        let text: String = (1..=n)
            .map(|i| format!("- {i} Add module {i} cc:TODO owns: `src/m{i}.rs`\n"))
            .collect();
        parse_plans_md(&text, "Plans.md").unwrap()
    }

    fn count(n: usize, parallel: Option<u32>) -> u32 {
        let p = Parallelism {
            parallel,
            planner_max_parallel: None,
        };
        prepare(&plan(n), &Range::All, p, &Limits::default())
            .unwrap()
            .implementers
    }

    #[test]
    fn the_acceptance_counts() {
        assert_eq!(count(5, None), 3);
        assert_eq!(count(5, Some(2)), 2);
        assert_eq!(count(1, Some(5)), 1);
        assert_eq!(count(20, Some(10)), 5);
    }

    #[test]
    fn v5_repairs_lower_the_independent_count() {
        let text = "- 1 Add a cc:TODO owns: `src/x.rs`\n- 2 Add b cc:TODO owns: `src/x.rs`\n- 3 Add c cc:TODO owns: `src/y.rs`\n";
        let plan = parse_plans_md(text, "Plans.md").unwrap();
        let p = prepare(
            &plan,
            &Range::All,
            Parallelism::default(),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!((p.independent_tasks, p.implementers), (2, 2));
        assert_eq!(p.registration.tasks[1].blocked_by, vec![1]);
        assert_eq!(p.problems.len(), 1);
        assert_eq!(p.problems[0].check, Check::V5);
    }

    #[test]
    fn a_cycle_or_a_bad_range_stops_phase_a() {
        let text =
            "- 1 Add a cc:TODO owns: `a` depends: 2\n- 2 Add b cc:TODO owns: `b` depends: 1\n";
        let plan = parse_plans_md(text, "Plans.md").unwrap();
        let err = prepare(
            &plan,
            &Range::All,
            Parallelism::default(),
            &Limits::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Plans.md: dependency cycle 1 → 2 → 1: no task in it can ever start; remove one depends"
        );
        let err = prepare(
            &plan,
            &parse_range(Some("payments")),
            Parallelism::default(),
            &Limits::default(),
        )
        .unwrap_err();
        assert!(
            matches!(&err, PrepareError::Range(RangeError::NoMatch { phrase, .. }) if phrase == "payments"),
            "{err:?}"
        );
    }
}
