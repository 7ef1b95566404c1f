//! The task runner driving real executor processes: each test writes a small shell script into
//! a tempdir (outside the repository) and configures it as the agent's argv.

use implementer::timeline::{EventType, TimelineEvent};
use implementer::{
    EvaluatorRegistry, ExecutorConfig, ExecutorKind, LoopConfig, LoopResult, LoopStatus, TaskJob,
    TaskRunner,
};
use protocol::domain::{Judgment, Task, TaskOrigin, TaskStatus};
use std::path::{Path, PathBuf};

const TODO_LIB: &str =
    "pub fn add(a: i32, b: i32) -> i32 {\\n    // TODO: implement\\n    0\\n}\\n";
const GOOD_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\\n    a + b\\n}\\n";

struct Fixture {
    repo: tempfile::TempDir,
    state: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let repo = tempfile::tempdir().expect("repo");
        std::fs::write(repo.path().join("README.md"), "# fixture\n").expect("readme");
        Fixture {
            repo,
            state: tempfile::tempdir().expect("state"),
        }
    }

    /// Writes the agent script: it counts its runs in the state folder, saves the prompt it
    /// got as `prompt-N`, then runs `body` (which sees the run number as `$n`).
    fn agent(&self, body: &str) -> PathBuf {
        let state = self.state.path().display();
        let script = format!(
            "#!/bin/sh\nn=$(($(cat '{state}/count' 2>/dev/null || echo 0) + 1))\n\
             echo \"$n\" > '{state}/count'\ncat > '{state}/prompt-'\"$n\"\nmkdir -p src\n{body}\n"
        );
        let path = self.state.path().join("agent.sh");
        std::fs::write(&path, script).expect("script");
        make_executable(&path);
        path
    }

    fn prompt(&self, n: u32) -> String {
        std::fs::read_to_string(self.state.path().join(format!("prompt-{n}"))).expect("prompt")
    }

    fn run(
        &self,
        agent: &Path,
        config: LoopConfig,
        timeout_secs: u64,
    ) -> (LoopResult, Vec<String>) {
        let task = Task {
            id: 1,
            subject: "Add add()".into(),
            description: "Implement add(a, b) returning the sum.".into(),
            owns: vec!["src/lib.rs".into()],
            blocked_by: Vec::new(),
            status: TaskStatus::Pending,
            attempts: 0,
            origin: TaskOrigin::Plan,
            active_form: "Adding add()".into(),
        };
        let mut job = TaskJob::new(task, self.repo.path());
        job.implementer = Some("implementer-1".into());
        job.checks.test = Some(
            ["grep", "-q", "a + b", "src/lib.rs"]
                .map(String::from)
                .to_vec(),
        );
        let executor = ExecutorConfig {
            kind: ExecutorKind::Agent,
            command: vec![agent.display().to_string()],
            timeout_secs,
            fallback: Vec::new(),
            url: String::new(),
            model: String::new(),
            api_key_env: None,
            max_tokens: 4096,
            idle_timeout_secs: 0,
        };
        let mut executor = executor.build().expect("executor");
        let registry = EvaluatorRegistry::with_builtins();
        let runner = TaskRunner::new(&config, &registry);
        // The Lead persists events as JSON lines; the test keeps the lines it would write.
        let mut lines = Vec::new();
        let mut sink = |event: TimelineEvent| lines.push(event.to_json_line());
        let result = runner
            .run(&job, executor.as_mut(), &mut sink)
            .expect("runs");
        (result, lines)
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn quick() -> LoopConfig {
    LoopConfig {
        retry_delay_ms: 0,
        ..LoopConfig::default()
    }
}

fn events(lines: &[String]) -> Vec<TimelineEvent> {
    lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("each line is an event"))
        .collect()
}

fn judgments(lines: &[String]) -> Vec<(Judgment, Vec<String>)> {
    events(lines)
        .into_iter()
        .filter(|e| e.event_type == EventType::QualityJudgment)
        .filter_map(|e| Some((e.content.judgment?, e.content.criteria_failed)))
        .collect()
}

#[test]
fn a_todo_and_done_attempt_is_rejected_and_the_corrected_one_passes() {
    let fx = Fixture::new();
    let agent = fx.agent(&format!(
        "if [ \"$n\" = 1 ]; then printf '{TODO_LIB}' > src/lib.rs; echo 'Wrote src/lib.rs.'; \
         echo 'Done.'; else printf '{GOOD_LIB}' > src/lib.rs; echo 'Implemented add in \
         src/lib.rs.'; fi"
    ));
    let (result, lines) = fx.run(&agent, quick(), 30);
    assert_eq!(result.final_status, LoopStatus::Complete);
    assert_eq!(result.total_iterations, 2);
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        judgments(&lines),
        [
            (Judgment::Reject, strings(&["Q2", "Q6", "Q7"])),
            (Judgment::Pass, Vec::new())
        ]
    );
    let first = fx.prompt(1);
    assert!(
        first.starts_with("# Task 1: Add add()\n\nImplement add(a, b)"),
        "{first}"
    );
    let second = fx.prompt(2);
    for expected in [
        "- **incomplete**: TODO marker left: `// TODO: implement`\n  Location: src/lib.rs:2\n",
        "- **early_termination**: early completion claim \"Done.\"\n  Location: output:2\n",
        "- **check_failed**: `grep -q a + b src/lib.rs` failed (exit 1):\n",
        "2. Leave no TODO/FIXME\n",
    ] {
        assert!(
            second.contains(expected),
            "missing {expected:?} in\n{second}"
        );
    }
    assert!(second.ends_with(&first));
    assert_eq!(
        std::fs::read_to_string(fx.repo.path().join("src/lib.rs")).expect("lib"),
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
    );
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| l.split('"').nth(3).expect("event type"))
        .collect();
    assert_eq!(
        kinds,
        [
            "REVIEW_LOOP_START",
            "REVIEW_ITERATION_START",
            "QUALITY_JUDGMENT",
            "REJECTION_DETAILS",
            "MODIFICATION_PROMPT",
            "REVIEW_ITERATION_END",
            "REVIEW_ITERATION_START",
            "QUALITY_JUDGMENT",
            "REVIEW_ITERATION_END",
            "REVIEW_LOOP_END"
        ]
    );
    assert!(lines[9].contains(r#""content":{"task":1,"iteration":2,"judgment":"PASS","criteria_failed":[],"implementer":"implementer-1","final_status":"COMPLETE"}"#), "{}", lines[9]);
}

#[test]
fn an_agent_that_never_satisfies_the_judge_is_escalated_at_the_limit() {
    let fx = Fixture::new();
    let agent = fx.agent(&format!(
        "printf '{TODO_LIB}' > src/lib.rs; echo 'Wrote it.'"
    ));
    let (result, lines) = fx.run(&agent, quick(), 30);
    assert_eq!(result.final_status, LoopStatus::AwaitingResponse);
    assert_eq!(result.total_iterations, 3);
    let rejected: Vec<Judgment> = judgments(&lines).into_iter().map(|j| j.0).collect();
    assert_eq!(rejected, [Judgment::Reject; 3]);
    let end = events(&lines).pop().expect("end");
    assert_eq!(end.content.final_status, Some(LoopStatus::AwaitingResponse));
    assert_eq!(end.content.criteria_failed, ["Q2", "Q7"]);
    let last = result.last_modification_prompt.expect("still wrong");
    assert!(last.contains("TODO marker left: `// TODO: implement`"));

    let fx = Fixture::new();
    let agent = fx.agent(&format!(
        "printf '{TODO_LIB}' > src/lib.rs; echo 'Wrote it.'"
    ));
    let config = LoopConfig {
        escalate_on_max: false,
        max_iterations: 2,
        ..quick()
    };
    assert_eq!(
        fx.run(&agent, config, 30).0.final_status,
        LoopStatus::Incomplete
    );
}

#[test]
fn empty_output_fails_closed() {
    let fx = Fixture::new();
    let agent = fx.agent(&format!("printf '{GOOD_LIB}' > src/lib.rs"));
    let config = LoopConfig {
        max_iterations: 1,
        ..quick()
    };
    let (result, lines) = fx.run(&agent, config, 30);
    assert_eq!(
        judgments(&lines),
        [(Judgment::Reject, vec!["Q5".to_string()])]
    );
    assert_eq!(result.final_status, LoopStatus::AwaitingResponse);
    let issues: Vec<&str> = result
        .unresolved_issues()
        .iter()
        .map(|i| i.description.as_str())
        .collect();
    assert_eq!(issues, ["the executor wrote nothing to standard output"]);
}

#[test]
fn a_hanging_agent_is_killed_and_retried() {
    let fx = Fixture::new();
    let agent = fx.agent(&format!(
        "if [ \"$n\" = 1 ]; then sleep 30; fi; printf '{GOOD_LIB}' > src/lib.rs; echo 'Implemented add.'"
    ));
    let started = std::time::Instant::now();
    let (result, lines) = fx.run(&agent, quick(), 1);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let seen: Vec<Judgment> = judgments(&lines).into_iter().map(|j| j.0).collect();
    assert_eq!(seen, [Judgment::Retry, Judgment::Pass]);
    assert_eq!(result.final_status, LoopStatus::Complete);
    assert_eq!(fx.prompt(1), fx.prompt(2));
}
