//! retake's Auditor logic: from the Inspectors' reports to one verdict, as pure functions.
//!
//! The audit of the Auditor spec is a pipeline of ten steps over plain data — cross-check and spec
//! defects, contradictions, false positives, coverage, dedup, the severity table, conflicts,
//! over-implementation, steering, the verdict table with its override — each in its own module
//! with its own tests, joined by [`audit`] under a budget that always leaves a verdict. The
//! team-loop decision is computed beside it, and [`lead_derived`] is the Lead's fallback.
//!
//! Nothing here sends messages, reads files or keeps time: the actix shell receives the reports
//! and calls [`audit`] (with a budget closure and a source reader it owns), and `retake audit`
//! and recovery mode call the same function.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod actor;
mod attendance;
mod audit;
mod budget;
pub mod category;
mod close_variants;
mod conflicts;
pub mod consensus;
mod context;
mod contradictions;
mod coverage_gaps;
mod cross_check;
mod decision;
mod dedup;
mod evidence;
mod false_positives;
mod lead_derived;
mod over_implementation;
mod place;
mod request;
pub mod runtime;
mod severity_table;
mod spec_defect;
mod steering;
mod verdict_override;
mod verdict_table;

#[cfg(test)]
mod fixtures;

pub use attendance::{
    attendance, covered_decision, covered_verdict, parse_partial_note, partial_note, unreported,
    Attendance, NoReport, NO_REPORT, PARTIAL_PREFIX,
};
pub use audit::{audit, AuditConfig, AuditInput};
pub use budget::{partial_verification_note, Budget, LargeScope, CHECK_EVERY};
pub use close_variants::{merge_close_variants, CLOSE_LINES};
pub use conflicts::{
    find_conflicts, is_multi_feature, is_unresolved, may_read_source, resolve_conflicts, Conflict,
    Conflicts, SourceReader, MAX_SOURCE_CONFLICTS, UNRESOLVED,
};
pub use context::{AuditContext, Exemption};
pub use contradictions::{
    complete_tasks_with_only_dead_code, contradictions, error_handling_fine_but_inconsistent,
    no_interface_issues_but_cross_feature_mismatch, signatures_match_but_tests_fail,
    tests_pass_but_calls_are_wrong, Contradictions, Resolution,
};
pub use coverage_gaps::{coverage_gaps, COVERAGE_GAP};
pub use cross_check::{cross_check, cross_check_notes};
pub use decision::{decide, is_agent_backend, is_agent_only};
pub use dedup::{dedup, sort_by_severity};
pub use evidence::{issue_text, kind_of, AUDITOR};
pub use false_positives::{
    drop_suppressed, false_positive_reason, false_positives, is_generated_or_vendored,
    FalsePositives,
};
pub use lead_derived::{conservative_verdict, lead_derived, AUDITOR_UNAVAILABLE};
pub use over_implementation::{
    over_implementation, simplicity, OverImplementation, Pattern, Simplicity,
    OVER_IMPLEMENTATION_SEVERITY,
};
pub use request::{audit_context, audit_request, read_source, MAX_SOURCE_BYTES};
pub use severity_table::{
    is_test_code, rerate, rerated, Adjustment, Applies, SeverityRule, SEVERITY_TABLE,
};
pub use spec_defect::{spec_defects, SpecDefects, SPEC_DEFECT_PHASE};
pub use steering::{
    steering, target_for, CODIFY_MIN_MODULES, CONSTRAINTS, PROPOSE_MIN_FILES, STRUCTURE, TECH,
};
pub use verdict_override::{apply_override, VerdictOverride};
pub use verdict_table::{verdict_table, MAX_HIGH_FOR_GO};
