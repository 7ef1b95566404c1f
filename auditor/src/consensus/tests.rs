//! The consensus rules on the table cases of the Auditor spec and the undecided corners.

use super::*;
use protocol::cpf::VerifiedRow;

fn row(sev: Severity, category: &str, location: &str) -> VerifiedRow {
    VerifiedRow {
        agents: vec!["quality".into()],
        severity: sev,
        category: category.into(),
        location: location.into(),
        description: format!("{category} here"),
    }
}

fn verdict(v: Verdict, rows: &[VerifiedRow]) -> Option<VerdictCpf> {
    let mut cpf = VerdictCpf::new(v);
    cpf.verified = rows.to_vec();
    Some(cpf)
}

fn keys(rows: &[ConsensusRow]) -> Vec<(&str, u32)> {
    rows.iter().map(|r| (r.key.as_str(), r.freq)).collect()
}

#[test]
fn the_default_threshold_is_ceil_of_sixty_percent() {
    let k: Vec<u32> = (0..=6).map(default_threshold).collect();
    assert_eq!(k, vec![1, 1, 2, 2, 3, 3, 4]);
}

#[test]
fn one_finding_in_three_of_five_is_no_go() {
    let h = row(Severity::High, "dead-code", "src/a.rs:3");
    let lone = row(Severity::Critical, "todo", "src/b.rs:1");
    let v = |rows: &[VerifiedRow]| verdict(Verdict::NoGo, rows);
    let all = [
        v(&[h.clone(), lone]),
        v(std::slice::from_ref(&h)),
        v(&[h]),
        v(&[]),
        v(&[]),
    ];
    let c = consensus(&all, None).unwrap();
    assert_eq!(
        (c.verdict, c.threshold, c.answered, c.partial),
        (Verdict::NoGo, 3, 5, false)
    );
    assert_eq!(keys(&c.consensus), vec![("dead-code|src/a.rs:3", 3)]);
    assert_eq!(keys(&c.noise), vec![("todo|src/b.rs:1", 1)]);
}

#[test]
fn a_medium_in_four_of_five_is_conditional() {
    let m = row(Severity::Medium, "incomplete", "src/a.rs:9");
    let v = |rows: &[VerifiedRow]| verdict(Verdict::Conditional, rows);
    let all = [
        v(std::slice::from_ref(&m)),
        v(std::slice::from_ref(&m)),
        v(std::slice::from_ref(&m)),
        v(&[m]),
        v(&[]),
    ];
    let c = consensus(&all, None).unwrap();
    assert_eq!(c.verdict, Verdict::Conditional);
    assert_eq!(keys(&c.consensus), vec![("incomplete|src/a.rs:9", 4)]);
    assert_eq!(c.tracked().len(), 1);
}

#[test]
fn one_finding_in_one_of_three_is_noise_and_go() {
    let c_row = row(Severity::Critical, "todo", "src/a.rs:1");
    let all = [
        verdict(Verdict::NoGo, &[c_row]),
        verdict(Verdict::Go, &[]),
        verdict(Verdict::Go, &[]),
    ];
    let c = consensus(&all, None).unwrap();
    assert_eq!((c.verdict, c.threshold), (Verdict::Go, 2));
    assert!(c.consensus.is_empty());
    assert_eq!(keys(&c.noise), vec![("todo|src/a.rs:1", 1)]);
}

#[test]
fn failed_pipelines_add_neither_findings_nor_a_go() {
    let h = row(Severity::High, "dead-code", "src/a.rs:3");
    let all = [
        verdict(Verdict::NoGo, std::slice::from_ref(&h)),
        None,
        verdict(Verdict::Go, &[h]),
        None,
    ];
    let c = consensus(&all, None).unwrap();
    assert_eq!(
        (c.runs, c.answered, c.threshold, c.partial),
        (4, 2, 2, false)
    );
    assert_eq!(c.verdict, Verdict::NoGo);
    let go = [verdict(Verdict::Go, &[]), None, None];
    let c = consensus(&go, None).unwrap();
    assert_eq!((c.verdict, c.answered, c.partial), (Verdict::Go, 1, true));
    assert_eq!(c.produced, vec![Some(Verdict::Go), None, None]);
}

#[test]
fn no_verdict_at_all_is_an_error() {
    assert_eq!(
        consensus(&[None, None], None),
        Err(ConsensusError::NoVerdict { runs: 2 })
    );
    assert_eq!(consensus(&[], None), Err(ConsensusError::NoPipelines));
}

#[test]
fn a_threshold_overrides_the_default_and_is_checked() {
    let h = row(Severity::High, "dead-code", "src/a.rs:3");
    let all = [
        verdict(Verdict::NoGo, &[h]),
        verdict(Verdict::Go, &[]),
        verdict(Verdict::Go, &[]),
    ];
    let c = consensus(&all, Some(1)).unwrap();
    assert_eq!(
        (c.verdict, c.threshold, c.consensus.len()),
        (Verdict::NoGo, 1, 1)
    );
    let err = consensus(&all, Some(4)).unwrap_err();
    assert_eq!(
        err,
        ConsensusError::Threshold {
            threshold: 4,
            runs: 3
        }
    );
    assert!(err.to_string().contains("between 1 and 3"));
    assert!(consensus(&all, Some(0)).is_err());
    let failed = [all[0].clone(), None, None];
    assert_eq!(
        consensus(&failed, Some(3)).unwrap().threshold,
        1,
        "lowered to the verdicts produced"
    );
}

#[test]
fn unanimous_go_stays_go_and_a_key_counts_once_per_verdict() {
    let h = row(Severity::High, "dead-code", "src/a.rs:3");
    let twice = [h.clone(), h];
    let all = [verdict(Verdict::Go, &twice), verdict(Verdict::Go, &twice)];
    let c = consensus(&all, None).unwrap();
    assert_eq!(keys(&c.consensus), vec![("dead-code|src/a.rs:3", 2)]);
    assert_eq!(c.verdict, Verdict::Go);
}

#[test]
fn spec_updates_need_the_threshold_and_lose_to_a_high() {
    let s = || verdict(Verdict::SpecUpdateNeeded, &[]);
    let c = consensus(&[s(), s(), verdict(Verdict::Go, &[])], None).unwrap();
    assert_eq!(c.verdict, Verdict::SpecUpdateNeeded);
    let c = consensus(
        &[s(), verdict(Verdict::Go, &[]), verdict(Verdict::Go, &[])],
        None,
    )
    .unwrap();
    assert_eq!(c.verdict, Verdict::Go);
    let h = row(Severity::High, "dead-code", "src/a.rs:3");
    let spec_h = || verdict(Verdict::SpecUpdateNeeded, std::slice::from_ref(&h));
    assert_eq!(
        consensus(&[spec_h(), spec_h()], None).unwrap().verdict,
        Verdict::NoGo
    );
}

#[test]
fn one_pipeline_skips_aggregation() {
    let highs: Vec<VerifiedRow> = (1..=4)
        .map(|i| row(Severity::High, "drift", &format!("src/a.rs:{i}")))
        .collect();
    let c = consensus(&[verdict(Verdict::Conditional, &highs)], Some(1)).unwrap();
    assert_eq!(
        (c.verdict, c.threshold, c.consensus.len()),
        (Verdict::Conditional, 1, 4)
    );
    assert!(!c.aggregated());
    let spec = VerdictCpf::new(Verdict::SpecUpdateNeeded);
    assert_eq!(Consensus::single(&spec).verdict, Verdict::SpecUpdateNeeded);
}

#[test]
fn a_regression_is_raised_once_and_the_verdict_follows() {
    let m = row(Severity::Medium, "incomplete", "src/a.rs:9");
    let v = || verdict(Verdict::Conditional, std::slice::from_ref(&m));
    let mut c = consensus(&[v(), v(), v()], None).unwrap();
    let key = vec!["incomplete|src/a.rs:9".to_string()];
    c.raise_regressions(&key);
    c.raise_regressions(&key);
    let r = &c.consensus[0];
    assert_eq!(
        (r.severity, r.reported, r.regression),
        (Severity::High, Severity::Medium, true)
    );
    assert_eq!(c.verdict, Verdict::NoGo);
    let h = row(Severity::High, "dead-code", "src/a.rs:3");
    let mut single = Consensus::single(&verdict(Verdict::Go, &[h]).unwrap());
    single.raise_regressions(&["dead-code|src/a.rs:3".to_string()]);
    assert_eq!(
        (single.verdict, single.consensus[0].severity),
        (Verdict::NoGo, Severity::Critical)
    );
}

#[test]
fn partial_pipelines_never_make_a_go_consensus() {
    let partial = || {
        let mut cpf = VerdictCpf::new(Verdict::Conditional);
        cpf.notes = vec!["PARTIAL:inspector-quality|exited with code 2".into()];
        Some(cpf)
    };
    // Every pipeline lost an Inspector and nothing reached the threshold: the table says GO.
    let c = consensus(&[partial(), partial(), partial()], None).unwrap();
    assert_eq!((c.verdict, c.partial_coverage), (Verdict::Conditional, 3));
    // One partial pipeline among full GO ones is enough to keep the consensus from GO.
    let all = [
        verdict(Verdict::Go, &[]),
        partial(),
        verdict(Verdict::Go, &[]),
    ];
    let c = consensus(&all, None).unwrap();
    assert_eq!((c.verdict, c.partial_coverage), (Verdict::Conditional, 1));
    // A verdict file written GO despite its PARTIAL note (an older build) does not stand alone.
    let mut old = VerdictCpf::new(Verdict::Go);
    old.notes = vec!["PARTIAL:inspector-test|no report".into()];
    assert_eq!(Consensus::single(&old).verdict, Verdict::Conditional);
    // PARTIAL_VERIFICATION is about the audit's steps, not about a missing Inspector.
    let mut cut = VerdictCpf::new(Verdict::Go);
    cut.notes = vec!["PARTIAL_VERIFICATION|steps completed: 1..4".into()];
    assert_eq!(Consensus::single(&cut).verdict, Verdict::Go);
}
