use super::*;

pub(crate) use crate::testing::task;

fn checks(v: &Validation) -> Vec<(Check, Level, &str)> {
    v.problems
        .iter()
        .map(|p| (p.check, p.level, p.task.as_str()))
        .collect()
}

#[test]
fn a_concrete_plan_is_quiet() {
    let v = validate(
        vec![
            task("1", "Add login form", &["src/login.rs"], &[]),
            task("2", "Add session store", &["src/session.rs"], &["1"]),
        ],
        &Limits::default(),
    );
    assert!(v.problems.is_empty(), "{:?}", v.problems);
    assert!(v.is_runnable());
}

#[test]
fn v1_fires_on_empty_or_abstract_subjects_without_a_body() {
    let mut with_body = task("3", "Refactoring", &["src/e.rs"], &[]);
    with_body.description = "Extract parse_header from src/a.rs".into();
    let v = validate(
        vec![
            task("1", "Refactoring", &["src/a.rs"], &[]),
            task("2", "パフォーマンス改善", &["src/b.rs"], &[]),
            with_body,
            task("4", "", &["src/c.rs"], &[]),
            task("5", "Improve login error messages", &["src/d.rs"], &[]),
        ],
        &Limits::default(),
    );
    assert_eq!(
        checks(&v),
        vec![
            (Check::V1, Level::Warning, "1"),
            (Check::V1, Level::Warning, "2"),
            (Check::V1, Level::Warning, "4"),
        ]
    );
    assert_eq!(
        v.problems[0].message,
        "task 1 \"Refactoring\" does not say what to do: name the files, functions or behaviour it changes and how to tell it is done"
    );
    assert!(v.is_runnable());
}

#[test]
fn v2_and_v3_fire_on_missing_owns_and_oversized_tasks() {
    let many: Vec<String> = (0..11).map(|i| format!("src/f{i}.rs")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let mut busy = task("3", "Add five screens", &["src/ui.rs"], &[]);
    busy.subtasks = 5;
    let mut fine = task("4", "Add four screens", &["src/ui2.rs"], &[]);
    fine.subtasks = 4;
    let ten: Vec<String> = (0..10).map(|i| format!("lib/g{i}.rs")).collect();
    let ten: Vec<&str> = ten.iter().map(String::as_str).collect();
    let v = validate(
        vec![
            task("1", "Add login form", &[], &[]),
            task("2", "Rename every module", &many, &[]),
            busy,
            fine,
            task("5", "Rename ten modules", &ten, &[]),
        ],
        &Limits::default(),
    );
    assert_eq!(
        checks(&v),
        vec![
            (Check::V2, Level::Warning, "1"),
            (Check::V3, Level::Warning, "2"),
            (Check::V3, Level::Warning, "3"),
        ]
    );
    assert_eq!(
        v.problems[1].message,
        "task 2 owns 11 paths (limit 10): split it"
    );
    assert_eq!(
        v.problems[2].message,
        "task 3 has 5 sub-items (limit 4): split it"
    );
}

#[test]
fn v4_reports_the_cycle_as_an_error_and_skips_the_repair() {
    let v = validate(
        vec![
            task("1", "Add a", &["src/x.rs"], &["3"]),
            task("2", "Add b", &["src/x.rs"], &["1"]),
            task("3", "Add c", &["src/y.rs"], &["2"]),
        ],
        &Limits::default(),
    );
    assert_eq!(checks(&v), vec![(Check::V4, Level::Error, "1")]);
    assert_eq!(
        v.problems[0].message,
        "dependency cycle 1 → 3 → 2 → 1: no task in it can ever start; remove one depends"
    );
    assert!(!v.is_runnable());
    let self_loop = validate(vec![task("1", "Add a", &["a"], &["1"])], &Limits::default());
    assert_eq!(checks(&self_loop), vec![(Check::V4, Level::Error, "1")]);
}

#[test]
fn v5_chains_owners_of_one_file_in_plan_order() {
    let v = validate(
        vec![
            task("A", "Add login", &["src/auth/login.rs"], &[]),
            task(
                "B",
                "Add session",
                &["src/auth/login.rs", "src/auth/session.rs"],
                &[],
            ),
            task("C", "Add header", &["src/components/header.rs"], &[]),
            task("D", "Add logout", &["./src/auth/login.rs"], &[]),
        ],
        &Limits::default(),
    );
    assert_eq!(
        checks(&v),
        vec![
            (Check::V5, Level::Repaired, "B"),
            (Check::V5, Level::Repaired, "D")
        ]
    );
    assert_eq!(
        v.problems[0].message,
        "tasks A and B both own src/auth/login.rs: B now waits for A (blocked_by added)"
    );
    let deps: Vec<Vec<String>> = v.tasks.iter().map(|t| t.depends.clone()).collect();
    assert_eq!(
        deps,
        vec![vec![], vec!["A".to_string()], vec![], vec!["B".to_string()]]
    );
    assert!(v.is_runnable());
}

#[test]
fn v5_is_quiet_when_already_ordered_and_sees_folders() {
    let v = validate(
        vec![
            task("1", "Add auth", &["src/auth/*"], &[]),
            task("2", "Add glue", &["src/glue.rs"], &["1"]),
            task("3", "Add login", &["src/auth/login.rs"], &["2"]),
            task("4", "Add authz", &["src/authz.rs"], &[]),
        ],
        &Limits::default(),
    );
    assert!(v.problems.is_empty(), "{:?}", v.problems);
    let v = validate(
        vec![
            task("1", "Add auth", &["src/auth/"], &[]),
            task("2", "Add login", &["src/auth/login.rs"], &[]),
        ],
        &Limits::default(),
    );
    assert_eq!(checks(&v), vec![(Check::V5, Level::Repaired, "2")]);
    assert_eq!(
        v.problems[0].message,
        "tasks 1 and 2 both own src/auth/login.rs: 2 now waits for 1 (blocked_by added)"
    );
}
