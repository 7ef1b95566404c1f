//! `reports/<dimension>-analysis.md`: one dimension's findings for a human — counts before and
//! after the deep-dive, the critical files it touches, the findings most severe first, and the
//! deep-dive's severity changes with their reasons.

use super::aggregate::{reviewed_dimensions, Distribution};
use super::deep_dive::Cycle;
use protocol::{Dimension, Finding, Severity, Verdict};
use std::fmt::Write as _;

/// What every dimension's report says about the review as a whole.
#[derive(Debug, Clone, Copy)]
pub struct Header<'a> {
    /// The review (run) id.
    pub review_id: &'a str,
    /// The scope label.
    pub scope: &'a str,
    /// The Auditor's verdict.
    pub verdict: Verdict,
}

/// A dimension's findings (indices into the cycle's findings), most severe first, then by
/// location.
pub fn dimension_findings(cycle: &Cycle, dimension: Dimension) -> Vec<usize> {
    let findings = cycle.findings();
    let mut out: Vec<usize> = (0..findings.len())
        .filter(|i| reviewed_dimensions(&findings[*i], cycle.dimensions()).contains(&dimension))
        .collect();
    out.sort_by(|a, b| {
        findings[*b]
            .severity
            .cmp(&findings[*a].severity)
            .then_with(|| findings[*a].location.cmp(&findings[*b].location))
            .then(a.cmp(b))
    });
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn line(d: &Distribution) -> String {
    format!(
        "{} (Critical {}, High {}, Medium {}, Low {})",
        d.total, d.critical, d.high, d.medium, d.low
    )
}

/// The Markdown report of `dimension`.
pub fn analysis_md(cycle: &Cycle, dimension: Dimension, header: &Header<'_>) -> String {
    let mut md = String::new();
    let findings: &[Finding] = cycle.findings();
    let initial = cycle.initial().by_dimension.get(&dimension).copied();
    let current = cycle.current().by_dimension.get(&dimension).copied();
    let (initial, current) = (initial.unwrap_or_default(), current.unwrap_or_default());
    let _ = writeln!(md, "# {dimension} analysis — review {}\n", header.review_id);
    let _ = writeln!(
        md,
        "Scope: {}. The Auditor's verdict: {} (the review cycle's re-assessed severities do not change it; they feed `retake fix`).\n",
        header.scope, header.verdict
    );
    let _ = writeln!(md, "- Findings before the deep-dive: {}", line(&initial));
    let _ = writeln!(md, "- Findings after the deep-dive: {}", line(&current));
    let critical: Vec<_> = cycle
        .current()
        .critical_files
        .iter()
        .filter(|c| c.dimensions.contains(&dimension))
        .collect();
    let _ = writeln!(md, "\n## Critical files\n");
    if critical.is_empty() {
        let _ = writeln!(md, "None in this dimension.");
    }
    for c in critical {
        let dims: Vec<&str> = c.dimensions.iter().map(|d| d.as_str()).collect();
        let _ = writeln!(
            md,
            "- `{}` — {} dimensions ({}), {} finding(s)",
            c.path,
            c.dimensions.len(),
            dims.join(", "),
            c.findings
        );
    }
    let _ = writeln!(md, "\n## Findings\n");
    let indices = dimension_findings(cycle, dimension);
    if indices.is_empty() {
        let _ = writeln!(md, "No finding in this dimension.");
    } else {
        let _ = writeln!(md, "| Severity | Was | Rule | Location | Description |");
        let _ = writeln!(md, "|---|---|---|---|---|");
    }
    for i in &indices {
        let f = &findings[*i];
        let was: Severity = cycle.initial_severities()[*i];
        let was = if was == f.severity {
            String::new()
        } else {
            was.word().to_string()
        };
        let _ = writeln!(
            md,
            "| {} | {} | `{}` | `{}` | {} |",
            f.severity.word(),
            was,
            f.rule,
            f.location,
            cell(&f.description)
        );
    }
    let changes: Vec<_> = cycle
        .changes()
        .filter(|c| {
            indices
                .iter()
                .any(|i| findings[*i].fingerprint == c.fingerprint)
        })
        .collect();
    let _ = writeln!(md, "\n## Deep-dive\n");
    let _ = writeln!(
        md,
        "{} iteration(s) of at most {}.",
        cycle.iterations().len(),
        cycle.max_iterations()
    );
    for c in changes {
        let _ = writeln!(
            md,
            "- iteration {}: `{}` `{}` {} → {}: {}",
            c.iteration,
            c.location,
            c.rule,
            c.from.word(),
            c.to.word(),
            c.reason
        );
    }
    md
}
