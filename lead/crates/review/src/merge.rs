//! Consensus mode: the outcome reported for N pipelines — the consensus verdict, the findings the
//! consensus holds, and notes saying how many pipelines answered. Pure: tested without actors.

use super::coordinator::Finished;
use auditor::consensus::{consensus_key, Consensus};
use protocol::{AuditOutcome, Finding};
use std::collections::{BTreeMap, HashMap};

/// The outcome to report for a consensus of `pipelines` (`None` = a failed pipeline): the first
/// produced outcome, with the consensus verdict, only the findings the consensus holds, and a
/// `CONSENSUS:` note. `None` when no pipeline produced a verdict.
pub fn consensus_outcome(
    pipelines: &[Option<Finished>],
    consensus: &Consensus,
) -> Option<AuditOutcome> {
    let base = pipelines.iter().flatten().next()?;
    let mut outcome = base.outcome.clone();
    // The first finding of each key, in pipeline order: one pass, not one per row (a large
    // review holds thousands of both).
    let mut first: HashMap<String, &Finding> = HashMap::new();
    for f in pipelines
        .iter()
        .flatten()
        .flat_map(|p| p.outcome.findings.iter())
    {
        first
            .entry(consensus_key(&f.category, &f.location.to_string()))
            .or_insert(f);
    }
    let mut findings: Vec<Finding> = Vec::new();
    for row in &consensus.consensus {
        if let Some(&f) = first.get(&row.key) {
            let mut f = f.clone();
            f.severity = row.severity;
            findings.push(f);
        }
    }
    auditor::sort_by_severity(&mut findings);
    // A pipeline that lost an Inspector keeps the consensus from GO (auditor::consensus) and from
    // APPROVE; coverage counts every produced pipeline's Inspectors, and their PARTIAL notes stay.
    let partial = consensus.partial_coverage > 0;
    let (decision, grade) = auditor::covered_decision(auditor::decide(&findings), partial);
    let produced = || pipelines.iter().flatten().map(|p| &p.outcome);
    outcome.answered = produced().map(|o| o.answered).sum();
    outcome.expected = produced().map(|o| o.expected).sum();
    let mut notes: Vec<String> = Vec::new();
    for note in produced().flat_map(|o| o.notes.iter()) {
        if auditor::parse_partial_note(note).is_some() && !notes.contains(note) {
            notes.push(note.clone());
        }
    }
    outcome.findings = findings;
    outcome.verdict = consensus.verdict;
    outcome.decision = decision;
    outcome.grade = grade;
    outcome.notes = notes;
    outcome.notes.push(format!(
        "CONSENSUS:{}/{} pipelines answered|threshold {}/{}{}; {} noise",
        consensus.answered,
        consensus.runs,
        consensus.threshold,
        consensus.answered,
        if consensus.partial { ", partial" } else { "" },
        consensus.noise.len()
    ));
    Some(outcome)
}

/// Restarts summed over the pipelines, per actor name.
pub fn total_restarts(pipelines: &[Option<Finished>]) -> BTreeMap<String, u32> {
    let mut total = BTreeMap::new();
    for p in pipelines.iter().flatten() {
        for (name, n) in &p.restarts {
            *total.entry(name.clone()).or_insert(0) += n;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Decision, Grade, InspectorKind, InspectorReport, Verdict};

    fn pipeline(answering: usize) -> Finished {
        let expected: Vec<String> = InspectorKind::ALL.iter().map(|k| k.actor_name()).collect();
        let reports: Vec<InspectorReport> = expected[..answering]
            .iter()
            .map(|name| InspectorReport {
                review: "r".into(),
                inspector: name.clone(),
                kind: name.parse().ok(),
                scope: "repository".into(),
                findings: Vec::new(),
                notes: Vec::new(),
                claims: Vec::new(),
                coverage: Default::default(),
                preexisting: Vec::new(),
            })
            .collect();
        let config = auditor::AuditConfig::default();
        let outcome = auditor::audit(&auditor::AuditInput::new(
            "repository",
            &reports,
            &expected,
            &[],
            &config,
        ));
        Finished {
            questions: Vec::new(),
            outcome,
            reports: reports
                .into_iter()
                .map(|r| (r.inspector.clone(), r))
                .collect(),
            restarts: BTreeMap::new(),
        }
    }

    #[test]
    fn a_pipeline_that_lost_an_inspector_keeps_the_consensus_from_go_and_approve() {
        let pipelines = vec![Some(pipeline(6)), Some(pipeline(5)), Some(pipeline(6))];
        let produced: Vec<_> = pipelines
            .iter()
            .map(|p| p.as_ref().map(|f| f.outcome.to_cpf()))
            .collect();
        let consensus = auditor::consensus::consensus(&produced, None).expect("consensus");
        assert_eq!(consensus.verdict, Verdict::Conditional);
        let merged = consensus_outcome(&pipelines, &consensus).expect("merged");
        assert_eq!(merged.verdict, Verdict::Conditional);
        assert_eq!(
            (merged.decision, merged.grade),
            (Decision::Stop, Grade::NotApplicable)
        );
        assert_eq!(
            merged.coverage_qualifier().as_deref(),
            Some("partial coverage (17/18)")
        );
        assert_eq!(
            merged.notes,
            vec![
                "PARTIAL:inspector-holistic|no report".to_string(),
                "CONSENSUS:3/3 pipelines answered|threshold 2/3; 0 noise".to_string(),
            ]
        );
        // Three full pipelines: GO and APPROVE as before.
        let full = vec![Some(pipeline(6)), Some(pipeline(6)), Some(pipeline(6))];
        let produced: Vec<_> = full
            .iter()
            .map(|p| p.as_ref().map(|f| f.outcome.to_cpf()))
            .collect();
        let consensus = auditor::consensus::consensus(&produced, None).expect("consensus");
        let merged = consensus_outcome(&full, &consensus).expect("merged");
        assert_eq!(
            (merged.verdict, merged.decision),
            (Verdict::Go, Decision::Approve)
        );
        assert_eq!(merged.coverage_qualifier(), None);
    }
}
