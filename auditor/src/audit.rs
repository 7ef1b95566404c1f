//! The audit as one pure function: reports in, one [`AuditOutcome`] out, no actors, no I/O, so
//! the Auditor actor, `retake audit`, recovery mode and consensus all run the very same code.
//!
//! [`audit`] runs the ten steps of the Auditor spec in order (see [`steps`] for 1–9), checking the
//! budget before each of steps 1–9; step 10 — the verdict table, the written-justification
//! override and the team-loop decision — always runs, so a verdict is always produced; a missing
//! Inspector bounds it (never GO, never APPROVE: `attendance::covered_verdict`). An audit
//! cut short before step 3 still drops suppressed findings: that is the user's decision, not
//! verification, and a suppressed finding never counts toward a verdict.
//!
//! Notes come out in a fixed order: `PARTIAL:` (missing Inspectors), `PARTIAL_VERIFICATION|`,
//! `LARGE_SCOPE|`, `verdict: …`, `OVERRIDE|`, the partial-coverage `verdict: CONDITIONAL (…)`,
//! the test-failure policy, the agent-only Critical,
//! then the steps' own notes: `CONFIRMED|`/`VERIFY|` (step 1), `COVERAGE_GAP|` (step 4) and
//! `SIMPLICITY|` (step 8). The Inspectors' own notes are advisory input and are not copied.

mod steps;

use crate::attendance::{attendance, covered_decision, covered_verdict};
use crate::budget::{partial_verification_note, Budget, LargeScope};
use crate::conflicts::SourceReader;
use crate::context::{AuditContext, EMPTY_CONTEXT};
use crate::cross_check::cross_check_notes;
use crate::decision::{agent_only_note, decide};
use crate::dedup::sort_by_severity;
use crate::false_positives::drop_suppressed;
use crate::verdict_override::{apply_override, VerdictOverride};
use crate::verdict_table::{test_failure_note, verdict_table};
use protocol::message::TestFailurePolicy;
use protocol::{AuditOutcome, Finding, InspectorReport};
use std::fmt;
use steps::{State, STEPS};

/// The audit's settings (`[audit]` in the configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AuditConfig {
    /// What test failures do to the verdict; NO-GO by default.
    pub test_failure: TestFailurePolicy,
}

/// Everything one audit looks at. Build it with [`AuditInput::new`] and the `with_` methods;
/// the fields stay public for reading.
#[derive(Clone, Copy)]
pub struct AuditInput<'a> {
    /// The scope label, copied into the outcome (`cross-check` and `wave-…` decide on evidence).
    pub scope: &'a str,
    /// The Inspectors' reports, in arrival order.
    pub reports: &'a [InspectorReport],
    /// Names of the Inspectors whose reports are expected; empty in an offline audit.
    pub expected: &'a [String],
    /// Inspectors the Lead declared unavailable: (name, reason).
    pub unavailable: &'a [(String, String)],
    /// Settings.
    pub config: &'a AuditConfig,
    /// The design and steering context; empty by default.
    pub context: &'a AuditContext,
    /// The audit budget; unlimited by default.
    pub budget: Budget<'a>,
    /// Reads the source for step 7; `None` (the default) decides every conflict on evidence.
    pub source: Option<SourceReader<'a>>,
    /// A justified override of the verdict table; none by default.
    pub verdict_override: Option<&'a VerdictOverride>,
    /// When the scope counts as large (evidence only); [`LargeScope::default`] by default.
    pub large_scope: LargeScope,
}

impl<'a> AuditInput<'a> {
    /// An audit of these reports with an empty context, no budget limit and no source reader.
    pub fn new(
        scope: &'a str,
        reports: &'a [InspectorReport],
        expected: &'a [String],
        unavailable: &'a [(String, String)],
        config: &'a AuditConfig,
    ) -> AuditInput<'a> {
        AuditInput {
            scope,
            reports,
            expected,
            unavailable,
            config,
            context: &EMPTY_CONTEXT,
            budget: Budget::Unlimited,
            source: None,
            verdict_override: None,
            large_scope: LargeScope::default(),
        }
    }

    /// With the design and steering context.
    pub fn with_context(self, context: &'a AuditContext) -> AuditInput<'a> {
        AuditInput { context, ..self }
    }

    /// With a budget.
    pub fn with_budget(self, budget: Budget<'a>) -> AuditInput<'a> {
        AuditInput { budget, ..self }
    }

    /// With a written-justification override of the verdict table (step 10).
    pub fn with_override(self, verdict_override: &'a VerdictOverride) -> AuditInput<'a> {
        AuditInput {
            verdict_override: Some(verdict_override),
            ..self
        }
    }

    /// With other large-scope thresholds.
    pub fn with_large_scope(self, large_scope: LargeScope) -> AuditInput<'a> {
        AuditInput {
            large_scope,
            ..self
        }
    }

    /// With a source reader for step 7 (`path → Some(text)`, `None` when there is no such file).
    pub fn with_source(self, source: SourceReader<'a>) -> AuditInput<'a> {
        AuditInput {
            source: Some(source),
            ..self
        }
    }
}

impl fmt::Debug for AuditInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditInput")
            .field("scope", &self.scope)
            .field("reports", &self.reports.len())
            .field("expected", &self.expected)
            .field("unavailable", &self.unavailable)
            .field("config", &self.config)
            .field("budget", &self.budget)
            .field("source", &self.source.is_some())
            .field("verdict_override", &self.verdict_override)
            .field("large_scope", &self.large_scope)
            .finish_non_exhaustive()
    }
}

/// Audits the reports: verified findings most severe first, REMOVED, RESOLVED, SPEC_FEEDBACK
/// and STEERING rows, verdict, decision and notes.
pub fn audit(input: &AuditInput<'_>) -> AuditOutcome {
    let attendance = attendance(input.reports, input.expected, input.unavailable);
    let large = input.large_scope.note(input.reports);
    let mut state = State::new(collect(input.reports), large.is_some());
    let mut completed = 0u8;
    for (n, step) in (1u8..).zip(STEPS) {
        if !input.budget.allows(n) {
            break;
        }
        step(&mut state, input);
        if state.interrupted {
            // Spent inside the step: it did not complete, and no later step runs.
            break;
        }
        completed = n;
    }
    if completed < 3 {
        // Cut short before step 3: suppressions still never count toward a verdict.
        let unsuppressed = drop_suppressed(std::mem::take(&mut state.findings));
        state.findings = unsuppressed.kept;
        state.removed.extend(unsuppressed.removed);
    }
    let mut findings = state.findings;
    // Re-rating and the later steps change severities; every output lists most severe first.
    sort_by_severity(&mut findings);

    // Step 10.
    let (table, reason) = verdict_table(&findings, state.spec_defect, input.config);
    let (verdict, override_note) = apply_override(table, input.verdict_override);
    // Coverage bounds the result last, so that no override or table row makes a partial review GO.
    let (verdict, coverage_note) =
        covered_verdict(verdict, attendance.answered, attendance.expected);
    let (decision, grade) = covered_decision(decide(&findings), attendance.partial());

    let mut notes = attendance.notes;
    if usize::from(completed) < STEPS.len() {
        notes.push(partial_verification_note(completed));
    }
    notes.extend(large);
    if let Some(reason) = reason {
        notes.push(format!("verdict: {table} ({reason})"));
    }
    notes.extend(override_note);
    notes.extend(coverage_note);
    notes.extend(test_failure_note(&findings, input.config.test_failure));
    notes.extend(agent_only_note(&findings));
    if completed >= 1 {
        notes.extend(cross_check_notes(&findings, reporters(input.reports)));
    }
    notes.extend(state.notes);

    AuditOutcome {
        verdict,
        scope: input.scope.to_string(),
        answered: attendance.answered,
        expected: attendance.expected,
        decision,
        grade,
        findings,
        removed: state.removed,
        resolved: state.resolved,
        spec_feedback: state.spec_feedback,
        steering: state.steering,
        notes,
        roadmap_advisory: Vec::new(),
    }
}

/// Every report's findings in arrival order; a finding that names no agent is the reporter's.
pub(crate) fn collect(reports: &[InspectorReport]) -> Vec<Finding> {
    reports
        .iter()
        .flat_map(|r| {
            r.findings.iter().cloned().map(move |mut f| {
                if f.agents.is_empty() {
                    f.agents.push(r.inspector.clone());
                }
                f
            })
        })
        .collect()
}

/// How many distinct Inspectors reported.
fn reporters(reports: &[InspectorReport]) -> usize {
    let mut names: Vec<&str> = reports.iter().map(|r| r.inspector.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod steps_tests;

#[cfg(test)]
mod guarantee_tests;
