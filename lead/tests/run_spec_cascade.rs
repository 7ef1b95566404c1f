//! The spec-update cascade through the real binary (`[loop] spec_update = "agent"`): a run over
//! `specs/calc/tasks.yaml` whose first review finds the spec itself defective (two agent-backed
//! Inspectors report `spec-defect` at one place: SPEC-UPDATE-NEEDED) has the team update the
//! design (the Architect's task), then the task list (the TaskGenerator's), carries out the task
//! the new list adds (the Builder), and is accepted by the next review — one commit, exit 0.

mod run_fixture;

use run_fixture::*;

const TASKS: &str = "tasks:\n  - id: 1\n    title: Add subtraction\n    done: false\n    files: [src/sub.rs, src/lib.rs]\n";
const DESIGN: &str = "# Design: calc\n\n## Components\n| Component | Files |\n|---|---|\n| Subtraction | `src/sub.rs` |\n";

/// The coding agent: the plan's tasks write their module with a test; the Architect's task
/// adds the overflow rule to the design; the TaskGenerator's adds a task to the list.
fn executor(root: &std::path::Path) -> String {
    format!(
        r#"#!/bin/sh
prompt=$(cat)
echo "$RETAKE_TASK_ID" >> "{root}/invocations"
case "$prompt" in
  *"Update the design"*)
    printf '\n## Overflow\nsub saturates at i64::MIN and i64::MAX.\n' >> specs/calc/design.md
    echo "Added the overflow rule the review asked for to specs/calc/design.md." ;;
  *"Update the task list"*)
    printf '  - id: 2\n    title: Add multiplication\n    done: false\n    files: [src/mul.rs, src/lib.rs]\n    depends_on: [1]\n' >> specs/calc/tasks.yaml
    echo "Added task 2 for multiplication to specs/calc/tasks.yaml." ;;
  *multiplication*) name=mul; op='*'; word=product ;;
  *) name=sub; op='-'; word=difference ;;
esac
case "$prompt" in *"Update the"*) exit 0 ;; esac
grep -q "pub mod $name;" src/lib.rs || sed -i "s/^pub mod add;/pub mod add;\npub mod $name;/" src/lib.rs
printf '//! %s.\n\n/// The %s of two numbers.\npub fn %s(a: i64, b: i64) -> i64 {{\n    a %s b\n}}\n\n#[cfg(test)]\nmod tests {{\n    #[test]\n    fn works() {{\n        assert_eq!(super::%s(6, 3), 6 %s 3);\n    }}\n}}\n' "$name" "$word" "$name" "$op" "$name" "$op" > "src/$name.rs"
echo "Wrote src/$name.rs with $name and a unit test, and registered the module in src/lib.rs."
"#,
        root = root.display()
    )
}

#[test]
fn a_spec_defect_cascades_through_design_task_list_and_build_to_an_accepted_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Both agent-backed Inspectors find the spec defective at the new code while the design has
    // no overflow rule.
    let reviewer = dir.path().join("reviewer.sh");
    std::fs::write(
        &reviewer,
        "#!/bin/sh\ncat >/dev/null\necho 'VERDICT:GO'\necho 'ISSUES:'\n\
         grep -q '## Overflow' specs/calc/design.md || echo 'H|spec-defect|src/sub.rs:5|the spec cannot be met: it says nothing of overflow, and sub must choose'\n",
    )
    .expect("reviewer");
    let config = format!(
        "spec_update = \"agent\"\n\n[inspector.quality]\nbackend = \"both\"\n\n[inspector.holistic]\nbackend = \"both\"\n\n\
         [agent]\ncommand = [\"sh\", \"{}\"]\ntimeout_secs = 60\n",
        reviewer.display()
    );
    let repo = fixture_custom(
        dir.path(),
        "# Plans\n",
        &executor(dir.path()),
        &config,
        &[
            ("specs/calc/tasks.yaml", TASKS),
            ("specs/calc/design.md", DESIGN),
        ],
    );
    let before = git(&repo, &["rev-parse", "HEAD"]);
    let ran = run(&repo, "spec-cascade");
    assert_eq!(
        ran.code, 0,
        "stderr: {}\nstdout: {}",
        ran.stderr, ran.stdout
    );
    assert!(
        ran.stderr.contains("review round 1: SPEC-UPDATE-NEEDED"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.contains("retake run: the spec needs an update: Update the design (specs/calc/design.md) from the review's spec feedback and then Update the task list (specs/calc/tasks.yaml) to the new design"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr
            .contains("retake run: the updated task list adds 1 task(s)"),
        "{}",
        ran.stderr
    );
    assert_eq!(
        invocations(dir.path()),
        vec![1, 2, 3, 4],
        "the plan's task, the Architect, the TaskGenerator, the new task"
    );
    let design = std::fs::read_to_string(repo.join("specs/calc/design.md")).expect("design");
    assert!(design.contains("## Overflow"), "{design}");
    assert!(repo.join("src/mul.rs").is_file());
    let tasks = std::fs::read_to_string(repo.join("specs/calc/tasks.yaml")).expect("tasks");
    assert_eq!(
        tasks.matches("done: true").count(),
        2,
        "both tasks marked done: {tasks}"
    );
    let log = git(
        &repo,
        &["log", "--format=%s", &format!("{}..HEAD", before.trim())],
    );
    assert_eq!(log.lines().count(), 1, "one commit: {log}");
}
