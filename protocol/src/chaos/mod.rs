//! Fault injection (the supervision spec): which faults exist, how they are written, and which actor gets
//! which. A feature for users, not only for tests — so the vocabulary is small, named, and
//! round-trips through text (`inspector-quality#2:hang-at=inspect`).
//!
//! This module is the plan only. The actor side applies it in [`crate::session`]; the Lead
//! decides whether a plan is allowed at all (`[chaos] enabled`, `--chaos`) and which faults each
//! spawn gets ([`FaultPlan::for_actor`]).

mod text;

pub use text::ChaosParseError;

/// A named point in an actor's life where a fault can strike: the phase its heartbeats carry
/// (defined beside them; [`Phase::Idle`] is no such point and does not parse as one).
pub use crate::message::Phase;

/// One injected misbehaviour of an actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// `crash-at=PHASE`: dies on entering the phase (a process aborts).
    CrashAt(Phase),
    /// `hang-at=PHASE`: stops working and heartbeating on entering the phase, stays connected.
    HangAt(Phase),
    /// `stall-output`: keeps heartbeating but never delivers its report or verdict.
    StallOutput,
    /// `delay=MS`: waits this many milliseconds before delivering its report or verdict.
    Delay(u64),
    /// `garbage-frame`: sends an unauthenticated garbage frame instead of its report or verdict.
    GarbageFrame,
    /// `drop-after=N`: closes the connection once it has sent N envelopes (heartbeats count).
    DropAfter(u32),
    /// `exit-code=N`: exits with code N when its work starts (its first phase other than idle).
    ExitCode(u8),
    /// `fail-times=N`: its first N spawns crash before the handshake; later spawns behave.
    FailTimes(u32),
}

/// `ACTOR[#SPAWN]:FAULT` — a fault for one logical actor, on every spawn or on one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FaultSpec {
    /// The stable actor name (`lead`, `auditor`, `inspector-<kind>`, `implementer-<n>`).
    pub actor: String,
    /// The spawn it applies to (1 is the first); `None` means every spawn.
    pub spawn: Option<u32>,
    /// The fault.
    pub fault: Fault,
}

/// Every injected fault of a command: the merge of `--fault` flags and `[[chaos.faults]]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FaultPlan {
    /// The faults, in the order given.
    pub faults: Vec<FaultSpec>,
}

impl FaultPlan {
    /// Whether the plan injects nothing.
    pub fn is_empty(&self) -> bool {
        self.faults.is_empty()
    }

    /// The faults for spawn `spawn_no` (1-based) of the logical actor `logical_name`: the stable
    /// name, also when the re-spawn runs under another instance name (`inspector-quality-r1`).
    ///
    /// `fail-times` is returned for every spawn: the actor compares it with its spawn number.
    pub fn for_actor(&self, logical_name: &str, spawn_no: u32) -> Vec<Fault> {
        self.faults
            .iter()
            .filter(|f| f.actor == logical_name && (f.spawn.is_none() || f.spawn == Some(spawn_no)))
            .map(|f| f.fault)
            .collect()
    }
}

/// Where an actor runs, which decides what "crash" and "exit" mean for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProcessMode {
    /// Its own process: a crash is `abort()`, an exit code is `exit(n)`, a hang blocks the
    /// runtime's thread — all real, so the Lead's supervision meets the real thing.
    #[default]
    OwnProcess,
    /// Inside the Lead (the `inproc` runtime), where aborting would kill the Lead: a crash or an
    /// exit code closes the connection at once and the actor returns an error; a hang silences
    /// the actor until the Lead drops its connection.
    InProcess,
}

/// The faults one spawn of an actor applies, and how it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorFaults {
    /// Where the actor runs.
    pub mode: ProcessMode,
    /// Which spawn of its logical actor this is, 1-based (`fail-times` counts them).
    pub spawn_no: u32,
    /// The faults to apply (empty: the actor behaves).
    pub faults: Vec<Fault>,
}

impl ActorFaults {
    /// No faults: the first spawn of a well-behaved actor running in `mode`.
    pub fn none(mode: ProcessMode) -> ActorFaults {
        ActorFaults {
            mode,
            spawn_no: 1,
            faults: Vec::new(),
        }
    }
}

impl Default for ActorFaults {
    /// No faults, first spawn, own process.
    fn default() -> Self {
        ActorFaults::none(ProcessMode::default())
    }
}

#[cfg(test)]
mod tests;
