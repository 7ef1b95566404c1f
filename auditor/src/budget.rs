//! The verdict output guarantee: an audit always ends in a verdict. The budget is checked before
//! each of steps 1–9, and inside the steps whose work grows with the findings (cross-check,
//! dedup, close variants: every [`CHECK_EVERY`] findings, through a [`Ticker`]), so a budget
//! that runs out in the middle of a large audit ends it promptly; the audit then jumps to step
//! 10 with what it has and notes `PARTIAL_VERIFICATION|steps completed: 1..N` (`none` when not
//! even step 1 completed).
//!
//! Large scopes (more findings or reviewed files than the configured thresholds) are audited on
//! the Inspectors' evidence only, noted `LARGE_SCOPE|…`. Steps 1–6 never read anything but the
//! reports here anyway; what the rule changes is step 7, which then does not read the source.

use protocol::InspectorReport;
use std::fmt;

/// How much work the audit may do.
#[derive(Clone, Copy, Default)]
pub enum Budget<'a> {
    /// Every step runs.
    #[default]
    Unlimited,
    /// Steps `1..=n` run, then the audit jumps to step 10.
    Steps(u8),
    /// Asked before each step; `true` means spent (a deadline passed, a cancel arrived).
    Check(&'a dyn Fn() -> bool),
}

impl Budget<'_> {
    /// Whether step `step` (1–9) may still run.
    pub fn allows(&self, step: u8) -> bool {
        match self {
            Budget::Unlimited => true,
            Budget::Steps(n) => step <= *n,
            Budget::Check(spent) => !spent(),
        }
    }
}

impl Budget<'_> {
    /// Whether the budget is spent right now. A [`Budget::Steps`] budget counts whole steps, so
    /// it is never spent inside one.
    pub fn spent(&self) -> bool {
        match self {
            Budget::Check(spent) => spent(),
            Budget::Unlimited | Budget::Steps(_) => false,
        }
    }
}

/// How many findings a long step handles between two looks at the budget: often enough that a
/// deadline is noticed within milliseconds, rarely enough that the look costs nothing.
pub const CHECK_EVERY: usize = 1024;

/// Counts the items of a long loop and looks at the budget every [`CHECK_EVERY`] of them.
pub(crate) struct Ticker<'b, 'a> {
    budget: &'b Budget<'a>,
    count: usize,
}

impl<'b, 'a> Ticker<'b, 'a> {
    /// A ticker over this budget.
    pub(crate) fn new(budget: &'b Budget<'a>) -> Ticker<'b, 'a> {
        Ticker { budget, count: 0 }
    }

    /// Counts one item; `true` when this is a look and the budget is spent.
    pub(crate) fn spent(&mut self) -> bool {
        self.count += 1;
        self.count.is_multiple_of(CHECK_EVERY) && self.budget.spent()
    }
}

impl fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Unlimited => f.write_str("Unlimited"),
            Budget::Steps(n) => write!(f, "Steps({n})"),
            Budget::Check(_) => f.write_str("Check(..)"),
        }
    }
}

/// The note of an audit cut short after `completed` steps.
pub fn partial_verification_note(completed: u8) -> String {
    if completed == 0 {
        "PARTIAL_VERIFICATION|steps completed: none".to_string()
    } else {
        format!("PARTIAL_VERIFICATION|steps completed: 1..{completed}")
    }
}

/// When a scope counts as large (`[audit]` settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LargeScope {
    /// More findings than this (all reports together, before dedup) is large.
    pub findings: usize,
    /// More files reviewed than this (the largest report's count) is large.
    pub files: u32,
}

impl Default for LargeScope {
    /// 500 findings or 2000 files: well past what a feature review produces.
    fn default() -> Self {
        LargeScope {
            findings: 500,
            files: 2000,
        }
    }
}

impl LargeScope {
    /// The `LARGE_SCOPE|…` note when these reports make a large scope.
    pub fn note(&self, reports: &[InspectorReport]) -> Option<String> {
        let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
        let files = reports
            .iter()
            .map(|r| r.coverage.files_reviewed)
            .max()
            .unwrap_or(0);
        (findings > self.findings || files > self.files).then(|| {
            format!(
                "LARGE_SCOPE|{findings} findings, {files} files: audited on Inspector evidence only, no source reading"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{finding, report};
    use protocol::Severity;
    use std::cell::Cell;

    #[test]
    fn a_step_budget_allows_exactly_its_steps() {
        let b = Budget::Steps(3);
        assert!(b.allows(3));
        assert!(!b.allows(4));
        assert!(Budget::Unlimited.allows(9));
        assert!(!Budget::Steps(0).allows(1));
    }

    #[test]
    fn a_check_budget_is_asked_every_time() {
        let calls = Cell::new(0);
        let spent = || {
            calls.set(calls.get() + 1);
            calls.get() > 2
        };
        let b = Budget::Check(&spent);
        assert_eq!([b.allows(1), b.allows(2), b.allows(3)], [true, true, false]);
        assert_eq!(format!("{b:?}"), "Check(..)");
    }

    #[test]
    fn a_ticker_looks_every_check_every_items_and_only_a_check_budget_is_spent_inside_a_step() {
        let looks = Cell::new(0);
        let spent = || {
            looks.set(looks.get() + 1);
            true
        };
        let budget = Budget::Check(&spent);
        let mut ticker = Ticker::new(&budget);
        let first = (1..=2 * CHECK_EVERY).find(|_| ticker.spent());
        assert_eq!((first, looks.get()), (Some(CHECK_EVERY), 1));
        for quiet in [Budget::Unlimited, Budget::Steps(0)] {
            let mut ticker = Ticker::new(&quiet);
            assert!(!(0..3 * CHECK_EVERY).any(|_| ticker.spent()));
        }
    }

    #[test]
    fn the_partial_note_names_the_completed_steps() {
        assert_eq!(
            partial_verification_note(4),
            "PARTIAL_VERIFICATION|steps completed: 1..4"
        );
        assert_eq!(
            partial_verification_note(0),
            "PARTIAL_VERIFICATION|steps completed: none"
        );
    }

    #[test]
    fn large_scopes_are_told_by_findings_or_files() {
        let limits = LargeScope {
            findings: 2,
            files: 10,
        };
        let small = vec![report(
            "quality",
            vec![finding("quality", "x", Severity::Low, "a.rs", 1)],
        )];
        assert_eq!(limits.note(&small), None);
        let many = vec![report(
            "quality",
            (1..=3)
                .map(|i| finding("quality", "x", Severity::Low, "a.rs", i))
                .collect(),
        )];
        assert_eq!(
            limits.note(&many).as_deref(),
            Some("LARGE_SCOPE|3 findings, 0 files: audited on Inspector evidence only, no source reading")
        );
        let mut wide = report("test", vec![]);
        wide.coverage.files_reviewed = 11;
        assert!(limits.note(&[wide]).is_some());
    }
}
