//! Reading earlier batches back: their numbers, the previous batch's Tracked issues, and every
//! issue ever listed as resolved. Fenced blocks (the Raw verdicts) are skipped, so a verdict's
//! note that happens to read like a heading never counts.

use auditor::consensus::consensus_key;
use protocol::Severity;

/// One issue line of a `Tracked` or `Resolved since` section: `- {sev}|{category}|{location}|{description}`,
/// with `\` and `|` escaped in every field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Its severity.
    pub severity: Severity,
    /// Its category.
    pub category: String,
    /// Its location text.
    pub location: String,
    /// What is wrong.
    pub description: String,
}

impl Issue {
    /// The consensus key, `{category}|{location}`.
    pub fn key(&self) -> String {
        consensus_key(&self.category, &self.location)
    }

    /// The list item line (without its newline).
    pub fn line(&self) -> String {
        format!(
            "- {}|{}|{}|{}",
            self.severity,
            escape(&self.category),
            escape(&self.location),
            escape(&self.description)
        )
    }

    /// Reads a list item line back; `None` for anything else.
    pub fn parse(line: &str) -> Option<Issue> {
        let fields = split(line.trim().strip_prefix("- ")?);
        let [sev, category, location, description] = <[String; 4]>::try_from(fields).ok()?;
        Some(Issue {
            severity: sev.parse().ok()?,
            category,
            location,
            description,
        })
    }
}

/// The highest batch number in `text`.
pub fn last_seq(text: &str) -> u32 {
    batches(text).iter().map(|b| b.seq).max().unwrap_or(0)
}

/// The last batch's number and its Tracked issues; `None` when there is no batch yet.
pub fn previous_tracked(text: &str) -> Option<(u32, Vec<Issue>)> {
    let last = batches(text).pop()?;
    let issues = last
        .sections
        .iter()
        .filter(|(heading, _)| heading == "Tracked")
        .flat_map(|(_, lines)| lines.iter().filter_map(|l| Issue::parse(l)))
        .collect();
    Some((last.seq, issues))
}

/// The keys of `current_keys` that an earlier batch listed as resolved (`Resolved since B…`):
/// resolved issues that came back, in the order given, each once.
pub fn regressions(previous_text: &str, current_keys: &[String]) -> Vec<String> {
    let resolved: Vec<String> = batches(previous_text)
        .iter()
        .flat_map(|b| b.sections.iter())
        .filter(|(heading, _)| heading.starts_with("Resolved since B"))
        .flat_map(|(_, lines)| lines.iter().filter_map(|l| Issue::parse(l)))
        .map(|i| i.key())
        .collect();
    let mut back: Vec<String> = Vec::new();
    for key in current_keys {
        if resolved.contains(key) && !back.contains(key) {
            back.push(key.clone());
        }
    }
    back
}

/// A batch as read back: its number and its `###` sections with their lines outside fences.
struct BatchText {
    seq: u32,
    sections: Vec<(String, Vec<String>)>,
}

fn batches(text: &str) -> Vec<BatchText> {
    let mut out: Vec<BatchText> = Vec::new();
    let mut fence: Option<usize> = None;
    for line in text.lines() {
        let ticks = line.trim_start().chars().take_while(|c| *c == '`').count();
        match fence {
            Some(open) => {
                if ticks >= open && line.trim().chars().all(|c| c == '`') {
                    fence = None;
                }
                continue;
            }
            None if ticks >= 3 => {
                fence = Some(ticks);
                continue;
            }
            None => {}
        }
        if let Some(rest) = line.strip_prefix("## [B") {
            if let Some(seq) = rest.split(']').next().and_then(|n| n.parse().ok()) {
                out.push(BatchText {
                    seq,
                    sections: Vec::new(),
                });
            }
        } else if let Some(heading) = line.strip_prefix("### ") {
            if let Some(batch) = out.last_mut() {
                batch
                    .sections
                    .push((heading.trim().to_string(), Vec::new()));
            }
        } else if let Some((_, lines)) = out.last_mut().and_then(|b| b.sections.last_mut()) {
            lines.push(line.to_string());
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// Splits on unescaped pipes into at most four fields, undoing the escapes; a fourth field keeps
/// any further pipe as text.
fn split(text: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next @ ('\\' | '|')) => push(&mut fields, next),
                Some(other) => {
                    push(&mut fields, '\\');
                    push(&mut fields, other);
                }
                None => push(&mut fields, '\\'),
            },
            '|' if fields.len() < 4 => fields.push(String::new()),
            other => push(&mut fields, other),
        }
    }
    fields
}

fn push(fields: &mut [String], c: char) {
    if let Some(last) = fields.last_mut() {
        last.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(category: &str, location: &str, description: &str) -> Issue {
        Issue {
            severity: Severity::Medium,
            category: category.into(),
            location: location.into(),
            description: description.into(),
        }
    }

    #[test]
    fn an_issue_line_round_trips_with_pipes_and_backslashes() {
        let i = issue("odd|cat", "C:\\x.rs:3", "a | b \\ c");
        assert_eq!(i.line(), "- M|odd\\|cat|C:\\\\x.rs:3|a \\| b \\\\ c");
        assert_eq!(Issue::parse(&i.line()), Some(i.clone()));
        assert_eq!(i.key(), "odd|cat|C:\\x.rs:3");
        assert_eq!(Issue::parse("- M|a|b"), None);
        assert_eq!(Issue::parse("plain text"), None);
    }

    #[test]
    fn fenced_text_never_counts_as_a_batch_or_a_section() {
        let text = "# Verdicts: x\n\n## [B1] impl | t | v1 | runs:1 | threshold:1/1\n\n### Raw\n\n\
                    ````\n```\n## [B9] fake\n### Tracked\n- M|fake|f.rs:1|x\n```\n````\n\n\
                    ### Tracked\n\n- M|real|r.rs:2|y\n";
        assert_eq!(last_seq(text), 1);
        let (seq, tracked) = previous_tracked(text).expect("a batch");
        assert_eq!(seq, 1);
        assert_eq!(tracked, vec![issue("real", "r.rs:2", "y")]);
    }

    #[test]
    fn only_keys_listed_as_resolved_earlier_are_regressions() {
        let text = "## [B1] impl\n\n### Tracked\n\n- M|a|x.rs:1|d\n- L|b|y.rs:2|d\n\n\
                    ## [B2] impl\n\n### Tracked\n\n- L|b|y.rs:2|d\n\n### Resolved since B1\n\n- M|a|x.rs:1|d\n";
        let now = vec![
            "b|y.rs:2".to_string(),
            "a|x.rs:1".to_string(),
            "a|x.rs:1".to_string(),
        ];
        assert_eq!(regressions(text, &now), vec!["a|x.rs:1".to_string()]);
        assert_eq!(regressions("", &now), Vec::<String>::new());
        assert_eq!(previous_tracked("# Verdicts: x\n"), None);
    }
}
