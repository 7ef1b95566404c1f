//! Whether a fix removed the findings it was made for: the rules that raised them run again,
//! in process (the inspector crate's engine), over the repository as it is now, and each
//! finding is looked for among what they report.
//!
//! Only the findings' own rules run (every other catalog rule is disabled), over the whole
//! repository rather than the changed files: a cross-file rule sees what the review saw, so a
//! narrower scope cannot hide a finding that is still there. A finding still matches when
//! its rule and path are the same and either its fingerprint is (the rule's key: the snippet or
//! symbol, never the line) or it sits within the change's line shift of where it was — an edit
//! that rewords the flagged line without fixing it keeps its line give or take the lines added
//! above it. Fail-closed: a rule that is not in the catalog, a file the walk no longer reviews
//! or an engine that cannot start leaves the finding "not checked", never "gone".

use inspector::Context;
use protocol::message::{InspectOptions, RuleOverride, RuleProfile};
use protocol::{Finding, InspectorKind, Scope};
use std::collections::BTreeSet;
use std::path::Path;

/// Lines a finding may move besides the file's net line change and still be the same one.
const LINE_SLACK: u32 = 3;

/// What the re-check found for one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Its rule ran on its file and did not report it again.
    Gone,
    /// Its rule reported it again, at this line when it has one.
    Remains {
        /// Where it is now.
        line: Option<u32>,
        /// The suppression that now hides it, when one does (a suppression is not a fix).
        suppressed: Option<String>,
    },
    /// It could not be checked; the reason.
    NotChecked(String),
}

/// One finding and its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The finding the fix was made for.
    pub finding: Finding,
    /// What the re-check found.
    pub status: Status,
}

/// The re-check of a fix's findings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recheck {
    /// One entry per finding, in the order given.
    pub findings: Vec<Checked>,
}

impl Recheck {
    /// Whether every finding is confirmed gone.
    pub fn all_gone(&self) -> bool {
        self.findings.iter().all(|c| c.status == Status::Gone)
    }

    /// The findings confirmed gone.
    pub fn gone(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|c| c.status == Status::Gone)
            .map(|c| &c.finding)
    }
}

/// How much a file's line count changed, to widen the line match (`path` → lines after minus
/// lines before); files not listed count 0.
pub type LineShift<'a> = &'a dyn Fn(&str) -> i64;

/// Runs the findings' rules again over `repo` and reports each finding's status.
pub fn recheck(repo: &Path, findings: &[Finding], shift: LineShift<'_>) -> Recheck {
    let catalog = inspector::rules::catalog();
    let kind_of = |rule: &str| catalog.iter().find(|(_, m)| m.id == rule).map(|(k, _)| *k);
    let mut kinds: BTreeSet<InspectorKind> = BTreeSet::new();
    let wanted: BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    for rule in &wanted {
        if let Some(kind) = kind_of(rule) {
            kinds.insert(kind);
        }
    }
    let options = InspectOptions {
        // Every catalog rule but the findings' own is off: the re-check answers one question.
        rule_overrides: catalog
            .iter()
            .filter(|(_, m)| !wanted.contains(m.id))
            .map(|(_, m)| RuleOverride {
                rule: m.id.to_string(),
                enabled: false,
                severity: None,
            })
            .collect(),
        cache: false,
        // An analyzer's finding is re-checked by running the analyzers again; without them
        // it would pass for gone.
        linters: if wanted.contains("quality/linter-finding") {
            vec!["auto".to_string()]
        } else {
            Vec::new()
        },
        // The findings' own rules run whatever profile reported them.
        profile: RuleProfile::Pedantic,
        ..InspectOptions::default()
    };
    let mut context = if kinds.is_empty() {
        Err("no rule of these findings is in the catalog".to_string())
    } else {
        Context::build(repo, &Scope::repository(), &options).map_err(|e| e.to_string())
    };
    let mut reported: Vec<Finding> = Vec::new();
    if let Ok(ctx) = &mut context {
        for kind in &kinds {
            let report = inspector::inspect(*kind, ctx, "recheck", "recheck");
            reported.extend(report.findings);
        }
    }
    let findings = findings
        .iter()
        .map(|finding| {
            let status = match (&context, kind_of(&finding.rule)) {
                (_, None) => Status::NotChecked(format!(
                    "rule {} is not in the catalog, so it cannot run again",
                    finding.rule
                )),
                (Err(why), _) => Status::NotChecked(format!("the rules could not run: {why}")),
                (Ok(ctx), Some(_)) => status_of(finding, ctx, &reported, shift),
            };
            Checked {
                finding: finding.clone(),
                status,
            }
        })
        .collect();
    Recheck { findings }
}

fn status_of(
    finding: &Finding,
    ctx: &Context,
    reported: &[Finding],
    shift: LineShift<'_>,
) -> Status {
    let path = &finding.location.path;
    if path.is_empty() {
        return Status::NotChecked("the finding names no file".to_string());
    }
    if ctx.file(path).is_none() {
        let why = if ctx.root.join(path).exists() {
            "the rules no longer review it (skipped by the walk)"
        } else {
            "it no longer exists"
        };
        return Status::NotChecked(format!("{path}: {why}"));
    }
    let slack = u32::try_from(shift(path).unsigned_abs())
        .unwrap_or(u32::MAX)
        .saturating_add(LINE_SLACK);
    let same = reported.iter().find(|r| {
        r.rule == finding.rule
            && r.location.path == *path
            && (r.fingerprint == finding.fingerprint
                || match (r.location.line, finding.location.line) {
                    (Some(now), Some(was)) => now.abs_diff(was) <= slack,
                    (None, None) => true,
                    _ => false,
                })
    });
    match same {
        Some(r) => Status::Remains {
            line: r.location.line,
            suppressed: r.suppression.clone(),
        },
        None => Status::Gone,
    }
}

#[cfg(test)]
mod tests;
