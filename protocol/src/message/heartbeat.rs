//! What a heartbeat says about its actor: the [`Phase`] it is in and how far its work has got
//! ([`Progress`]), typed so that the Lead decides by matching values, and renders the text people
//! read (`module:** 120/300`, `3 reports`) in one place.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A named point in an actor's life: what its heartbeats say it is doing, and where an injected
/// `crash-at` or `hang-at` fault can strike ([`crate::chaos`]).
///
/// Actors enter a phase through [`crate::session::Status::set`]; `handshake` is the moment before
/// the actor authenticates, so no heartbeat carries it. Wire rule: append-only (bincode encodes
/// a variant by its index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Phase {
    /// No work in hand: waiting for a request or a task, or done with the last one. No fault
    /// strikes here (`crash-at=idle` is not a fault).
    #[default]
    Idle,
    /// Before the handshake with the Lead.
    Handshake,
    /// An Inspector reviewing its scope.
    Inspect,
    /// An Inspector about to send its report.
    Report,
    /// The Auditor collecting reports before `AllReportsIn`.
    Collect,
    /// The Auditor auditing.
    Audit,
    /// The Auditor about to send its verdict.
    Verdict,
    /// An Implementer claiming a task.
    Claim,
    /// An Implementer carrying a task out.
    Execute,
}

impl Phase {
    /// Every phase a fault can strike at (all but [`Phase::Idle`]), in the order of an actor's
    /// life.
    pub const ALL: [Phase; 8] = [
        Phase::Handshake,
        Phase::Inspect,
        Phase::Report,
        Phase::Collect,
        Phase::Audit,
        Phase::Verdict,
        Phase::Claim,
        Phase::Execute,
    ];

    /// The text form, as faults name it and the progress display shows it (`inspect`).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Handshake => "handshake",
            Phase::Inspect => "inspect",
            Phase::Report => "report",
            Phase::Collect => "collect",
            Phase::Audit => "audit",
            Phase::Verdict => "verdict",
            Phase::Claim => "claim",
            Phase::Execute => "execute",
        }
    }
}

/// What a count counts. Wire rule: append-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unit {
    /// Steps of an Inspector's rules (each file of the file pass, then each rule's project
    /// step): shown as bare numbers (`120/300`).
    Steps,
    /// Inspector reports (the Auditor's): `3 reports`.
    Reports,
    /// Findings (an Inspector's report): `4 findings`.
    Findings,
}

impl Unit {
    /// The word shown after the numbers, if any (always plural: `1 reports`, as ever shown).
    pub fn word(self) -> Option<&'static str> {
        match self {
            Unit::Steps => None,
            Unit::Reports => Some("reports"),
            Unit::Findings => Some("findings"),
        }
    }
}

/// How many of something: `done` alone (`3 reports`) or `done` of `total` (`120/300`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Count {
    /// How many so far.
    pub done: u64,
    /// How many in all, when known.
    pub total: Option<u64>,
    /// What is counted.
    pub unit: Unit,
}

impl Count {
    /// `done` of `total` (`120/300`); `done` is never shown past `total`.
    pub fn of(done: u64, total: u64, unit: Unit) -> Count {
        Count {
            done: done.min(total),
            total: Some(total),
            unit,
        }
    }

    /// A count without a total (`3 reports`).
    pub fn tally(done: u64, unit: Unit) -> Count {
        Count {
            done,
            total: None,
            unit,
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.total {
            Some(total) => write!(f, "{}/{total}", self.done)?,
            None => write!(f, "{}", self.done)?,
        }
        match self.unit.word() {
            Some(word) => write!(f, " {word}"),
            None => Ok(()),
        }
    }
}

/// How far an actor's current work has got: what it is on, then how much of it is done. Shown as
/// `{about} {count}` (`module:** 120/300`), either part alone when the other is missing
/// (`repository`, `3 reports`), nothing when both are.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Progress {
    /// What the work is on, in words: an Inspector's scope (`module:**`), an Implementer's task
    /// subject, the Auditor's verdict (`GO`); empty when there is nothing to name.
    pub about: String,
    /// How much is done, when the actor counts.
    pub count: Option<Count>,
}

impl Progress {
    /// Progress that only names what the work is on.
    pub fn about(about: impl Into<String>) -> Progress {
        Progress {
            about: about.into(),
            count: None,
        }
    }

    /// Progress that is only a count.
    pub fn counted(count: Count) -> Progress {
        Progress {
            about: String::new(),
            count: Some(count),
        }
    }

    /// The same, counting `count` (or no longer counting, for `None`).
    pub fn with_count(mut self, count: Option<Count>) -> Progress {
        self.count = count;
        self
    }

    /// Whether there is nothing to show (the text form is empty).
    pub fn is_empty(&self) -> bool {
        self.about.is_empty() && self.count.is_none()
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.about)?;
        match &self.count {
            Some(count) if self.about.is_empty() => write!(f, "{count}"),
            Some(count) => write!(f, " {count}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_renders_as_actors_wrote_it() {
        let scope = Progress::about("module:**");
        assert_eq!(scope.to_string(), "module:**");
        let counting = scope.with_count(Some(Count::of(120, 300, Unit::Steps)));
        assert_eq!(counting.to_string(), "module:** 120/300");
        assert_eq!(
            Progress::counted(Count::tally(3, Unit::Reports)).to_string(),
            "3 reports"
        );
        assert_eq!(
            Progress::counted(Count::tally(1, Unit::Findings)).to_string(),
            "1 findings"
        );
        assert_eq!(
            Progress::counted(Count::of(7, 10, Unit::Reports)).to_string(),
            "7/10 reports"
        );
        assert_eq!(Progress::about("GO").to_string(), "GO");
        assert_eq!(Progress::default().to_string(), "");
    }

    #[test]
    fn empty_means_nothing_to_show() {
        assert!(Progress::default().is_empty());
        assert!(!Progress::about("x").is_empty());
        let zero = Progress::counted(Count::tally(0, Unit::Reports));
        assert!(!zero.is_empty());
        assert_eq!(zero.to_string(), "0 reports");
    }

    #[test]
    fn a_count_never_shows_past_its_total() {
        assert_eq!(Count::of(5, 3, Unit::Steps), Count::of(3, 3, Unit::Steps));
        assert_eq!(Count::of(5, 3, Unit::Steps).to_string(), "3/3");
    }

    #[test]
    fn phases_name_themselves_and_idle_is_the_default() {
        assert_eq!(Phase::default(), Phase::Idle);
        assert_eq!(Phase::Idle.as_str(), "idle");
        assert!(
            !Phase::ALL.contains(&Phase::Idle),
            "no fault strikes at idle"
        );
        let names: Vec<_> = Phase::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(
            names,
            [
                "handshake",
                "inspect",
                "report",
                "collect",
                "audit",
                "verdict",
                "claim",
                "execute"
            ]
        );
    }

    #[test]
    fn heartbeat_values_round_trip_the_codec() {
        let progress = Progress::about("module:**").with_count(Some(Count::of(1, 2, Unit::Steps)));
        for value in [
            (Phase::Inspect, progress),
            (Phase::Idle, Progress::default()),
        ] {
            let bytes = crate::wire::encode_cached(&value).expect("encodes");
            let back: (Phase, Progress) = crate::wire::decode_cached(&bytes).expect("decodes");
            assert_eq!(back, value);
        }
    }
}
