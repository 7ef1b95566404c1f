//! The review side of the review-cycle spec: after a dimension review (`retake review --dimensions …`,
//! or `[review] dimensions`), aggregate the Auditor's verified findings by dimension, find the
//! critical files (findings in 3 or more reviewed dimensions), and when critical > 0, high > 5
//! or a critical file exists, deep-dive: at most 5 findings per iteration get root-cause
//! context (enclosing function, callers, last change, related findings) and a re-assessed
//! severity, for at most `--max-iterations` iterations. The result is written under
//! `.retake/reviews/<run-id>/`.
//!
//! The core (`aggregate`, `functions`, `context`, `deep_dive`, `report`, `output`) is pure: it
//! reads texts and a [`context::History`] given to it. This module is the shell: it reads the
//! scope's files, asks git for last changes, and writes the folder. The analysis is built in;
//! no agent backend is asked.
//!
//! The re-assessed severities never change the Auditor's verdict or the exit code: they are
//! this cycle's output, for the fix pipeline (`reports/review-cycle.json`, which `retake fix
//! .retake/reviews/<id>` reads).

pub mod aggregate;
pub mod blame;
pub mod context;
pub mod deep_dive;
pub mod output;
pub mod report;

use context::Sources;
use deep_dive::{Cycle, StopReason};
use host::journal::write_atomic;
use output::Stage;
use protocol::message::InspectOptions;
use protocol::{Dimension, Finding, Scope, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use deep_dive::DEFAULT_MAX_ITERATIONS;

/// Why the review cycle's folder could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReviewCycleError {
    /// A file could not be written.
    #[error("cannot write the review cycle's {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A document could not be serialised (a bug).
    #[error("cannot serialise the review cycle's {path}: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The error.
        source: serde_json::Error,
    },
}

/// One review's cycle, as the review command hands it over.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// Repository root.
    pub repo: &'a Path,
    /// The run id (the folder's name).
    pub run_id: &'a str,
    /// The scope reviewed (callers are searched in its files).
    pub scope: &'a Scope,
    /// The scope's label.
    pub scope_label: &'a str,
    /// The Auditor's verdict.
    pub verdict: Verdict,
    /// The Auditor's verified findings.
    pub findings: &'a [Finding],
    /// The dimensions reviewed.
    pub dimensions: &'a [Dimension],
    /// At most this many deep-dive iterations.
    pub max_iterations: u32,
}

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// `.retake/reviews/<run-id>/`.
    pub dir: PathBuf,
    /// Deep-dive iterations run.
    pub iterations: usize,
    /// Critical files after the deep-dive.
    pub critical_files: usize,
    /// Severities the deep-dive changed.
    pub changes: usize,
    /// Why the deep-dive stopped.
    pub stop: StopReason,
}

impl Written {
    /// One line for the terminal.
    pub fn summary(&self) -> String {
        format!(
            "review cycle: {} ({} critical file(s), {} deep-dive iteration(s), {} severity change(s))",
            self.dir.display(),
            self.critical_files,
            self.iterations,
            self.changes
        )
    }
}

/// `.retake/reviews/<run_id>/` of `repo`.
pub fn dir_of(repo: &Path, run_id: &str) -> PathBuf {
    repo.join(".retake").join("reviews").join(run_id)
}

/// Runs the cycle and writes its folder.
pub fn run(input: &Input<'_>) -> Result<Written, ReviewCycleError> {
    let dir = dir_of(input.repo, input.run_id);
    // A rerun of the same review (a resume) must not leave a longer cycle's iterations behind.
    let iterations_dir = dir.join("iterations");
    if iterations_dir.is_dir() {
        std::fs::remove_dir_all(&iterations_dir).map_err(|source| ReviewCycleError::Io {
            path: iterations_dir.clone(),
            source,
        })?;
    }
    let created_at = crate::state::now();
    let findings: Vec<Finding> = input
        .findings
        .iter()
        .filter(|f| f.suppression.is_none())
        .cloned()
        .collect();
    let mut cycle = Cycle::new(findings, input.dimensions.to_vec(), input.max_iterations);
    let header = report::Header {
        review_id: input.run_id,
        scope: input.scope_label,
        verdict: input.verdict,
    };
    let progress = dir.join("review-progress.json");
    let mut files: Vec<String> = Vec::new();
    write_json(
        &progress,
        &output::progress_json(&cycle, input.run_id, Stage::Aggregated, &created_at),
    )?;
    let sources = sources(input.repo, input.scope, cycle.findings());
    let history = blame::GitHistory::new(input.repo);
    while let Some(it) = cycle.next_iteration(&sources, &history) {
        let name = format!("iterations/{}.json", it.iteration);
        write_json(&dir.join(&name), it)?;
        files.push(name);
        let now = crate::state::now();
        write_json(
            &progress,
            &output::progress_json(&cycle, input.run_id, Stage::DeepDive, &now),
        )?;
    }
    for d in input.dimensions {
        let name = format!("dimensions/{d}.json");
        write_json(
            &dir.join(&name),
            &output::dimension_json(&cycle, *d, input.run_id),
        )?;
        files.push(name);
        let name = format!("reports/{d}-analysis.md");
        write_bytes(
            &dir.join(&name),
            report::analysis_md(&cycle, *d, &header).as_bytes(),
        )?;
        files.push(name);
    }
    let name = format!("reports/{}.json", output::FIX_REPORT);
    write_json(&dir.join(&name), &output::fix_report(&cycle, &header))?;
    files.push(name);
    files.push("review-progress.json".into());
    files.sort();
    let now = crate::state::now();
    let info = output::StateInfo {
        header,
        files: &files,
        created_at: &created_at,
        updated_at: &now,
    };
    write_json(
        &dir.join("review-state.json"),
        &output::state_json(&cycle, &info),
    )?;
    write_json(
        &progress,
        &output::progress_json(&cycle, input.run_id, Stage::Complete, &now),
    )?;
    Ok(Written {
        dir,
        iterations: cycle.iterations().len(),
        critical_files: cycle.current().critical_files.len(),
        changes: cycle.changes().count(),
        stop: cycle.stop_reason().unwrap_or(StopReason::NotTriggered),
    })
}

/// The texts the deep-dive reads: the scope's files (callers are searched there), and the
/// findings' own files when the scope did not include them. A scope that no longer resolves
/// (the review already ran on it, so hardly ever) leaves callers unsearched, not the cycle
/// failed.
fn sources(repo: &Path, scope: &Scope, findings: &[Finding]) -> Sources {
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut scope_paths = Vec::new();
    if let Ok(ctx) = inspector::Context::build(repo, scope, &InspectOptions::default()) {
        for f in ctx.files {
            scope_paths.push(f.rel_path.clone());
            texts.insert(f.rel_path, f.text);
        }
    }
    for f in findings {
        let path = &f.location.path;
        if path.is_empty() || texts.contains_key(path) {
            continue;
        }
        let Ok(full) = f.location.resolve(repo) else {
            continue;
        };
        if let Ok(text) = std::fs::read_to_string(full) {
            texts.insert(path.clone(), text);
        }
    }
    Sources::new(texts, scope_paths)
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), ReviewCycleError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|source| ReviewCycleError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    bytes.push(b'\n');
    write_bytes(path, &bytes)
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), ReviewCycleError> {
    write_atomic(path, bytes).map_err(|source| ReviewCycleError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests;
