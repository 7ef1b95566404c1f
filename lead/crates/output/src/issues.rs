//! The issues list of the human reports (terminal and Markdown): the active findings in one
//! order, and a rule that fires more than [`GROUP_SHOWN`] times as one entry (its count and its
//! first locations). One report had 488 rows of one rule; nobody reads past the fortieth. The
//! machine-readable formats (JSON, SARIF, rdjson, JUnit, GitLab) keep every finding.

use super::Summary;
use protocol::Finding;
use std::cmp::Reverse;
use std::collections::BTreeMap;

/// How many locations a grouped rule lists; a rule with more findings than this is grouped.
pub const GROUP_SHOWN: usize = 5;

/// One entry of the issues list.
#[derive(Debug)]
pub enum Entry<'a> {
    /// A finding shown on its own.
    One(&'a Finding),
    /// Every finding of one rule that fired more than [`GROUP_SHOWN`] times, in report order.
    Group(Vec<&'a Finding>),
}

impl<'a> Entry<'a> {
    /// The entry's first (most severe, most certain) finding.
    pub fn first(&self) -> &'a Finding {
        match self {
            Entry::One(f) => f,
            Entry::Group(all) => all[0],
        }
    }
}

/// The active findings most important first: severity, then confidence, then how many agents
/// report it (agreement), then path and line so that equal findings keep a stable order.
pub fn ordered<'a>(s: &Summary<'a>) -> Vec<&'a Finding> {
    let mut findings: Vec<&Finding> = s.active().collect();
    sort_for_reading(&mut findings);
    findings
}

/// Sorts findings most important first, the order of [`ordered`].
pub fn sort_for_reading<'a>(findings: &mut [&'a Finding]) {
    findings.sort_by(|a, b| {
        let key = |f: &&'a Finding| {
            (
                Reverse(f.severity),
                Reverse(f.confidence),
                Reverse(f.agents.len()),
            )
        };
        key(a)
            .cmp(&key(b))
            .then_with(|| a.location.path.cmp(&b.location.path))
            .then_with(|| a.location.line.cmp(&b.location.line))
    });
}

/// The issues list: [`ordered`] findings, a rule with more than [`GROUP_SHOWN`] of them as one
/// group where its first finding stands.
pub fn entries<'a>(s: &Summary<'a>) -> Vec<Entry<'a>> {
    let findings = ordered(s);
    let mut by_rule: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    for f in &findings {
        by_rule.entry(f.rule.as_str()).or_default().push(f);
    }
    let mut entries = Vec::new();
    for f in findings {
        match by_rule.get_mut(f.rule.as_str()) {
            Some(all) if all.len() > GROUP_SHOWN => {
                entries.push(Entry::Group(std::mem::take(all)));
            }
            // Taken: the group already stands at its first finding.
            Some(all) if all.is_empty() => {}
            _ => entries.push(Entry::One(f)),
        }
    }
    entries
}

/// The line after a group's listed locations: `… and 3 more (--format json lists every finding)`.
pub fn more_line(total: usize) -> Option<String> {
    (total > GROUP_SHOWN).then(|| {
        format!(
            "… and {} more (--format json lists every finding)",
            total - GROUP_SHOWN
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::{Confidence, Severity, Verdict};

    #[test]
    fn findings_sort_by_severity_confidence_agreement_then_place() {
        let mut sure = finding(Severity::Medium, "src/z.rs", 1);
        sure.confidence = Confidence::High;
        let mut agreed = finding(Severity::Medium, "src/y.rs", 1);
        agreed.agents.push("inspector-holistic".into());
        let o = outcome(
            Verdict::Go,
            vec![
                finding(Severity::Medium, "src/b.rs", 9),
                finding(Severity::Medium, "src/b.rs", 2),
                agreed,
                finding(Severity::High, "src/x.rs", 5),
                sure,
            ],
        );
        summary_of(&o, |s| {
            let places: Vec<String> = ordered(s).iter().map(|f| f.location.to_string()).collect();
            assert_eq!(
                places,
                [
                    "src/x.rs:5",
                    "src/z.rs:1",
                    "src/y.rs:1",
                    "src/b.rs:2",
                    "src/b.rs:9"
                ]
            );
        });
    }

    #[test]
    fn a_rule_with_six_findings_is_one_group_at_its_first_finding() {
        let mut findings: Vec<Finding> = (1..=6)
            .map(|i| finding(Severity::Low, &format!("src/m{i}.rs"), i))
            .collect();
        let mut other = finding(Severity::High, "src/h.rs", 1);
        other.rule = "holistic/unwrap".into();
        findings.push(other);
        let mut five: Vec<Finding> = (1..=5)
            .map(|i| finding(Severity::Low, &format!("src/n{i}.rs"), i))
            .collect();
        for f in &mut five {
            f.rule = "quality/dead-code".into();
        }
        findings.extend(five);
        let o = outcome(Verdict::Go, findings);
        summary_of(&o, |s| {
            let entries = entries(s);
            assert_eq!(
                entries.len(),
                7,
                "1 High, 1 group of 6, 5 of a rule that fired 5 times"
            );
            assert!(matches!(entries[0], Entry::One(f) if f.rule == "holistic/unwrap"));
            let Entry::Group(group) = &entries[1] else {
                panic!("the todo-marker group: {entries:?}")
            };
            assert_eq!(group.len(), 6);
            assert_eq!(group[0].location.to_string(), "src/m1.rs:1");
            assert!(entries[2..]
                .iter()
                .all(|e| matches!(e, Entry::One(f) if f.rule == "quality/dead-code")));
        });
        assert_eq!(
            more_line(6).as_deref(),
            Some("… and 1 more (--format json lists every finding)")
        );
        assert_eq!(more_line(5), None);
    }
}
