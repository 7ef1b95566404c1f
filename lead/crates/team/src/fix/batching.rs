//! Batching: findings grouped by file and dimension, packed into batches of `--batch-size`
//! (default 5) for the planners, groups in path then dimension order. A file-and-dimension group
//! that fits in a batch is never split across two; a larger one is spread over consecutive ones. Each finding gets its fix id here
//! (`FIX-001`, …, in batch order), the one name it keeps through plan, export and summary.

use protocol::{Dimension, Finding};

/// Findings per batch unless `--batch-size` says otherwise.
pub const DEFAULT_BATCH_SIZE: usize = 5;

/// A finding with its fix id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixFinding {
    /// `FIX-001`.
    pub id: String,
    /// The finding.
    pub finding: Finding,
}

/// One planner's share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// 1-based.
    pub id: u32,
    /// Its findings.
    pub findings: Vec<FixFinding>,
}

/// A batching group: the file and the finding's first dimension.
type GroupKey = (String, Option<Dimension>);

/// The batches for unsuppressed findings; `batch_size` 0 is taken as 1.
pub fn batches(findings: &[Finding], batch_size: usize) -> Vec<Batch> {
    let size = batch_size.max(1);
    let mut groups: Vec<(GroupKey, Vec<&Finding>)> = Vec::new();
    for f in findings.iter().filter(|f| f.suppression.is_none()) {
        let key = (f.location.path.clone(), f.dimensions.first().copied());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(f),
            None => groups.push((key, vec![f])),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let mut packed: Vec<Vec<&Finding>> = Vec::new();
    for (_, mut members) in groups {
        members.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then(a.location.line.cmp(&b.location.line))
        });
        let fits_whole = members.len() <= size;
        let full = packed.last().is_none_or(|b| b.len() >= size);
        if full
            || (fits_whole
                && packed
                    .last()
                    .is_some_and(|b| b.len() + members.len() > size))
        {
            packed.push(Vec::new());
        }
        for f in members {
            if packed.last().is_some_and(|b| b.len() >= size) {
                packed.push(Vec::new());
            }
            if let Some(batch) = packed.last_mut() {
                batch.push(f);
            }
        }
    }
    let mut seq = 0;
    packed
        .into_iter()
        .zip(1..)
        .map(|(members, id)| Batch {
            id,
            findings: members
                .into_iter()
                .map(|f| {
                    seq += 1;
                    FixFinding {
                        id: format!("FIX-{seq:03}"),
                        finding: f.clone(),
                    }
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::finding;
    use protocol::Severity;

    fn shape(batches: &[Batch]) -> Vec<Vec<String>> {
        batches
            .iter()
            .map(|b| {
                b.findings
                    .iter()
                    .map(|f| {
                        format!(
                            "{}:{}",
                            f.finding.location.path,
                            f.finding.location.line.unwrap_or(0)
                        )
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn groups_stay_whole_when_they_fit() {
        let mut fs = Vec::new();
        for line in 1..=3 {
            fs.push(finding("b.rs", line, Severity::Medium, "c", "x", false));
        }
        for line in 1..=3 {
            fs.push(finding("a.rs", line, Severity::Low, "c", "y", false));
        }
        let b = batches(&fs, 5);
        assert_eq!(
            shape(&b),
            vec![
                vec!["a.rs:1", "a.rs:2", "a.rs:3"],
                vec!["b.rs:1", "b.rs:2", "b.rs:3"]
            ]
        );
        let ids: Vec<&str> = b
            .iter()
            .flat_map(|b| b.findings.iter().map(|f| f.id.as_str()))
            .collect();
        assert_eq!(
            ids,
            vec!["FIX-001", "FIX-002", "FIX-003", "FIX-004", "FIX-005", "FIX-006"]
        );
        assert_eq!((b[0].id, b[1].id), (1, 2));
    }

    #[test]
    fn large_groups_fill_batches_and_dimensions_split_files() {
        let mut fs: Vec<Finding> = (1..=7)
            .map(|l| finding("a.rs", l, Severity::Low, "c", "x", false))
            .collect();
        let mut sec = finding("a.rs", 99, Severity::Critical, "c", "s", false);
        sec.dimensions = vec![Dimension::Security];
        fs.push(sec);
        let b = batches(&fs, 3);
        assert_eq!(
            shape(&b),
            vec![
                vec!["a.rs:99", "a.rs:1", "a.rs:2"],
                vec!["a.rs:3", "a.rs:4", "a.rs:5"],
                vec!["a.rs:6", "a.rs:7"]
            ]
        );
        assert_eq!(batches(&fs, 0).len(), 8, "size 0 counts as 1");
    }

    #[test]
    fn within_a_group_most_severe_first_and_suppressed_left_out() {
        let mut quiet = finding("a.rs", 1, Severity::Critical, "c", "q", false);
        quiet.suppression = Some("retake-ignore".into());
        let b = batches(
            &[
                finding("a.rs", 5, Severity::Low, "c", "l", false),
                finding("a.rs", 9, Severity::High, "c", "h", false),
                quiet,
            ],
            5,
        );
        assert_eq!(shape(&b), vec![vec!["a.rs:9", "a.rs:5"]]);
    }
}
