//! Worker mode against a Lead played by the test over real loopback TCP: it comes back after
//! every session, waits for a Lead that is not there yet, and stops on a refusal or a stop.

use super::*;
use crate::chaos::{ActorFaults, ProcessMode};
use crate::message::{Body, Phase, Progress, LEAD};
use crate::session::ActorSetup;
use crate::wire::{server_handshake, LinkReader, LinkWriter, PeerInfo, Secret, WireConfig};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio::time::timeout;

const WAIT: Duration = Duration::from_secs(10);
const FAST: Backoff = Backoff {
    first: Duration::from_millis(20),
    max: Duration::from_millis(80),
};

fn secret() -> Secret {
    Secret::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff").unwrap()
}

fn setup() -> ActorSetup {
    let faults = ActorFaults::none(ProcessMode::OwnProcess);
    let name = worker_name("inspector-quality");
    let heartbeat = Duration::from_millis(50);
    ActorSetup::new(
        "inspector",
        "quality",
        &name,
        WireConfig::default(),
        heartbeat,
        faults,
    )
}

/// Starts a worker of `setup` against `lead`; `started` counts the sessions its actor saw.
fn start(lead: String, setup: ActorSetup) -> (JoinHandle<Result<(), ActorError>>, Arc<AtomicU32>) {
    let started = Arc::new(AtomicU32::new(0));
    let counted = started.clone();
    let run = tokio::spawn(async move {
        run(&lead, &secret(), setup, FAST, move |_session| {
            counted.fetch_add(1, Ordering::SeqCst);
            |_env| {}
        })
        .await
    });
    (run, started)
}

/// Accepts the next connection and completes the Lead's side of the handshake.
async fn accept(listener: &TcpListener, secret: &Secret) -> (PeerInfo, LinkReader, LinkWriter) {
    let (stream, _) = timeout(WAIT, listener.accept())
        .await
        .expect("the worker comes back")
        .unwrap();
    server_handshake(stream, secret, &WireConfig::default())
        .await
        .expect("the worker authenticates")
}

/// Waits for a heartbeat: the worker's side of the session is up (its handshake is done).
async fn heartbeat(reader: &mut LinkReader) {
    let got = timeout(WAIT, reader.recv()).await.expect("not silent");
    assert!(
        matches!(&got, Ok(Some(env)) if matches!(env.body, Body::Heartbeat { .. })),
        "{got:?}"
    );
}

/// The next envelope that is not a heartbeat.
async fn next_other(reader: &mut LinkReader) -> Option<Envelope> {
    loop {
        match timeout(WAIT, reader.recv()).await.expect("not silent") {
            Ok(Some(env)) if matches!(env.body, Body::Heartbeat { .. }) => continue,
            Ok(other) => return other,
            Err(e) => panic!("bad frame: {e}"),
        }
    }
}

#[test]
fn the_backoff_doubles_up_to_its_bound_and_jitters_into_the_upper_half() {
    let b = Backoff::default();
    let mut d = b.first;
    let mut seen = Vec::new();
    for _ in 0..8 {
        seen.push(d.as_millis());
        d = b.next(d);
    }
    assert_eq!(seen, [250, 500, 1000, 2000, 4000, 8000, 10000, 10000]);
    for _ in 0..100 {
        let j = Backoff::jittered(Duration::from_millis(800));
        assert!((400..=800).contains(&j.as_millis()), "{j:?}");
    }
}

#[test]
fn a_worker_name_is_the_actor_name_at_host_and_pid() {
    let name = worker_name("auditor");
    let (actor, rest) = name.split_once('@').expect("an @");
    assert_eq!(actor, "auditor");
    let pid = format!("-{}", std::process::id());
    assert!(rest.ends_with(&pid) && rest.len() > pid.len(), "{name}");
}

#[tokio::test]
async fn a_worker_comes_back_after_a_dropped_connection_and_after_shutdown() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let setup = setup();
    let (stop, metrics) = (setup.stop.clone(), setup.metrics.clone());
    let (run, started) = start(listener.local_addr().unwrap().to_string(), setup);

    // 1: the Lead drops the connection right after the handshake.
    let (first, reader, writer) = accept(&listener, &secret()).await;
    assert_eq!(
        (first.role.as_str(), first.kind.as_str()),
        ("inspector", "quality")
    );
    assert!(
        first.name.starts_with("inspector-quality@"),
        "{}",
        first.name
    );
    drop((reader, writer));

    // 2: same name again; the job ends with Shutdown, which the worker acknowledges.
    let (second, mut reader, mut writer) = accept(&listener, &secret()).await;
    assert_eq!(second, first);
    let shutdown = Envelope::new(LEAD, second.name.as_str(), Body::Shutdown { grace_ms: 100 });
    writer.send(&shutdown).await.unwrap();
    let ack = next_other(&mut reader).await.expect("an answer");
    assert_eq!(ack.body, Body::ShutdownAck);

    // 3: back for the next job; a stop (SIGTERM) now says Goodbye and ends the worker.
    let (third, mut reader, _writer) = accept(&listener, &secret()).await;
    assert_eq!(third.name, first.name);
    heartbeat(&mut reader).await;
    stop.cancel();
    let bye = next_other(&mut reader).await.expect("a goodbye");
    assert_eq!(bye.body, Body::Goodbye);
    let ended = timeout(WAIT, run).await.expect("the worker ends").unwrap();
    assert!(ended.is_ok(), "{ended:?}");
    assert_eq!(started.load(Ordering::SeqCst), 3);
    assert_eq!(metrics.sessions(), 3);
    assert_eq!(metrics.readiness(), Err("no session with the Lead"));
}

#[tokio::test]
async fn a_worker_waits_for_a_lead_that_is_not_there_yet() {
    // A port that nobody listens on (bound, then released), later taken by the Lead.
    let addr = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let setup = setup();
    let stop = setup.stop.clone();
    let (run, started) = start(addr.to_string(), setup);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(started.load(Ordering::SeqCst), 0);
    assert!(
        !run.is_finished(),
        "an unreachable Lead is retried, not fatal"
    );
    let listener = TcpListener::bind(addr)
        .await
        .expect("the port is free again");
    let (peer, mut reader, _writer) = accept(&listener, &secret()).await;
    assert_eq!(peer.kind, "quality");
    heartbeat(&mut reader).await;
    stop.cancel();
    assert!(timeout(WAIT, run).await.unwrap().unwrap().is_ok());
    assert_eq!(started.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_refusal_is_final() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (run, started) = start(listener.local_addr().unwrap().to_string(), setup());
    let other =
        Secret::from_hex("ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100")
            .unwrap();
    let (stream, _) = timeout(WAIT, listener.accept()).await.unwrap().unwrap();
    assert!(server_handshake(stream, &other, &WireConfig::default())
        .await
        .is_err());
    let ended = timeout(WAIT, run)
        .await
        .expect("the worker gives up")
        .unwrap();
    assert!(
        matches!(&ended, Err(ActorError::Wire(WireError::Rejected(r))) if r == "authentication failed"),
        "{ended:?}"
    );
    assert_eq!(started.load(Ordering::SeqCst), 0);
}

/// The Lead's heartbeat to an idle worker.
fn lead_beat(to: &str) -> Envelope {
    let beat = Body::Heartbeat {
        phase: Phase::Idle,
        progress: Progress::default(),
        busy_since_ms: None,
    };
    Envelope::new(LEAD, to, beat)
}

#[tokio::test]
async fn a_waiting_worker_leaves_a_silent_lead_and_a_working_one_does_not() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mut setup = setup();
    setup.lead_silence = Some(Duration::from_millis(200));
    let (stop, metrics) = (setup.stop.clone(), setup.metrics.clone());
    let (run, started) = start(listener.local_addr().unwrap().to_string(), setup);

    // 1: heartbeats from the Lead keep a waiting worker's session past the limit.
    let (first, mut reader, mut writer) = accept(&listener, &secret()).await;
    heartbeat(&mut reader).await;
    for _ in 0..10 {
        writer.send(&lead_beat(&first.name)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(metrics.sessions(), 1, "heard from: no reconnect");

    // 2: then silence: the worker drops the connection and comes back.
    let (second, mut reader2, mut writer2) = accept(&listener, &secret()).await;
    assert_eq!(second.name, first.name);
    let closed = loop {
        match timeout(WAIT, reader.recv()).await.expect("not left open") {
            Ok(Some(_heartbeat)) => continue,
            other => break other,
        }
    };
    assert!(matches!(closed, Ok(None) | Err(_)), "{closed:?}");

    // 3: once work arrived, the Lead's silence is its supervision's business, not the worker's.
    heartbeat(&mut reader2).await;
    let work = Body::OutputVerdictNow {
        review: "r1".into(),
    };
    writer2
        .send(&Envelope::new(LEAD, second.name.as_str(), work))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(metrics.sessions(), 2, "a working worker keeps its session");
    heartbeat(&mut reader2).await;
    stop.cancel();
    assert!(timeout(WAIT, run).await.unwrap().unwrap().is_ok());
    assert_eq!(started.load(Ordering::SeqCst), 2);
}
