//! The chaos soak (`--soak N --seed S`): N runs of the given scenarios' reviews with random
//! faults, checked against the invariants of the supervision spec instead of fixed expectations — every
//! run ends with a verdict or a documented escalation, no report is lost between the journal and
//! the verdict, missing Inspectors are named (and their verdict is never GO), and no process is
//! left over.
//!
//! The plan is a pure function of the seed, so a violation replays with the same `--seed`.

use super::expect::Expect;
use super::file::Scenario;
use super::observed::Observed;
use super::prng::XorShift;
use protocol::chaos::{Fault, FaultSpec, Phase};
use protocol::InspectorKind;

/// Short deadlines so that a hung or silent actor costs seconds; a scenario's own `config`
/// overrides any of them.
pub const SOAK_ENV: [(&str, &str); 6] = [
    ("RETAKE__SUPERVISION__INSPECT_DEADLINE_SECS", "2"),
    ("RETAKE__SUPERVISION__AUDIT_DEADLINE_MS", "1500"),
    ("RETAKE__SUPERVISION__NUDGE_TIMEOUT_MS", "1000"),
    ("RETAKE__SUPERVISION__CONNECT_TIMEOUT_MS", "3000"),
    ("RETAKE__SUPERVISION__SHUTDOWN_GRACE_MS", "300"),
    ("RETAKE__REVIEW__TIMEOUT_SECS", "60"),
];

/// A soak run's time bound, seconds (killed at twice this).
pub const SOAK_MAX_SECONDS: f64 = 45.0;

/// Exit codes that carry a verdict (the outputs spec), and the one of a documented escalation.
const VERDICT_CODES: [i32; 4] = [0, 1, 3, 4];
const ESCALATED: i32 = 5;

const INSPECTOR_PHASES: [Phase; 3] = [Phase::Handshake, Phase::Inspect, Phase::Report];
const AUDITOR_PHASES: [Phase; 4] = [
    Phase::Handshake,
    Phase::Collect,
    Phase::Audit,
    Phase::Verdict,
];

/// The soak's runs: run `i` reviews like `bases[i % len]` with 1–2 random faults on distinct
/// actors, the soak's short deadlines, and the invariants' time and leftover checks.
pub fn scenarios(bases: &[Scenario], runs: u32, seed: u64) -> Vec<Scenario> {
    let mut rng = XorShift::new(seed);
    (0..runs)
        .filter_map(|i| {
            let base = bases.get(usize::try_from(i).ok()? % bases.len().max(1))?;
            let faults = random_faults(&mut rng)
                .iter()
                .map(ToString::to_string)
                .collect();
            let mut env = base.env.clone();
            for (key, value) in SOAK_ENV {
                if !env.iter().any(|(k, _)| k == key) {
                    env.push((key.to_string(), value.to_string()));
                }
            }
            Some(Scenario {
                name: format!("soak-{:03}", i + 1),
                faults,
                env,
                expect: Expect {
                    max_seconds: Some(SOAK_MAX_SECONDS),
                    ..Expect::default()
                },
                ..base.clone()
            })
        })
        .collect()
}

/// One or two faults, on distinct logical actors (six Inspectors and the Auditor).
pub fn random_faults(rng: &mut XorShift) -> Vec<FaultSpec> {
    let mut actors: Vec<String> = InspectorKind::ALL.iter().map(|k| k.actor_name()).collect();
    actors.push("auditor".into());
    let count = rng.between(1, 2);
    let mut faults = Vec::new();
    for _ in 0..count {
        let i = usize::try_from(rng.below(actors.len() as u64)).unwrap_or(0);
        let actor = actors.remove(i.min(actors.len() - 1));
        let phases: &[Phase] = if actor == "auditor" {
            &AUDITOR_PHASES
        } else {
            &INSPECTOR_PHASES
        };
        let fault = match rng.below(8) {
            0 => Fault::CrashAt(*rng.pick(phases)),
            1 => Fault::HangAt(*rng.pick(phases)),
            2 => Fault::StallOutput,
            3 => Fault::Delay(rng.between(50, 1500)),
            4 => Fault::GarbageFrame,
            5 => Fault::DropAfter(u32::try_from(rng.between(1, 4)).unwrap_or(1)),
            6 => Fault::ExitCode(*rng.pick(&[0, 1, 101])),
            _ => Fault::FailTimes(u32::try_from(rng.between(1, 2)).unwrap_or(1)),
        };
        let spawn = match rng.below(4) {
            0 | 1 => None,
            n => u32::try_from(n - 1).ok(),
        };
        faults.push(FaultSpec {
            actor,
            spawn,
            fault,
        });
    }
    faults
}

/// The invariants a soak run must keep, whatever its faults; empty when it kept them all.
pub fn invariants(got: &Observed) -> Vec<String> {
    let mut broken = Vec::new();
    match got.exit_code {
        Some(code) if VERDICT_CODES.contains(&code) => {
            if got.field("verdict").is_none() {
                broken.push(format!("exit {code} without a JSON verdict"));
            }
        }
        Some(ESCALATED) => {}
        _ if got.timed_out => {} // the time check already says it
        _ => broken.push(format!("no verdict and no escalation: {}", got.ending())),
    }
    if got.json.is_none() {
        return broken;
    }
    let coverage = got.coverage();
    for (agent, status) in &coverage {
        let journaled = got.journal.iter().any(|j| j == agent);
        if *status == "ok" && !journaled {
            broken.push(format!("{agent} delivered a report that was not journaled"));
        }
    }
    for j in &got.journal {
        if !coverage.iter().any(|(a, s)| a == j && *s == "ok") {
            broken.push(format!(
                "journaled report {j} is missing from the verdict's coverage"
            ));
        }
    }
    let answered = coverage.iter().filter(|(_, s)| *s == "ok").count();
    let notes = got.notes();
    let partial = |agent: &str| {
        notes
            .iter()
            .any(|n| n.starts_with(&format!("PARTIAL:{agent}|")))
    };
    if answered < coverage.len() {
        let q = format!("partial coverage ({answered}/{})", coverage.len());
        if !got.qualifiers().contains(&q.as_str()) {
            broken.push(format!(
                "{answered}/{} Inspectors answered but the verdict lacks '{q}'",
                coverage.len()
            ));
        }
        if got.field("verdict") == Some("GO") {
            broken.push(format!(
                "{answered}/{} Inspectors answered but the verdict is GO",
                coverage.len()
            ));
        }
    }
    for (agent, status) in &coverage {
        match (*status == "ok", partial(agent)) {
            (false, false) => broken.push(format!(
                "{agent} is unavailable without a PARTIAL:{agent} note"
            )),
            (true, true) => broken.push(format!("{agent} delivered but carries a PARTIAL note")),
            _ => {}
        }
    }
    broken
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_plan_is_a_function_of_the_seed_and_uses_valid_faults() {
        let mut a = XorShift::new(11);
        let mut b = XorShift::new(11);
        for _ in 0..200 {
            let fa = random_faults(&mut a);
            assert_eq!(fa, random_faults(&mut b));
            assert!((1..=2).contains(&fa.len()));
            if fa.len() == 2 {
                assert_ne!(fa[0].actor, fa[1].actor);
            }
            for f in &fa {
                let text = f.to_string();
                assert_eq!(text.parse::<FaultSpec>().as_ref(), Ok(f), "{text}");
                assert!(matches!(f.spawn, None | Some(1) | Some(2)), "{text}");
            }
        }
    }

    fn got(json: serde_json::Value, journal: &[&str]) -> Observed {
        Observed {
            exit_code: Some(0),
            json: Some(json),
            journal: journal.iter().map(|s| s.to_string()).collect(),
            ..Observed::default()
        }
    }

    #[test]
    fn a_partial_run_that_names_its_missing_inspector_keeps_the_invariants() {
        let j = json!({
            "verdict": "CONDITIONAL", "qualifiers": ["partial coverage (1/2)"],
            "notes": ["PARTIAL:inspector-test|unavailable after retry"],
            "coverage": {"inspector-quality": {"status": "ok"}, "inspector-test": {"status": "unavailable"}}
        });
        assert_eq!(
            invariants(&got(j, &["inspector-quality"])),
            Vec::<String>::new()
        );
        let escalated = Observed {
            exit_code: Some(5),
            ..Observed::default()
        };
        assert_eq!(invariants(&escalated), Vec::<String>::new());
    }

    #[test]
    fn lost_reports_silent_gaps_and_missing_verdicts_are_violations() {
        let j = json!({
            "verdict": "GO", "qualifiers": [], "notes": [],
            "coverage": {"inspector-quality": {"status": "ok"}, "inspector-test": {"status": "unavailable"}}
        });
        assert_eq!(
            invariants(&got(j, &["inspector-test"])),
            vec![
                "inspector-quality delivered a report that was not journaled".to_string(),
                "journaled report inspector-test is missing from the verdict's coverage".into(),
                "1/2 Inspectors answered but the verdict lacks 'partial coverage (1/2)'".into(),
                "1/2 Inspectors answered but the verdict is GO".into(),
                "inspector-test is unavailable without a PARTIAL:inspector-test note".into(),
            ]
        );
        let failed = Observed {
            exit_code: Some(2),
            stderr_tail: "retake: error: x".into(),
            ..Observed::default()
        };
        assert_eq!(
            invariants(&failed),
            vec!["no verdict and no escalation: exit 2 (retake: error: x)".to_string()]
        );
    }
}
