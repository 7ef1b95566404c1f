//! retake's Auditor logic: from the Inspectors' reports to one verdict, as pure functions.
//!
//! The audit of chapter 03 is a pipeline of steps over plain data — spec defects, dedup, the
//! severity table, the verdict table and the team-loop decision — each in its own module with its
//! own tests, joined by [`audit`]. Nothing here sends messages, reads files or keeps time: the
//! actix shell receives the reports and calls [`audit`], and `retake audit` and recovery mode call
//! the same function.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod actor;
mod attendance;
mod audit;
pub mod category;
mod decision;
mod dedup;
mod place;
pub mod runtime;
mod severity_table;
mod spec_defect;
mod verdict_table;

#[cfg(test)]
mod fixtures;

pub use attendance::{attendance, partial_note, Attendance, NO_REPORT};
pub use audit::{audit, AuditConfig, AuditInput};
pub use decision::{decide, is_agent_backend, is_agent_only};
pub use dedup::{dedup, sort_by_severity};
pub use severity_table::{
    is_test_code, rerate, rerated, Adjustment, Applies, SeverityRule, SEVERITY_TABLE,
};
pub use spec_defect::{spec_defects, SpecDefects, SPEC_DEFECT_PHASE};
pub use verdict_table::{verdict_table, MAX_HIGH_FOR_GO};
