//! The rulebase Inspector's rules: spec compliance (tasks, declared and undeclared files,
//! metadata, traceability of specs and of acceptance criteria).
//!
//! Every rule here reads the spec layout ([`crate::spec::Specs`]); a repository without one gets
//! the note `rulebase: no spec: skipped` and no findings, never invented ones. Every rule checks
//! the features [`features_for`] gives, so `--wave N` never reports on a later wave.

mod ac_traceability;
mod file_missing;
mod file_unexpected;
mod gate_config_changed;
mod metadata_mismatch;
mod task_incomplete;
mod traceability;
#[cfg(test)]
mod wave_scope_tests;

use crate::engine::{Context, Rule, Sink};
use crate::spec::{features_for, Feature};

/// Every rulebase rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(task_incomplete::TaskIncomplete),
        Box::new(file_missing::FileMissing),
        Box::new(metadata_mismatch::MetadataMismatch),
        Box::new(traceability::Traceability),
        Box::new(file_unexpected::FileUnexpected),
        Box::new(ac_traceability::AcTraceability),
        Box::new(gate_config_changed::GateConfigChanged),
    ]
}

/// The features this review checks; with no spec layout at all, notes that and returns none.
fn features_or_note<'a>(ctx: &'a Context, out: &mut Sink) -> Vec<&'a Feature> {
    if ctx.specs.is_empty() {
        out.note("rulebase: no spec: skipped");
        return Vec::new();
    }
    features_for(ctx)
}
