//! An Inspector past its report deadline whose heartbeats show progress moving keeps its slot
//! (a long review of a large tree is not cut off); one whose progress stands still is replaced.
//! The quality Inspector's first instance is played by the test over the real wire; the Auditor
//! and any replacement are real processes.

use actix::Actor;
use host::hub::{accept_loop, HubRef};
use host::journal::Journal;
use host::local::LocalSpawner;
use host::{ActorSpec, Runtime, Spawner};
use lead::config::Settings;
use protocol::message::{Count, Phase, Progress, Unit, LEAD};
use protocol::wire::{client_handshake, Secret, WireConfig};
use protocol::{Body, Coverage, Envelope, InspectorKind, InspectorReport, Scope};
use review::coordinator::{Coordinator, Finished, Stop};
use review::plan::ReviewPlan;
use review::ReviewRequest;
use std::net::SocketAddr;
use std::time::Duration;

const FAKE: &str = "inspector-quality";
const HEARTBEAT: Duration = Duration::from_millis(200);
const DEADLINE: Duration = Duration::from_millis(800);
/// How long the fake works before it reports: three deadlines.
const WORK: Duration = Duration::from_millis(2400);

/// Spawns real actors, except the quality Inspector's first instance, which the test plays.
struct AllButTheFake(LocalSpawner);

impl Spawner for AllButTheFake {
    fn spawn(&mut self, spec: &ActorSpec, hub: HubRef) -> std::io::Result<()> {
        if spec.instance == FAKE {
            return Ok(());
        }
        self.0.spawn(spec, hub)
    }

    fn kill(&mut self, instance: &str) {
        if instance != FAKE {
            self.0.kill(instance);
        }
    }

    fn reap(self: Box<Self>, grace: Duration) -> futures::future::BoxFuture<'static, ()> {
        Box::new(self.0).reap(grace)
    }
}

/// Plays the quality Inspector: takes the request, heartbeats at work for [`WORK`] — with
/// progress moving or standing still — then reports. Returns whether it was told to shut down.
async fn fake_inspector(addr: SocketAddr, secret: Secret, wire: WireConfig, moving: bool) -> bool {
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut reader, mut writer) = client_handshake(stream, &secret, "inspector", FAKE, &wire)
        .await
        .expect("handshake");
    let request = loop {
        match reader.recv().await.expect("a frame").expect("not EOF").body {
            Body::InspectRequest(request) => break request,
            _ => continue,
        }
    };
    let beats = (WORK.as_millis() / HEARTBEAT.as_millis()) as u64;
    for beat in 0..beats {
        let done = if moving { beat } else { 0 };
        let heartbeat = Body::Heartbeat {
            phase: Phase::Inspect,
            progress: Progress::about("repository").with_count(Some(Count::of(
                done,
                beats,
                Unit::Steps,
            ))),
            busy_since_ms: Some(protocol::message::now_ms()),
        };
        writer
            .send(&Envelope::new(FAKE, LEAD, heartbeat))
            .await
            .expect("heartbeat");
        tokio::select! {
            frame = reader.recv() => {
                if matches!(frame, Ok(Some(Envelope { body: Body::Shutdown { .. }, .. })) | Ok(None) | Err(_)) {
                    return true;
                }
            }
            () = tokio::time::sleep(HEARTBEAT) => {}
        }
    }
    let report = InspectorReport {
        review: request.review.clone(),
        inspector: FAKE.into(),
        kind: Some(InspectorKind::Quality),
        scope: request.scope.label(),
        findings: Vec::new(),
        notes: Vec::new(),
        claims: Vec::new(),
        coverage: Coverage {
            files_reviewed: 1,
            skipped: Vec::new(),
        },
        preexisting: Vec::new(),
    };
    let _gone = writer
        .send(&Envelope::new(
            FAKE,
            request.report_to,
            Body::InspectorReport(report),
        ))
        .await;
    false
}

/// A review by the (fake) quality Inspector and the Auditor: the review's result and whether
/// the fake was told to shut down.
fn review(moving: bool) -> (Finished, bool) {
    let repo = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(repo.path().join("src")).expect("mkdir");
    std::fs::write(repo.path().join("src/lib.rs"), "pub fn a() {}\n").expect("write");
    let journal = Journal::create(&repo.path().join(".retake"), "r1").expect("journal");
    let req = ReviewRequest {
        repo: repo.path().to_path_buf(),
        scope: Scope::repository(),
        runtime: Runtime::Local,
        no_exec: true,
        config: Settings::default().review_config(),
        pipelines: 1,
        faults: protocol::chaos::FaultPlan::default(),
        resume: None,
        nested: false,
        repo_files_rev: None,
        notes: Vec::new(),
        live: None,
        author: None,
    };
    let mut plan = ReviewPlan::build(&req, "r1", HEARTBEAT);
    plan.inspections.retain(|(name, _, _)| name == FAKE);
    plan.audit.expect = vec![FAKE.into()];
    plan.inspect_deadline = DEADLINE;
    actix::System::new().block_on(async move {
        let secret = Secret::generate();
        let wire = WireConfig::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let spawner = LocalSpawner::new(
            std::path::PathBuf::from(env!("CARGO_BIN_EXE_retake")),
            addr,
            secret.clone(),
            HEARTBEAT,
            wire.max_frame,
            protocol::chaos::FaultPlan::default(),
        );
        let (tx, rx) = tokio::sync::oneshot::channel();
        let coordinator =
            Coordinator::new(plan, journal, Box::new(AllButTheFake(spawner)), tx).start();
        actix::spawn(accept_loop(
            listener,
            secret.clone(),
            wire.clone(),
            std::sync::Arc::new(coordinator.clone()),
        ));
        let fake = tokio::spawn(fake_inspector(addr, secret, wire, moving));
        let result = tokio::time::timeout(Duration::from_secs(30), rx)
            .await
            .expect("no hang")
            .expect("answered");
        if let Ok(Some(spawner)) = coordinator.send(Stop).await {
            spawner.reap(Duration::from_secs(2)).await;
        }
        let shut_down = fake.await.expect("the fake ran");
        (result.expect("the review finished"), shut_down)
    })
}

#[test]
fn an_inspector_whose_progress_moves_reports_past_its_first_deadline() {
    let (finished, shut_down) = review(true);
    assert!(!shut_down, "a moving Inspector is not replaced");
    assert_eq!(finished.restarts[FAKE], 0);
    assert_eq!(finished.reports[FAKE].inspector, FAKE);
    assert!(
        !finished
            .outcome
            .notes
            .iter()
            .any(|n| n.starts_with("PARTIAL")),
        "{:?}",
        finished.outcome.notes
    );
}

#[test]
fn an_inspector_whose_progress_stands_still_is_replaced_at_its_deadline() {
    let (finished, shut_down) = review(false);
    assert!(shut_down, "told to shut down at its deadline");
    assert_eq!(finished.restarts[FAKE], 1, "the real replacement reported");
    assert_eq!(finished.reports[FAKE].coverage.files_reviewed, 1);
}
