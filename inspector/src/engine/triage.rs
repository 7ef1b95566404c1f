//! What every report goes through before it is sent, whichever backend found its findings:
//! suppressions marked (kept, with their reason), a session's `--filter` applied, and findings
//! grouped by the requested dimensions.
//!
//! Under `--filter added` (the default) a session gates on what the change introduced: the
//! findings [`Changes::keeps`] keeps stay in `findings`; the others of the changed files (on
//! lines the change did not touch, or about a file that existed before) and the project
//! findings it did not cause (repository-wide, or about a document it left alone) move to
//! `preexisting` — "already there", shown apart and never gating. Every other filter drops what
//! it does not keep. Findings in source files the change did not touch are dropped under every
//! filter, with one note saying how many.

use super::diff::Changes;
use super::{mark_suppressed, Context};
use protocol::{DiffFilter, Dimension, Finding, InspectorReport, Scope};

/// Finishes `report` for `ctx`: marks suppressed findings, applies the session filter (moving
/// what `--filter added` does not gate on into `preexisting`, dropping the rest and saying how
/// many in one note), and orders findings by requested dimension.
pub fn finish(ctx: &Context, report: &mut InspectorReport) {
    mark_suppressed(ctx, &mut report.findings);
    if let (Some(changes), Scope::Session { filter, .. }) = (&ctx.changes, &ctx.scope) {
        let dropped = apply_filter(changes, *filter, report);
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
    group_by_dimension(&ctx.options.dimensions, &mut report.preexisting);
}

/// Sorts `report.findings` by `filter` against `changes`: kept ones stay, `added` moves the
/// other findings of changed files to `report.preexisting`; returns how many were dropped.
fn apply_filter(changes: &Changes, filter: DiffFilter, report: &mut InspectorReport) -> usize {
    let mut dropped = 0;
    for f in std::mem::take(&mut report.findings) {
        if changes.keeps(filter, &f) {
            report.findings.push(f);
        } else if filter == DiffFilter::Added && changes.concerns(&f) {
            report.preexisting.push(f);
        } else {
            dropped += 1;
        }
    }
    dropped
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
        DiffFilter::DiffContext => "the changed lines and their context",
        // `added` keeps the rest of the changed files apart: it drops only what lies outside.
        DiffFilter::Added | DiffFilter::File | DiffFilter::NoFilter => "the changed files",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::diff::FileChange;
    use protocol::{Coverage, Location, Severity};

    fn finding(path: &str, line: Option<u32>, category: &str) -> Finding {
        let location = match line {
            Some(l) => Location::at(path, l),
            None => Location::file(path),
        };
        let key = format!("{path}{line:?}");
        Finding::new("i", "r/x", category, Severity::High, location, "d", &key)
    }

    fn report(findings: Vec<Finding>) -> InspectorReport {
        InspectorReport {
            review: "r".into(),
            inspector: "inspector-holistic".into(),
            kind: None,
            scope: "session:main".into(),
            findings,
            notes: Vec::new(),
            claims: Vec::new(),
            coverage: Coverage::default(),
            preexisting: Vec::new(),
        }
    }

    /// `src/a.rs` had lines 10–12 rewritten; `src/new.rs` is new; `src/gone.rs` lost lines only.
    fn changes() -> Changes {
        let edited = FileChange {
            added: vec![(10, 12)],
            ..FileChange::default()
        };
        let deleted_only = FileChange {
            removed_after: vec![4],
            ..FileChange::default()
        };
        Changes {
            base: "main".into(),
            merge_base: "abc".into(),
            files: [
                ("src/a.rs".to_string(), edited),
                ("src/new.rs".to_string(), FileChange::new_file()),
                ("src/gone.rs".to_string(), deleted_only),
            ]
            .into_iter()
            .collect(),
        }
    }

    fn places(findings: &[Finding]) -> Vec<String> {
        findings.iter().map(|f| f.location.to_string()).collect()
    }

    fn all() -> Vec<Finding> {
        vec![
            finding("src/a.rs", Some(11), "unsafe-block"),
            finding("src/a.rs", Some(3), "unsafe-block"),
            finding("src/a.rs", None, "file-too-long"),
            finding("src/new.rs", None, "missing-test-file"),
            finding("src/gone.rs", Some(4), "unsafe-block"),
            finding("src/untouched.rs", Some(1), "unsafe-block"),
            finding("tests/old.rs", Some(9), "test-failure"),
            finding("docs/design.md", None, "design-drift"),
        ]
    }

    #[test]
    fn added_gates_on_what_the_change_introduced_and_keeps_the_rest_apart() {
        let mut r = report(all());
        let dropped = apply_filter(&changes(), DiffFilter::Added, &mut r);
        assert_eq!(
            places(&r.findings),
            ["src/a.rs:11", "src/new.rs", "tests/old.rs:9"]
        );
        assert_eq!(
            places(&r.preexisting),
            ["src/a.rs:3", "src/a.rs", "src/gone.rs:4", "docs/design.md"]
        );
        assert_eq!(dropped, 1, "the finding in a file the change did not touch");
    }

    #[test]
    fn explicit_filters_drop_and_keep_nothing_apart() {
        let cases = [
            (DiffFilter::File, 7, 1),
            (DiffFilter::DiffContext, 6, 2),
            (DiffFilter::NoFilter, 8, 0),
        ];
        for (filter, kept, dropped) in cases {
            let mut r = report(all());
            assert_eq!(
                apply_filter(&changes(), filter, &mut r),
                dropped,
                "{filter:?}"
            );
            assert_eq!(r.findings.len(), kept, "{filter:?}");
            assert!(r.preexisting.is_empty(), "{filter:?}");
        }
    }

    #[test]
    fn the_default_filter_is_added() {
        assert_eq!(DiffFilter::default(), DiffFilter::Added);
    }
}
