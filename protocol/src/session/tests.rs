//! Each injected fault's effect as the Lead sees it: an actor session on one end of an in-memory
//! stream, the Lead's side of the handshake on the other.

use super::*;
use crate::chaos::{Phase, ProcessMode};
use crate::domain::{Coverage, InspectorKind, InspectorReport};
use crate::message::{Count, Progress, Unit};
use crate::wire::{server_handshake, LinkWriter};
use std::time::Instant;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::timeout;

const BEAT: Duration = Duration::from_millis(20);
const NAME: &str = "inspector-quality";

fn secret() -> Secret {
    Secret::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff").unwrap()
}

fn wire() -> WireConfig {
    WireConfig {
        handshake_timeout: Duration::from_millis(300),
        ..WireConfig::default()
    }
}

fn setup(mode: ProcessMode, spawn_no: u32, faults: &[Fault], heartbeat: Duration) -> ActorSetup {
    let faults = ActorFaults {
        mode,
        spawn_no,
        faults: faults.to_vec(),
    };
    ActorSetup::new("inspector", "quality", NAME, wire(), heartbeat, faults)
}

fn report() -> Body {
    Body::InspectorReport(InspectorReport {
        review: "r1".into(),
        inspector: NAME.into(),
        kind: Some(InspectorKind::Quality),
        scope: "repository".into(),
        findings: Vec::new(),
        notes: vec!["chaos test".into()],
        claims: Vec::new(),
        coverage: Coverage::default(),
        preexisting: Vec::new(),
    })
}

/// The Lead's end of an authenticated connection.
struct Lead {
    reader: LinkReader,
    _writer: LinkWriter,
}

impl Lead {
    /// The next envelope within `within`: `Some(Ok(None))` at the end, `None` on silence.
    async fn next(&mut self, within: Duration) -> Option<Result<Option<Envelope>, WireError>> {
        timeout(within, self.reader.recv()).await.ok()
    }

    /// The next envelope that is not a heartbeat, and how many heartbeats came before it.
    async fn next_after_heartbeats(&mut self) -> (Result<Option<Envelope>, WireError>, u32) {
        let mut beats = 0;
        loop {
            match self
                .next(Duration::from_secs(5))
                .await
                .expect("the actor is silent")
            {
                Ok(Some(env)) if matches!(env.body, Body::Heartbeat { .. }) => beats += 1,
                other => return (other, beats),
            }
        }
    }

    /// Everything that arrives within `span`: heartbeats counted, anything else kept (the
    /// end of the stream or an error stops the watch).
    async fn during(&mut self, span: Duration) -> (u32, Vec<Result<Option<Envelope>, WireError>>) {
        let deadline = tokio::time::Instant::now() + span;
        let (mut beats, mut other) = (0, Vec::new());
        while let Ok(got) = tokio::time::timeout_at(deadline, self.reader.recv()).await {
            match got {
                Ok(Some(env)) if matches!(env.body, Body::Heartbeat { .. }) => beats += 1,
                Ok(Some(env)) => other.push(Ok(Some(env))),
                end => {
                    other.push(end);
                    break;
                }
            }
        }
        (beats, other)
    }

    /// Waits (up to 5 s) for `n` heartbeats and returns everything else that came with them:
    /// counting beats instead of timing them keeps these tests honest on a loaded machine.
    async fn beats(&mut self, n: u32) -> Vec<Result<Option<Envelope>, WireError>> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let (mut beats, mut other) = (0, Vec::new());
        while beats < n {
            match tokio::time::timeout_at(deadline, self.reader.recv()).await {
                Err(_) => panic!("{beats} of {n} heartbeats within 5 s; also {other:?}"),
                Ok(Ok(Some(env))) if matches!(env.body, Body::Heartbeat { .. }) => beats += 1,
                Ok(Ok(Some(env))) => other.push(Ok(Some(env))),
                Ok(end) => panic!("{beats} of {n} heartbeats, then {end:?}; also {other:?}"),
            }
        }
        other
    }
}

type Run = JoinHandle<Result<(), ActorError>>;

/// Starts an actor in this runtime; the session comes once it is authenticated.
fn spawn_actor(setup: ActorSetup) -> (tokio::io::DuplexStream, Run, oneshot::Receiver<Session>) {
    let (lead_end, actor_end) = tokio::io::duplex(64 * 1024);
    let (tx, rx) = oneshot::channel();
    let run = tokio::spawn(async move {
        run_actor(actor_end, &secret(), setup, move |session| {
            let _ = tx.send(session);
            |_env| {}
        })
        .await
    });
    (lead_end, run, rx)
}

/// Starts an actor in-process and completes the Lead's side of the handshake.
async fn connect(faults: &[Fault], heartbeat: Duration) -> (Lead, Session, Run) {
    let setup = setup(ProcessMode::InProcess, 1, faults, heartbeat);
    let (lead_end, run, session) = spawn_actor(setup);
    let (peer, reader, writer) = server_handshake(lead_end, &secret(), &wire())
        .await
        .unwrap();
    assert_eq!(peer.name, NAME);
    let session = session.await.expect("session started");
    let lead = Lead {
        reader,
        _writer: writer,
    };
    (lead, session, run)
}

async fn injected(run: Run) -> Fault {
    match timeout(Duration::from_secs(5), run).await {
        Ok(Ok(Err(ActorError::Injected { fault }))) => fault,
        other => panic!("expected an injected fault, got {other:?}"),
    }
}

fn is_report(got: &Result<Option<Envelope>, WireError>) -> bool {
    matches!(
        got,
        Ok(Some(Envelope {
            body: Body::InspectorReport(_),
            ..
        }))
    )
}

#[tokio::test]
async fn without_faults_the_report_arrives_and_heartbeats_go_on() {
    let (mut lead, session, _run) = connect(&[], BEAT).await;
    session.send(LEAD, report()).await.unwrap();
    let (got, _) = lead.next_after_heartbeats().await;
    assert!(is_report(&got), "{got:?}");
    // Heartbeats go on: that they keep coming is the point, not their exact rate.
    let other = lead.beats(3).await;
    assert!(other.is_empty(), "{other:?}");
}

#[tokio::test]
async fn an_in_process_crash_closes_the_link_and_returns_the_fault() {
    let crash = Fault::CrashAt(Phase::Inspect);
    let (mut lead, session, run) = connect(&[crash], BEAT).await;
    session.status.set(Phase::Idle, Progress::default());
    let other = lead.beats(2).await;
    assert!(other.is_empty(), "alive before: {other:?}");
    session.status.set(Phase::Inspect, Progress::default());
    assert_eq!(injected(run).await, crash);
    let (_, other) = lead.during(Duration::from_secs(5)).await;
    assert!(matches!(other[..], [Ok(None)]), "the link ends: {other:?}");
    assert!(matches!(
        session.send(LEAD, report()).await,
        Err(WireError::Closed)
    ));
}

#[tokio::test]
async fn an_in_process_exit_code_strikes_when_work_starts() {
    let exit = Fault::ExitCode(3);
    let (mut lead, session, run) = connect(&[exit], BEAT).await;
    session.status.set(Phase::Idle, Progress::default());
    let other = lead.beats(2).await;
    assert!(other.is_empty(), "idle is not work: {other:?}");
    session.status.set(
        Phase::Collect,
        Progress::counted(Count::tally(0, Unit::Reports)),
    );
    assert_eq!(injected(run).await, exit);
    let (_, other) = lead.during(Duration::from_secs(5)).await;
    assert!(matches!(other[..], [Ok(None)]), "{other:?}");
}

#[tokio::test]
async fn a_hang_stops_heartbeats_and_holds_the_report_until_the_lead_gives_up() {
    let hang = Fault::HangAt(Phase::Inspect);
    let (mut lead, session, run) = connect(&[hang], BEAT).await;
    let other = lead.beats(2).await;
    assert!(other.is_empty(), "heartbeating before the hang: {other:?}");
    session.status.set(Phase::Inspect, Progress::default());
    let owed = tokio::spawn(async move { session.send(LEAD, report()).await });
    lead.during(BEAT).await; // a heartbeat already on its way may still land
    let (beats, other) = lead.during(4 * BEAT).await;
    assert_eq!((beats, other.len()), (0, 0), "silent for 4 intervals");
    assert!(!owed.is_finished(), "the report is never sent");
    drop(lead);
    assert_eq!(injected(run).await, hang);
}

#[tokio::test]
async fn a_hang_in_its_own_process_blocks_the_runtime_and_its_heartbeats() {
    let (lead_end, actor_end) = tokio::io::duplex(64 * 1024);
    let setup = setup(
        ProcessMode::OwnProcess,
        1,
        &[Fault::HangAt(Phase::Inspect)],
        BEAT,
    );
    // The actor's own runtime on its own thread, as in an actor process: the hang parks that
    // thread for good (the test process exits around it).
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _never = rt.block_on(run_actor(actor_end, &secret(), setup, |session| {
            tokio::spawn(async move {
                tokio::time::sleep(10 * BEAT).await;
                session.status.set(Phase::Inspect, Progress::default());
            });
            |_env| {}
        }));
    });
    let (_, reader, writer) = server_handshake(lead_end, &secret(), &wire())
        .await
        .unwrap();
    let mut lead = Lead {
        reader,
        _writer: writer,
    };
    let started = Instant::now();
    let other = lead.beats(2).await;
    assert!(other.is_empty(), "heartbeating before the hang: {other:?}");
    while started.elapsed() < 11 * BEAT {
        lead.during(BEAT).await;
    }
    let (beats, other) = lead.during(4 * BEAT).await;
    assert_eq!((beats, other.len()), (0, 0), "no heartbeat for 4 intervals");
}

#[tokio::test]
async fn stall_output_heartbeats_but_never_delivers() {
    let (mut lead, session, _run) = connect(&[Fault::StallOutput], BEAT).await;
    session.send(LEAD, report()).await.unwrap();
    let other = lead.beats(8).await;
    assert!(other.is_empty(), "heartbeats, no report: {other:?}");
}

#[tokio::test]
async fn delay_holds_the_report_for_its_time_while_heartbeats_go_on() {
    let (mut lead, session, _run) = connect(&[Fault::Delay(150)], BEAT).await;
    let sent = Instant::now();
    tokio::spawn(async move { session.send(LEAD, report()).await });
    let (got, beats) = lead.next_after_heartbeats().await;
    let waited = sent.elapsed();
    assert!(is_report(&got), "{got:?}");
    assert!(waited >= Duration::from_millis(150), "after {waited:?}");
    assert!(beats >= 2, "heartbeats while delayed: {beats}");
}

#[tokio::test]
async fn a_garbage_frame_replaces_the_report_and_fails_the_leads_reader() {
    let (mut lead, session, _run) = connect(&[Fault::GarbageFrame], BEAT).await;
    session.send(LEAD, Body::Goodbye).await.unwrap();
    let (got, _) = lead.next_after_heartbeats().await;
    assert!(
        matches!(
            got,
            Ok(Some(Envelope {
                body: Body::Goodbye,
                ..
            }))
        ),
        "not an output"
    );
    session.send(LEAD, report()).await.unwrap();
    let (got, _) = lead.next_after_heartbeats().await;
    assert!(matches!(got, Err(WireError::BadMac)), "{got:?}");
}

#[tokio::test]
async fn drop_after_two_sends_exactly_two_envelopes_then_ends() {
    let drop2 = Fault::DropAfter(2);
    // The first heartbeat goes at once; the next would be an hour later.
    let (mut lead, session, run) = connect(&[drop2], Duration::from_secs(3600)).await;
    let first = lead.next(Duration::from_secs(5)).await;
    assert!(matches!(
        first,
        Some(Ok(Some(Envelope {
            body: Body::Heartbeat { .. },
            ..
        })))
    ));
    let mut results = Vec::new();
    for n in 1..=3 {
        let note = Body::AllReportsIn {
            review: format!("r{n}"),
        };
        results.push(session.send(LEAD, note).await.map_err(|e| e.to_string()));
    }
    let closed = Err(WireError::Closed.to_string());
    assert_eq!(results, [Ok(()), closed.clone(), closed]);
    let second = lead.next(Duration::from_secs(5)).await;
    assert!(
        matches!(&second, Some(Ok(Some(Envelope { body: Body::AllReportsIn { review }, .. }))) if review == "r1"),
        "{second:?}"
    );
    assert!(matches!(
        lead.next(Duration::from_secs(5)).await,
        Some(Ok(None))
    ));
    assert_eq!(injected(run).await, drop2);
}

#[tokio::test]
async fn fail_times_one_crashes_the_first_spawn_at_handshake_and_spares_the_second() {
    let fail = Fault::FailTimes(1);
    let (lead_end, run, session) = spawn_actor(setup(ProcessMode::InProcess, 1, &[fail], BEAT));
    assert!(server_handshake(lead_end, &secret(), &wire())
        .await
        .is_err());
    assert!(session.await.is_err(), "never authenticated");
    assert_eq!(injected(run).await, fail);

    let (lead_end, _run, session) = spawn_actor(setup(ProcessMode::InProcess, 2, &[fail], BEAT));
    let (_, reader, writer) = server_handshake(lead_end, &secret(), &wire())
        .await
        .unwrap();
    let mut lead = Lead {
        reader,
        _writer: writer,
    };
    session.await.unwrap().send(LEAD, report()).await.unwrap();
    let (got, _) = lead.next_after_heartbeats().await;
    assert!(is_report(&got), "{got:?}");
}

#[tokio::test]
async fn a_hang_at_handshake_stays_silent_until_the_lead_times_out() {
    let hang = Fault::HangAt(Phase::Handshake);
    let (lead_end, run, _session) = spawn_actor(setup(ProcessMode::InProcess, 1, &[hang], BEAT));
    let refused = server_handshake(lead_end, &secret(), &wire()).await;
    assert!(matches!(refused, Err(WireError::Timeout("handshake"))));
    assert_eq!(injected(run).await, hang);
}
