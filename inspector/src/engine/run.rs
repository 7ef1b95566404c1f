//! Running one Inspector kind over a context: file rules over every file, then project
//! rules, then the hits another rule's hit stands in for dropped (`step_aside`), then hits
//! turned into findings (the rule profile and configured overrides applied) and the report
//! finished (suppressions marked, the session filter applied).

use super::cache::ResultCache;
use super::file_pass::run_file_rules;
use super::{finish, Context, Rule, Sink};
use crate::rules::profile;
use protocol::message::{InspectOptions, RuleOverride};
use protocol::{Coverage, Finding, InspectorKind, InspectorReport, Severity};

/// Runs every enabled rule of `kind` (only those of the requested dimensions, when any are)
/// and returns the Inspector's finished report, agent = `name`. Files beyond the limits are
/// taken out of `ctx` by the file pass (so a context reviewed by several kinds is measured
/// once per file).
pub fn inspect(
    kind: InspectorKind,
    ctx: &mut Context,
    name: &str,
    review: &str,
) -> InspectorReport {
    let mut report = collect(kind, ctx, name, review, &[]);
    finish(ctx, &mut report);
    report
}

/// The rules' findings and notes as a report that is not yet finished (suppressions unmarked,
/// no session filter): `both` merges an agent's findings in before finishing once. `not_run`
/// lists what the caller itself did not run under `--no-exec` (the agent backend), said in
/// the same single note as the rules'.
pub(crate) fn collect(
    kind: InspectorKind,
    ctx: &mut Context,
    name: &str,
    review: &str,
    not_run: &[String],
) -> InspectorReport {
    let wanted = &ctx.options.dimensions;
    let rules: Vec<Box<dyn Rule>> = crate::rules::for_kind(kind)
        .into_iter()
        .filter(|r| enabled(&ctx.options, r.meta().id))
        .filter(|r| wanted.is_empty() || r.meta().dimensions.iter().any(|d| wanted.contains(d)))
        .collect();
    let started = std::time::Instant::now();
    let cache = if ctx.options.cache {
        let ids: Vec<&str> = rules.iter().map(|r| r.meta().id).collect();
        ResultCache::open(&ctx.root, kind.as_str(), &ids)
    } else {
        None
    };
    ctx.progress.begin(ctx.files.len() + rules.len());
    let mut sinks: Vec<Sink> = run_file_rules(&rules, ctx, cache);
    let file_pass = started.elapsed();
    for (rule, sink) in rules.iter().zip(sinks.iter_mut()) {
        let project_started = std::time::Instant::now();
        rule.check_project(ctx, sink);
        ctx.progress.advance();
        tracing::trace!(
            rule = rule.meta().id,
            ms = project_started.elapsed().as_millis() as u64,
            "project rule"
        );
    }
    let ids: Vec<&str> = rules.iter().map(|r| r.meta().id).collect();
    super::step_aside(&ids, &mut sinks);
    tracing::debug!(
        %kind,
        files = ctx.files.len(),
        file_pass_ms = file_pass.as_millis() as u64,
        total_ms = started.elapsed().as_millis() as u64,
        "rules run"
    );
    let mut report = InspectorReport {
        review: review.to_string(),
        inspector: name.to_string(),
        kind: Some(kind),
        scope: ctx.scope.label(),
        findings: Vec::new(),
        notes: Vec::new(),
        claims: Vec::new(),
        coverage: Coverage {
            files_reviewed: ctx.files.len() as u32,
            skipped: ctx.skipped.clone(),
        },
        preexisting: Vec::new(),
    };
    report.notes.extend(ctx.project_note.clone());
    let mut not_run: Vec<String> = not_run.to_vec();
    for (rule, sink) in rules.iter().zip(sinks) {
        let meta = rule.meta();
        let severity_override =
            override_for(&ctx.options.rule_overrides, meta.id).and_then(|o| o.severity);
        for hit in sink.hits {
            let own = hit.severity.unwrap_or(meta.severity);
            let severity: Severity = severity_override
                .unwrap_or_else(|| profile::capped(meta.id, ctx.options.profile, own));
            let category = hit.category.as_deref().unwrap_or(meta.category.as_str());
            let mut finding = Finding::new(
                name,
                meta.id,
                category,
                severity,
                hit.location,
                hit.description,
                &hit.key,
            );
            finding.suggestion = hit.suggestion;
            finding.suppression = hit.excuse.map(|why| format!("{} {why}", super::IN_CODE));
            finding.dimensions = meta.dimensions.to_vec();
            report.findings.push(finding);
        }
        // Rules of one kind share some notes ("rulebase: no spec: skipped"): say each once.
        for note in sink.notes {
            if !report.notes.contains(&note) {
                report.notes.push(note);
            }
        }
        for what in sink.not_run {
            if !not_run.contains(&what) {
                not_run.push(what);
            }
        }
        report.claims.extend(sink.claims);
    }
    fold_not_run(kind, &not_run, &mut report.notes);
    report
}

/// Says once per Inspector what `--no-exec` kept from running: every command the rules
/// recorded in one note, which replaces the rules' own "… not run (--no-exec)" notes.
fn fold_not_run(kind: InspectorKind, not_run: &[String], notes: &mut Vec<String>) {
    if not_run.is_empty() {
        return;
    }
    notes.retain(|n| !n.ends_with("(--no-exec)"));
    notes.insert(
        0,
        format!("{kind}: not run (--no-exec): {}", not_run.join(", ")),
    );
}

/// Whether rule `id` runs: an explicit override decides (a configured severity turns a
/// pedantic rule on), else the profile.
fn enabled(options: &InspectOptions, id: &str) -> bool {
    match override_for(&options.rule_overrides, id) {
        Some(o) => o.enabled,
        None => profile::runs_in(id, options.profile),
    }
}

fn override_for<'a>(overrides: &'a [RuleOverride], id: &str) -> Option<&'a RuleOverride> {
    overrides.iter().find(|o| o.rule == id)
}

#[cfg(test)]
mod tests;
