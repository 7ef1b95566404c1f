//! Applying one actor's injected faults at the session's hooks: before the handshake, on entering
//! a phase, on delivering its output (report or verdict), and on every send.
//!
//! What a fault does depends on where the actor runs ([`ProcessMode`]): in its own process a
//! crash is `abort()`, an exit code is `exit(n)` and a hang blocks the thread that entered the
//! phase — the session's runtime thread, which the heartbeat task shares, so heartbeats stop for
//! real. In-process (the Lead's `inproc` runtime) those would take the Lead down with the actor,
//! so a crash or exit code instead closes the connection at once, and a hang silences the
//! session (no heartbeats, no sends, incoming ignored) until the Lead drops the connection.

use crate::chaos::{ActorFaults, Fault, Phase, ProcessMode};
use crate::message::{Body, Envelope};
use crate::wire::{Outbox, WireError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{watch, Mutex};

/// Why a session stops early, as `run_actor` learns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// An in-process crash or exit code: close now, return the fault.
    Crash(Fault),
    /// Silent from now on: no heartbeats, no sends, incoming ignored.
    Hang(Fault),
    /// `drop-after`'s count was reached and the connection closed behind the last envelope.
    Dropped(Fault),
}

/// What entering a phase triggers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Strike {
    /// Die.
    Crash(Fault),
    /// Stop working and heartbeating.
    Hang(Fault),
    /// Exit with this code.
    Exit(u8, Fault),
}

impl Strike {
    pub(super) fn fault(self) -> Fault {
        match self {
            Strike::Crash(f) | Strike::Hang(f) | Strike::Exit(_, f) => f,
        }
    }
}

/// What delivering a report or verdict runs into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct OutputFaults {
    /// Swallow it (`stall-output`).
    pub(super) stall: bool,
    /// Wait first (`delay`; the longest if several).
    pub(super) delay_ms: Option<u64>,
    /// Send a garbage frame instead (`garbage-frame`).
    pub(super) garbage: bool,
}

/// The fault before the handshake, if any: `fail-times` while this spawn is within its count,
/// or `crash-at`/`hang-at` `handshake`.
pub(super) fn handshake_strike(faults: &ActorFaults) -> Option<Strike> {
    faults.faults.iter().find_map(|&f| match f {
        Fault::FailTimes(n) if faults.spawn_no <= n => Some(Strike::Crash(f)),
        Fault::CrashAt(Phase::Handshake) => Some(Strike::Crash(f)),
        Fault::HangAt(Phase::Handshake) => Some(Strike::Hang(f)),
        _ => None,
    })
}

/// The fault that strikes on entering `phase`; `first_work` says this is the actor's first
/// phase other than `idle` (where `exit-code` strikes).
pub(super) fn phase_strike(faults: &[Fault], phase: Phase, first_work: bool) -> Option<Strike> {
    faults.iter().find_map(|&f| match f {
        Fault::CrashAt(p) if p == phase => Some(Strike::Crash(f)),
        Fault::HangAt(p) if p == phase => Some(Strike::Hang(f)),
        Fault::ExitCode(code) if first_work => Some(Strike::Exit(code, f)),
        _ => None,
    })
}

/// The faults that apply when a report or verdict is delivered.
pub(super) fn output_faults(faults: &[Fault]) -> OutputFaults {
    faults.iter().fold(OutputFaults::default(), |mut o, f| {
        match *f {
            Fault::StallOutput => o.stall = true,
            Fault::Delay(ms) => o.delay_ms = o.delay_ms.max(Some(ms)),
            Fault::GarbageFrame => o.garbage = true,
            _ => {}
        }
        o
    })
}

/// Whether `body` is what the actor owes: the output faults act on these only.
pub(super) fn is_output(body: &Body) -> bool {
    matches!(
        body,
        Body::InspectorReport(_)
            | Body::AuditVerdict { .. }
            | Body::TaskCompleted { .. }
            | Body::TaskFailed { .. }
            | Body::Escalation { .. }
    )
}

/// One actor's faults and what they have done so far.
#[derive(Debug)]
pub(super) struct Injector {
    faults: ActorFaults,
    drop_after: Option<u32>,
    worked: AtomicBool,
    stop: watch::Sender<Option<Stop>>,
    /// Envelopes sent so far; held across a send so `drop-after` counts exactly.
    sent: Mutex<u32>,
}

impl Injector {
    pub(super) fn new(faults: ActorFaults) -> Injector {
        let drop_after = faults
            .faults
            .iter()
            .filter_map(|f| match f {
                Fault::DropAfter(n) => Some(*n),
                _ => None,
            })
            .min();
        Injector {
            faults,
            drop_after,
            worked: AtomicBool::new(false),
            stop: watch::channel(None).0,
            sent: Mutex::new(0),
        }
    }

    pub(super) fn handshake_strike(&self) -> Option<Strike> {
        handshake_strike(&self.faults)
    }

    /// Watches for an early stop; the value is set once and never cleared.
    /// Whether an injected crash, exit or hang has struck (in-process: the actor is to do
    /// nothing more).
    pub(super) fn struck(&self) -> bool {
        self.stop.borrow().is_some()
    }

    pub(super) fn subscribe(&self) -> watch::Receiver<Option<Stop>> {
        self.stop.subscribe()
    }

    /// The hook of [`super::Status::set`].
    pub(super) fn on_phase(&self, phase: Phase) {
        if self.faults.faults.is_empty() || self.stop.borrow().is_some() {
            return;
        }
        let first_work = phase != Phase::Idle && !self.worked.swap(true, Ordering::SeqCst);
        if let Some(strike) = phase_strike(&self.faults.faults, phase, first_work) {
            self.strike(strike);
        }
    }

    /// Carries a strike out. In its own process this does not return for a crash or an exit,
    /// nor for a hang on the calling thread; in-process it records the stop for `run_actor`.
    pub(super) fn strike(&self, strike: Strike) {
        let fault = strike.fault();
        tracing::warn!(%fault, "injected fault strikes");
        match (strike, self.faults.mode) {
            (Strike::Crash(_), ProcessMode::OwnProcess) => std::process::abort(),
            (Strike::Exit(code, _), ProcessMode::OwnProcess) => std::process::exit(code.into()),
            (Strike::Hang(_), ProcessMode::OwnProcess) => {
                // Silence other threads' sends too, then stop this one for good.
                self.signal(Stop::Hang(fault));
                loop {
                    std::thread::park();
                }
            }
            (Strike::Crash(_) | Strike::Exit(..), ProcessMode::InProcess) => {
                self.signal(Stop::Crash(fault))
            }
            (Strike::Hang(_), ProcessMode::InProcess) => self.signal(Stop::Hang(fault)),
        }
    }

    fn signal(&self, stop: Stop) {
        // The first stop wins: a crash after a hang changes nothing.
        self.stop.send_if_modified(|s| {
            let first = s.is_none();
            if first {
                *s = Some(stop);
            }
            first
        });
    }

    /// Lets a send through: pending forever once hung, [`WireError::Closed`] once stopped.
    pub(super) async fn gate(&self) -> Result<(), WireError> {
        let stop = *self.stop.borrow();
        match stop {
            None => Ok(()),
            Some(Stop::Hang(_)) => std::future::pending().await,
            Some(Stop::Crash(_) | Stop::Dropped(_)) => Err(WireError::Closed),
        }
    }

    /// Sends `env` (or, for an output under `garbage-frame`, a garbage frame instead) after the
    /// output faults, counting it for `drop-after`; `Ok(false)` when `stall-output` swallowed it.
    pub(super) async fn send(&self, outbox: &Outbox, env: Envelope) -> Result<bool, WireError> {
        self.gate().await?;
        if self.faults.faults.is_empty() {
            return outbox.send(env).await.map(|()| true);
        }
        let output = if is_output(&env.body) {
            output_faults(&self.faults.faults)
        } else {
            OutputFaults::default()
        };
        if output.stall {
            tracing::warn!(body = env.body.name(), "stall-output: swallowed");
            return Ok(false);
        }
        if let Some(ms) = output.delay_ms {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            self.gate().await?;
        }
        let Some(limit) = self.drop_after else {
            return push(outbox, env, output.garbage).await.map(|()| true);
        };
        let mut sent = self.sent.lock().await;
        self.gate().await?;
        if *sent >= limit {
            return Err(WireError::Closed);
        }
        push(outbox, env, output.garbage).await?;
        *sent += 1;
        if *sent == limit {
            tracing::warn!(limit, "drop-after: closing the connection");
            let closed = outbox.close().await;
            self.signal(Stop::Dropped(Fault::DropAfter(limit)));
            closed?;
        }
        Ok(true)
    }
}

async fn push(outbox: &Outbox, env: Envelope, garbage: bool) -> Result<(), WireError> {
    if garbage {
        tracing::warn!(body = env.body.name(), "garbage-frame: sent instead");
        outbox.send_garbage().await
    } else {
        outbox.send(env).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn faults(spawn_no: u32, faults: &[Fault]) -> ActorFaults {
        ActorFaults {
            mode: ProcessMode::InProcess,
            spawn_no,
            faults: faults.to_vec(),
        }
    }

    #[test]
    fn an_in_process_crash_leaves_the_actor_stopped_for_the_work_that_follows() {
        let injector = Injector::new(faults(1, &[Fault::CrashAt(Phase::Execute)]));
        injector.on_phase(Phase::Claim);
        assert!(!injector.struck(), "nothing struck on claiming");
        injector.on_phase(Phase::Execute);
        assert!(
            injector.struck(),
            "the crash at execute stops the work after it"
        );
    }

    #[test]
    fn fail_times_crashes_the_first_spawns_only() {
        let f = [Fault::FailTimes(2)];
        let crash = Some(Strike::Crash(Fault::FailTimes(2)));
        assert_eq!(handshake_strike(&faults(1, &f)), crash);
        assert_eq!(handshake_strike(&faults(2, &f)), crash);
        assert_eq!(handshake_strike(&faults(3, &f)), None);
        let hang = [Fault::HangAt(Phase::Handshake)];
        assert_eq!(
            handshake_strike(&faults(5, &hang)),
            Some(Strike::Hang(hang[0]))
        );
        assert_eq!(
            handshake_strike(&faults(1, &[Fault::CrashAt(Phase::Inspect)])),
            None
        );
    }

    #[test]
    fn phases_strike_as_entered_and_exit_code_on_the_first_work() {
        let f = [
            Fault::HangAt(Phase::Report),
            Fault::CrashAt(Phase::Audit),
            Fault::ExitCode(4),
        ];
        assert_eq!(
            phase_strike(&f, Phase::Report, false),
            Some(Strike::Hang(f[0]))
        );
        assert_eq!(
            phase_strike(&f, Phase::Audit, false),
            Some(Strike::Crash(f[1]))
        );
        assert_eq!(phase_strike(&f, Phase::Inspect, false), None);
        assert_eq!(
            phase_strike(&f, Phase::Inspect, true),
            Some(Strike::Exit(4, f[2]))
        );
    }

    #[test]
    fn exit_code_waits_for_the_first_phase_other_than_idle() {
        let inj = Injector::new(faults(1, &[Fault::ExitCode(3)]));
        let mut stopped = inj.subscribe();
        inj.on_phase(Phase::Idle);
        assert_eq!(*stopped.borrow_and_update(), None);
        inj.on_phase(Phase::Collect);
        assert_eq!(
            *stopped.borrow_and_update(),
            Some(Stop::Crash(Fault::ExitCode(3)))
        );
    }

    #[test]
    fn output_faults_combine_and_take_the_longest_delay() {
        let o = output_faults(&[
            Fault::Delay(100),
            Fault::GarbageFrame,
            Fault::Delay(300),
            Fault::CrashAt(Phase::Inspect),
        ]);
        assert_eq!(
            o,
            OutputFaults {
                stall: false,
                delay_ms: Some(300),
                garbage: true
            }
        );
        assert!(output_faults(&[Fault::StallOutput]).stall);
        assert!(!is_output(&Body::Goodbye));
    }
}
