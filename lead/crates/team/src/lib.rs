//! The team loop's pure core (the loops spec): the plan and its range, Phase 0's planning
//! discussion, Phase A's granularity validation, registration and Implementer count, Phase B's
//! claims, message patterns, signals, fix tasks, gates and reports, Phase C's commit message
//! and completion report, and the fix pipeline's batching, export, execution bookkeeping and
//! summaries. Everything here is a function over plain data; the orchestration that drives
//! actors calls it (`lead`'s `run` and `fix`).

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod active_form;
pub mod cascade;
pub mod claim;
pub mod commit_message;
pub mod completion;
pub mod discussion;
pub mod dry_run;
pub mod escalation;
pub mod fix;
pub mod fix_tasks;
pub mod gate;
pub mod granularity;
pub mod patterns;
pub mod plan;
pub mod prepare;
pub mod registration;
pub mod review_result;
pub mod session;
pub mod signals;
pub mod team_size;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod verification;
