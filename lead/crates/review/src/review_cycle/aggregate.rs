//! Phase 3 of the review cycle: the severity distribution (overall and per reviewed
//! dimension), the critical files (a file with findings in 3 or more reviewed dimensions), and
//! the deep-dive trigger (critical > 0, high > 5, or a critical file).

use protocol::{Dimension, Finding, Severity};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A file is critical when its findings span at least this many reviewed dimensions.
pub const CRITICAL_FILE_DIMENSIONS: usize = 3;

/// More High findings than this trigger a deep-dive.
pub const HIGH_LIMIT: usize = 5;

/// How many findings there are at each severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Distribution {
    /// Critical (`C`).
    pub critical: usize,
    /// High (`H`).
    pub high: usize,
    /// Medium (`M`).
    pub medium: usize,
    /// Low (`L`).
    pub low: usize,
    /// All of them.
    pub total: usize,
}

impl Distribution {
    /// Counts one finding of `severity`.
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Critical => self.critical += 1,
            Severity::High => self.high += 1,
            Severity::Medium => self.medium += 1,
            Severity::Low => self.low += 1,
        }
        self.total += 1;
    }

    /// The distribution of `findings`.
    pub fn of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Distribution {
        let mut d = Distribution::default();
        for f in findings {
            d.add(f.severity);
        }
        d
    }

    /// `C1 H0 M2 L4`, as the reports print it.
    pub fn compact(&self) -> String {
        format!(
            "C{} H{} M{} L{}",
            self.critical, self.high, self.medium, self.low
        )
    }
}

/// A file whose findings span several reviewed dimensions (a cross-cutting concern).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CriticalFile {
    /// Repository-relative path.
    pub path: String,
    /// The reviewed dimensions its findings belong to, in [`Dimension::ALL`] order.
    pub dimensions: Vec<Dimension>,
    /// Its findings (in any dimension).
    pub findings: usize,
}

/// The aggregation of one state of the findings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Aggregate {
    /// Every finding.
    pub overall: Distribution,
    /// Each reviewed dimension's findings (a finding counts in each of its dimensions).
    pub by_dimension: BTreeMap<Dimension, Distribution>,
    /// Findings in none of the reviewed dimensions (an agent's finding without dimensions).
    pub unassigned: usize,
    /// Files with findings in at least [`CRITICAL_FILE_DIMENSIONS`] reviewed dimensions, by path.
    pub critical_files: Vec<CriticalFile>,
}

impl Aggregate {
    /// Whether `path` is a critical file.
    pub fn is_critical_file(&self, path: &str) -> bool {
        self.critical_files.iter().any(|c| c.path == path)
    }
}

/// The reviewed dimensions a finding belongs to.
pub fn reviewed_dimensions(f: &Finding, reviewed: &[Dimension]) -> Vec<Dimension> {
    Dimension::ALL
        .into_iter()
        .filter(|d| reviewed.contains(d) && f.dimensions.contains(d))
        .collect()
}

/// Aggregates `findings` over the `reviewed` dimensions (every dimension has an entry, empty
/// ones included, so the report shows a reviewed dimension that found nothing).
pub fn aggregate(findings: &[Finding], reviewed: &[Dimension]) -> Aggregate {
    let mut by_dimension: BTreeMap<Dimension, Distribution> = reviewed
        .iter()
        .map(|d| (*d, Distribution::default()))
        .collect();
    let mut unassigned = 0;
    let mut files: BTreeMap<&str, (BTreeSet<Dimension>, usize)> = BTreeMap::new();
    for f in findings {
        let dims = reviewed_dimensions(f, reviewed);
        if dims.is_empty() {
            unassigned += 1;
        }
        for d in &dims {
            by_dimension.entry(*d).or_default().add(f.severity);
        }
        // A repository-wide finding has no file to be critical.
        if !f.location.path.is_empty() {
            let entry = files.entry(f.location.path.as_str()).or_default();
            entry.0.extend(dims);
            entry.1 += 1;
        }
    }
    let critical_files = files
        .into_iter()
        .filter(|(_, (dims, _))| dims.len() >= CRITICAL_FILE_DIMENSIONS)
        .map(|(path, (dims, n))| CriticalFile {
            path: path.to_string(),
            dimensions: Dimension::ALL
                .into_iter()
                .filter(|d| dims.contains(d))
                .collect(),
            findings: n,
        })
        .collect();
    Aggregate {
        overall: Distribution::of(findings),
        by_dimension,
        unassigned,
        critical_files,
    }
}

/// Why (or whether) an aggregation calls for a deep-dive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Trigger {
    /// At least one Critical finding.
    pub critical: bool,
    /// More than [`HIGH_LIMIT`] High findings.
    pub high_over_limit: bool,
    /// At least one critical file.
    pub critical_files: bool,
}

impl Trigger {
    /// Whether any condition holds.
    pub fn fires(&self) -> bool {
        self.critical || self.high_over_limit || self.critical_files
    }

    /// The conditions that hold, in words (`critical > 0`, `high > 5`, `critical files`).
    pub fn reasons(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.critical {
            out.push("critical > 0".to_string());
        }
        if self.high_over_limit {
            out.push(format!("high > {HIGH_LIMIT}"));
        }
        if self.critical_files {
            out.push("critical files".to_string());
        }
        out
    }
}

/// The deep-dive trigger of an aggregation.
pub fn trigger(agg: &Aggregate) -> Trigger {
    Trigger {
        critical: agg.overall.critical > 0,
        high_over_limit: agg.overall.high > HIGH_LIMIT,
        critical_files: !agg.critical_files.is_empty(),
    }
}
