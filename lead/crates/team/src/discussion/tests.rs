use super::*;
use crate::granularity::{Check, Level};
use crate::plan::{parse_plans_md, Range};
use crate::prepare::{prepare, Parallelism};
use crate::testing::task;
use std::collections::BTreeSet;

fn known() -> Vec<String> {
    ["Cargo.toml", "README.md", "src/auth/mod.rs", "src/lib.rs"]
        .map(String::from)
        .to_vec()
}

fn with_text(mut t: PlanTask, description: &str) -> PlanTask {
    t.description = description.into();
    t
}

/// 1 creates the token file (no owns declared), 2 uses it, 2 and 3 share login.rs, 4 names
/// the README, 5 names nothing.
fn auth_plan() -> Vec<PlanTask> {
    vec![
        with_text(
            task("1", "Add token store", &[], &[]),
            "create `src/auth/token.rs` with the Token type",
        ),
        with_text(
            task("2", "Add login", &["src/auth/login.rs"], &[]),
            "issue a token through src/auth/token.rs.",
        ),
        task("3", "Add logout", &["src/auth/login.rs"], &[]),
        with_text(task("4", "Document login", &[], &[]), "in README.md"),
        task("5", "Add rate limits", &[], &[]),
    ]
}

#[test]
fn mentions_are_paths_and_nothing_else() {
    assert_eq!(
        mentioned_paths(
            "Use `src/auth/token.rs`, see README.md and https://x.y/z.rs; v1.2 e.g. (tests/) and/or 4.1"
        ),
        vec!["src/auth/token.rs", "README.md", "tests/", "and/or"]
    );
    let known: BTreeSet<&str> = ["src/a/b.rs", "src/lib.rs", "docs/x.md", "src/c/b.rs"]
        .into_iter()
        .collect();
    assert_eq!(resolve("lib.rs", &known).as_deref(), Some("src/lib.rs"));
    assert_eq!(resolve("x.md", &known).as_deref(), Some("docs/x.md"));
    assert_eq!(resolve("b.rs", &known), None, "two files end with it");
    assert_eq!(resolve("a/b.rs", &known).as_deref(), Some("src/a/b.rs"));
    assert_eq!(resolve("src/a", &known).as_deref(), Some("src/a/"));
    assert_eq!(resolve("src/new.rs", &known).as_deref(), Some("src/new.rs"));
    assert_eq!(resolve("new.rs", &known), None, "a bare unknown name");
    assert_eq!(resolve("and/or", &known), None, "not a file name");
}

#[test]
fn the_planner_estimates_owns_and_dependencies_and_the_critic_settles_overlaps() {
    let d = discuss(&auth_plan(), &known(), &Limits::default(), None);
    assert_eq!(d.rounds.len(), 2, "{:#?}", d.rounds);
    assert_eq!(
        d.rounds[0].planner,
        vec![
            "1 owns src/auth/token.rs (from its text)",
            "4 owns README.md (from its text)",
            "2 waits for 1 (it mentions src/auth/token.rs, which 1 creates)",
            "recommends at most 4 Implementers in parallel",
        ]
    );
    assert_eq!(
        d.rounds[0].critic,
        vec![
            Flag::NoOwns { task: "5".into() },
            Flag::Overlap {
                earlier: "2".into(),
                later: "3".into(),
                path: "src/auth/login.rs".into()
            },
        ]
    );
    assert_eq!(
        d.rounds[1].planner,
        vec![
            "3 waits for 2 (both own src/auth/login.rs)",
            "recommends at most 3 Implementers in parallel",
        ]
    );
    assert_eq!(d.rounds[1].critic, vec![Flag::NoOwns { task: "5".into() }]);
    assert_eq!(d.open, vec![Flag::NoOwns { task: "5".into() }]);
    // Levels: {1, 4, 5} then {2} then {3}; 5 owns nothing and counts once.
    assert_eq!(d.planner_max_parallel, 3);
    let depends: Vec<(&str, Vec<String>)> = d
        .proposal
        .tasks
        .iter()
        .map(|t| (t.id.as_str(), t.depends.clone()))
        .collect();
    assert_eq!(
        depends,
        vec![
            ("1", vec![]),
            ("2", vec!["1".to_string()]),
            ("3", vec!["2".to_string()]),
            ("4", vec![]),
            ("5", vec![]),
        ]
    );
    assert_eq!(
        d.proposal.added.iter().map(|a| a.why).collect::<Vec<_>>(),
        vec![Why::Mentions, Why::Overlap]
    );
}

#[test]
fn a_declared_cycle_and_an_oversized_task_stay_open_after_one_round() {
    let many: Vec<String> = (0..11).map(|i| format!("src/m{i}.rs")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let tasks = vec![
        task("1", "Add a", &["src/a.rs"], &["2"]),
        task("2", "Add b", &["src/b.rs"], &["1"]),
        task("3", "Add modules", &many, &[]),
    ];
    let d = discuss(&tasks, &known(), &Limits::default(), None);
    assert_eq!(d.rounds.len(), 1, "the Planner has nothing to change");
    assert_eq!(
        d.open,
        vec![
            Flag::Oversized {
                task: "3".into(),
                reason: "task 3 owns 11 paths (limit 10): split it".into()
            },
            Flag::Cycle {
                tasks: vec!["1".into(), "2".into(), "1".into()]
            },
        ]
    );
    assert_eq!(
        (d.bound(), d.planner_reason.as_deref()),
        (
            Some(1),
            Some("the dependencies form a cycle: its tasks can never start")
        )
    );
    assert_eq!(
        d.planner_max_parallel, 1,
        "a cycle leaves nothing to parallelise"
    );
    assert_eq!(
        d.open[1].message(),
        "dependency cycle 1 → 2 → 1: none of these tasks can ever start"
    );
}

#[test]
fn independent_owned_tasks_are_recommended_side_by_side() {
    let tasks: Vec<PlanTask> = (1..=6)
        .map(|i| {
            let path = format!("src/m{i}.rs");
            task(&i.to_string(), "Add a module", &[path.as_str()], &[])
        })
        .collect();
    let d = discuss(&tasks, &[], &Limits::default(), None);
    assert_eq!((d.rounds.len(), d.planner_max_parallel), (1, 6));
    assert_eq!(
        d.bound(),
        None,
        "the graph's width alone does not lift the cap"
    );
    assert!(d.open.is_empty());
    assert_eq!(d.rounds[0].critic, Vec::new());
}

#[test]
fn phase_a_takes_the_reference_and_still_validates_it() {
    let text = "- 1 Add token store cc:TODO\n  - create `src/auth/token.rs`\n\
                - 2 Add login cc:TODO owns: `src/auth/login.rs`\n  - issue a token through src/auth/token.rs\n\
                - 3 Add logout cc:TODO owns: `src/auth/login.rs`\n\
                - 4 Add audit log cc:TODO owns: `src/audit.rs`\n";
    let plan = parse_plans_md(text, "Plans.md").expect("plan");
    let d = discuss(&plan.tasks, &known(), &Limits::default(), None);
    let reference = d.reference(&plan);
    assert_eq!(reference.tasks[0].owns, vec!["src/auth/token.rs"]);
    assert_eq!(reference.tasks[1].depends, vec!["1"]);
    assert!(
        reference.tasks[2].depends.is_empty(),
        "the overlap is Phase A's V5 repair to make"
    );
    let p = prepare(
        &reference,
        &Range::All,
        Parallelism {
            parallel: None,
            planner_max_parallel: d.bound(),
        },
        &Limits::default(),
    )
    .expect("prepared");
    let checks: Vec<(Check, Level, &str)> = p
        .problems
        .iter()
        .map(|x| (x.check, x.level, x.task.as_str()))
        .collect();
    assert_eq!(checks, vec![(Check::V5, Level::Repaired, "3")]);
    assert_eq!(d.planner_max_parallel, 2, "levels {{1, 4}}, {{2}}, {{3}}");
    assert_eq!((p.independent_tasks, p.implementers), (2, 2));
    let json = d.to_json();
    assert_eq!(json["planner_max_parallel"], 2);
    assert_eq!(json["backend"], "builtin");
    assert_eq!(
        json["estimated_owns"]["1"],
        serde_json::json!(["src/auth/token.rs"])
    );
    assert_eq!(
        json["added_dependencies"][0],
        serde_json::json!({"task": "2", "on": "1", "why": "mentions", "path": "src/auth/token.rs"})
    );
    assert_eq!(
        json["rounds"][0]["critic"][0],
        serde_json::json!({"kind": "overlap", "earlier": "2", "later": "3", "path": "src/auth/login.rs"})
    );
    assert_eq!(
        d.render(),
        "Phase 0 — planning discussion (built-in Planner and Critic)\n\
         \x20 Round 1\n\
         \x20   Planner: 1 owns src/auth/token.rs (from its text)\n\
         \x20   Planner: 2 waits for 1 (it mentions src/auth/token.rs, which 1 creates)\n\
         \x20   Planner: recommends at most 3 Implementers in parallel\n\
         \x20   Critic: 2 and 3 both own src/auth/login.rs and neither waits for the other\n\
         \x20 Round 2\n\
         \x20   Planner: 3 waits for 2 (both own src/auth/login.rs)\n\
         \x20   Planner: recommends at most 2 Implementers in parallel\n\
         \x20   Critic: no objection\n\
         \x20 Refined plan (Phase A validates it again):\n\
         \x20   1 Add token store · owns: src/auth/token.rs (estimated)\n\
         \x20   2 Add login · owns: src/auth/login.rs · after: 1\n\
         \x20   3 Add logout · owns: src/auth/login.rs · after: 2\n\
         \x20   4 Add audit log · owns: src/audit.rs\n\
         \x20 Planner's recommendation: at most 2 Implementers in parallel (the task graph's width only: the team-size table sizes the team)\n"
    );
}

#[test]
fn tasks_without_owns_give_the_planner_a_reason_that_bounds_the_team() {
    let tasks = vec![
        task("1", "Tidy up", &[], &[]),
        task("2", "Polish", &[], &[]),
        task("3", "Add c", &["src/c.rs"], &[]),
        task("4", "Add d", &["src/d.rs"], &[]),
        task("5", "Add e", &["src/e.rs"], &[]),
    ];
    let d = discuss(&tasks, &[], &Limits::default(), None);
    assert_eq!(d.planner_max_parallel, 4, "1 and 2 count once");
    assert_eq!(
        d.planner_reason.as_deref(),
        Some("tasks 1, 2 declare no owns and may touch any file: they run one at a time")
    );
    assert_eq!(d.bound(), Some(4));
    // With the reason, the Planner's bound replaces the default cap of 3 (cap 5).
    assert_eq!(crate::team_size::implementer_count(5, None, d.bound()), 4);
    // Five independent owned tasks: no reason, the default cap.
    let owned: Vec<PlanTask> = (1..=5)
        .map(|i| {
            let path = format!("src/m{i}.rs");
            task(&i.to_string(), "Add a module", &[path.as_str()], &[])
        })
        .collect();
    let d = discuss(&owned, &[], &Limits::default(), None);
    assert_eq!((d.planner_max_parallel, d.bound()), (5, None));
    assert_eq!(crate::team_size::implementer_count(5, None, d.bound()), 3);
}
