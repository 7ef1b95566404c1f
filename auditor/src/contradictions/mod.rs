//! Step 2 of the audit: contradictions between Inspectors, resolved by the five rules of
//! the Auditor spec, each a `RESOLVED` row.
//!
//! A contradiction is a claim of one Inspector (protocol `Claim`) against findings of another.
//! Findings are matched by category, so an agent backend or a CPF file standing in for an
//! Inspector counts the same; claims are matched by the reporting Inspector's kind. Suppressed
//! findings are the user's decision already and take part in no contradiction.
//!
//! | rule | claim | against | resolution |
//! |------|-------|---------|------------|
//! | (a) | interface: every designed signature matches | `test-failure` | keep the failures; investigate deeper |
//! | (b) | test: all tests pass (none failed, some passed) | `call-site-error` | raise a High `false-positive-risk` per call |
//! | (c) | rulebase: task T complete (`TaskComplete`) | quality finds only `dead-code` in T's files | raise a High `functionality-not-delivered` |
//! | (d) | quality: error handling fine (`ErrorHandlingChecked`, 0 issues) | `error-handling-inconsistency` | keep them at their own severity, note the context |
//! | (e) | interface: every signature matches and no findings | `type-mismatch`, `interface-inconsistency` | scope difference: keep them, note it |
//!
//! Rules (a) and (e) need *every* signature to match: the claims count signatures but do not
//! name them, so a partial match cannot be tied to the failing code.

use crate::category::{Category, CROSS_FEATURE_MISMATCH};
use crate::evidence::{agents_of, claims, issue_text, raise, report_kind, reported_by};
use crate::place::normalise_path;
use protocol::{Claim, Finding, InspectorKind, InspectorReport, Resolved, Severity};

/// The findings after step 2 (with what it raised appended) and the contradictions it resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contradictions {
    /// The input findings, unchanged and in order, then the findings the rules raised.
    pub findings: Vec<Finding>,
    /// One row per contradiction resolved.
    pub resolved: Vec<Resolved>,
}

/// One rule's resolution: its row and the findings it raises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The `RESOLVED` row.
    pub resolved: Resolved,
    /// New findings (rules (b) and (c)); the others keep what they found.
    pub raised: Vec<Finding>,
}

/// Applies rules (a)–(e) in order.
pub fn contradictions(reports: &[InspectorReport], findings: Vec<Finding>) -> Contradictions {
    let mut resolutions = Vec::new();
    resolutions.extend(signatures_match_but_tests_fail(reports, &findings));
    resolutions.extend(tests_pass_but_calls_are_wrong(reports, &findings));
    resolutions.extend(complete_tasks_with_only_dead_code(reports, &findings));
    resolutions.extend(error_handling_fine_but_inconsistent(reports, &findings));
    resolutions.extend(no_interface_issues_but_cross_feature_mismatch(
        reports, &findings,
    ));
    let mut out = Contradictions {
        findings,
        resolved: Vec::new(),
    };
    for r in resolutions {
        out.resolved.push(r.resolved);
        out.findings.extend(r.raised);
    }
    out
}

/// Rule (a): the interface Inspector says every signature matches, yet tests fail at runtime.
pub fn signatures_match_but_tests_fail(
    reports: &[InspectorReport],
    findings: &[Finding],
) -> Option<Resolution> {
    let (who, matched) = all_signatures_match(reports)?;
    let failures = active(findings, |f| f.category_is(Category::TestFailure));
    if failures.is_empty() {
        return None;
    }
    Some(Resolution {
        resolved: Resolved {
            agents: with_claimant(who, &failures),
            resolution: "kept the test failures: the signatures match the design but the code \
                         fails at runtime; investigate deeper"
                .into(),
            conflicting: format!(
                "{who}: {matched}/{matched} signatures match the design\n{}",
                listing(&failures)
            ),
        },
        raised: Vec::new(),
    })
}

/// Rule (b): the test Inspector says every test passes, yet a call has the wrong argument count:
/// the tests likely exercise test doubles, so each such call raises a `false-positive-risk`.
pub fn tests_pass_but_calls_are_wrong(
    reports: &[InspectorReport],
    findings: &[Finding],
) -> Option<Resolution> {
    let (who, passed) =
        claims(reports, Some(InspectorKind::Test)).find_map(|(who, c)| match c {
            Claim::TestsRun {
                passed, failed: 0, ..
            } if *passed > 0 => Some((who, *passed)),
            _ => None,
        })?;
    let calls = active(findings, |f| f.category_is(Category::CallSiteError));
    if calls.is_empty() {
        return None;
    }
    let raised = calls
        .iter()
        .map(|call| {
            let mut f = raise(
                "contradiction-b",
                Category::FalsePositiveRisk,
                Severity::High,
                call.location.clone(),
                format!(
                    "all {passed} tests pass although this call has the wrong number of \
                     arguments: the tests likely run against test doubles ({})",
                    call.description
                ),
                &call.fingerprint,
            );
            f.suggestion = Some("test the real implementation, not a double".into());
            f
        })
        .collect();
    Some(Resolution {
        resolved: Resolved {
            agents: with_claimant(who, &calls),
            resolution: format!(
                "raised {}: the tests pass while a call has the wrong argument count, so they \
                 likely run against test doubles",
                Category::FalsePositiveRisk
            ),
            conflicting: format!("{who}: {passed} passed, 0 failed\n{}", listing(&calls)),
        },
        raised,
    })
}

/// Rule (c): the rulebase Inspector says a task is complete, yet all quality finds in its files
/// is dead code: the functionality is not really delivered. One resolution per such task.
pub fn complete_tasks_with_only_dead_code(
    reports: &[InspectorReport],
    findings: &[Finding],
) -> Vec<Resolution> {
    claims(reports, Some(InspectorKind::Rulebase))
        .filter_map(|(who, c)| match c {
            Claim::TaskComplete { id, files } => Some((who, id, files)),
            _ => None,
        })
        .filter_map(|(who, id, files)| {
            let files: Vec<String> = files.iter().map(|p| normalise_path(p)).collect();
            let quality = active(findings, |f| {
                reported_by(f, InspectorKind::Quality)
                    && files.contains(&normalise_path(&f.location.path))
            });
            let first = quality.first()?;
            if !quality.iter().all(|f| f.category_is(Category::DeadCode)) {
                return None;
            }
            let mut f = raise(
                "contradiction-c",
                Category::FunctionalityNotDelivered,
                Severity::High,
                first.location.clone(),
                format!(
                    "task {id} is marked complete, but its code is dead: {}",
                    dead_places(&quality)
                ),
                &format!("task {id}"),
            );
            f.suggestion = Some(
                "call the task's code from where the design uses it, or reopen the task".into(),
            );
            Some(Resolution {
                resolved: Resolved {
                    agents: with_claimant(who, &quality),
                    resolution: format!(
                        "functionality not really delivered: raised {} for task {id}",
                        Category::FunctionalityNotDelivered
                    ),
                    conflicting: format!("{who}: task {id} complete\n{}", listing(&quality)),
                },
                raised: vec![f],
            })
        })
        .collect()
}

/// Rule (d): the quality Inspector says error handling is fine, the consistency Inspector says it
/// differs between modules: both hold, so its findings keep their own severity.
pub fn error_handling_fine_but_inconsistent(
    reports: &[InspectorReport],
    findings: &[Finding],
) -> Option<Resolution> {
    let (who, files) =
        claims(reports, Some(InspectorKind::Quality)).find_map(|(who, c)| match c {
            Claim::ErrorHandlingChecked { files, issues: 0 } => Some((who, *files)),
            _ => None,
        })?;
    let differing = active(findings, |f| {
        f.category_is(Category::ErrorHandlingInconsistency)
    });
    if differing.is_empty() {
        return None;
    }
    Some(Resolution {
        resolved: Resolved {
            agents: with_claimant(who, &differing),
            resolution: "kept the inconsistency findings at their own severity: error handling \
                         is sound within each module but differs between modules"
                .into(),
            conflicting: format!(
                "{who}: error handling fine in {files} files\n{}",
                listing(&differing)
            ),
        },
        raised: Vec::new(),
    })
}

/// Rule (e): the interface Inspector reports nothing, the consistency Inspector reports a
/// cross-feature mismatch: a difference of scope (one feature against its design, versus
/// features against each other), so the mismatch is kept.
pub fn no_interface_issues_but_cross_feature_mismatch(
    reports: &[InspectorReport],
    findings: &[Finding],
) -> Option<Resolution> {
    let (who, matched) = all_signatures_match(reports)?;
    let interface_quiet = reports
        .iter()
        .filter(|r| r.inspector == who)
        .all(|r| r.findings.iter().all(|f| f.suppression.is_some()));
    if !interface_quiet {
        return None;
    }
    let mismatches = active(findings, |f| f.category_in(&CROSS_FEATURE_MISMATCH));
    if mismatches.is_empty() {
        return None;
    }
    Some(Resolution {
        resolved: Resolved {
            agents: with_claimant(who, &mismatches),
            resolution: "scope difference: interface checks each feature against its own design, \
                         consistency compares features; kept the cross-feature mismatches"
                .into(),
            conflicting: format!(
                "{who}: {matched}/{matched} signatures match, no issues\n{}",
                listing(&mismatches)
            ),
        },
        raised: Vec::new(),
    })
}

/// The interface Inspector that claims every designed signature matches, and how many.
fn all_signatures_match(reports: &[InspectorReport]) -> Option<(&str, u32)> {
    let interface = reports
        .iter()
        .filter(|r| report_kind(r) == Some(InspectorKind::Interface));
    interface.into_iter().find_map(|r| {
        r.claims.iter().find_map(|c| match c {
            Claim::SignaturesChecked { matched, total } if *total > 0 && matched == total => {
                Some((r.inspector.as_str(), *total))
            }
            _ => None,
        })
    })
}

/// The unsuppressed findings that satisfy `pred`.
fn active(findings: &[Finding], pred: impl Fn(&Finding) -> bool) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.suppression.is_none() && pred(f))
        .collect()
}

fn with_claimant(claimant: &str, findings: &[&Finding]) -> Vec<String> {
    // agents_of is already distinct: only the claimant can repeat.
    let mut agents = vec![claimant.to_string()];
    agents.extend(
        agents_of(findings.iter().copied())
            .into_iter()
            .filter(|a| a != claimant),
    );
    agents
}

/// The findings as issue rows, one per line, at most [`LISTED`] of them.
fn listing(findings: &[&Finding]) -> String {
    let mut lines: Vec<String> = findings
        .iter()
        .take(LISTED)
        .map(|f| issue_text(f))
        .collect();
    if findings.len() > LISTED {
        lines.push(format!("… and {} more", findings.len() - LISTED));
    }
    lines.join("\n")
}

/// How many conflicting findings a RESOLVED row quotes; the rest are counted.
const LISTED: usize = 5;

fn dead_places(findings: &[&Finding]) -> String {
    let places: Vec<String> = findings.iter().map(|f| f.location.to_string()).collect();
    places.join(", ")
}

#[cfg(test)]
mod tests;
