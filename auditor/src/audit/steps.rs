//! Steps 1–9 of the audit as one table of functions over the audit's running state, so that the
//! budget can stop between any two of them. Each step only calls its module's pure function.
//! The steps whose work grows with the findings (1, 5, 8: grouping and close variants) also look
//! at the budget as they go; one that runs out sets [`State::interrupted`], keeps findings that
//! are whole (untouched, or merged only where a merge was made) and does not count as completed.
//!
//! | step | module | effect on the state |
//! |------|--------|---------------------|
//! | 1 cross-check | [`spec_defects`], [`cross_check`](crate::cross_check) | SPEC_FEEDBACK rows out, confidence up |
//! | 2 contradictions | [`contradictions`] | RESOLVED rows, raised findings |
//! | 3 false positives | [`false_positives`] | REMOVED rows |
//! | 4 coverage | [`coverage_gaps`] | `COVERAGE_GAP|` notes |
//! | 5 dedup and merge | [`dedup`](crate::dedup), [`merge_close_variants`](crate::merge_close_variants) | one finding per problem |
//! | 6 severity | [`rerate`] | the Auditor's own severities |
//! | 7 conflicts | [`find_conflicts`], [`resolve_conflicts`] | RESOLVED (`UNRESOLVED:`) and REMOVED rows |
//! | 8 over-implementation | [`over_implementation`], [`simplicity`] | raised findings, REMOVED rows, `SIMPLICITY|` notes |
//! | 9 steering | [`steering`] | STEERING rows |

use super::AuditInput;
use crate::budget::Ticker;
use crate::close_variants::merge_close_variants_within;
use crate::conflicts::{find_conflicts, may_read_source, resolve_conflicts};
use crate::contradictions::contradictions;
use crate::coverage_gaps::coverage_gaps;
use crate::cross_check::cross_check_within;
use crate::dedup::dedup_within;
use crate::false_positives::false_positives;
use crate::over_implementation::{over_implementation, simplicity};
use crate::severity_table::rerate;
use crate::spec_defect::spec_defects;
use crate::steering::steering;
use protocol::{Finding, Removed, Resolved, SpecFeedback, Steering};

/// What the audit has so far.
pub(super) struct State {
    pub(super) findings: Vec<Finding>,
    pub(super) removed: Vec<Removed>,
    pub(super) resolved: Vec<Resolved>,
    pub(super) spec_feedback: Vec<SpecFeedback>,
    pub(super) steering: Vec<Steering>,
    /// The steps' own notes, in step order.
    pub(super) notes: Vec<String>,
    /// Whether step 1 found a spec defect (the verdict table's SPEC-UPDATE-NEEDED row).
    pub(super) spec_defect: bool,
    /// Whether the scope is large: no source reading.
    large: bool,
    /// The budget ran out inside the last step: it did not complete.
    pub(super) interrupted: bool,
}

impl State {
    pub(super) fn new(findings: Vec<Finding>, large: bool) -> State {
        State {
            findings,
            removed: Vec::new(),
            resolved: Vec::new(),
            spec_feedback: Vec::new(),
            steering: Vec::new(),
            notes: Vec::new(),
            spec_defect: false,
            large,
            interrupted: false,
        }
    }

    fn take(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings)
    }

    /// A budget-aware step's findings: its result, or on `Err` the input it gave back, with the
    /// step marked interrupted.
    fn within(&mut self, result: Result<Vec<Finding>, Vec<Finding>>) -> Vec<Finding> {
        result.unwrap_or_else(|untouched| {
            self.interrupted = true;
            untouched
        })
    }
}

type Step = fn(&mut State, &AuditInput<'_>);

/// Steps 1–9, in order.
pub(super) const STEPS: [Step; 9] = [
    step1_cross_check,
    step2_contradictions,
    step3_false_positives,
    step4_coverage,
    step5_dedup,
    step6_severity,
    step7_conflicts,
    step8_over_implementation,
    step9_steering,
];

fn step1_cross_check(s: &mut State, input: &AuditInput<'_>) {
    let split = spec_defects(s.take());
    s.spec_defect = split.detected();
    s.spec_feedback = split.feedback;
    s.findings = s.within(cross_check_within(
        split.findings,
        &mut Ticker::new(&input.budget),
    ));
}

fn step2_contradictions(s: &mut State, input: &AuditInput<'_>) {
    let out = contradictions(input.reports, s.take());
    s.findings = out.findings;
    s.resolved.extend(out.resolved);
}

fn step3_false_positives(s: &mut State, input: &AuditInput<'_>) {
    let out = false_positives(s.take(), input.context);
    s.findings = out.kept;
    s.removed.extend(out.removed);
}

fn step4_coverage(s: &mut State, input: &AuditInput<'_>) {
    let gaps = coverage_gaps(input.reports, &s.findings, input.context);
    s.notes.extend(gaps);
}

fn step5_dedup(s: &mut State, input: &AuditInput<'_>) {
    let mut ticker = Ticker::new(&input.budget);
    let findings = s.take();
    let deduped = s.within(dedup_within(findings, &mut ticker));
    if s.interrupted {
        s.findings = deduped;
        return;
    }
    let (merged, cut) = merge_close_variants_within(deduped, &mut ticker);
    s.findings = merged;
    s.interrupted = cut;
}

fn step6_severity(s: &mut State, _: &AuditInput<'_>) {
    s.findings = rerate(s.take());
}

fn step7_conflicts(s: &mut State, input: &AuditInput<'_>) {
    let conflicts = find_conflicts(input.reports, &s.findings);
    if conflicts.is_empty() {
        return;
    }
    let reader = input
        .source
        .filter(|_| may_read_source(input.scope, conflicts.len(), s.large));
    let out = resolve_conflicts(s.take(), &conflicts, reader);
    s.findings = out.findings;
    s.resolved.extend(out.resolved);
    s.removed.extend(out.removed);
}

fn step8_over_implementation(s: &mut State, input: &AuditInput<'_>) {
    let out = over_implementation(s.take(), input.context);
    s.removed.extend(out.removed);
    let simpler = simplicity(out.findings, input.context);
    s.notes.extend(simpler.notes);
    // A re-labelled or raised finding may meet one an agent reported at the same place.
    s.findings = s.within(dedup_within(
        simpler.findings,
        &mut Ticker::new(&input.budget),
    ));
}

fn step9_steering(s: &mut State, input: &AuditInput<'_>) {
    s.steering = steering(input.reports, &s.findings, input.context);
}
