//! `verdicts.md` read back whole, batch by batch, for the people who look at its history (the
//! dashboard): each batch's number, time, verdict, Consensus rows (a REGRESSION marked with the
//! severity it was reported at), disposition, Tracked issues and what it resolved. Fenced blocks
//! (the Raw verdicts) are skipped, as every reading of the file does.

use super::history::{batches, Issue};
use protocol::Severity;
use std::str::FromStr;

/// One batch of `verdicts.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchSummary {
    /// Its number (`[B3]` → 3).
    pub seq: u32,
    /// When it was appended, as written.
    pub timestamp: String,
    /// Its verdict, as written (`NO-GO`).
    pub verdict: String,
    /// Its Consensus rows.
    pub consensus: Vec<ConsensusLine>,
    /// Its disposition, as written.
    pub disposition: Option<String>,
    /// The issues it tracks.
    pub tracked: Vec<Issue>,
    /// The batch it compared with and the issues resolved since.
    pub resolved: Option<(u32, Vec<Issue>)>,
}

/// One row of a batch's Consensus table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsensusLine {
    /// The severity it counts at.
    pub severity: Severity,
    /// For a REGRESSION, the severity it was reported at (one level lower).
    pub regression_of: Option<Severity>,
    /// Its category.
    pub category: String,
    /// Its location.
    pub location: String,
    /// How many pipelines reported it, as written.
    pub freq: String,
    /// Who reported it.
    pub agents: String,
    /// What is wrong.
    pub description: String,
}

/// Every batch of `text`, in file order.
pub fn summaries(text: &str) -> Vec<BatchSummary> {
    batches(text)
        .into_iter()
        .map(|b| {
            let section = |name: &'static str| {
                b.sections
                    .iter()
                    .filter(move |(heading, _)| heading == name)
                    .flat_map(|(_, lines)| lines.iter())
            };
            let resolved = b.sections.iter().find_map(|(heading, lines)| {
                let prev = heading.strip_prefix("Resolved since B")?.parse().ok()?;
                Some((prev, lines.iter().filter_map(|l| Issue::parse(l)).collect()))
            });
            BatchSummary {
                seq: b.seq,
                timestamp: b
                    .heading
                    .split(" | ")
                    .nth(1)
                    .unwrap_or_default()
                    .to_string(),
                verdict: b
                    .preamble
                    .iter()
                    .find_map(|l| l.strip_prefix("Verdict: "))
                    .and_then(|v| v.split_whitespace().next())
                    .unwrap_or_default()
                    .to_string(),
                consensus: section("Consensus").filter_map(|l| row(l)).collect(),
                disposition: section("Disposition")
                    .map(|l| l.trim())
                    .find(|l| !l.is_empty())
                    .map(str::to_string),
                tracked: section("Tracked").filter_map(|l| Issue::parse(l)).collect(),
                resolved,
            }
        })
        .collect()
}

/// A Consensus table row: `| sev | category | location | freq | agents | description |`, the
/// severity cell `H REGRESSION (was M)` for a regression; `None` for the header, the rule line
/// and anything else.
fn row(line: &str) -> Option<ConsensusLine> {
    let cells = cells(line.trim().strip_prefix('|')?.strip_suffix('|')?);
    let [sev, category, location, freq, agents, description] = cells.as_slice() else {
        return None;
    };
    let mut words = sev.split_whitespace();
    let severity = Severity::from_str(words.next()?).ok()?;
    let regression_of = match (words.next(), words.next(), words.next()) {
        (Some("REGRESSION"), Some("(was"), Some(was)) => {
            Some(Severity::from_str(was.trim_end_matches(')')).ok()?)
        }
        _ => None,
    };
    Some(ConsensusLine {
        severity,
        regression_of,
        category: category.clone(),
        location: location.clone(),
        freq: freq.clone(),
        agents: agents.clone(),
        description: description.clone(),
    })
}

/// The cells of a table row between its outer pipes, split on unescaped pipes, escapes undone
/// and each cell trimmed.
fn cells(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let (Some(next), Some(cell)) = (chars.next(), out.last_mut()) {
                    cell.push(next);
                }
            }
            '|' => out.push(String::new()),
            other => {
                if let Some(cell) = out.last_mut() {
                    cell.push(other);
                }
            }
        }
    }
    out.iter().map(|c| c.trim().to_string()).collect()
}

#[cfg(test)]
mod tests;
