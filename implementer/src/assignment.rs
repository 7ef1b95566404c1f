//! One claimed task, carried out: the Lead's [`TaskAssignment`] becomes the runner's settings,
//! job and executor, the runner runs, and its result becomes the message the Implementer owes
//! the Lead — `TaskCompleted` for a PASS, `Escalation` (pattern C) when the iteration limit was
//! reached, `TaskFailed` when the attempt could not run at all — and, for a PASS, the peer notes
//! its change calls for (pattern D, `peer`). The conversions are pure; only [`carry_out`] runs
//! anything (the executor and the checks, through the runner).

use crate::change::Snapshot;
use crate::config::{CheckCommands, LoopConfig};
use crate::criteria::Issue;
use crate::evaluator::EvaluatorRegistry;
use crate::executor::{ExecutorConfig, ExecutorKind};
use crate::peer::notes_for_change;
use crate::runner::{LoopResult, TaskJob, TaskRunner};
use crate::timeline::{EventSink, TimelineEvent};
use protocol::message::{ExecutorMode, ExecutorSpec, LoopSpec, PeerNote, TaskAssignment};
use protocol::Body;

/// Most bytes of executor output carried as evidence; the rest is in the timeline.
const EVIDENCE_BYTES: usize = 2000;

/// The runner's settings from the assignment's.
pub fn loop_config(spec: &LoopSpec) -> LoopConfig {
    LoopConfig {
        max_iterations: spec.max_iterations,
        retry_delay_ms: spec.retry_delay_ms,
        escalate_on_max: spec.escalate_on_max,
        max_retries: spec.max_retries,
        omission_patterns: spec.omission_patterns.clone(),
        early_termination_patterns: spec.early_termination_patterns.clone(),
    }
}

/// The `[executor]` table from the assignment's.
pub fn executor_config(spec: &ExecutorSpec) -> ExecutorConfig {
    ExecutorConfig {
        kind: match spec.mode {
            ExecutorMode::Agent => ExecutorKind::Agent,
            ExecutorMode::Script => ExecutorKind::Script,
            ExecutorMode::Builtin => ExecutorKind::Builtin,
            ExecutorMode::Chat => ExecutorKind::Chat,
        },
        command: spec.command.clone(),
        timeout_secs: spec.timeout_secs,
        fallback: spec.fallback.clone(),
        url: spec.url.clone(),
        model: spec.model.clone(),
        api_key_env: spec.api_key_env.clone(),
        max_tokens: spec.max_tokens,
        idle_timeout_secs: spec.idle_timeout_secs,
    }
}

/// The runner's job for the assignment, run under the Implementer's name.
pub fn job(a: &TaskAssignment, implementer: &str) -> TaskJob {
    let mut job = TaskJob::new(a.task.clone(), &a.root);
    job.rules = a.rules.clone();
    job.peer_notes = a.peer_notes.clone();
    job.template = a.template.clone();
    job.checks = CheckCommands {
        test: a.runner.test.clone(),
        lint: a.runner.lint.clone(),
        typecheck: a.runner.typecheck.clone(),
        timeout_secs: a.runner.check_timeout_secs,
    };
    job.implementer = Some(implementer.to_string());
    job.expectations.findings = a.findings.clone();
    job.prompts = protocol::prompt::Templates::from_overrides(&a.prompts);
    job
}

/// The message a finished runner owes the Lead.
pub fn report(a: &TaskAssignment, result: &LoopResult) -> Body {
    let task = a.task.id;
    let history = result
        .iteration_history
        .iter()
        .map(|r| {
            let failed = r.criteria_failed();
            if failed.is_empty() {
                format!("{} {}", r.iteration, r.judgment.as_str())
            } else {
                format!(
                    "{} {} {}",
                    r.iteration,
                    r.judgment.as_str(),
                    failed.join(",")
                )
            }
        })
        .collect();
    if result.is_complete() {
        return Body::TaskCompleted {
            task,
            evidence: evidence(&result.final_output),
            history,
        };
    }
    let last = result.iteration_history.last();
    let reason = match last {
        Some(r) if !r.criteria_failed().is_empty() => format!(
            "not judged PASS within {} iterations; last failed: {}",
            result.total_iterations,
            r.criteria_failed().join(", ")
        ),
        _ => format!(
            "not judged PASS within {} iterations",
            result.total_iterations
        ),
    };
    Body::Escalation {
        task,
        reason,
        attempts: result.total_iterations,
        unresolved: result.unresolved_issues().iter().map(issue_line).collect(),
    }
}

/// One issue as a line: `type location: description`.
pub fn issue_line(issue: &Issue) -> String {
    match &issue.location {
        Some(at) => format!("{} {at}: {}", issue.kind.as_str(), issue.description),
        None => format!("{}: {}", issue.kind.as_str(), issue.description),
    }
}

fn evidence(output: &str) -> String {
    let text = output.trim();
    if text.len() <= EVIDENCE_BYTES {
        return text.to_string();
    }
    let mut end = EVIDENCE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// What carrying an assignment out yields.
#[derive(Debug, Clone, PartialEq)]
pub struct Carried {
    /// The message the Lead is owed.
    pub report: Body,
    /// Peer notes for the other Implementers (a PASS only); sent before the report, while the
    /// task is still the sender's.
    pub notes: Vec<PeerNote>,
}

/// Carries the assignment out under `implementer`, sending every timeline event to `events`,
/// and returns the message for the Lead with the peer notes of its change. Blocks: call it on
/// a thread of its own.
pub fn carry_out(a: &TaskAssignment, implementer: &str, events: &mut dyn EventSink) -> Carried {
    let failed = |reason: String| Carried {
        report: Body::TaskFailed {
            task: a.task.id,
            attempt: a.attempt,
            reason,
        },
        notes: Vec::new(),
    };
    let mut executor = match executor_config(&a.executor).build() {
        Ok(e) => e,
        Err(e) => return failed(e.to_string()),
    };
    let config = loop_config(&a.runner);
    let registry = EvaluatorRegistry::with_builtins();
    let runner = TaskRunner::new(&config, &registry);
    let root = std::path::Path::new(&a.root);
    // The runner judges against its own baseline; this one is for the notes. A tree that
    // cannot be read now makes the runner fail the attempt anyway.
    let baseline = Snapshot::take(root).ok();
    let mut forward = |event: TimelineEvent| events.emit(event);
    match runner.run(&job(a, implementer), executor.as_mut(), &mut forward) {
        Ok(result) => {
            let report = report(a, &result);
            let notes = match (&report, baseline) {
                (Body::TaskCompleted { .. }, Some(before)) => Snapshot::take(root)
                    .map(|now| notes_for_change(&a.task, &now.changes_since(&before)))
                    .unwrap_or_else(|e| {
                        tracing::warn!(error = %e, "cannot read the change for peer notes");
                        Vec::new()
                    }),
                _ => Vec::new(),
            };
            Carried { report, notes }
        }
        Err(e) => failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::VecSink;
    use protocol::{Task, TaskOrigin, TaskStatus};

    fn assignment(root: &std::path::Path, command: Vec<String>) -> TaskAssignment {
        TaskAssignment {
            task: Task {
                id: 1,
                subject: "1 Add subtraction".into(),
                description: "owns: src/sub.rs".into(),
                owns: vec!["src/sub.rs".into()],
                blocked_by: Vec::new(),
                status: TaskStatus::InProgress {
                    claimer: "implementer-1".into(),
                },
                attempts: 1,
                origin: TaskOrigin::Plan,
                active_form: "Adding subtraction".into(),
            },
            attempt: 1,
            root: root.display().to_string(),
            executor: ExecutorSpec {
                mode: ExecutorMode::Script,
                command,
                timeout_secs: 30,
                fallback: Vec::new(),
                url: String::new(),
                model: String::new(),
                api_key_env: None,
                max_tokens: 4096,
                idle_timeout_secs: 0,
            },
            runner: LoopSpec {
                max_iterations: 2,
                retry_delay_ms: 0,
                escalate_on_max: true,
                max_retries: 0,
                omission_patterns: LoopConfig::default().omission_patterns,
                early_termination_patterns: LoopConfig::default().early_termination_patterns,
                test: None,
                lint: None,
                typecheck: None,
                check_timeout_secs: 0,
            },
            rules: Vec::new(),
            peer_notes: Vec::new(),
            template: None,
            findings: Vec::new(),
            prompts: Vec::new(),
        }
    }

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn a_fix_task_s_findings_become_its_judge_s_expectations() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut a = assignment(dir.path(), vec!["true".into()]);
        let f = protocol::Finding::new(
            "inspector-quality",
            "quality/todo-marker",
            "incomplete",
            protocol::Severity::Medium,
            protocol::Location::at("src/a.rs", 2),
            "TODO left",
            "TODO",
        );
        a.findings = vec![f.clone()];
        assert_eq!(job(&a, "implementer-1").expectations.findings, [f]);
    }

    #[test]
    fn a_todo_then_finished_code_completes_with_its_history() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("src")).expect("mkdir");
        let script = "if [ \"$RETAKE_ITERATION\" = 1 ]; then printf 'pub fn sub() {} // TODO\\n' > src/sub.rs; echo Done.; \
                      else printf 'pub fn sub(a: i64, b: i64) -> i64 {\\n    a - b\\n}\\n' > src/sub.rs; echo 'wrote src/sub.rs'; fi";
        let a = assignment(dir.path(), sh(script));
        let mut sink = VecSink::default();
        let carried = carry_out(&a, "implementer-1", &mut sink);
        assert!(
            carried.notes.is_empty(),
            "src/sub.rs is the task's own file"
        );
        let body = carried.report;
        let Body::TaskCompleted {
            task,
            evidence,
            history,
        } = body
        else {
            panic!("expected TaskCompleted, got {body:?}");
        };
        assert_eq!((task, evidence.as_str()), (1, "wrote src/sub.rs"));
        assert_eq!(history, vec!["1 REJECT Q2,Q6", "2 PASS"]);
        let judged: Vec<&str> = sink
            .events
            .iter()
            .filter_map(|e| e.content.judgment.map(|j| j.as_str()))
            .collect();
        assert!(judged.starts_with(&["REJECT"]), "{judged:?}");
        assert_eq!(
            sink.events[0].content.implementer.as_deref(),
            Some("implementer-1")
        );
    }

    #[test]
    fn an_agent_that_never_finishes_escalates_with_the_issues() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("src")).expect("mkdir");
        let a = assignment(
            dir.path(),
            sh("printf 'pub fn sub() {} // TODO\\n' > src/sub.rs; echo Done."),
        );
        let body = carry_out(&a, "implementer-1", &mut VecSink::default()).report;
        let Body::Escalation {
            task,
            reason,
            attempts,
            unresolved,
        } = body
        else {
            panic!("expected Escalation, got {body:?}");
        };
        assert_eq!((task, attempts), (1, 2));
        assert_eq!(
            reason,
            "not judged PASS within 2 iterations; last failed: Q2, Q6"
        );
        assert!(
            unresolved
                .iter()
                .any(|l| l.starts_with("incomplete src/sub.rs:1")),
            "{unresolved:?}"
        );
    }

    #[test]
    fn a_missing_command_fails_the_attempt() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = assignment(dir.path(), Vec::new());
        assert_eq!(
            carry_out(&a, "implementer-1", &mut VecSink::default()).report,
            Body::TaskFailed {
                task: 1,
                attempt: 1,
                reason: "[executor] kind = \"script\" needs `command`, an argv list such as [\"my-agent\", \"--print\"]".into()
            }
        );
    }

    #[test]
    fn a_helper_written_outside_the_owns_becomes_a_peer_note() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("src")).expect("mkdir");
        let script =
            "printf 'pub fn sub(a: i64, b: i64) -> i64 {\\n    a - b\\n}\\n' > src/sub.rs; \
                      printf 'pub fn clamp(x: i64) -> i64 {\\n    x.max(0)\\n}\\n' > src/util.rs; \
                      echo 'wrote src/sub.rs and src/util.rs'";
        let a = assignment(dir.path(), sh(script));
        let carried = carry_out(&a, "implementer-1", &mut VecSink::default());
        assert!(matches!(
            carried.report,
            Body::TaskCompleted { task: 1, .. }
        ));
        assert_eq!(
            carried.notes,
            [PeerNote {
                task: 1,
                kind: protocol::message::PeerNoteKind::UtilityCreated,
                about: "src/util.rs".into(),
                text: "new `pub fn clamp(x: i64) -> i64`".into(),
            }]
        );
    }
}
