//! Step 5 of the audit, dedup and merge: one problem reported several times becomes one finding.
//!
//! Two findings are the same problem when they share a fingerprint, or sit at the same place
//! (path + line, or path + anchor) with the same category. "Same" is transitive: a finding that
//! matches two groups joins them. A problem two or more distinct agents report is confirmed, and
//! its confidence becomes High.

use crate::budget::{Budget, Ticker};
use crate::place::Place;
use crate::spec_defect::longest_first;
use protocol::{Confidence, Finding};
use std::collections::HashMap;

/// Merges findings that describe one problem and returns them most severe first.
///
/// The merged finding keeps the first finding's rule, category, location and fingerprint; its
/// agents are the union in first-seen order, its severity the highest, its description the
/// longest (the first on a tie), its suggestion the first given, its dimensions the union.
pub fn dedup(findings: Vec<Finding>) -> Vec<Finding> {
    let mut unlimited = Ticker::new(&Budget::Unlimited);
    // An unlimited budget is never spent: `Err` cannot come back, and would carry the input.
    dedup_within(findings, &mut unlimited).unwrap_or_else(|findings| findings)
}

/// As [`dedup`], giving the findings back untouched (`Err`) when the budget runs out while
/// grouping them — the part whose work grows with the input.
pub(crate) fn dedup_within(
    findings: Vec<Finding>,
    ticker: &mut Ticker<'_, '_>,
) -> Result<Vec<Finding>, Vec<Finding>> {
    let Some(groups) = group_within(&findings, ticker) else {
        return Err(findings);
    };
    let mut slots: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    let mut merged: Vec<Finding> = groups
        .into_iter()
        .filter_map(|members| {
            let mut members = members.into_iter().filter_map(|i| slots[i].take());
            let first = members.next()?;
            Some(members.fold(start(first), absorb))
        })
        .map(confirm)
        .collect();
    sort_by_severity(&mut merged);
    Ok(merged)
}

/// Orders findings as every output lists them: severity descending, then path, then line;
/// findings equal on all three keep their order.
pub fn sort_by_severity(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.location.path.cmp(&b.location.path))
            .then_with(|| a.location.line.cmp(&b.location.line))
    });
}

/// Indices of the findings, grouped by problem, groups in first-seen order; `None` when the
/// budget runs out first. Union-find over two hash indexes (fingerprint, place + category), so
/// near-linear in the findings.
pub(crate) fn group_within(
    findings: &[Finding],
    ticker: &mut Ticker<'_, '_>,
) -> Option<Vec<Vec<usize>>> {
    let mut parent: Vec<usize> = (0..findings.len()).collect();
    let mut by_fingerprint: HashMap<&str, usize> = HashMap::new();
    let mut by_place: HashMap<(Place<'_>, &str), usize> = HashMap::new();
    for (i, f) in findings.iter().enumerate() {
        if ticker.spent() {
            return None;
        }
        // An empty fingerprint says nothing about identity; only the place can merge it.
        if !f.fingerprint.is_empty() {
            match by_fingerprint.get(f.fingerprint.as_str()) {
                Some(&j) => union(&mut parent, i, j),
                None => {
                    by_fingerprint.insert(&f.fingerprint, i);
                }
            }
        }
        let key = (Place::of(&f.location), f.category.as_str());
        match by_place.get(&key) {
            Some(&j) => union(&mut parent, i, j),
            None => {
                by_place.insert(key, i);
            }
        }
    }
    // The root of a group is its smallest index, so groups appear in first-seen order.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of_root: HashMap<usize, usize> = HashMap::new();
    for i in 0..findings.len() {
        let root = find(&mut parent, i);
        match group_of_root.get(&root) {
            Some(&g) => groups[g].push(i),
            None => {
                group_of_root.insert(root, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    Some(groups)
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra < rb {
        parent[rb] = ra;
    } else {
        parent[ra] = rb;
    }
}

/// The first finding of a group, with its own agent list made duplicate-free.
fn start(mut first: Finding) -> Finding {
    let mut agents: Vec<String> = Vec::with_capacity(first.agents.len());
    for a in first.agents.drain(..) {
        if !agents.contains(&a) {
            agents.push(a);
        }
    }
    first.agents = agents;
    first
}

pub(crate) fn absorb(mut kept: Finding, other: Finding) -> Finding {
    for a in other.agents {
        if !kept.agents.contains(&a) {
            kept.agents.push(a);
        }
    }
    kept.severity = kept.severity.max(other.severity);
    if longest_first(&kept.description, &other.description) != kept.description {
        kept.description = other.description;
    }
    if kept.suggestion.is_none() {
        kept.suggestion = other.suggestion;
    }
    kept.auto_fixable |= other.auto_fixable;
    for d in other.dimensions {
        if !kept.dimensions.contains(&d) {
            kept.dimensions.push(d);
        }
    }
    kept.confidence = kept.confidence.max(other.confidence);
    kept
}

/// Two or more distinct agents confirm a problem.
fn confirm(mut f: Finding) -> Finding {
    if f.agents.len() >= 2 {
        f.confidence = Confidence::High;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;
    use protocol::{Dimension, Location, Severity};

    #[test]
    fn same_place_and_category_merge_into_one_confirmed_finding() {
        let mut a = finding("quality", "dead-code", Severity::Medium, "src/a.rs", 7);
        a.description = "unused".into();
        a.dimensions = vec![Dimension::Quality];
        let mut b = finding("holistic", "dead-code", Severity::High, "src/a.rs", 7);
        b.description = "function never called".into();
        b.suggestion = Some("remove it".into());
        b.dimensions = vec![Dimension::Maintainability, Dimension::Quality];
        let out = dedup(vec![a.clone(), b]);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(f.agents, vec!["quality", "holistic"]);
        assert_eq!(f.agents_joined(), "quality+holistic");
        assert_eq!(f.severity, Severity::High);
        assert_eq!(f.description, "function never called");
        assert_eq!(f.suggestion.as_deref(), Some("remove it"));
        assert_eq!(
            f.dimensions,
            vec![Dimension::Quality, Dimension::Maintainability]
        );
        assert_eq!(f.confidence, Confidence::High);
        assert_eq!(f.fingerprint, a.fingerprint);
        assert_eq!(f.rule, "quality/dead-code");
    }

    #[test]
    fn same_fingerprint_merges_even_when_the_line_moved() {
        let a = finding("quality", "todo", Severity::Low, "src/a.rs", 3);
        let mut b = a.clone();
        b.location = Location::at("src/a.rs", 30);
        let out = dedup(vec![a, b]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].agents, vec!["quality"]);
        // One agent reporting twice does not confirm anything.
        assert_eq!(out[0].confidence, Confidence::Normal);
    }

    #[test]
    fn different_category_or_line_stays_apart() {
        let a = finding("quality", "dead-code", Severity::Low, "src/a.rs", 3);
        let b = finding("holistic", "naming-violation", Severity::Low, "src/a.rs", 3);
        let c = finding("holistic", "dead-code", Severity::Low, "src/a.rs", 4);
        assert_eq!(dedup(vec![a, b, c]).len(), 3);
    }

    #[test]
    fn a_finding_matching_two_groups_joins_them() {
        let a = finding("quality", "todo", Severity::Low, "src/a.rs", 3);
        let b = finding("holistic", "todo", Severity::Medium, "src/a.rs", 9);
        // c shares a's fingerprint and b's place.
        let mut c = a.clone();
        c.agents = vec!["test".into()];
        c.location = Location::at("src/a.rs", 9);
        let out = dedup(vec![a, b, c]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].agents, vec!["quality", "holistic", "test"]);
        assert_eq!(out[0].severity, Severity::Medium);
        assert_eq!(out[0].location, Location::at("src/a.rs", 3));
    }

    #[test]
    fn empty_fingerprints_do_not_merge_different_places() {
        let mut a = finding("quality", "x", Severity::Low, "src/a.rs", 1);
        let mut b = finding("quality", "y", Severity::Low, "src/b.rs", 2);
        a.fingerprint.clear();
        b.fingerprint.clear();
        assert_eq!(dedup(vec![a, b]).len(), 2);
    }

    #[test]
    fn output_is_most_severe_first_then_path_then_line() {
        let out = dedup(vec![
            finding("q", "a", Severity::Low, "src/a.rs", 1),
            finding("q", "b", Severity::High, "src/b.rs", 9),
            finding("q", "c", Severity::High, "src/b.rs", 2),
            finding("q", "d", Severity::High, "src/a.rs", 5),
            finding("q", "e", Severity::Critical, "src/z.rs", 1),
        ]);
        let order: Vec<&str> = out.iter().map(|f| f.category.as_str()).collect();
        assert_eq!(order, vec!["e", "d", "c", "b", "a"]);
    }

    #[test]
    fn duplicate_agents_inside_one_finding_are_collapsed() {
        let mut a = finding("quality", "x", Severity::Low, "src/a.rs", 1);
        a.agents = vec!["quality".into(), "quality".into()];
        let out = dedup(vec![a]);
        assert_eq!(out[0].agents, vec!["quality"]);
        assert_eq!(out[0].confidence, Confidence::Normal);
    }
}
