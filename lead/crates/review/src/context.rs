//! The Auditor's spec context (the Auditor spec, steps 3, 4, 8 and 9), read by the Lead from the
//! reviewed repository so that the Auditor never opens a spec file:
//!
//! | field | from |
//! |---|---|
//! | design files | the features' declared paths (spec.yaml `files`, tasks' `files`, Components), folders left out |
//! | interfaces, optional parameters | the names the design's code blocks define; their `Option<…>`/`?:`/`=None` parameters |
//! | error scenarios | list items under design sections titled "Error Handling" |
//! | tasks | tasks.yaml ids (only the `--tasks` given) |
//! | integration points | list items under design sections titled "Integration…" (not "…Test…") |
//! | documented deviations | list items under design sections titled "…Deviation…" |
//! | allowed patterns | list items under steering sections titled "…Allowed…" |
//! | changed files | a session's changed files |
//! | design text, steering text | design.md of the features in scope; every `steering/*.md` |
//! | steering exceptions | the handover's Steering Exceptions for `*` and the features in scope |
//!
//! Features in scope: the named one (`--feature`), every one (cross-check, the whole repository),
//! the wave's, or — for path globs and sessions — those declaring a file the scope reviews.
//! Deviations and allowed patterns use the item grammar of [`items`].

mod items;

use super::handover::{exceptions, HANDOVER_PATH};
use super::prepare::Prepared;
use inspector::engine::ContextError;
use inspector::spec::{Design, Feature, SpecError};
use inspector::Context;
use protocol::message::{InspectOptions, SpecContext, SteeringException};
use protocol::Scope;
use std::path::Path;

/// The most bytes of design or steering text sent to the Auditor; the rest is cut, so that the
/// request stays far below the wire's frame limit.
pub const MAX_TEXT_BYTES: usize = 512 * 1024;

/// Why the context could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SpecContextError {
    /// The scope or the spec layout could not be resolved.
    #[error(transparent)]
    Scope(#[from] ContextError),
    /// A spec file could not be read.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A design or steering file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// The context of a review, or an empty one (with a warning) when the repository cannot be read:
/// the scope was validated before, so this only happens when files change under the review.
/// Steering's allow-lists and `.retake/decisions.yaml` are read as committed at
/// `repo_files_rev` when one is given, so the change under review cannot widen them. What the
/// Lead read before the review (a session's changes) is taken from `prepared`.
pub fn load(
    repo: &Path,
    scope: &Scope,
    repo_files_rev: Option<&str>,
    prepared: &Prepared,
) -> SpecContext {
    build_at(repo, scope, repo_files_rev, prepared).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "no spec context for the Auditor: design checks are off");
        SpecContext::default()
    })
}

/// Reads the spec context of `scope` in `repo`.
pub fn build(repo: &Path, scope: &Scope) -> Result<SpecContext, SpecContextError> {
    build_at(repo, scope, None, &Prepared::default())
}

/// As [`build`], with the repository-level files read at `repo_files_rev` and what the Lead
/// read before the review taken from `prepared` (see [`load`]).
pub fn build_at(
    repo: &Path,
    scope: &Scope,
    repo_files_rev: Option<&str>,
    prepared: &Prepared,
) -> Result<SpecContext, SpecContextError> {
    // A zero size limit resolves the scope and parses the specs without reading any file: the
    // reviewed files come back as skipped, which is all the paths are needed for.
    let probe = prepared.ship(InspectOptions {
        max_file_bytes: 0,
        repo_files_rev: repo_files_rev.map(str::to_string),
        ..InspectOptions::default()
    });
    let ctx = Context::build(repo, scope, &probe)?;
    let reviewed: Vec<&str> = ctx
        .files
        .iter()
        .map(|f| f.rel_path.as_str())
        .chain(ctx.skipped.iter().map(|s| s.path.as_str()))
        .collect();
    let features = in_scope(ctx.specs.features(), scope, &reviewed);
    let mut out = SpecContext::default();
    let mut design_text = String::new();
    for feature in &features {
        let paths = match scope {
            Scope::Feature { tasks, .. } if !tasks.is_empty() => feature.task_paths(tasks)?,
            _ => feature.declared_paths(),
        };
        extend(
            &mut out.design_files,
            paths.into_iter().filter(|p| !p.ends_with('/')),
        );
        if let Some(list) = &feature.tasks {
            let wanted = |id: &str| match scope {
                Scope::Feature { tasks, .. } if !tasks.is_empty() => {
                    tasks.iter().any(|t| t.trim() == id)
                }
                _ => true,
            };
            let ids = list
                .tasks
                .iter()
                .map(|t| t.id.clone())
                .filter(|id| wanted(id));
            extend(&mut out.design_tasks, ids);
        }
        if let Some(design) = &feature.design {
            read_design(design, &mut out);
            let rel = feature.path_of("design.md");
            let text = std::fs::read_to_string(repo.join(&rel)).map_err(|source| {
                SpecContextError::Read {
                    path: rel.clone(),
                    source,
                }
            })?;
            design_text.push_str(&format!("<!-- {rel} -->\n{text}\n"));
        }
    }
    out.design_text = capped(design_text);
    if let Some(changes) = &ctx.changes {
        out.changed_files = changes.files.keys().cloned().collect();
    }
    let mut steering_text = String::new();
    for (rel, text) in steering_files_at(repo, repo_files_rev)? {
        let doc = Design::parse(&text);
        out.allowed_patterns
            .extend(items::exemptions(&doc, |t| t.contains("allowed")));
        steering_text.push_str(&format!("<!-- {rel} -->\n{text}\n"));
    }
    out.steering_text = capped(steering_text);
    let names: Vec<&str> = features.iter().map(|f| f.name.as_str()).collect();
    out.steering_exceptions = steering_exceptions_at(repo, repo_files_rev, &names)?;
    Ok(out)
}

/// The handover's Steering Exceptions that hold for `features`, read as committed at `rev`
/// when one is given (the change under review never suspends a rule for itself), else from the
/// work tree; none without a handover. Incomplete rows are left out (`lead`'s configuration
/// notes name them).
fn steering_exceptions_at(
    repo: &Path,
    rev: Option<&str>,
    features: &[&str],
) -> Result<Vec<SteeringException>, SpecContextError> {
    let text = match rev {
        Some(rev) => match inspector::engine::file_at_revision(repo, rev, HANDOVER_PATH) {
            Ok((_, text)) => text,
            Err(e) => {
                return Err(SpecContextError::Read {
                    path: format!("{HANDOVER_PATH} at {rev}"),
                    source: std::io::Error::other(e.to_string()),
                })
            }
        },
        None => match std::fs::read_to_string(repo.join(HANDOVER_PATH)) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => {
                return Err(SpecContextError::Read {
                    path: HANDOVER_PATH.to_string(),
                    source,
                })
            }
        },
    };
    let parsed = text.map(|t| exceptions::parse(&t)).unwrap_or_default();
    Ok(exceptions::for_features(parsed.exceptions, features))
}

/// What one design contributes besides its files, tasks and text.
fn read_design(design: &Design, out: &mut SpecContext) {
    extend(&mut out.design_interfaces, items::interfaces(design));
    extend(
        &mut out.optional_parameters,
        items::optional_parameters(design),
    );
    let names = |pick: fn(&str) -> bool| -> Vec<String> {
        items::items_under(design, pick)
            .iter()
            .map(|i| items::item_name(i))
            .filter(|n| !n.is_empty())
            .collect()
    };
    extend(
        &mut out.design_error_scenarios,
        names(|t| t.contains("error handling")),
    );
    extend(
        &mut out.integration_points,
        names(|t| t.contains("integration") && !t.contains("test")),
    );
    out.documented_deviations
        .extend(items::exemptions(design, |t| t.contains("deviation")));
}

/// The features a scope covers (see the module documentation).
fn in_scope<'a>(all: &'a [Feature], scope: &Scope, reviewed: &[&str]) -> Vec<&'a Feature> {
    let declares_a_reviewed_file = |f: &&Feature| {
        f.declared_paths().iter().any(|p| {
            let p = p.trim_end_matches('/');
            reviewed
                .iter()
                .any(|r| *r == p || r.strip_prefix(p).is_some_and(|rest| rest.starts_with('/')))
        })
    };
    match scope {
        Scope::Feature { feature, .. } => all.iter().filter(|f| &f.name == feature).collect(),
        Scope::CrossCheck => all.iter().collect(),
        Scope::WaveCrossCheck { wave } => all
            .iter()
            .filter(|f| f.wave().is_none_or(|w| w <= *wave))
            .collect(),
        Scope::Module { globs } if globs.is_empty() => all.iter().collect(),
        Scope::Module { .. } | Scope::Session { .. } => {
            all.iter().filter(declares_a_reviewed_file).collect()
        }
    }
}

/// [`steering::files`](crate::steering::files), each read as committed at `rev` when one is given (a file the commit
/// does not have is left out: what the change adds allows nothing yet).
fn steering_files_at(
    repo: &Path,
    rev: Option<&str>,
) -> Result<Vec<(String, String)>, SpecContextError> {
    let files = crate::steering::files(repo).map_err(|u| SpecContextError::Read {
        path: u.path,
        source: u.source,
    })?;
    let Some(rev) = rev else {
        return Ok(files);
    };
    let mut committed = Vec::new();
    for (rel, _) in files {
        match inspector::engine::file_at_revision(repo, rev, &rel) {
            Ok((_, Some(text))) => committed.push((rel, text)),
            Ok((_, None)) => {}
            Err(e) => {
                return Err(SpecContextError::Read {
                    path: format!("{rel} at {rev}"),
                    source: std::io::Error::other(e.to_string()),
                })
            }
        }
    }
    Ok(committed)
}

/// Appends the items not there yet.
fn extend(list: &mut Vec<String>, items: impl IntoIterator<Item = String>) {
    for item in items {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}

/// `text` cut to [`MAX_TEXT_BYTES`] at a character boundary.
fn capped(mut text: String) -> String {
    if text.len() > MAX_TEXT_BYTES {
        let mut end = MAX_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

#[cfg(test)]
mod tests;
