//! The rule catalog, one folder per Inspector kind, one file per rule.

mod ac_markers;
mod consistency;
mod holistic;
mod interface;
mod quality;
mod rulebase;
pub(crate) mod test;

pub use test::test_run::{summarise, TestSummary};
pub(crate) use test::vocabulary;

#[cfg(test)]
mod fixture;
mod library_code;
mod line_hits;
mod lint_allowances;
mod macro_calls;
pub mod profile;
#[cfg(test)]
mod project_fixture;
mod repository_files;
mod rust_docs;
pub(crate) mod test_code;

use crate::engine::{Rule, RuleMeta};
use protocol::InspectorKind;

/// The rules of one Inspector kind.
pub fn for_kind(kind: InspectorKind) -> Vec<Box<dyn Rule>> {
    match kind {
        InspectorKind::Rulebase => rulebase::rules(),
        InspectorKind::Interface => interface::rules(),
        InspectorKind::Test => test::rules(),
        InspectorKind::Quality => quality::rules(),
        InspectorKind::Consistency => consistency::rules(),
        InspectorKind::Holistic => holistic::rules(),
    }
}

/// Every rule's metadata with its kind, in catalog order (what `retake rules` lists).
pub fn catalog() -> Vec<(InspectorKind, &'static RuleMeta)> {
    InspectorKind::ALL
        .into_iter()
        .flat_map(|kind| for_kind(kind).into_iter().map(move |r| (kind, r.meta())))
        .collect()
}
