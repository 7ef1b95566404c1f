use super::*;
use crate::executor::ExecOutcome;
use crate::timeline::VecSink;
use std::path::Path;

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> String {
        "2025-01-23T10:00:00.000Z".into()
    }
}

type Step = Box<dyn FnMut(&Path) -> ExecOutcome + Send>;

/// An in-process executor: one step per iteration; it records the prompts it got.
struct Steps {
    steps: Vec<Step>,
    prompts: Vec<String>,
}

impl Executor for Steps {
    fn kind(&self) -> &str {
        "steps"
    }
    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome {
        self.prompts.push(request.prompt.to_string());
        let mut step = self.steps.remove(0);
        step(request.repo)
    }
}

fn write(file: &'static str, text: &'static str, output: &'static str) -> Step {
    Box::new(move |repo: &Path| {
        std::fs::write(repo.join(file), text).expect("write");
        ExecOutcome::success(output)
    })
}

fn timeout() -> Step {
    Box::new(|_: &Path| ExecOutcome::TimedOut { secs: 9 })
}

struct Run {
    result: Result<LoopResult, RunnerError>,
    events: Vec<TimelineEvent>,
    prompts: Vec<String>,
}

/// A run of a task that owns the whole tree (`./`): every change is its own.
fn run(config: LoopConfig, template: Option<&str>, steps: Vec<Step>) -> Run {
    run_owning(&["./"], config, template, steps)
}

fn run_owning(owns: &[&str], config: LoopConfig, template: Option<&str>, steps: Vec<Step>) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("README.md"), "x\n").expect("write");
    let mut task = crate::testing::task("Add add()");
    task.owns = owns.iter().map(|o| o.to_string()).collect();
    task.description = "Requirements:\n- add two numbers\n".into();
    let mut job = TaskJob::new(task, dir.path());
    job.template = template.map(String::from);
    let registry = EvaluatorRegistry::with_builtins();
    let runner = TaskRunner {
        config: &config,
        registry: &registry,
        clock: &FixedClock,
    };
    let mut executor = Steps {
        steps,
        prompts: Vec::new(),
    };
    let mut sink = VecSink::default();
    let result = runner.run(&job, &mut executor, &mut sink);
    Run {
        result,
        events: sink.events,
        prompts: executor.prompts,
    }
}

fn quick() -> LoopConfig {
    LoopConfig {
        retry_delay_ms: 0,
        ..LoopConfig::default()
    }
}

fn judgments(run: &Run) -> Vec<Judgment> {
    let result = run.result.as_ref().expect("ran");
    result
        .iteration_history
        .iter()
        .map(|r| r.judgment)
        .collect()
}

fn kinds(run: &Run) -> Vec<EventType> {
    run.events.iter().map(|e| e.event_type).collect()
}

const GOOD: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";

#[test]
fn a_first_time_pass_emits_five_events() {
    let r = run(quick(), None, vec![write("lib.rs", GOOD, "Added add().")]);
    assert_eq!(
        r.result.as_ref().expect("ran").final_status,
        LoopStatus::Complete
    );
    use EventType::*;
    assert_eq!(
        kinds(&r),
        [
            ReviewLoopStart,
            ReviewIterationStart,
            QualityJudgment,
            ReviewIterationEnd,
            ReviewLoopEnd
        ]
    );
    assert_eq!(r.events[4].content.final_status, Some(LoopStatus::Complete));
    assert_eq!(r.events[4].content.iteration, 1);
    assert_eq!(r.events[0].content.executor.as_deref(), Some("steps"));
}

#[test]
fn a_reject_feeds_the_modification_prompt_to_the_next_iteration() {
    let steps = vec![
        write("lib.rs", "// TODO: add\n", "Done."),
        write("lib.rs", GOOD, "Implemented add()."),
    ];
    let r = run(quick(), None, steps);
    assert_eq!(judgments(&r), [Judgment::Reject, Judgment::Pass]);
    use EventType::*;
    assert_eq!(
        kinds(&r)[..7],
        [
            ReviewLoopStart,
            ReviewIterationStart,
            QualityJudgment,
            RejectionDetails,
            ModificationPrompt,
            ReviewIterationEnd,
            ReviewIterationStart
        ]
    );
    assert_eq!(r.events[2].content.criteria_failed, ["Q2", "Q6"]);
    let modification = r.events[4]
        .content
        .modification_prompt
        .clone()
        .expect("prompt");
    assert_eq!(r.prompts[1], modification);
    assert!(modification.contains("Location: lib.rs:1"));
    assert!(modification.ends_with(&r.prompts[0]));
}

#[test]
fn retries_repeat_the_prompt_and_count_against_the_limit() {
    let r = run(
        quick(),
        None,
        vec![timeout(), timeout(), write("lib.rs", GOOD, "Added.")],
    );
    assert_eq!(
        judgments(&r),
        [Judgment::Retry, Judgment::Retry, Judgment::Pass]
    );
    assert_eq!(r.prompts[0], r.prompts[2]);
    let retry_flags: Vec<Option<bool>> = r
        .events
        .iter()
        .filter(|e| e.event_type == EventType::ReviewIterationStart)
        .map(|e| e.content.retry)
        .collect();
    assert_eq!(retry_flags, [Some(false), Some(true), Some(true)]);
}

#[test]
fn a_third_timeout_is_a_reject_and_the_limit_escalates() {
    let config = LoopConfig {
        max_iterations: 4,
        ..quick()
    };
    let r = run(
        config,
        None,
        vec![timeout(), timeout(), timeout(), timeout()],
    );
    let result = r.result.as_ref().expect("ran");
    assert_eq!(
        judgments(&r),
        [
            Judgment::Retry,
            Judgment::Retry,
            Judgment::Reject,
            Judgment::Reject
        ]
    );
    assert_eq!(result.final_status, LoopStatus::AwaitingResponse);
    assert!(result.is_escalated());
    let unresolved: Vec<&str> = result
        .unresolved_issues()
        .iter()
        .map(|i| i.description.as_str())
        .collect();
    assert_eq!(
        unresolved,
        [
            "the executor did not finish: executor timed out after 9 s",
            "the executor wrote nothing to standard output",
            "no file in the repository changed"
        ]
    );
}

#[test]
fn without_escalation_the_limit_is_incomplete() {
    let config = LoopConfig {
        max_iterations: 1,
        escalate_on_max: false,
        ..quick()
    };
    let r = run(config, None, vec![write("lib.rs", "fn a() {", "Added.")]);
    let result = r.result.as_ref().expect("ran");
    assert_eq!(result.final_status, LoopStatus::Incomplete);
    assert_eq!(
        r.events.last().map(|e| e.content.criteria_failed.clone()),
        Some(vec!["Q4".to_string()])
    );
}

#[test]
fn goal_drift_guard_rejects_drift_and_passes_the_complete_statement() {
    let steps = vec![
        write("lib.rs", GOOD, "A basic implementation for now."),
        write(
            "lib.rs",
            GOOD,
            "Implemented add().\nCOMPLETE: all 1 requirements fulfilled",
        ),
    ];
    let r = run(quick(), Some("goal_drift_guard"), steps);
    assert_eq!(judgments(&r), [Judgment::Reject, Judgment::Pass]);
    assert_eq!(r.events[2].content.criteria_failed, ["GD1", "GD2", "GD5"]);
    assert!(r.prompts[0].contains("`COMPLETE: all 1 requirements fulfilled`"));
    assert!(r.prompts[1].contains("## Template-Specific Issues (Goal Drift Guard Evaluator)"));
    assert_eq!(
        r.events[0].content.template.as_deref(),
        Some("goal_drift_guard")
    );
}

#[test]
fn configuration_errors_stop_before_any_event() {
    let r = run(quick(), Some("other_template"), Vec::new());
    assert!(matches!(
        r.result,
        Err(RunnerError::UnknownTemplate { ref template, ref known, .. })
            if template == "other_template" && known == "goal_drift_guard"
    ));
    assert!(r.events.is_empty());
    let none = LoopConfig {
        max_iterations: 0,
        ..quick()
    };
    assert!(matches!(
        run(none, None, Vec::new()).result,
        Err(RunnerError::NoIterations)
    ));
}

#[test]
fn only_the_task_s_own_files_are_judged() {
    // Another Implementer's unfinished file (a TODO) lands in the same tree meanwhile.
    let both: Step = Box::new(|repo: &Path| {
        std::fs::write(repo.join("lib.rs"), GOOD).expect("write");
        std::fs::write(repo.join("other.rs"), "// TODO: someone else's work\n").expect("write");
        ExecOutcome::success("Added add().")
    });
    let r = run_owning(&["lib.rs"], quick(), None, vec![both]);
    assert_eq!(judgments(&r), [Judgment::Pass]);

    // Owning the whole tree, every change is the task's: the TODO is judged (Q2).
    let both: Step = Box::new(|repo: &Path| {
        std::fs::write(repo.join("lib.rs"), GOOD).expect("write");
        std::fs::write(repo.join("other.rs"), "// TODO: someone else's work\n").expect("write");
        ExecOutcome::success("Added add().")
    });
    let r = run_owning(
        &["./"],
        quick(),
        None,
        vec![both, write("other.rs", "\n", "Removed.")],
    );
    assert_eq!(
        r.events
            .iter()
            .find(|e| e.event_type == EventType::QualityJudgment)
            .map(|e| e.content.criteria_failed.clone()),
        Some(vec!["Q2".to_string()])
    );
    assert_eq!(judgments(&r)[0], Judgment::Reject);
}

#[test]
fn a_task_that_owns_nothing_never_passes() {
    // The same complete change as a passing task's, but no file is the task's own.
    let config = LoopConfig {
        max_iterations: 1,
        escalate_on_max: false,
        ..quick()
    };
    let r = run_owning(
        &[],
        config,
        None,
        vec![write("lib.rs", GOOD, "Added add().")],
    );
    assert_eq!(judgments(&r), [Judgment::Reject]);
    let result = r.result.as_ref().expect("ran");
    assert_eq!(result.iteration_history[0].criteria_failed(), ["Q1"]);
    assert_eq!(
        result.unresolved_issues()[0].description,
        "the task owns no file, so no change can be judged as its own"
    );
}

#[test]
fn a_fix_task_passes_only_once_its_finding_is_gone_when_its_rule_runs_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("geo")).expect("mkdir");
    std::fs::write(
        root.join("geo/shapes.py"),
        "def area(r):\n    # TODO: use pi\n    return 3 * r * r\n",
    )
    .expect("write");
    // The finding as the review reported it: the rule's own, run in process (the TODO marker
    // is a pedantic rule).
    let mut ctx = inspector::Context::build(
        root,
        &protocol::Scope::repository(),
        &protocol::message::InspectOptions {
            profile: protocol::message::RuleProfile::Pedantic,
            ..protocol::message::InspectOptions::default()
        },
    )
    .expect("context");
    let finding = inspector::inspect(protocol::InspectorKind::Quality, &mut ctx, "i", "r")
        .findings
        .into_iter()
        .find(|f| f.rule == "quality/todo-marker")
        .expect("todo finding");
    let mut task = crate::testing::task("Fix geo/shapes.py: TODO marker");
    task.origin = protocol::domain::TaskOrigin::Fix;
    task.owns = vec!["geo/shapes.py".into()];
    let mut job = TaskJob::new(task, root);
    job.expectations.findings = vec![finding];
    let config = quick();
    let registry = EvaluatorRegistry::with_builtins();
    let runner = TaskRunner {
        config: &config,
        registry: &registry,
        clock: &FixedClock,
    };
    let mut executor = Steps {
        steps: vec![
            // Reworded, not fixed: the same finding one line further down.
            write(
                "geo/shapes.py",
                "import math\n\ndef area(r):\n    # TODO: maybe use math.pi\n    return 3 * r * r\n",
                "Reworded the note.",
            ),
            write(
                "geo/shapes.py",
                "import math\n\n\ndef area(r):\n    return math.pi * r * r\n",
                "Used math.pi.",
            ),
        ],
        prompts: Vec::new(),
    };
    let mut sink = VecSink::default();
    let result = runner.run(&job, &mut executor, &mut sink).expect("ran");
    let history: Vec<(Judgment, Vec<String>)> = result
        .iteration_history
        .iter()
        .map(|r| (r.judgment, r.criteria_failed()))
        .collect();
    assert_eq!(
        history,
        [
            (Judgment::Reject, vec!["Q2".to_string(), "Q5".to_string()]),
            (Judgment::Pass, Vec::new())
        ]
    );
    let rejected = result.iteration_history[0]
        .rejection_details
        .as_ref()
        .expect("details");
    let not_fixed: Vec<&str> = rejected
        .issues_detected
        .iter()
        .filter(|i| i.kind == crate::criteria::IssueType::NotFixed)
        .map(|i| i.location.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(not_fixed, ["geo/shapes.py:4"]);
}
