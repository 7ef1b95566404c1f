//! What every report goes through before it is sent, whichever backend found its findings:
//! suppressions marked (kept, with their reason), a session's `--filter` applied, and findings
//! grouped by the requested dimensions.

use super::{mark_suppressed, Context};
use protocol::{DiffFilter, Dimension, Finding, InspectorReport, Scope};

/// Finishes `report` for `ctx`: marks suppressed findings, drops what the session filter
/// excludes (saying how many in one note), and orders findings by requested dimension.
pub fn finish(ctx: &Context, report: &mut InspectorReport) {
    mark_suppressed(ctx, &mut report.findings);
    if let (Some(changes), Scope::Session { filter, .. }) = (&ctx.changes, &ctx.scope) {
        let before = report.findings.len();
        report.findings.retain(|f| changes.keeps(*filter, f));
        let dropped = before - report.findings.len();
        if dropped > 0 {
            let who = report.kind.map_or("inspector", |k| k.as_str());
            report.notes.push(format!(
                "{who}: --filter {}: {dropped} finding(s) outside {} not reported",
                filter_name(*filter),
                outside(*filter)
            ));
        }
    }
    group_by_dimension(&ctx.options.dimensions, &mut report.findings);
}

/// The `--filter` value as the user writes it.
pub(crate) fn filter_name(filter: DiffFilter) -> &'static str {
    match filter {
        DiffFilter::Added => "added",
        DiffFilter::DiffContext => "diff_context",
        DiffFilter::File => "file",
        DiffFilter::NoFilter => "nofilter",
    }
}

fn outside(filter: DiffFilter) -> &'static str {
    match filter {
        DiffFilter::Added => "the added lines",
        DiffFilter::DiffContext => "the changed lines and their context",
        DiffFilter::File | DiffFilter::NoFilter => "the changed files",
    }
}

/// Stable sort by the first requested dimension each finding carries (in the order the user
/// gave them); findings with none of them (an agent's) come last. No request: unchanged.
fn group_by_dimension(wanted: &[Dimension], findings: &mut [Finding]) {
    if wanted.is_empty() {
        return;
    }
    findings.sort_by_key(|f| {
        wanted
            .iter()
            .position(|d| f.dimensions.contains(d))
            .unwrap_or(wanted.len())
    });
}
