//! Consensus mode (the Auditor spec): the Auditor verdicts of N pipelines become one verdict.
//!
//! VERIFIED findings are keyed by `{category}|{location}` and counted across the verdicts that were
//! actually produced; a key seen by at least K of them is Consensus, the rest is Noise. A pipeline
//! that failed adds neither findings nor a GO. N = 1 skips aggregation: the one verdict stands.
//!
//! Decisions the spec leaves open, fixed here and why:
//! - **Frequency** counts verdicts, not rows: one verdict naming a key twice counts once. A key's
//!   severity is the highest any verdict gave it (as dedup keeps the highest), its description the
//!   first verdict's, its agents the union.
//! - **SPEC-UPDATE-NEEDED** is the consensus verdict when at least K produced verdicts say so and
//!   the Consensus holds no C/H (the verdict table's precedence: NO-GO before a spec update).
//! - **An explicit threshold** must lie in 1..=N; when failed pipelines leave fewer verdicts than
//!   K, K is lowered to the number produced, so failures cannot turn every finding into Noise.
//! - **Partial coverage** (a produced verdict with a `PARTIAL:{name}|…` note: an Inspector of that
//!   pipeline sent no report) keeps the consensus from GO, as it keeps each verdict from GO: GO
//!   becomes CONDITIONAL, even when the table would say GO because nothing reached the threshold.
//!   A pipeline that failed outright stays as the Auditor spec says — it adds neither findings nor a
//!   GO, and fewer than half answering marks the consensus partial — since the verdicts that
//!   were produced each covered every Inspector.
//! - **A regression** (a once-resolved issue that is back) is raised one level and the verdict
//!   recomputed; a raised Critical is NO-GO whatever the other rules say, as everywhere else.

use crate::attendance::parse_partial_note;
use crate::verdict_table::MAX_HIGH_FOR_GO;
use protocol::cpf::VerdictCpf;
use protocol::{Severity, Verdict};

/// One `{category}|{location}` key with how many produced verdicts reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsensusRow {
    /// `{category}|{location}`.
    pub key: String,
    /// The category.
    pub category: String,
    /// The location text (empty for a repository-wide finding).
    pub location: String,
    /// The severity in effect: the highest reported, one level higher for a regression.
    pub severity: Severity,
    /// The highest severity the verdicts reported.
    pub reported: Severity,
    /// How many produced verdicts reported the key.
    pub freq: u32,
    /// Every agent that reported it, first seen first.
    pub agents: Vec<String>,
    /// The description of the first verdict that reported it.
    pub description: String,
    /// A resolved issue that came back (raised one level).
    pub regression: bool,
}

/// The aggregated result of N pipelines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consensus {
    /// The consensus verdict.
    pub verdict: Verdict,
    /// Pipelines run (N).
    pub runs: u32,
    /// Pipelines that produced a verdict.
    pub answered: u32,
    /// The threshold K in effect.
    pub threshold: u32,
    /// Fewer than half of the pipelines answered.
    pub partial: bool,
    /// Produced verdicts with partial coverage (an Inspector of that pipeline sent no report).
    pub partial_coverage: u32,
    /// Keys reported by at least K verdicts, most severe first.
    pub consensus: Vec<ConsensusRow>,
    /// Keys reported by fewer than K verdicts, most severe first.
    pub noise: Vec<ConsensusRow>,
    /// Each pipeline's verdict, `None` for one that failed.
    pub produced: Vec<Option<Verdict>>,
}

/// Why no consensus could be formed; each is a usage or run failure (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConsensusError {
    /// No pipeline was run.
    #[error("no pipelines to aggregate: give at least one verdict")]
    NoPipelines,
    /// Every pipeline failed.
    #[error("none of the {runs} pipelines produced a verdict")]
    NoVerdict {
        /// Pipelines run.
        runs: u32,
    },
    /// The threshold is outside 1..=N.
    #[error("threshold {threshold} is out of range: it must be between 1 and {runs} (the pipelines run)")]
    Threshold {
        /// The threshold given.
        threshold: u32,
        /// Pipelines run.
        runs: u32,
    },
}

/// The consensus key of a finding: `{category}|{location}`.
pub fn consensus_key(category: &str, location: &str) -> String {
    format!("{category}|{location}")
}

/// The default threshold: ceil(0.6 × the verdicts produced), at least 1.
pub fn default_threshold(answered: u32) -> u32 {
    // ceil(3n/5) in integers; u64 so that 3n cannot overflow, and the result is at most n.
    u32::try_from((3 * u64::from(answered)).div_ceil(5))
        .unwrap_or(answered)
        .max(1)
}

/// Aggregates the verdicts of `pipelines.len()` pipelines (`None`: the pipeline failed) with the
/// threshold given, or the default one.
pub fn consensus(
    pipelines: &[Option<VerdictCpf>],
    threshold: Option<u32>,
) -> Result<Consensus, ConsensusError> {
    let runs = u32::try_from(pipelines.len()).unwrap_or(u32::MAX);
    if runs == 0 {
        return Err(ConsensusError::NoPipelines);
    }
    if let Some(k) = threshold {
        if k == 0 || k > runs {
            return Err(ConsensusError::Threshold { threshold: k, runs });
        }
    }
    let produced: Vec<&VerdictCpf> = pipelines.iter().flatten().collect();
    let answered = u32::try_from(produced.len()).unwrap_or(u32::MAX);
    if answered == 0 {
        return Err(ConsensusError::NoVerdict { runs });
    }
    let k = if runs == 1 {
        1
    } else {
        threshold.map_or_else(|| default_threshold(answered), |k| k.min(answered))
    };
    let (consensus, noise) = count(&produced).into_iter().partition(|r| r.freq >= k);
    let mut result = Consensus {
        verdict: Verdict::Go,
        runs,
        answered,
        threshold: k,
        partial: u64::from(answered) * 2 < u64::from(runs),
        partial_coverage: partial_coverage(&produced),
        consensus,
        noise,
        produced: pipelines
            .iter()
            .map(|p| p.as_ref().map(|v| v.verdict))
            .collect(),
    };
    result.verdict = result.decide();
    Ok(result)
}

impl Consensus {
    /// One pipeline's verdict as a consensus of one (N = 1: no aggregation, the verdict stands).
    pub fn single(verdict: &VerdictCpf) -> Consensus {
        let produced = [verdict];
        let partial_coverage = partial_coverage(&produced);
        Consensus {
            // The verdict stands, but a partial one is never GO (an older build wrote GO).
            verdict: match verdict.verdict {
                Verdict::Go if partial_coverage > 0 => Verdict::Conditional,
                v => v,
            },
            runs: 1,
            answered: 1,
            threshold: 1,
            partial: false,
            partial_coverage,
            consensus: count(&produced),
            noise: Vec::new(),
            produced: vec![Some(verdict.verdict)],
        }
    }

    /// Whether aggregation ran (N > 1).
    pub fn aggregated(&self) -> bool {
        self.runs > 1
    }

    /// The keys of the Consensus rows.
    pub fn keys(&self) -> Vec<String> {
        self.consensus.iter().map(|r| r.key.clone()).collect()
    }

    /// The Consensus rows a CONDITIONAL verdict tracks: the M and L ones; none otherwise.
    pub fn tracked(&self) -> Vec<&ConsensusRow> {
        if self.verdict != Verdict::Conditional {
            return Vec::new();
        }
        let minor = |r: &&ConsensusRow| r.severity <= Severity::Medium;
        self.consensus.iter().filter(minor).collect()
    }

    /// Marks the Consensus rows with these keys as regressions, raises each one level (once:
    /// a row already marked stays as it is) and recomputes the verdict.
    pub fn raise_regressions(&mut self, keys: &[String]) {
        for row in &mut self.consensus {
            if !row.regression && keys.contains(&row.key) {
                row.regression = true;
                row.severity = row.reported.raised();
            }
        }
        sort(&mut self.consensus);
        self.verdict = self.decide();
    }

    fn decide(&self) -> Verdict {
        match self.decide_on_findings() {
            Verdict::Go if self.partial_coverage > 0 => Verdict::Conditional,
            verdict => verdict,
        }
    }

    fn decide_on_findings(&self) -> Verdict {
        let has = |s: Severity| self.consensus.iter().any(|r| r.severity == s);
        let raised_critical = self
            .consensus
            .iter()
            .any(|r| r.regression && r.severity == Severity::Critical);
        if !self.aggregated() {
            let original = self.produced.iter().flatten().next().copied();
            let highs = self
                .consensus
                .iter()
                .filter(|r| r.severity == Severity::High);
            let raised = if has(Severity::Critical) {
                Verdict::NoGo
            } else if highs.count() > MAX_HIGH_FOR_GO {
                Verdict::Conditional
            } else {
                Verdict::Go
            };
            return original.unwrap_or(Verdict::Go).worst(raised);
        }
        let produced = || self.produced.iter().flatten();
        let spec_updates = produced()
            .filter(|v| **v == Verdict::SpecUpdateNeeded)
            .count();
        if raised_critical {
            Verdict::NoGo
        } else if produced().all(|v| *v == Verdict::Go) {
            Verdict::Go
        } else if has(Severity::Critical) || has(Severity::High) {
            Verdict::NoGo
        } else if spec_updates >= self.threshold as usize {
            Verdict::SpecUpdateNeeded
        } else if !self.consensus.is_empty() {
            Verdict::Conditional
        } else {
            Verdict::Go
        }
    }
}

/// How many produced verdicts name a missing Inspector.
fn partial_coverage(produced: &[&VerdictCpf]) -> u32 {
    let partial = produced
        .iter()
        .filter(|v| v.notes.iter().any(|n| parse_partial_note(n).is_some()))
        .count();
    u32::try_from(partial).unwrap_or(u32::MAX)
}

/// Every key of the produced verdicts with its frequency, most severe first.
fn count(produced: &[&VerdictCpf]) -> Vec<ConsensusRow> {
    let mut rows: Vec<ConsensusRow> = Vec::new();
    for verdict in produced {
        let mut counted: Vec<String> = Vec::new();
        for v in &verdict.verified {
            let key = consensus_key(&v.category, &v.location);
            let at = match rows.iter().position(|r| r.key == key) {
                Some(at) => at,
                None => {
                    rows.push(ConsensusRow {
                        key: key.clone(),
                        category: v.category.clone(),
                        location: v.location.clone(),
                        severity: v.severity,
                        reported: v.severity,
                        freq: 0,
                        agents: Vec::new(),
                        description: v.description.clone(),
                        regression: false,
                    });
                    rows.len() - 1
                }
            };
            let row = &mut rows[at];
            row.reported = row.reported.max(v.severity);
            row.severity = row.reported;
            for agent in &v.agents {
                if !row.agents.contains(agent) {
                    row.agents.push(agent.clone());
                }
            }
            if !counted.contains(&key) {
                row.freq += 1;
                counted.push(key);
            }
        }
    }
    sort(&mut rows);
    rows
}

fn sort(rows: &mut [ConsensusRow]) {
    rows.sort_by(|a, b| (b.severity, b.freq, &a.key).cmp(&(a.severity, a.freq, &b.key)));
}

#[cfg(test)]
mod tests;
