//! The fix pipeline of the review-cycle spec (`retake fix REVIEW-DIR`, `review --fix`), its pure parts:
//! batching findings, planning groups into stages (the built-in planner, and the prompt and
//! answer check of an agent planner), the `.task/FIX-*.json` and `plan.json` export, the
//! per-group execution bookkeeping (fix → test → commit or roll back, bounded retries) and the
//! `fix-summary.md` / `fix-history.json` that close a session. `crate::fix` is the shell that
//! runs them against a repository.

pub mod agent_plan;
pub mod batching;
pub mod execution;
pub mod export;
pub mod planning;
pub mod summary;
pub mod targets;

pub use batching::{batches, Batch, FixFinding, DEFAULT_BATCH_SIZE};
pub use execution::{advance, Effect, FixEvent, GroupState, MAX_ATTEMPTS};
pub use planning::{
    aggregate, builtin_partial_plan, planner_waves, FixGroup, FixPlan, PartialPlan, Stage,
};
