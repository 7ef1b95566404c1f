//! `verdicts.md`: one `[B{seq}]` batch appended per review (chapter 03). Appends rewrite the file
//! atomically with the old content as its unchanged prefix, so earlier batches are never altered
//! and a crash mid-write leaves the previous file intact.

use crate::journal::write_atomic;
use protocol::{AuditOutcome, Disposition, Severity, Verdict};
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

/// The highest batch number in `text`.
pub fn last_seq(text: &str) -> u32 {
    text.lines()
        .filter_map(|l| l.strip_prefix("## [B"))
        .filter_map(|rest| rest.split(']').next())
        .filter_map(|n| n.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

/// What one batch records.
pub struct Batch<'a> {
    /// Title for a new file (`# Verdicts: <title>`).
    pub title: &'a str,
    /// UTC timestamp.
    pub timestamp: &'a str,
    /// retake's version.
    pub version: &'a str,
    /// The Auditor outcomes of the pipelines (V1, V2, …) with their CPF text.
    pub raw: &'a [(AuditOutcome, String)],
    /// The consensus threshold.
    pub threshold: u32,
}

/// Appends a batch; returns its sequence number.
pub fn append(path: &Path, batch: &Batch<'_>) -> std::io::Result<u32> {
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            format!("# Verdicts: {}\n", batch.title)
        }
        Err(e) => return Err(e),
    };
    let seq = last_seq(&existing) + 1;
    let mut text = existing;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&render(seq, batch));
    write_atomic(path, text.as_bytes())?;
    Ok(seq)
}

fn render(seq: u32, b: &Batch<'_>) -> String {
    let runs = b.raw.len();
    let mut out = format!(
        "\n## [B{seq}] impl | {} | v{} | runs:{runs} | threshold:{}/{runs}\n\n### Raw\n",
        b.timestamp, b.version, b.threshold
    );
    for (i, (_, cpf)) in b.raw.iter().enumerate() {
        out.push_str(&format!(
            "\n#### V{}\n\n```\n{}\n```\n",
            i + 1,
            cpf.trim_end()
        ));
    }
    let Some((first, _)) = b.raw.first() else {
        return out;
    };
    out.push_str("\n### Consensus\n\n");
    if first.findings.is_empty() {
        out.push_str("(none)\n");
    } else {
        out.push_str(
            "| sev | category | location | agents | description |\n|---|---|---|---|---|\n",
        );
        for f in &first.findings {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                f.severity,
                cell(&f.category),
                cell(&f.location.to_string()),
                cell(&f.agents_joined()),
                cell(&f.description)
            ));
        }
    }
    out.push_str("\n### Noise\n\n(none)\n");
    out.push_str(&format!(
        "\n### Disposition\n\n{}\n",
        review_disposition(first.verdict).as_str()
    ));
    if first.verdict == Verdict::Conditional {
        let tracked: Vec<_> = first
            .findings
            .iter()
            .filter(|f| f.severity <= Severity::Medium)
            .collect();
        if !tracked.is_empty() {
            out.push_str("\n### Tracked\n\n");
            for f in tracked {
                out.push_str(&format!(
                    "- {}|{}|{}|{}\n",
                    f.severity, f.category, f.location, f.description
                ));
            }
        }
    }
    out
}

/// Keeps a table cell on one line and its pipes from splitting the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Decision, Finding, Grade, Location};

    fn outcome(verdict: Verdict, findings: Vec<Finding>) -> AuditOutcome {
        AuditOutcome {
            verdict,
            scope: "repository".into(),
            answered: 6,
            expected: 6,
            decision: Decision::Approve,
            grade: Grade::A,
            findings,
            removed: vec![],
            resolved: vec![],
            spec_feedback: vec![],
            steering: vec![],
            notes: vec![],
            roadmap_advisory: vec![],
        }
    }

    #[test]
    fn batches_append_with_increasing_numbers_and_keep_earlier_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("verdicts.md");
        let f = Finding::new(
            "inspector-quality",
            "quality/todo-marker",
            "incomplete",
            Severity::Medium,
            Location::at("src/a.rs", 3),
            "TODO marker | left",
            "TODO",
        );
        let raw = vec![(
            outcome(Verdict::Conditional, vec![f]),
            "VERDICT:CONDITIONAL\nSCOPE:repository".to_string(),
        )];
        let batch = Batch {
            title: "demo",
            timestamp: "2026-11-22T00:00:00Z",
            version: "0.1.0",
            raw: &raw,
            threshold: 1,
        };
        assert_eq!(append(&path, &batch).expect("append"), 1);
        let first = std::fs::read_to_string(&path).expect("read");
        assert!(first.starts_with("# Verdicts: demo\n"));
        assert!(
            first.contains("## [B1] impl | 2026-11-22T00:00:00Z | v0.1.0 | runs:1 | threshold:1/1")
        );
        assert!(first.contains("#### V1\n\n```\nVERDICT:CONDITIONAL\nSCOPE:repository\n```"));
        assert!(first.contains(
            "| M | incomplete | src/a.rs:3 | inspector-quality | TODO marker \\| left |"
        ));
        assert!(first.contains("### Disposition\n\nCONDITIONAL-TRACKED"));
        assert!(first.contains("### Tracked\n\n- M|incomplete|src/a.rs:3|TODO marker | left"));
        let raw2 = vec![(outcome(Verdict::Go, vec![]), "VERDICT:GO".to_string())];
        let batch2 = Batch {
            raw: &raw2,
            ..batch
        };
        assert_eq!(append(&path, &batch2).expect("append"), 2);
        let second = std::fs::read_to_string(&path).expect("read");
        assert!(
            second.starts_with(&first),
            "earlier batches are never rewritten"
        );
        assert!(second.contains("## [B2] impl"));
        assert!(second.contains("GO-ACCEPTED"));
    }
}
