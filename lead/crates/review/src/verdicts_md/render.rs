//! One batch as Markdown: header, verdict line, Raw, Consensus, Noise, Disposition, Tracked and
//! `Resolved since B{prev}`.

use super::history::Issue;
use auditor::consensus::{Consensus, ConsensusRow};
use protocol::Disposition;
use std::collections::HashMap;

/// What a rendered batch holds beyond the caller's [`super::Batch`].
pub(super) struct Rendered<'a> {
    pub(super) seq: u32,
    pub(super) timestamp: &'a str,
    pub(super) version: &'a str,
    pub(super) raw: &'a [Option<String>],
    pub(super) consensus: &'a Consensus,
    /// Each consensus key's finding fingerprint, where known.
    pub(super) fingerprints: &'a HashMap<String, String>,
    pub(super) disposition: Disposition,
    /// The previous batch's number and its Tracked issues no longer present.
    pub(super) resolved: Option<(u32, Vec<Issue>)>,
}

pub(super) fn render(b: &Rendered<'_>) -> String {
    let c = b.consensus;
    let n = c.runs;
    let mut out = format!(
        "\n## [B{}] impl | {} | v{} | runs:{n} | threshold:{}/{n}\n\n",
        b.seq, b.timestamp, b.version, c.threshold
    );
    let partial = if c.partial { ", partial" } else { "" };
    out.push_str(&format!(
        "Verdict: {} (answered {}/{n}{partial})\n\n### Raw\n",
        c.verdict, c.answered
    ));
    for (i, text) in b.raw.iter().enumerate() {
        out.push_str(&format!("\n#### V{}\n\n", i + 1));
        match text {
            Some(text) => {
                let fence = fence_for(text);
                out.push_str(&format!("{fence}\n{}\n{fence}\n", text.trim_end()));
            }
            None => out.push_str("(no verdict: the pipeline failed)\n"),
        }
    }
    out.push_str("\n### Consensus\n\n");
    out.push_str(&table(&c.consensus));
    out.push_str("\n### Noise\n\n");
    out.push_str(&table(&c.noise));
    out.push_str(&format!(
        "\n### Disposition\n\n{}\n",
        b.disposition.as_str()
    ));
    let tracked = c.tracked();
    if !tracked.is_empty() {
        out.push_str("\n### Tracked\n\n");
        for row in tracked {
            out.push_str(&issue(row, b.fingerprints).line());
            out.push('\n');
        }
    }
    if let Some((prev, resolved)) = &b.resolved {
        out.push_str(&format!("\n### Resolved since B{prev}\n\n"));
        for i in resolved {
            out.push_str(&i.line());
            out.push('\n');
        }
    }
    out
}

/// A Consensus row as a Tracked issue, with its finding's fingerprint when known.
pub(super) fn issue(row: &ConsensusRow, fingerprints: &HashMap<String, String>) -> Issue {
    Issue {
        severity: row.severity,
        category: row.category.clone(),
        location: row.location.clone(),
        description: row.description.clone(),
        fingerprint: fingerprints.get(&row.key).cloned(),
    }
}

fn table(rows: &[ConsensusRow]) -> String {
    if rows.is_empty() {
        return "(none)\n".to_string();
    }
    let mut out = String::from(
        "| sev | category | location | freq | agents | description |\n|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let sev = if r.regression {
            format!("{} REGRESSION (was {})", r.severity, r.reported)
        } else {
            r.severity.to_string()
        };
        out.push_str(&format!(
            "| {sev} | {} | {} | {} | {} | {} |\n",
            cell(&r.category),
            cell(&r.location),
            r.freq,
            cell(&r.agents.join("+")),
            cell(&r.description)
        ));
    }
    out
}

/// A code fence longer than any backtick run in `text`, so a verdict that is itself fenced
/// (```` ```cpf ````) cannot close the block early.
fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// Keeps a table cell on one line and its pipes from splitting the row.
fn cell(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fenced_verdict_gets_a_longer_fence() {
        assert_eq!(fence_for("VERDICT:GO"), "```");
        assert_eq!(fence_for("```cpf\nVERDICT:GO\n```"), "````");
        assert_eq!(cell("a|b\nc\\d"), "a\\|b c\\\\d");
    }
}
