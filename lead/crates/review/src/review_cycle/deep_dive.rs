//! Phase 4 of the review cycle: the iterative deep-dive. Each iteration picks at most
//! [`MAX_PICKS`] findings not analysed before, gathers their root-cause context, re-assesses
//! their severities, and aggregates again; the loop stops when the aggregation no longer
//! triggers, nothing is left to pick, an iteration changed no severity, or after
//! `max_iterations`.
//!
//! Picking: the candidates are the Critical and High findings and every finding on a critical
//! file (a trigger of critical files alone must have something to analyse), most severe first,
//! then those on a critical file, then by location.
//!
//! Re-assessment, once per finding, when it is picked:
//! - test-only code (a test path, or inside a test function or `#[cfg(test)]` module), unless
//!   the rule is a `test/` rule (a failing test is about the code it tests): one level lower;
//! - otherwise, on a critical file and with at least 2 related findings or callers in at least
//!   3 files (a name too common to search, like `new`, never counts): one level higher;
//! - otherwise unchanged.

use super::aggregate::{aggregate, trigger, Aggregate, Trigger};
use super::context::{self, History, RootCause, Sources};
use inspector::engine::is_test_path;
use inspector::project::functions::FnSpan;
use protocol::{Dimension, Finding, Severity};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Findings analysed per iteration, at most.
pub const MAX_PICKS: usize = 5;

/// Related findings that, on a critical file, raise a finding's severity.
pub const RELATED_TO_RAISE: usize = 2;

/// Caller files that, on a critical file, raise a finding's severity.
pub const CALLER_FILES_TO_RAISE: usize = 3;

/// The default `--max-iterations`.
pub const DEFAULT_MAX_ITERATIONS: u32 = 3;

/// One severity the deep-dive changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeverityChange {
    /// The iteration that changed it.
    pub iteration: u32,
    /// The finding's fingerprint.
    pub fingerprint: String,
    /// Its rule.
    pub rule: String,
    /// Its location.
    pub location: String,
    /// Before.
    pub from: Severity,
    /// After.
    pub to: Severity,
    /// Why, in words.
    pub reason: String,
}

/// One deep-dive iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Iteration {
    /// 1-based.
    pub iteration: u32,
    /// Why it ran.
    pub trigger: Vec<String>,
    /// The picked findings with their context and re-assessment.
    pub picked: Vec<RootCause>,
    /// The severities it changed.
    pub severity_changes: Vec<SeverityChange>,
    /// The aggregation after it.
    pub aggregate_after: Aggregate,
    /// Whether that aggregation still triggers.
    pub trigger_after: Trigger,
}

/// Why the deep-dive stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The aggregation does not (or no longer) trigger a deep-dive.
    NotTriggered,
    /// Every candidate has been analysed.
    NoCandidates,
    /// The last iteration changed no severity.
    Stable,
    /// `max_iterations` iterations ran.
    MaxIterations,
}

/// The re-assessed severity of a finding from its context, with the reason; `None` when it
/// stays.
pub fn reassess(f: &Finding, rc: &RootCause) -> Option<(Severity, String)> {
    if rc.test_code && !f.rule.starts_with("test/") {
        let to = f.severity.lowered();
        return (to != f.severity).then(|| (to, "in test-only code".to_string()));
    }
    let caller_files = rc
        .callers
        .as_ref()
        .filter(|c| !c.ambiguous)
        .map_or(0, |c| c.files);
    let related = rc.related.len();
    if !rc.critical_file || (related < RELATED_TO_RAISE && caller_files < CALLER_FILES_TO_RAISE) {
        return None;
    }
    let to = f.severity.raised();
    let mut why = vec!["on a critical file".to_string()];
    if related >= RELATED_TO_RAISE {
        why.push(format!("{related} related findings"));
    }
    if caller_files >= CALLER_FILES_TO_RAISE {
        why.push(format!("callers in {caller_files} files"));
    }
    (to != f.severity).then(|| (to, why.join("; ")))
}

/// The candidates not yet analysed, in picking order.
pub fn candidates(findings: &[Finding], agg: &Aggregate, analysed: &BTreeSet<usize>) -> Vec<usize> {
    let mut out: Vec<usize> = (0..findings.len())
        .filter(|i| !analysed.contains(i))
        .filter(|i| {
            let f = &findings[*i];
            f.severity >= Severity::High || agg.is_critical_file(&f.location.path)
        })
        .collect();
    out.sort_by(|a, b| {
        let (fa, fb) = (&findings[*a], &findings[*b]);
        fb.severity
            .cmp(&fa.severity)
            .then_with(|| {
                agg.is_critical_file(&fb.location.path)
                    .cmp(&agg.is_critical_file(&fa.location.path))
            })
            .then_with(|| fa.location.cmp(&fb.location))
            .then(a.cmp(b))
    });
    out
}

/// The review cycle's state: the findings (severities as re-assessed so far), the
/// aggregations and the iterations.
#[derive(Debug, Clone)]
pub struct Cycle {
    findings: Vec<Finding>,
    initial_severities: Vec<Severity>,
    dimensions: Vec<Dimension>,
    max_iterations: u32,
    analysed: BTreeSet<usize>,
    initial: Aggregate,
    current: Aggregate,
    iterations: Vec<Iteration>,
    stop: Option<StopReason>,
}

impl Cycle {
    /// A cycle over the (unsuppressed) `findings` and the `dimensions` reviewed.
    pub fn new(findings: Vec<Finding>, dimensions: Vec<Dimension>, max_iterations: u32) -> Cycle {
        let initial = aggregate(&findings, &dimensions);
        Cycle {
            initial_severities: findings.iter().map(|f| f.severity).collect(),
            findings,
            dimensions,
            max_iterations,
            analysed: BTreeSet::new(),
            current: initial.clone(),
            initial,
            iterations: Vec::new(),
            stop: None,
        }
    }

    /// Runs the next iteration; `None` once the cycle has stopped (see [`Cycle::stop_reason`]).
    pub fn next_iteration(
        &mut self,
        sources: &Sources,
        history: &dyn History,
    ) -> Option<&Iteration> {
        if self.stop.is_some() {
            return None;
        }
        let fired = trigger(&self.current);
        let picks: Vec<usize> = candidates(&self.findings, &self.current, &self.analysed)
            .into_iter()
            .take(MAX_PICKS)
            .collect();
        let stop = if !fired.fires() {
            Some(StopReason::NotTriggered)
        } else if self.iterations.len() >= self.max_iterations as usize {
            Some(StopReason::MaxIterations)
        } else if picks.is_empty() {
            Some(StopReason::NoCandidates)
        } else {
            None
        };
        if stop.is_some() {
            self.stop = stop;
            return None;
        }
        let number = u32::try_from(self.iterations.len() + 1).unwrap_or(u32::MAX);
        let fns = context::functions_of(&self.findings, sources);
        // Every pick is analysed against the severities at the start of the iteration.
        let mut picked = Vec::new();
        for &i in &picks {
            picked.push(self.root_cause(i, &fns, sources, history));
        }
        let mut changes = Vec::new();
        for (&i, rc) in picks.iter().zip(picked.iter_mut()) {
            self.analysed.insert(i);
            let f = &mut self.findings[i];
            if let Some((to, reason)) = reassess(f, rc) {
                changes.push(SeverityChange {
                    iteration: number,
                    fingerprint: f.fingerprint.clone(),
                    rule: f.rule.clone(),
                    location: f.location.to_string(),
                    from: f.severity,
                    to,
                    reason,
                });
                f.severity = to;
                rc.severity_after = to;
            }
        }
        self.current = aggregate(&self.findings, &self.dimensions);
        if changes.is_empty() {
            self.stop = Some(StopReason::Stable);
        }
        self.iterations.push(Iteration {
            iteration: number,
            trigger: fired.reasons(),
            picked,
            severity_changes: changes,
            aggregate_after: self.current.clone(),
            trigger_after: trigger(&self.current),
        });
        self.iterations.last()
    }

    fn root_cause(
        &self,
        i: usize,
        fns: &BTreeMap<String, Vec<FnSpan>>,
        sources: &Sources,
        history: &dyn History,
    ) -> RootCause {
        let f = &self.findings[i];
        let function = context::enclosing(f, fns);
        RootCause {
            fingerprint: f.fingerprint.clone(),
            rule: f.rule.clone(),
            location: f.location.to_string(),
            severity_before: f.severity,
            severity_after: f.severity,
            critical_file: self.current.is_critical_file(&f.location.path),
            test_code: is_test_path(&f.location.path) || function.is_some_and(|s| s.test),
            enclosing_function: function.cloned(),
            callers: function.map(|s| context::callers(sources, s, &f.location.path)),
            last_change: history.last_change(&f.location.path, f.location.line),
            related: context::related(&self.findings, i, function),
        }
    }

    /// Runs iterations until the cycle stops; returns the stop reason.
    pub fn run_to_end(&mut self, sources: &Sources, history: &dyn History) -> StopReason {
        while self.next_iteration(sources, history).is_some() {}
        self.stop.unwrap_or(StopReason::NotTriggered)
    }

    /// Why the cycle stopped; `None` while it may still iterate.
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }

    /// The findings with their severities as re-assessed so far.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Each finding's severity before the deep-dive (same order as [`Cycle::findings`]).
    pub fn initial_severities(&self) -> &[Severity] {
        &self.initial_severities
    }

    /// The reviewed dimensions.
    pub fn dimensions(&self) -> &[Dimension] {
        &self.dimensions
    }

    /// The `--max-iterations` limit.
    pub fn max_iterations(&self) -> u32 {
        self.max_iterations
    }

    /// The aggregation before the deep-dive.
    pub fn initial(&self) -> &Aggregate {
        &self.initial
    }

    /// The latest aggregation.
    pub fn current(&self) -> &Aggregate {
        &self.current
    }

    /// The iterations run so far.
    pub fn iterations(&self) -> &[Iteration] {
        &self.iterations
    }

    /// Every severity change so far, in order.
    pub fn changes(&self) -> impl Iterator<Item = &SeverityChange> {
        self.iterations.iter().flat_map(|i| &i.severity_changes)
    }
}
