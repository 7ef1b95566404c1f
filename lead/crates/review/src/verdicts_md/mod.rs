//! `verdicts.md`: one `[B{seq}]` batch appended per review (the Auditor spec). Appends rewrite the file
//! atomically with the old content as its unchanged prefix, so earlier batches are never altered
//! and a crash mid-write leaves the previous file intact.
//!
//! Decisions the spec leaves open, fixed here and why:
//! - **Resolved** means absent from every produced verdict (Consensus and Noise): an issue some
//!   pipeline still reports is not claimed fixed.
//! - **REGRESSION** is a Consensus row that is the same problem as one any earlier batch listed
//!   as resolved. It stays marked (one level above what the Auditors report now, never
//!   cumulative) for as long as it is present.
//! - **The same problem** is decided by a line-free identity (`history`), so an edit above a
//!   finding neither resolves it nor raises a REGRESSION. Rows carry their finding's fingerprint
//!   as a fifth field; rows written before that, and rows of verdicts known only as CPF, match by
//!   category, path and description.
//! - [`append`] marks regressions itself, so the file is right whoever calls it, and returns the
//!   raised consensus: a caller reports that verdict, since a raise can make it worse.

mod history;
mod render;
mod summary;

pub use history::{last_seq, previous_tracked, regressions, Issue};
pub use summary::{summaries, BatchSummary, ConsensusLine};

use auditor::consensus::{consensus_key, Consensus, ConsensusRow};
use history::Problems;
use host::journal::write_atomic;
use protocol::{Disposition, Finding, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where the batch goes: `specs/<feature>/verdicts.md` for a feature review of a repository with
/// a spec folder, otherwise `.retake/verdicts.md`.
pub fn location(repo: &Path, state_dir: &Path, feature: Option<&str>) -> PathBuf {
    match feature {
        Some(f) if repo.join("specs").join(f).is_dir() => {
            repo.join("specs").join(f).join("verdicts.md")
        }
        _ => state_dir.join("verdicts.md"),
    }
}

/// The disposition of a review-only batch: nothing was fixed here, so a NO-GO or a spec update
/// is handed to a person (ESCALATED); the fix loop records NO-GO-FIXED and SPEC-UPDATE-CASCADED.
pub fn review_disposition(verdict: Verdict) -> Disposition {
    match verdict {
        Verdict::Go => Disposition::GoAccepted,
        Verdict::Conditional => Disposition::ConditionalTracked,
        Verdict::NoGo | Verdict::SpecUpdateNeeded => Disposition::Escalated,
    }
}

/// What one batch records.
pub struct Batch<'a> {
    /// Title for a new file (`# Verdicts: <title>`).
    pub title: &'a str,
    /// UTC timestamp.
    pub timestamp: &'a str,
    /// retake's version.
    pub version: &'a str,
    /// Each pipeline's Auditor verdict as CPF text, verbatim (V1, V2, …); `None` for a pipeline
    /// that failed.
    pub raw: &'a [Option<String>],
    /// The aggregated verdicts (for one pipeline: [`Consensus::single`]).
    pub consensus: &'a Consensus,
    /// The disposition; `None` derives it from the verdict with [`review_disposition`].
    pub disposition: Option<Disposition>,
    /// The findings behind the verdicts (every pipeline's), whose fingerprints identify the rows
    /// across batches; empty when only the CPF verdicts are at hand.
    pub findings: &'a [Finding],
    /// Findings already there before the reviewed change (a session review's "already there"):
    /// never Tracked nor REGRESSION, but still present, so a Tracked issue among them is not
    /// listed as resolved.
    pub already_there: &'a [Finding],
}

/// What an append wrote.
#[derive(Debug, Clone)]
pub struct Appended {
    /// The new batch's number.
    pub seq: u32,
    /// The consensus with regressions raised, as recorded: the verdict to report.
    pub consensus: Consensus,
    /// Keys marked REGRESSION.
    pub regressions: Vec<String>,
    /// Keys listed as `Resolved since B{prev}`.
    pub resolved: Vec<String>,
}

/// The file's text, or an empty string when it does not exist yet.
pub fn read(path: &Path) -> std::io::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e),
    }
}

/// Appends a batch: numbers it after the highest one, marks regressions against earlier
/// batches, lists the previous batch's Tracked issues that are gone.
pub fn append(path: &Path, batch: &Batch<'_>) -> std::io::Result<Appended> {
    let mut text = read(path)?;
    if text.is_empty() {
        text = format!("# Verdicts: {}\n", batch.title);
    }
    let seq = last_seq(&text) + 1;
    let mut consensus = batch.consensus.clone();
    let fingerprints = fingerprints(batch.findings);
    let as_issues = |rows: &[ConsensusRow]| -> Vec<Issue> {
        rows.iter()
            .map(|r| render::issue(r, &fingerprints))
            .collect()
    };
    let back = regressions(&text, &as_issues(&consensus.consensus));
    consensus.raise_regressions(&back);
    let mut present = as_issues(&consensus.consensus);
    present.extend(as_issues(&consensus.noise));
    present.extend(batch.already_there.iter().map(issue_of));
    let present = Problems::new(&present);
    let resolved = previous_tracked(&text).and_then(|(prev, tracked)| {
        let gone: Vec<Issue> = tracked
            .into_iter()
            .filter(|i| !present.contains(i))
            .collect();
        (!gone.is_empty()).then_some((prev, gone))
    });
    let resolved_keys = resolved
        .iter()
        .flat_map(|(_, issues)| issues.iter().map(Issue::key))
        .collect();
    let disposition = batch
        .disposition
        .unwrap_or_else(|| review_disposition(consensus.verdict));
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&render::render(&render::Rendered {
        seq,
        timestamp: batch.timestamp,
        version: batch.version,
        raw: batch.raw,
        consensus: &consensus,
        fingerprints: &fingerprints,
        disposition,
        resolved,
    }));
    write_atomic(path, text.as_bytes())?;
    Ok(Appended {
        seq,
        regressions: consensus
            .consensus
            .iter()
            .filter(|r| r.regression)
            .map(|r| r.key.clone())
            .collect(),
        consensus,
        resolved: resolved_keys,
    })
}

/// A finding as the issue it is in the history.
fn issue_of(f: &Finding) -> Issue {
    Issue {
        severity: f.severity,
        category: f.category.clone(),
        location: f.location.to_string(),
        description: f.description.clone(),
        fingerprint: Some(f.fingerprint.clone()),
    }
}

/// Each consensus key's fingerprint: the first finding's with that category and location (the
/// Auditor merges findings of one key, so a verdict has at most one).
fn fingerprints(findings: &[Finding]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for f in findings {
        out.entry(consensus_key(&f.category, &f.location.to_string()))
            .or_insert_with(|| f.fingerprint.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::cpf::{VerdictCpf, VerifiedRow};
    use protocol::Severity;

    fn verdict(v: Verdict, rows: Vec<VerifiedRow>) -> VerdictCpf {
        let mut cpf = VerdictCpf::new(v);
        cpf.verified = rows;
        cpf
    }

    #[test]
    fn batches_append_with_increasing_numbers_and_keep_earlier_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("verdicts.md");
        let row = VerifiedRow {
            agents: vec!["inspector-quality".into()],
            severity: Severity::Medium,
            category: "incomplete".into(),
            location: "src/a.rs:3".into(),
            description: "TODO marker | left".into(),
        };
        let consensus = Consensus::single(&verdict(Verdict::Conditional, vec![row]));
        let raw = vec![Some("VERDICT:CONDITIONAL\nSCOPE:repository".to_string())];
        let batch = Batch {
            title: "demo",
            timestamp: "2026-11-22T00:00:00Z",
            version: "0.1.0",
            raw: &raw,
            consensus: &consensus,
            disposition: None,
            findings: &[],
            already_there: &[],
        };
        assert_eq!(append(&path, &batch).expect("append").seq, 1);
        let first = std::fs::read_to_string(&path).expect("read");
        assert!(first.starts_with("# Verdicts: demo\n"));
        assert!(first.contains(
            "## [B1] impl | 2026-11-22T00:00:00Z | v0.1.0 | runs:1 | threshold:1/1\n\n\
             Verdict: CONDITIONAL (answered 1/1)\n"
        ));
        assert!(first.contains("#### V1\n\n```\nVERDICT:CONDITIONAL\nSCOPE:repository\n```"));
        assert!(first.contains(
            "| M | incomplete | src/a.rs:3 | 1 | inspector-quality | TODO marker \\| left |"
        ));
        assert!(first.contains("### Noise\n\n(none)\n"));
        assert!(first.contains("### Disposition\n\nCONDITIONAL-TRACKED"));
        assert!(first.contains("### Tracked\n\n- M|incomplete|src/a.rs:3|TODO marker \\| left\n"));
        let go = Consensus::single(&VerdictCpf::new(Verdict::Go));
        let raw2 = vec![Some("VERDICT:GO".to_string()), None];
        let batch2 = Batch {
            raw: &raw2,
            consensus: &go,
            ..batch
        };
        // Still there on a line the next change did not touch: neither Tracked nor resolved.
        let untouched = Finding::new(
            "inspector-quality",
            "quality/todo-marker",
            "incomplete",
            Severity::Medium,
            protocol::Location::at("src/a.rs", 9),
            "TODO marker | left",
            "todo",
        );
        let still = append(
            &path,
            &Batch {
                raw: &raw2,
                consensus: &go,
                already_there: std::slice::from_ref(&untouched),
                ..batch
            },
        )
        .expect("append");
        assert!(still.resolved.is_empty(), "{:?}", still.resolved);
        std::fs::write(&path, &first).expect("back to B1");
        let appended = append(&path, &batch2).expect("append");
        assert_eq!(appended.seq, 2);
        assert_eq!(appended.resolved, vec!["incomplete|src/a.rs:3".to_string()]);
        let second = std::fs::read_to_string(&path).expect("read");
        assert!(
            second.starts_with(&first),
            "earlier batches are never rewritten"
        );
        assert!(second.contains("## [B2] impl"));
        assert!(second.contains("#### V2\n\n(no verdict: the pipeline failed)\n"));
        assert!(second.contains("GO-ACCEPTED"));
        assert!(second
            .contains("### Resolved since B1\n\n- M|incomplete|src/a.rs:3|TODO marker \\| left\n"));
    }

    #[test]
    fn a_given_disposition_and_a_partial_consensus_are_recorded() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("nested").join("verdicts.md");
        let consensus =
            auditor::consensus::consensus(&[Some(VerdictCpf::new(Verdict::Go)), None, None], None)
                .expect("one verdict");
        let raw = vec![Some("VERDICT:GO".to_string()), None, None];
        let batch = Batch {
            title: "x",
            timestamp: "t",
            version: "0",
            raw: &raw,
            consensus: &consensus,
            disposition: Some(Disposition::NoGoFixed),
            findings: &[],
            already_there: &[],
        };
        append(&path, &batch).expect("append");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains("| runs:3 | threshold:1/3\n\nVerdict: GO (answered 1/3, partial)\n"));
        assert!(text.contains("### Disposition\n\nNO-GO-FIXED\n"));
        assert!(!text.contains("### Tracked"));
    }
}
