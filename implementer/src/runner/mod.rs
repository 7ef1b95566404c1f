//! The task runner: the thin driver around the judge. Per iteration it assembles the prompt,
//! runs the executor, snapshots the repository, runs the check commands and the template
//! evaluator, judges, and emits the timeline events; it stops at PASS or at `max_iterations`
//! (escalating when `escalate_on_max`). Everything it decides is decided by pure functions
//! (`judge`, `modification_prompt`); this module only gathers their inputs.
//!
//! `TaskRunner::run` blocks (it runs processes and sleeps between RETRYs): an actor calls it
//! on a blocking thread and forwards the events its sink receives to the Lead.

mod checks;
mod records;

pub use records::{IterationRecord, LoopResult, RejectionDetails};

use crate::change::{Snapshot, SnapshotError};
use crate::config::{CheckCommands, LoopConfig};
use crate::evaluator::{EvaluatorInput, EvaluatorRegistry, TemplateOutcome};
use crate::executor::{ExecRequest, Executor};
use crate::judge::{judge, retry_for, Expectations, JudgeInput, Judgement};
use crate::prompt::{modification_prompt, task_prompt, PromptParts};
use crate::recheck::recheck;
use crate::timeline::{
    Clock, Content, EventSink, EventType, LoopStatus, SystemClock, TimelineEvent,
};
use protocol::domain::{Judgment, Task};
use std::path::PathBuf;
use std::time::Duration;

/// One task for the runner, with everything the judge needs to know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskJob {
    /// The task.
    pub task: Task,
    /// The repository root.
    pub repo: PathBuf,
    /// House rules for the prompt.
    pub rules: Vec<String>,
    /// Notes from other Implementers for the prompt.
    pub peer_notes: Vec<String>,
    /// The task's template id (`goal_drift_guard`), selecting an evaluator.
    pub template: Option<String>,
    /// What the task must leave behind.
    pub expectations: Expectations,
    /// The Q7–Q9 commands.
    pub checks: CheckCommands,
    /// The Implementer's actor name, recorded in the events.
    pub implementer: Option<String>,
    /// The prompt templates the Lead configured (the built-in ones for the rest).
    pub prompts: protocol::prompt::Templates,
}

impl TaskJob {
    /// A job for `task` in `repo` with expectations derived from the task and nothing else.
    pub fn new(task: Task, repo: impl Into<PathBuf>) -> TaskJob {
        TaskJob {
            expectations: Expectations::from_task(&task),
            task,
            repo: repo.into(),
            rules: Vec::new(),
            peer_notes: Vec::new(),
            template: None,
            checks: CheckCommands::default(),
            implementer: None,
            prompts: Default::default(),
        }
    }
}

/// The runner could not run the loop at all.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// `max_iterations` is 0.
    #[error("max_iterations must be at least 1")]
    NoIterations,
    /// The task names a template no evaluator is registered for.
    #[error("task {task}: no evaluator for template `{template}` (known: {known})")]
    UnknownTemplate {
        /// The task id.
        task: u32,
        /// The template id.
        template: String,
        /// The registered template ids.
        known: String,
    },
    /// The repository could not be read.
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
}

/// The task runner's settings and collaborators.
#[derive(Clone, Copy)]
pub struct TaskRunner<'a> {
    /// Iteration control and patterns.
    pub config: &'a LoopConfig,
    /// Template evaluators.
    pub registry: &'a EvaluatorRegistry,
    /// Timestamps for events and records.
    pub clock: &'a dyn Clock,
}

impl<'a> TaskRunner<'a> {
    /// A runner on the system clock.
    pub fn new(config: &'a LoopConfig, registry: &'a EvaluatorRegistry) -> TaskRunner<'a> {
        TaskRunner {
            config,
            registry,
            clock: &SystemClock,
        }
    }

    /// Runs `job` through `executor` until PASS or the iteration limit, sending every event
    /// to `sink`. A repository that cannot be read ends the loop with status ERROR (the
    /// event is sent) and the error.
    pub fn run(
        &self,
        job: &TaskJob,
        executor: &mut dyn Executor,
        sink: &mut dyn EventSink,
    ) -> Result<LoopResult, RunnerError> {
        if self.config.max_iterations == 0 {
            return Err(RunnerError::NoIterations);
        }
        let evaluator = match &job.template {
            None => None,
            Some(id) => {
                Some(
                    self.registry
                        .get(id)
                        .ok_or_else(|| RunnerError::UnknownTemplate {
                            task: job.task.id,
                            template: id.clone(),
                            known: self.registry.template_ids().join(", "),
                        })?,
                )
            }
        };
        let content = |iteration: u32| Content {
            task: job.task.id,
            iteration,
            implementer: job.implementer.clone(),
            ..Content::default()
        };
        let mut emit = |event_type: EventType, content: Content| {
            sink.emit(TimelineEvent::new(event_type, self.clock.now(), content));
        };
        emit(
            EventType::ReviewLoopStart,
            Content {
                executor: Some(executor.kind().to_string()),
                max_iterations: Some(self.config.max_iterations),
                template: job.template.clone(),
                ..content(0)
            },
        );
        let mut result = LoopResult::default();
        let outcome = self.iterate(job, executor, evaluator, &mut emit, &mut result);
        let (status, error) = match outcome {
            Ok(status) => (status, None),
            Err(e) => (LoopStatus::Error, Some(e)),
        };
        result.final_status = status;
        let last = result.iteration_history.last();
        emit(
            EventType::ReviewLoopEnd,
            Content {
                judgment: last.map(|r| r.judgment),
                criteria_failed: last
                    .map(IterationRecord::criteria_failed)
                    .unwrap_or_default(),
                final_status: Some(status),
                ..content(result.total_iterations)
            },
        );
        tracing::info!(task = job.task.id, status = ?status, iterations = result.total_iterations, "task runner finished");
        match error {
            Some(e) => Err(e),
            None => Ok(result),
        }
    }

    fn iterate(
        &self,
        job: &TaskJob,
        executor: &mut dyn Executor,
        evaluator: Option<&dyn crate::evaluator::TemplateEvaluator>,
        emit: &mut dyn FnMut(EventType, Content),
        result: &mut LoopResult,
    ) -> Result<LoopStatus, RunnerError> {
        let baseline = Snapshot::take(&job.repo)?;
        // A malformed owns glob owns nothing in particular: then every change is judged.
        let ownership = crate::ownership::Ownership::new(&job.task.owns)
            .unwrap_or_else(|_| crate::ownership::Ownership::everything());
        let instructions = evaluator.and_then(|e| e.prompt_instructions(&job.task, &job.prompts));
        let parts = PromptParts {
            rules: &job.rules,
            peer_notes: &job.peer_notes,
            template_instructions: instructions.as_deref(),
        };
        let original = task_prompt(&job.task, &parts, &job.prompts);
        let mut prompt = original.clone();
        let mut modification: Option<String> = None;
        let mut retries = 0;
        let mut retrying = false;
        let content = |iteration: u32, judgement: Option<&Judgement>| Content {
            task: job.task.id,
            iteration,
            judgment: judgement.map(|j| j.judgment),
            criteria_failed: judgement
                .map(Judgement::criteria_failed)
                .unwrap_or_default(),
            implementer: job.implementer.clone(),
            ..Content::default()
        };
        for iteration in 1..=self.config.max_iterations {
            let started_at = self.clock.now();
            emit(
                EventType::ReviewIterationStart,
                Content {
                    retry: Some(retrying),
                    ..content(iteration, None)
                },
            );
            let request = ExecRequest {
                repo: &job.repo,
                task: &job.task,
                prompt: &prompt,
                iteration,
                modification: modification.as_deref(),
            };
            let outcome = executor.execute(&request);
            let retries_left = retries < self.config.max_retries;
            let judgement = match retry_for(&outcome, retries_left) {
                Some(retry) => retry,
                None => {
                    let now = Snapshot::take(&job.repo)?;
                    // Only the task's own files are its work to judge: in a team run other
                    // Implementers change other files of the same tree meanwhile (the
                    // review at the end sees every change).
                    // The decisions file stays in view whoever owns it: a suppression
                    // written there is judged like one written in an owned file.
                    let change = now
                        .changes_since(&baseline)
                        .within_or(&ownership, crate::judge::evasion::DECISIONS_FILE);
                    let recheck = (!job.expectations.findings.is_empty() && !change.is_empty())
                        .then(|| {
                            let shift = |path: &str| change.line_shift(path);
                            recheck(&job.repo, &job.expectations.findings, &shift)
                        });
                    let checks = checks::run_checks(&job.checks, &job.repo);
                    let output = String::from_utf8_lossy(outcome.stdout());
                    let input = EvaluatorInput {
                        output: &output,
                        task: &job.task,
                        change: &change,
                    };
                    let template = evaluator.map(|e| TemplateOutcome::run(e, &input));
                    judge(&JudgeInput {
                        outcome: &outcome,
                        retries_left,
                        change: &change,
                        now: &now,
                        expectations: &job.expectations,
                        checks: &checks,
                        template: template.as_ref(),
                        recheck: recheck.as_ref(),
                        config: self.config,
                    })
                }
            };
            tracing::info!(task = job.task.id, iteration, judgment = judgement.judgment.as_str(), summary = %judgement.summary, "quality judgment");
            emit(
                EventType::QualityJudgment,
                Content {
                    summary: Some(judgement.summary.clone()),
                    ..content(iteration, Some(&judgement))
                },
            );
            let mut rejection = None;
            match judgement.judgment {
                Judgment::Reject => {
                    let text = modification_prompt(
                        &judgement.issues,
                        judgement.template.as_ref(),
                        &original,
                        &job.prompts,
                    );
                    emit(
                        EventType::RejectionDetails,
                        Content {
                            issues_detected: Some(judgement.issues.clone()),
                            modification_prompt: Some(text.clone()),
                            ..content(iteration, Some(&judgement))
                        },
                    );
                    emit(
                        EventType::ModificationPrompt,
                        Content {
                            modification_prompt: Some(text.clone()),
                            ..content(iteration, Some(&judgement))
                        },
                    );
                    rejection = Some(RejectionDetails {
                        criteria_failed: judgement.criteria_failed(),
                        issues_detected: judgement.issues.clone(),
                        modification_prompt: text.clone(),
                        iteration,
                    });
                    prompt = text.clone();
                    modification = Some(text);
                    retrying = false;
                }
                Judgment::Retry => {
                    retries += 1;
                    retrying = true;
                }
                Judgment::Pass => {}
            }
            let ended_at = self.clock.now();
            emit(
                EventType::ReviewIterationEnd,
                Content {
                    started_at: Some(started_at.clone()),
                    ended_at: Some(ended_at.clone()),
                    ..content(iteration, Some(&judgement))
                },
            );
            result.total_iterations = iteration;
            result.final_output = String::from_utf8_lossy(outcome.stdout()).into_owned();
            result.last_modification_prompt = modification.clone();
            result.iteration_history.push(IterationRecord {
                iteration,
                started_at,
                ended_at,
                judgment: judgement.judgment,
                criteria_results: judgement.criteria_results,
                rejection_details: rejection,
                output: result.final_output.clone(),
            });
            if judgement.judgment == Judgment::Pass {
                return Ok(LoopStatus::Complete);
            }
            if retrying && iteration < self.config.max_iterations {
                std::thread::sleep(Duration::from_millis(self.config.retry_delay_ms));
            }
        }
        Ok(if self.config.escalate_on_max {
            LoopStatus::AwaitingResponse
        } else {
            LoopStatus::Incomplete
        })
    }
}

#[cfg(test)]
mod tests;
