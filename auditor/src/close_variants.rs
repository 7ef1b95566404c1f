//! Step 5 of the audit, second half: close variants. After dedup, two findings of one category in
//! one file at most [`CLOSE_LINES`] lines apart, reported by different agents, are one problem
//! two Inspectors located slightly differently (one points at the call, the other at the `match`
//! around it), and merge the way dedup merges.
//!
//! Findings of the *same* agent never merge here: one Inspector reporting two nearby lines meant
//! two problems. Findings without a line (file-level or anchored) are left to dedup.

use crate::dedup::{absorb, sort_by_severity};
use crate::place::normalise_path;
use protocol::{Confidence, Finding};

/// How many lines apart two findings may be and still be close variants.
pub const CLOSE_LINES: u32 = 2;

/// Merges close variants into the earlier finding of each pair; most severe first.
pub fn merge_close_variants(findings: Vec<Finding>) -> Vec<Finding> {
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    for f in findings {
        match kept.iter().position(|k| close(k, &f)) {
            Some(i) => {
                let mut merged = absorb(kept.remove(i), f);
                if merged.agents.len() >= 2 {
                    merged.confidence = Confidence::High;
                }
                kept.insert(i, merged);
            }
            None => kept.push(f),
        }
    }
    sort_by_severity(&mut kept);
    kept
}

fn close(a: &Finding, b: &Finding) -> bool {
    let (Some(la), Some(lb)) = (a.location.line, b.location.line) else {
        return false;
    };
    a.category == b.category
        && la.abs_diff(lb) <= CLOSE_LINES
        && normalise_path(&a.location.path) == normalise_path(&b.location.path)
        && !a.agents.iter().any(|x| b.agents.contains(x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;
    use protocol::Severity;

    #[test]
    fn two_agents_two_lines_apart_merge_into_the_first() {
        let a = finding(
            "quality",
            "error-handling-drift",
            Severity::Medium,
            "src/a.rs",
            10,
        );
        let b = finding(
            "holistic",
            "error-handling-drift",
            Severity::High,
            "src/a.rs",
            12,
        );
        let out = merge_close_variants(vec![a, b]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].agents, vec!["quality", "holistic"]);
        assert_eq!(out[0].severity, Severity::High);
        assert_eq!(out[0].location.line, Some(10));
        assert_eq!(out[0].confidence, Confidence::High);
    }

    #[test]
    fn same_agent_far_lines_other_category_or_file_stay_apart() {
        let a = finding("quality", "todo", Severity::Low, "src/a.rs", 10);
        let same_agent = finding("quality", "todo", Severity::Low, "src/a.rs", 11);
        let far = finding("holistic", "todo", Severity::Low, "src/a.rs", 14);
        let other_category = finding("holistic", "dead-code", Severity::Low, "src/a.rs", 10);
        let other_file = finding("holistic", "todo", Severity::Low, "src/b.rs", 10);
        let out = merge_close_variants(vec![a, same_agent, far, other_category, other_file]);
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn file_level_findings_are_left_to_dedup() {
        let mut a = finding("quality", "file-missing", Severity::High, "src/a.rs", 1);
        let mut b = finding("rulebase", "file-missing", Severity::High, "src/a.rs", 1);
        a.location.line = None;
        b.location.line = None;
        assert_eq!(merge_close_variants(vec![a, b]).len(), 2);
    }
}
