//! The text forms: `crash-at=inspect` for a fault, `auditor#1:stall-output` for a fault spec.
//! Display writes exactly what FromStr reads, so a plan can be logged, journaled and replayed.

use super::{Fault, FaultSpec, Phase};
use crate::domain::InspectorKind;
use std::fmt;
use std::str::FromStr;

const FAULTS: &str = "crash-at=PHASE, hang-at=PHASE, stall-output, delay=MS, garbage-frame, \
                      drop-after=N, exit-code=N or fail-times=N";
const PHASES: &str = "handshake, inspect, report, collect, audit, verdict, claim or execute";
const ACTORS: &str = "lead, auditor, inspector-KIND (rulebase, interface, test, quality, \
                      consistency, holistic) or implementer-N";

/// A fault plan entry that cannot be read; the message names the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChaosParseError {
    /// Not one of the fault names.
    #[error("unknown fault '{0}': expected {FAULTS}")]
    UnknownFault(String),
    /// Not one of the phase names.
    #[error("unknown phase '{0}': expected {PHASES}")]
    UnknownPhase(String),
    /// A fault that needs a value was given none.
    #[error("fault '{fault}' needs a value: {fault}={expected}")]
    MissingValue {
        /// The fault's name.
        fault: &'static str,
        /// What the value is.
        expected: &'static str,
    },
    /// A fault that takes no value was given one.
    #[error("fault '{fault}' takes no value (got '{fault}={value}')")]
    UnexpectedValue {
        /// The fault's name.
        fault: &'static str,
        /// The value given.
        value: String,
    },
    /// A numeric value is not a number in range.
    #[error("fault '{fault}': '{value}' is not {expected}")]
    BadNumber {
        /// The fault's name.
        fault: &'static str,
        /// The value given.
        value: String,
        /// What the value must be.
        expected: &'static str,
    },
    /// A fault spec without the `ACTOR:` prefix.
    #[error(
        "'{0}' names no actor: expected ACTOR[#SPAWN]:FAULT, e.g. inspector-quality:hang-at=inspect"
    )]
    MissingActor(String),
    /// An actor name that is not a stable actor name.
    #[error(
        "unknown actor '{0}': expected {ACTORS} (stable names only: select a re-spawn with #SPAWN)"
    )]
    UnknownActor(String),
    /// A `#SPAWN` that is not a positive number.
    #[error("'#{value}' after '{actor}' is not a spawn number (1 is the first spawn, 2 its re-spawn, …)")]
    BadSpawn {
        /// The actor name.
        actor: String,
        /// The text after `#`.
        value: String,
    },
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Phase {
    type Err = ChaosParseError;

    fn from_str(s: &str) -> Result<Phase, ChaosParseError> {
        Phase::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ChaosParseError::UnknownPhase(s.to_string()))
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::CrashAt(p) => write!(f, "crash-at={p}"),
            Fault::HangAt(p) => write!(f, "hang-at={p}"),
            Fault::StallOutput => f.write_str("stall-output"),
            Fault::Delay(ms) => write!(f, "delay={ms}"),
            Fault::GarbageFrame => f.write_str("garbage-frame"),
            Fault::DropAfter(n) => write!(f, "drop-after={n}"),
            Fault::ExitCode(n) => write!(f, "exit-code={n}"),
            Fault::FailTimes(n) => write!(f, "fail-times={n}"),
        }
    }
}

impl FromStr for Fault {
    type Err = ChaosParseError;

    fn from_str(s: &str) -> Result<Fault, ChaosParseError> {
        let s = s.trim();
        let (name, value) = match s.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (s, None),
        };
        let fault = match name {
            "crash-at" => Fault::CrashAt(value_of("crash-at", "PHASE", value)?.parse()?),
            "hang-at" => Fault::HangAt(value_of("hang-at", "PHASE", value)?.parse()?),
            "stall-output" => no_value("stall-output", value, Fault::StallOutput)?,
            "garbage-frame" => no_value("garbage-frame", value, Fault::GarbageFrame)?,
            "delay" => Fault::Delay(number(
                "delay",
                "MS",
                "milliseconds, e.g. delay=500",
                value,
            )?),
            "drop-after" => Fault::DropAfter(positive("drop-after", value)?),
            "fail-times" => Fault::FailTimes(positive("fail-times", value)?),
            "exit-code" => Fault::ExitCode(number(
                "exit-code",
                "N",
                "an exit code from 0 to 255",
                value,
            )?),
            _ => return Err(ChaosParseError::UnknownFault(s.to_string())),
        };
        Ok(fault)
    }
}

fn value_of<'v>(
    fault: &'static str,
    expected: &'static str,
    value: Option<&'v str>,
) -> Result<&'v str, ChaosParseError> {
    value
        .filter(|v| !v.is_empty())
        .ok_or(ChaosParseError::MissingValue { fault, expected })
}

fn no_value(fault: &'static str, value: Option<&str>, f: Fault) -> Result<Fault, ChaosParseError> {
    match value {
        None => Ok(f),
        Some(v) => Err(ChaosParseError::UnexpectedValue {
            fault,
            value: v.to_string(),
        }),
    }
}

fn number<N: FromStr>(
    fault: &'static str,
    placeholder: &'static str,
    expected: &'static str,
    value: Option<&str>,
) -> Result<N, ChaosParseError> {
    let v = value_of(fault, placeholder, value)?;
    v.parse().map_err(|_| ChaosParseError::BadNumber {
        fault,
        value: v.to_string(),
        expected,
    })
}

/// `drop-after` and `fail-times` counts: zero would be a no-op or a fault that cannot happen.
fn positive(fault: &'static str, value: Option<&str>) -> Result<u32, ChaosParseError> {
    let expected = "a count of at least 1";
    match number::<u32>(fault, "N", expected, value)? {
        0 => Err(ChaosParseError::BadNumber {
            fault,
            value: "0".into(),
            expected,
        }),
        n => Ok(n),
    }
}

impl fmt::Display for FaultSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.actor)?;
        if let Some(spawn) = self.spawn {
            write!(f, "#{spawn}")?;
        }
        write!(f, ":{}", self.fault)
    }
}

impl FromStr for FaultSpec {
    type Err = ChaosParseError;

    fn from_str(s: &str) -> Result<FaultSpec, ChaosParseError> {
        let s = s.trim();
        let Some((target, fault)) = s.split_once(':') else {
            return Err(ChaosParseError::MissingActor(s.to_string()));
        };
        let (actor, spawn) = match target.split_once('#') {
            Some((actor, spawn)) => (actor, Some(spawn_number(actor, spawn)?)),
            None => (target, None),
        };
        check_actor(actor)?;
        Ok(FaultSpec {
            actor: actor.to_string(),
            spawn,
            fault: fault.parse()?,
        })
    }
}

fn spawn_number(actor: &str, text: &str) -> Result<u32, ChaosParseError> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ChaosParseError::BadSpawn {
            actor: actor.to_string(),
            value: text.to_string(),
        }),
    }
}

/// Accepts the stable names of the supervision spec only: a plan names logical actors, never instances.
fn check_actor(actor: &str) -> Result<(), ChaosParseError> {
    let known = match actor {
        "lead" | "auditor" => true,
        _ => {
            if let Some(kind) = actor.strip_prefix("inspector-") {
                InspectorKind::ALL.iter().any(|k| k.as_str() == kind)
            } else if let Some(n) = actor.strip_prefix("implementer-") {
                n.parse::<u32>().is_ok_and(|n| n >= 1) && !n.starts_with(['0', '+'])
            } else {
                false
            }
        }
    };
    if known {
        Ok(())
    } else {
        Err(ChaosParseError::UnknownActor(actor.to_string()))
    }
}
