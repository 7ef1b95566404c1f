//! Reading earlier batches back: their numbers, the previous batch's Tracked issues, and every
//! issue ever listed as resolved. Fenced blocks (the Raw verdicts) are skipped, so a verdict's
//! note that happens to read like a heading never counts.
//!
//! Issues are matched across batches by a line-free identity, never by their location text, so
//! code moved by an edit above a finding is neither "resolved" nor a REGRESSION: two issues are
//! the same problem when they carry the same fingerprint ([`protocol::Finding::fingerprint`]:
//! rule, path, the rule's snippet or symbol); when either has none — a row written before
//! fingerprints were recorded, or a verdict known only as CPF (`retake consensus`) — when they
//! have the same [`protocol::cpf_fingerprint`] (category, path, description).

use auditor::consensus::consensus_key;
use protocol::{cpf_fingerprint, Location, Severity};
use std::collections::HashSet;

/// One issue line of a `Tracked` or `Resolved since` section:
/// `- {sev}|{category}|{location}|{description}|{fingerprint}`, with `\` and `|` escaped in every
/// field; the fingerprint is left out when unknown (and in rows written before it was recorded).
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
    /// The finding's fingerprint, when known.
    pub fingerprint: Option<String>,
}

impl Issue {
    /// The consensus key, `{category}|{location}`.
    pub fn key(&self) -> String {
        consensus_key(&self.category, &self.location)
    }

    /// The list item line (without its newline).
    pub fn line(&self) -> String {
        let fingerprint = self
            .fingerprint
            .as_ref()
            .map(|f| format!("|{}", escape(f)))
            .unwrap_or_default();
        format!(
            "- {}|{}|{}|{}{fingerprint}",
            self.severity,
            escape(&self.category),
            escape(&self.location),
            escape(&self.description)
        )
    }

    /// Reads a list item line back; `None` for anything else. A fifth field that is not a
    /// fingerprint (an unescaped pipe in a hand-written description) stays in the description.
    pub fn parse(line: &str) -> Option<Issue> {
        let mut fields = split(line.trim().strip_prefix("- ")?);
        let mut fingerprint = None;
        if let Some(fifth) = fields.get(4..).and_then(<[String]>::first).cloned() {
            fields.truncate(4);
            if is_fingerprint(&fifth) {
                fingerprint = Some(fifth);
            } else if let Some(description) = fields.last_mut() {
                description.push('|');
                description.push_str(&fifth);
            }
        }
        let [sev, category, location, description] = <[String; 4]>::try_from(fields).ok()?;
        Some(Issue {
            severity: sev.parse().ok()?,
            category,
            location,
            description,
            fingerprint,
        })
    }

    /// The identity used when a fingerprint is missing on either side: category, path and
    /// description, never the line.
    fn cpf_identity(&self) -> String {
        cpf_fingerprint(
            &self.category,
            &Location::parse(&self.location),
            &self.description,
        )
    }
}

/// A fingerprint as [`protocol::fingerprint`] writes it: 16 lowercase hex digits.
fn is_fingerprint(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A set of issues, indexed to answer "is this the same problem as one of them?" in constant
/// time (a large review tracks thousands).
pub(super) struct Problems {
    fingerprints: HashSet<String>,
    identities: HashSet<String>,
    identities_without_fingerprint: HashSet<String>,
}

impl Problems {
    /// Indexes `issues`.
    pub(super) fn new<'a>(issues: impl IntoIterator<Item = &'a Issue>) -> Problems {
        let mut set = Problems {
            fingerprints: HashSet::new(),
            identities: HashSet::new(),
            identities_without_fingerprint: HashSet::new(),
        };
        for issue in issues {
            let identity = issue.cpf_identity();
            match &issue.fingerprint {
                Some(f) => {
                    set.fingerprints.insert(f.clone());
                }
                None => {
                    set.identities_without_fingerprint.insert(identity.clone());
                }
            }
            set.identities.insert(identity);
        }
        set
    }

    /// Whether `issue` is the same problem as one of the set (see the module documentation).
    pub(super) fn contains(&self, issue: &Issue) -> bool {
        let identity = issue.cpf_identity();
        match &issue.fingerprint {
            Some(f) => {
                self.fingerprints.contains(f)
                    || self.identities_without_fingerprint.contains(&identity)
            }
            None => self.identities.contains(&identity),
        }
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

/// The keys of the `current` issues that are the same problem as one an earlier batch listed as
/// resolved (`Resolved since B…`): resolved issues that came back, in the order given, each once.
pub fn regressions(previous_text: &str, current: &[Issue]) -> Vec<String> {
    let resolved: Vec<Issue> = batches(previous_text)
        .iter()
        .flat_map(|b| b.sections.iter())
        .filter(|(heading, _)| heading.starts_with("Resolved since B"))
        .flat_map(|(_, lines)| lines.iter().filter_map(|l| Issue::parse(l)))
        .collect();
    let resolved = Problems::new(&resolved);
    let mut back: Vec<String> = Vec::new();
    for issue in current {
        let key = issue.key();
        if resolved.contains(issue) && !back.contains(&key) {
            back.push(key);
        }
    }
    back
}

/// A batch as read back: its number and its `###` sections with their lines outside fences.
/// One batch's text outside its fenced blocks: its number, the rest of its heading, the lines
/// before its first section, and each `### ` section's lines.
pub(super) struct BatchText {
    pub(super) seq: u32,
    pub(super) heading: String,
    pub(super) preamble: Vec<String>,
    pub(super) sections: Vec<(String, Vec<String>)>,
}

pub(super) fn batches(text: &str) -> Vec<BatchText> {
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
            if let Some((seq, heading)) = rest
                .split_once(']')
                .and_then(|(n, h)| Some((n.parse().ok()?, h)))
            {
                out.push(BatchText {
                    seq,
                    heading: heading.trim().to_string(),
                    preamble: Vec::new(),
                    sections: Vec::new(),
                });
            }
        } else if let Some(heading) = line.strip_prefix("### ") {
            if let Some(batch) = out.last_mut() {
                batch
                    .sections
                    .push((heading.trim().to_string(), Vec::new()));
            }
        } else if let Some(batch) = out.last_mut() {
            match batch.sections.last_mut() {
                Some((_, lines)) => lines.push(line.to_string()),
                None => batch.preamble.push(line.to_string()),
            }
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// Splits on unescaped pipes into at most five fields, undoing the escapes; a fifth field keeps
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
            '|' if fields.len() < 5 => fields.push(String::new()),
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
            fingerprint: None,
        }
    }

    fn with_fingerprint(issue: Issue, fingerprint: &str) -> Issue {
        Issue {
            fingerprint: Some(fingerprint.into()),
            ..issue
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
        let fp = with_fingerprint(i.clone(), "0123456789abcdef");
        assert_eq!(
            fp.line(),
            "- M|odd\\|cat|C:\\\\x.rs:3|a \\| b \\\\ c|0123456789abcdef"
        );
        assert_eq!(Issue::parse(&fp.line()), Some(fp));
        // A raw pipe in a hand-written description is not a fingerprint.
        assert_eq!(
            Issue::parse("- M|c|x.rs:1|a|b"),
            Some(issue("c", "x.rs:1", "a|b"))
        );
    }

    #[test]
    fn the_same_problem_is_found_on_another_line_by_fingerprint_or_by_its_text() {
        let moved = with_fingerprint(issue("c", "x.rs:9", "renamed text"), "00000000000000aa");
        let old = with_fingerprint(issue("c", "x.rs:6", "text"), "00000000000000aa");
        assert!(Problems::new([&old]).contains(&moved), "same fingerprint");
        let other = with_fingerprint(issue("c", "x.rs:6", "text"), "00000000000000bb");
        assert!(
            !Problems::new([&other]).contains(&with_fingerprint(
                issue("c", "x.rs:6", "text"),
                "00000000000000aa"
            )),
            "two fingerprints: two problems, even with the same text and line"
        );
        let legacy = issue("c", "x.rs:6", "text  ");
        assert!(
            Problems::new([&legacy]).contains(&old),
            "a row without one: by its text"
        );
        assert!(Problems::new([&old]).contains(&legacy));
        assert!(!Problems::new([&legacy]).contains(&issue("c", "y.rs:6", "text")));
        assert!(!Problems::new([&legacy]).contains(&issue("d", "x.rs:6", "text")));
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
            issue("b", "y.rs:2", "d"),
            issue("a", "x.rs:4", "d"),
            issue("a", "x.rs:4", "d"),
        ];
        assert_eq!(regressions(text, &now), vec!["a|x.rs:4".to_string()]);
        assert_eq!(regressions("", &now), Vec::<String>::new());
        assert_eq!(previous_tracked("# Verdicts: x\n"), None);
    }
}
