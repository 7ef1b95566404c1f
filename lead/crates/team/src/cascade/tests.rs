use super::*;
use crate::testing::task;

fn plan(format: PlanFormat, files: &[&str], tasks: Vec<PlanTask>) -> Plan {
    Plan {
        format,
        files: files.iter().map(|f| f.to_string()).collect(),
        tasks,
    }
}

#[test]
fn only_one_features_task_list_with_a_design_has_a_spec_to_update() {
    let exists = |p: &str| p == "specs/auth/design.md";
    let one = plan(PlanFormat::TasksYaml, &["specs/auth/tasks.yaml"], vec![]);
    assert_eq!(
        spec_files(&one, exists),
        Some(SpecFiles {
            design: "specs/auth/design.md".into(),
            requirements: None,
            tasks: "specs/auth/tasks.yaml".into(),
        })
    );
    let both = |p: &str| p.starts_with("specs/auth/");
    assert_eq!(
        spec_files(&one, both).and_then(|s| s.requirements),
        Some("specs/auth/requirements.md".into())
    );
    let no_design = plan(PlanFormat::TasksYaml, &["specs/pay/tasks.yaml"], vec![]);
    assert_eq!(spec_files(&no_design, exists), None);
    let two = plan(
        PlanFormat::TasksYaml,
        &["specs/auth/tasks.yaml", "specs/pay/tasks.yaml"],
        vec![],
    );
    assert_eq!(spec_files(&two, exists), None, "which feature's spec?");
    let md = plan(PlanFormat::PlansMd, &["Plans.md"], vec![]);
    assert_eq!(spec_files(&md, |_| true), None);
}

#[test]
fn the_architect_owns_the_design_and_the_generator_the_task_list_after_it() {
    let spec = SpecFiles {
        design: "specs/auth/design.md".into(),
        requirements: Some("specs/auth/requirements.md".into()),
        tasks: "specs/auth/tasks.yaml".into(),
    };
    let feedback = [SpecFeedback {
        phase: "design".into(),
        spec: "AC-3".into(),
        description: "tokens cannot both expire and be permanent".into(),
    }];
    let tasks = cascade_tasks(&feedback, &spec, 7);
    let shape: Vec<(u32, Vec<String>, Vec<u32>, TaskOrigin)> = tasks
        .iter()
        .map(|t| (t.id, t.owns.clone(), t.blocked_by.clone(), t.origin))
        .collect();
    assert_eq!(
        shape,
        vec![
            (
                7,
                vec![
                    "specs/auth/design.md".to_string(),
                    "specs/auth/requirements.md".into()
                ],
                vec![],
                TaskOrigin::Spec
            ),
            (
                8,
                vec!["specs/auth/tasks.yaml".to_string()],
                vec![7],
                TaskOrigin::Spec
            ),
        ]
    );
    for t in &tasks {
        assert!(
            t.description
                .contains("- [design] AC-3: tokens cannot both expire and be permanent\n"),
            "{}",
            t.description
        );
        assert!(t.description.contains("Do not change any code."));
    }
}

#[test]
fn the_new_tasks_are_the_open_ones_the_run_has_not_registered() {
    let mut done = task("3", "Old, done", &[], &[]);
    done.marker = Marker::Done;
    let read_again = plan(
        PlanFormat::TasksYaml,
        &["specs/auth/tasks.yaml"],
        vec![
            task("1", "Login", &["src/login.rs"], &[]),
            task("2", "Expiry", &["src/token.rs"], &["1"]),
            done,
        ],
    );
    let registered: BTreeMap<u32, String> = [(1, "1".to_string())].into();
    let new = new_tasks(&read_again, &registered);
    assert_eq!(new.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["2"]);
    let joined = crate::registration::register_more(&new, &registered, 9);
    assert_eq!(
        (
            joined.tasks[0].id,
            joined.tasks[0].blocked_by.clone(),
            joined.plans_mapping.clone()
        ),
        (9, vec![1], [(9, "2".to_string())].into()),
        "numbered after the run's tasks, its dependency on a registered task kept"
    );
}
