//! Step 5 of the audit, second half: close variants. After dedup, two findings of one category in
//! one file at most [`CLOSE_LINES`] lines apart, reported by different agents, are one problem
//! two Inspectors located slightly differently (one points at the call, the other at the `match`
//! around it), and merge the way dedup merges.
//!
//! Findings of the *same* agent never merge here: one Inspector reporting two nearby lines meant
//! two problems. Findings without a line (file-level or anchored) are left to dedup.

use crate::budget::{Budget, Ticker};
use crate::dedup::{absorb, sort_by_severity};
use crate::place::normalise_path;
use protocol::{Confidence, Finding};
use std::collections::HashMap;

/// How many lines apart two findings may be and still be close variants.
pub const CLOSE_LINES: u32 = 2;

/// Merges close variants into the earlier finding of each pair; most severe first.
///
/// Each finding merges into the first kept finding (in arrival order) that is close to it. The
/// kept findings are indexed by category, normalised path and line, so a finding looks only at
/// the `2 × CLOSE_LINES + 1` lines around its own: O(n) lookups instead of a scan of everything
/// kept (100k findings took seconds here). A merge keeps the earlier finding's place, so the
/// index never moves; its agents grow, which the lookup reads from the kept finding itself.
pub fn merge_close_variants(findings: Vec<Finding>) -> Vec<Finding> {
    merge_close_variants_within(findings, &mut Ticker::new(&Budget::Unlimited)).0
}

/// As [`merge_close_variants`]; when the budget runs out part-way, the findings not yet looked
/// at are kept as they are (every merge made so far is a real one, and nothing is lost) and the
/// second value is `true`.
pub(crate) fn merge_close_variants_within(
    findings: Vec<Finding>,
    ticker: &mut Ticker<'_, '_>,
) -> (Vec<Finding>, bool) {
    let mut cut = false;
    // `None` only for the moment a merge holds the kept finding.
    let mut kept: Vec<Option<Finding>> = Vec::with_capacity(findings.len());
    // (category, normalised path) → line → indices into `kept`, ascending.
    let mut index: HashMap<(String, String), HashMap<u32, Vec<usize>>> = HashMap::new();
    for f in findings {
        if cut || ticker.spent() {
            cut = true;
            kept.push(Some(f));
            continue;
        }
        let Some(line) = f.location.line else {
            // Findings without a line are left to dedup.
            kept.push(Some(f));
            continue;
        };
        let key = (f.category.clone(), normalise_path(&f.location.path));
        let lines = index.entry(key).or_default();
        let first_close = (line.saturating_sub(CLOSE_LINES)..=line.saturating_add(CLOSE_LINES))
            .filter_map(|l| lines.get(&l))
            .filter_map(|at| {
                at.iter().copied().find(|&i| {
                    kept[i]
                        .as_ref()
                        .is_some_and(|k| !k.agents.iter().any(|x| f.agents.contains(x)))
                })
            })
            .min();
        match first_close {
            Some(i) => {
                if let Some(earlier) = kept[i].take() {
                    let mut merged = absorb(earlier, f);
                    if merged.agents.len() >= 2 {
                        merged.confidence = Confidence::High;
                    }
                    kept[i] = Some(merged);
                }
            }
            None => {
                lines.entry(line).or_default().push(kept.len());
                kept.push(Some(f));
            }
        }
    }
    let mut kept: Vec<Finding> = kept.into_iter().flatten().collect();
    sort_by_severity(&mut kept);
    (kept, cut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;
    use protocol::Severity;

    /// The first version: a scan of everything kept for each finding. Quadratic, but obviously
    /// what the module doc says; the indexed version must agree with it.
    fn reference(findings: Vec<Finding>) -> Vec<Finding> {
        fn close(a: &Finding, b: &Finding) -> bool {
            let (Some(la), Some(lb)) = (a.location.line, b.location.line) else {
                return false;
            };
            a.category == b.category
                && la.abs_diff(lb) <= CLOSE_LINES
                && normalise_path(&a.location.path) == normalise_path(&b.location.path)
                && !a.agents.iter().any(|x| b.agents.contains(x))
        }
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

    #[test]
    fn the_index_agrees_with_the_scan_on_random_inputs() {
        // xorshift: deterministic, so a failure replays.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let agents = ["quality", "holistic", "test", "interface"];
        let categories = ["todo", "dead-code"];
        let paths = ["src/a.rs", "./src/a.rs", "src\\a.rs", "src/b.rs"];
        let severities = [Severity::Low, Severity::Medium, Severity::High];
        for round in 0..300 {
            let n = 1 + next(40) as usize;
            let findings: Vec<Finding> = (0..n)
                .map(|_| {
                    let mut f = finding(
                        agents[next(4) as usize],
                        categories[next(2) as usize],
                        severities[next(3) as usize],
                        paths[next(4) as usize],
                        1 + next(12) as u32,
                    );
                    if next(4) == 0 {
                        f.agents.push(agents[next(4) as usize].into());
                    }
                    if next(10) == 0 {
                        f.location.line = None;
                    }
                    f.description = format!("d{}", next(5));
                    f
                })
                .collect();
            assert_eq!(
                merge_close_variants(findings.clone()),
                reference(findings),
                "round {round}"
            );
        }
    }

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
