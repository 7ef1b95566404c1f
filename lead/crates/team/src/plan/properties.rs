//! Plans.md is user input: whatever its text, reading it, selecting a range, checking and
//! ordering its dependencies never panic, never recurse without bound and finish in time linear
//! in its size. Random text, generated plans with random dependencies (cycles, unknown ids,
//! repeats) and deep chains in both directions.

use super::{parse_plans_md, parse_range, select, DepGraph};
use crate::granularity::{validate, Limits};
use proptest::prelude::*;

/// Everything a run does with a plan before it starts a task, on the text `text`.
fn plan_everything(text: &str) {
    let Ok(plan) = parse_plans_md(text, "Plans.md") else {
        return;
    };
    let graph = DepGraph::new(&plan.tasks);
    let _cycle = graph.find_cycle();
    let _levels = graph.levels();
    if let Ok(selection) = select(&plan, &parse_range(None)) {
        let validation = validate(selection, &Limits::default());
        let _parallel = crate::discussion::max_parallel(&validation.tasks);
    }
}

/// A plan of `deps.len()` tasks; task i (1-based) depends on the ids in `deps[i]` (which may
/// name no task, itself, or a later task) and owns one of a few shared paths.
fn plan_text(deps: &[Vec<u16>], owners: &[u8]) -> String {
    let mut text = String::from("# Plan\n");
    for (i, ds) in deps.iter().enumerate() {
        let owns = owners.get(i).map_or(0, |o| o % 5);
        let ids: Vec<String> = ds.iter().map(u16::to_string).collect();
        text.push_str(&format!(
            "- {}. Task {} cc:TODO owns: `src/m{owns}/f.rs` depends: {}\n",
            i + 1,
            i + 1,
            ids.join(", ")
        ));
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_text_never_panics(text in ".{0,2000}") {
        plan_everything(&text);
    }

    #[test]
    fn random_dependency_graphs_never_panic(
        deps in proptest::collection::vec(proptest::collection::vec(0u16..80, 0..4), 1..60),
        owners in proptest::collection::vec(any::<u8>(), 0..60),
    ) {
        let text = plan_text(&deps, &owners);
        let plan = parse_plans_md(&text, "Plans.md");
        // Unknown ids are refused by name; otherwise every task is read.
        if let Ok(plan) = &plan {
            prop_assert_eq!(plan.tasks.len(), deps.len());
        }
        plan_everything(&text);
    }
}

#[test]
fn deep_chains_in_both_directions_are_planned_without_recursion() {
    let n = 50_000;
    let mut down = String::from("# Plan\n");
    let mut up = String::from("# Plan\n");
    for i in 1..=n {
        let dep = if i > 1 {
            format!(" depends: {}", i - 1)
        } else {
            String::new()
        };
        down.push_str(&format!("- {i}. T cc:TODO owns: `src/f{i}.rs`{dep}\n"));
        let dep = if i < n {
            format!(" depends: {}", i + 1)
        } else {
            String::new()
        };
        up.push_str(&format!("- {i}. T cc:TODO owns: `src/f{i}.rs`{dep}\n"));
    }
    for text in [&down, &up] {
        let plan = parse_plans_md(text, "Plans.md").expect("plan");
        let graph = DepGraph::new(&plan.tasks);
        assert_eq!(graph.find_cycle(), None);
        let deepest = graph.levels().and_then(|l| l.into_iter().max());
        assert_eq!(deepest, Some(n - 1));
        plan_everything(text);
    }
}
