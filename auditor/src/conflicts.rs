//! Step 7 of the audit: conflicts that steps 2–6 leave — one Inspector's claim denying another
//! agent's finding on the same subject (typically a built-in Inspector and an agent backend):
//!
//! | claim | denied finding |
//! |-------|----------------|
//! | `TestsRun` with 0 failed (some passed) | `test-failure` |
//! | `SignaturesChecked`, all matched | `signature-mismatch` |
//! | `TasksChecked`, all complete | `task-incomplete` |
//! | `ErrorHandlingChecked` with 0 issues | `error-handling-drift` |
//!
//! A finding its own claimant also reports is no conflict. How each is decided:
//! - **From the source**, only for a single-feature-sized scope (not `cross-check`, not `wave-…`,
//!   not a large scope) with at most [`MAX_SOURCE_CONFLICTS`] conflicts, through a reader the
//!   shell provides (`path → Some(text)`, `None` when there is no such file). A missing file or a
//!   line past its end drops the finding; the backticked symbols of its description decide next
//!   (any present keeps it, none present drops it); a finding that names none goes on to evidence.
//! - **On evidence**: two or more agents outweigh one claim and the finding is kept; otherwise
//!   nothing decides, the finding is kept (a gate keeps what it cannot clear) and the conflict is
//!   `UNRESOLVED`.
//!
//! Every conflict is a `RESOLVED` row; what stays open is a row whose resolution starts with
//! `UNRESOLVED:` (see [`is_unresolved`]). A dropped finding also gets a `REMOVED` row.

use crate::category::Category;
use crate::evidence::{backticked, issue_text, AUDITOR};
use protocol::{Claim, Finding, InspectorReport, Removed, Resolved};

/// A source reader: a repository-relative path to the file's text, `None` when there is none.
pub type SourceReader<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The most conflicts the Auditor settles by reading the source; more are decided on evidence.
pub const MAX_SOURCE_CONFLICTS: usize = 3;

/// The prefix of the resolution of a conflict nothing could decide.
pub const UNRESOLVED: &str = "UNRESOLVED";

/// One claim denying one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// Index of the denied finding in the list given to [`find_conflicts`].
    pub finding: usize,
    /// The claiming Inspector.
    pub claimant: String,
    /// The claim, in words (`all 12 tests pass`).
    pub claim: String,
}

/// The findings after step 7 and its rows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Conflicts {
    /// The findings kept, in input order.
    pub findings: Vec<Finding>,
    /// One row per conflict.
    pub resolved: Vec<Resolved>,
    /// One row per finding dropped.
    pub removed: Vec<Removed>,
}

/// Whether a `RESOLVED` row records a conflict left open.
pub fn is_unresolved(row: &Resolved) -> bool {
    row.resolution.starts_with(UNRESOLVED)
}

/// Whether a scope spans several features (cross-check, wave), where only evidence decides.
pub fn is_multi_feature(scope: &str) -> bool {
    let scope = scope.trim();
    scope == "cross-check" || scope.starts_with("wave-")
}

/// Whether the Auditor may read the source for `conflicts` conflicts in this scope.
pub fn may_read_source(scope: &str, conflicts: usize, large_scope: bool) -> bool {
    !large_scope && conflicts <= MAX_SOURCE_CONFLICTS && !is_multi_feature(scope)
}

/// Every claim that denies a finding another agent reports; each finding at most once.
pub fn find_conflicts(reports: &[InspectorReport], findings: &[Finding]) -> Vec<Conflict> {
    let denials: Vec<(&str, Category, String)> = reports
        .iter()
        .flat_map(|r| r.claims.iter().map(move |c| (r.inspector.as_str(), c)))
        .filter_map(|(who, c)| denial(c).map(|(category, claim)| (who, category, claim)))
        .collect();
    findings
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let (who, _, claim) = denials.iter().find(|(who, category, _)| {
                category.is(&f.category) && !f.agents.iter().any(|a| a == who)
            })?;
            Some(Conflict {
                finding: i,
                claimant: who.to_string(),
                claim: claim.clone(),
            })
        })
        .collect()
}

/// The category a claim denies, and the claim in words.
fn denial(claim: &Claim) -> Option<(Category, String)> {
    match claim {
        Claim::TestsRun {
            passed, failed: 0, ..
        } if *passed > 0 => Some((Category::TestFailure, format!("all {passed} tests pass"))),
        Claim::SignaturesChecked { matched, total } if *total > 0 && matched == total => Some((
            Category::SignatureMismatch,
            format!("{matched}/{total} signatures match the design"),
        )),
        Claim::TasksChecked { complete, total } if *total > 0 && complete == total => Some((
            Category::TaskIncomplete,
            format!("{complete}/{total} tasks complete"),
        )),
        Claim::ErrorHandlingChecked { files, issues: 0 } => Some((
            Category::ErrorHandlingDrift,
            format!("error handling fine in {files} files"),
        )),
        _ => None,
    }
}

enum Judgment {
    Keep(String),
    Drop(String),
    Open(String),
}

/// Decides each conflict, from the source when `reader` is given, else on evidence.
pub fn resolve_conflicts(
    findings: Vec<Finding>,
    conflicts: &[Conflict],
    reader: Option<SourceReader<'_>>,
) -> Conflicts {
    let mut out = Conflicts::default();
    let mut dropped = vec![false; findings.len()];
    for c in conflicts {
        let Some(f) = findings.get(c.finding) else {
            continue;
        };
        let judgment = reader
            .and_then(|read| from_source(f, read))
            .unwrap_or_else(|| from_evidence(f, &c.claimant));
        let mut agents = vec![c.claimant.clone()];
        agents.extend(f.agents.iter().filter(|a| **a != c.claimant).cloned());
        let conflicting = format!("{}: {}\n{}", c.claimant, c.claim, issue_text(f));
        let resolution = match judgment {
            Judgment::Keep(why) => format!("kept the finding: {why}"),
            Judgment::Open(why) => format!("{UNRESOLVED}: {why}"),
            Judgment::Drop(why) => {
                dropped[c.finding] = true;
                out.removed.push(Removed {
                    agent: f.agents_joined(),
                    reason: format!(
                        "conflict with {} settled from the source: {why}",
                        c.claimant
                    ),
                    original: issue_text(f),
                });
                format!("dropped the finding: {why}")
            }
        };
        out.resolved.push(Resolved {
            agents,
            resolution,
            conflicting,
        });
    }
    out.findings = findings
        .into_iter()
        .zip(dropped)
        .filter(|(_, d)| !d)
        .map(|(f, _)| f)
        .collect();
    out
}

/// What the source says about a finding; `None` when it cannot tell.
fn from_source(f: &Finding, read: SourceReader<'_>) -> Option<Judgment> {
    let path = f.location.path.as_str();
    if path.is_empty() {
        return None;
    }
    let Some(text) = read(path) else {
        return Some(Judgment::Drop(format!("{path} does not exist")));
    };
    let lines = text.lines().count();
    if let Some(line) = f.location.line {
        if line as usize > lines {
            return Some(Judgment::Drop(format!(
                "line {line} is past the end of {path} ({lines} lines)"
            )));
        }
    }
    let symbols = backticked(&f.description);
    if symbols.is_empty() {
        return None;
    }
    Some(match symbols.iter().find(|s| text.contains(**s)) {
        Some(s) => Judgment::Keep(format!("the source has `{s}` in {path}")),
        None => Judgment::Drop(format!("{path} has none of `{}`", symbols.join("`, `"))),
    })
}

fn from_evidence(f: &Finding, claimant: &str) -> Judgment {
    let agents: Vec<&str> = f
        .agents
        .iter()
        .map(String::as_str)
        .filter(|a| *a != AUDITOR)
        .collect();
    if agents.len() >= 2 {
        Judgment::Keep(format!(
            "{} agents ({}) outweigh one claim",
            agents.len(),
            agents.join("+")
        ))
    } else {
        Judgment::Open(format!(
            "evidence cannot decide between {claimant}'s claim and {}'s finding; kept the finding",
            agents.first().copied().unwrap_or(AUDITOR)
        ))
    }
}

#[cfg(test)]
mod tests;
