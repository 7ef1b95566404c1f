//! retake's Implementer: the task runner of the task-runner spec. An executor (a coding agent, a script
//! or the built-in fixer) carries a task out; the runner alone judges the result — Q1–Q6
//! always, Q7–Q9 when their commands are given, a template evaluator when the task has a
//! template — and answers PASS, REJECT (with a modification prompt for the next iteration) or
//! RETRY, failing closed. At the iteration limit it escalates or ends INCOMPLETE. Every step
//! is a timeline event handed to the caller's sink.
//!
//! The judge, the prompts, the evaluators and the events are pure; `runner` is the thin driver
//! the Lead's team loop calls, and `executor::process` is the crate's only process code.
//! `assignment` turns the Lead's `TaskAssignment` into a runner job and its result into the
//! message the Lead is owed (with `peer`'s notes for the other Implementers when its change
//! adds a shared helper or changes an API); `actor` is the actix shell (claim, carry out on a thread of its
//! own, report, claim again) and `runtime` connects it to the Lead.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod actor;
pub mod assignment;
pub mod change;
pub mod config;
pub mod criteria;
pub mod evaluator;
pub mod executor;
pub mod judge;
pub mod ownership;
pub mod peer;
pub mod prompt;
pub mod recheck;
pub mod runner;
pub mod runtime;
pub mod timeline;

#[cfg(test)]
mod testing;

pub use config::{CheckCommands, LoopConfig};
pub use evaluator::{EvaluatorRegistry, GoalDriftGuard, TemplateEvaluator};
pub use executor::{ExecOutcome, Executor, ExecutorConfig, ExecutorKind};
pub use judge::{Expectations, Judgement};
pub use runner::{LoopResult, RunnerError, TaskJob, TaskRunner};
pub use timeline::{EventSink, LoopStatus, TimelineEvent, VecSink};
