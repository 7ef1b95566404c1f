//! Whether a command may inject faults, and which (the supervision spec): `--fault` flags and
//! `[[chaos.faults]]` merged into one plan, refused unless injection is enabled by `--chaos` or
//! `[chaos] enabled = true` — fault injection is never on by accident.

use crate::cli::ChaosArgs;
use crate::config::{FaultEntry, Settings};
use protocol::chaos::{ChaosParseError, FaultPlan, FaultSpec};

/// A fault plan that cannot be used; the command exits 2 with this message.
#[derive(Debug, thiserror::Error)]
pub enum ChaosError {
    /// Faults were given while fault injection is off.
    #[error(
        "fault injection is disabled: pass --chaos or set [chaos] enabled = true \
         (faults given: {faults})"
    )]
    Disabled {
        /// The faults, in their `--fault` text form, comma separated.
        faults: String,
    },
    /// A `[[chaos.faults]]` entry does not parse.
    #[error("[[chaos.faults]] entry {number} ('{text}'): {source}")]
    BadConfigFault {
        /// The entry's position, 1-based.
        number: usize,
        /// The entry as `ACTOR[#SPAWN]:FAULT`.
        text: String,
        /// What is wrong with it.
        source: ChaosParseError,
    },
}

/// The command's fault plan: configured faults then `--fault` flags, duplicates dropped.
/// Empty when nothing is injected; [`ChaosError::Disabled`] when faults are given but neither
/// `args.chaos` nor `[chaos] enabled` allows them.
pub fn fault_plan(args: &ChaosArgs, settings: &Settings) -> Result<FaultPlan, ChaosError> {
    let mut faults: Vec<FaultSpec> = Vec::new();
    let configured = settings.chaos.faults.iter().enumerate().map(parse_entry);
    for spec in configured.collect::<Result<Vec<_>, _>>()? {
        if !faults.contains(&spec) {
            faults.push(spec);
        }
    }
    for spec in &args.faults {
        if !faults.contains(spec) {
            faults.push(spec.clone());
        }
    }
    let enabled = args.chaos || settings.chaos.enabled;
    if !enabled && !faults.is_empty() {
        let given: Vec<String> = faults.iter().map(FaultSpec::to_string).collect();
        return Err(ChaosError::Disabled {
            faults: given.join(", "),
        });
    }
    Ok(FaultPlan { faults })
}

fn parse_entry((i, entry): (usize, &FaultEntry)) -> Result<FaultSpec, ChaosError> {
    let text = entry.to_spec_text();
    text.parse().map_err(|source| ChaosError::BadConfigFault {
        number: i + 1,
        text,
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::chaos::{Fault, Phase};

    fn args(chaos: bool, faults: &[&str]) -> ChaosArgs {
        ChaosArgs {
            chaos,
            faults: faults.iter().map(|f| f.parse().expect("valid")).collect(),
        }
    }

    fn settings(enabled: bool, entries: &[(&str, Option<u32>, &str)]) -> Settings {
        let mut s = Settings::default();
        s.chaos.enabled = enabled;
        s.chaos.faults = entries
            .iter()
            .map(|(actor, spawn, fault)| FaultEntry {
                actor: actor.to_string(),
                spawn: *spawn,
                fault: fault.to_string(),
            })
            .collect();
        s
    }

    fn texts(plan: &FaultPlan) -> Vec<String> {
        plan.faults.iter().map(FaultSpec::to_string).collect()
    }

    #[test]
    fn nothing_given_is_an_empty_plan_whether_enabled_or_not() {
        assert!(fault_plan(&args(false, &[]), &settings(false, &[]))
            .expect("no faults")
            .is_empty());
        assert!(fault_plan(&args(true, &[]), &settings(true, &[]))
            .expect("no faults")
            .is_empty());
    }

    #[test]
    fn config_and_flags_merge_in_order_without_duplicates() {
        let s = settings(
            false,
            &[
                ("auditor", Some(1), "stall-output"),
                ("inspector-quality", None, "hang-at=inspect"),
            ],
        );
        let a = args(
            true,
            &[
                "inspector-quality:hang-at=inspect",
                "inspector-test:delay=500",
            ],
        );
        let plan = fault_plan(&a, &s).expect("enabled by --chaos");
        assert_eq!(
            texts(&plan),
            [
                "auditor#1:stall-output",
                "inspector-quality:hang-at=inspect",
                "inspector-test:delay=500"
            ]
        );
        assert_eq!(
            plan.for_actor("inspector-quality", 2),
            [Fault::HangAt(Phase::Inspect)]
        );
    }

    #[test]
    fn config_enabled_allows_flag_faults_without_the_flag() {
        let plan = fault_plan(
            &args(false, &["auditor#2:crash-at=verdict"]),
            &settings(true, &[]),
        )
        .expect("enabled in config");
        assert_eq!(texts(&plan), ["auditor#2:crash-at=verdict"]);
    }

    #[test]
    fn faults_without_chaos_enabled_are_refused_listing_them() {
        let err = fault_plan(
            &args(false, &["inspector-quality:crash-at=inspect"]),
            &settings(false, &[("auditor", None, "garbage-frame")]),
        )
        .expect_err("disabled");
        assert_eq!(
            err.to_string(),
            "fault injection is disabled: pass --chaos or set [chaos] enabled = true \
             (faults given: auditor:garbage-frame, inspector-quality:crash-at=inspect)"
        );
    }

    #[test]
    fn a_bad_config_entry_is_named_with_its_position() {
        let s = settings(
            true,
            &[
                ("auditor", None, "stall-output"),
                ("inspector-style", Some(2), "delay=5"),
            ],
        );
        let err = fault_plan(&args(false, &[]), &s).expect_err("bad actor");
        assert!(
            matches!(&err, ChaosError::BadConfigFault { number: 2, text, .. } if text == "inspector-style#2:delay=5"),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("unknown actor 'inspector-style'"),
            "{err}"
        );
        let s = settings(false, &[("auditor", Some(0), "stall-output")]);
        let err = fault_plan(&args(false, &[]), &s).expect_err("spawn 0");
        assert!(err.to_string().contains("'#0' after 'auditor'"), "{err}");
    }
}
