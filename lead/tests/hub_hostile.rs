//! The hub refuses hostile connections — a wrong secret, an oversized frame, garbage instead of a
//! handshake, an authenticated stranger, a second connection under a registered actor's name —
//! and keeps serving the real actors, whose review still ends in a verdict with no restart.

use actix::Actor;
use host::hub::accept_loop;
use host::journal::Journal;
use host::local::LocalSpawner;
use host::Runtime;
use lead::config::Settings;
use protocol::chaos::{Fault, FaultPlan, FaultSpec};
use protocol::wire::{client_handshake, Secret, WireConfig, WireError};
use protocol::{Scope, Verdict};
use review::coordinator::Coordinator;
use review::coordinator::{Finished, ReviewFailure};
use review::plan::ReviewPlan;
use review::ReviewRequest;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// A review of `root` by the quality Inspector and the Auditor only.
fn plan(root: &std::path::Path) -> ReviewPlan {
    let req = ReviewRequest {
        repo: root.to_path_buf(),
        scope: Scope::repository(),
        runtime: Runtime::Local,
        no_exec: true,
        // The fixture's one finding, a TODO marker, is a pedantic rule's.
        config: Settings {
            rules: lead::config::RuleSettings {
                profile: protocol::message::RuleProfile::Pedantic,
                ..Default::default()
            },
            ..Settings::default()
        }
        .review_config(),
        pipelines: 1,
        faults: protocol::chaos::FaultPlan::default(),
        resume: None,
        nested: false,
        repo_files_rev: None,
        notes: Vec::new(),
        live: None,
        author: None,
    };
    let mut plan = ReviewPlan::build(&req, "r1", Duration::from_millis(200));
    plan.inspections
        .retain(|(name, _, _)| name == "inspector-quality");
    plan.audit.expect = vec!["inspector-quality".into()];
    plan
}

/// A repository with one TODO marker (the quality Inspector's one finding).
fn repo_with_a_todo() -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(repo.path().join("src")).expect("mkdir");
    std::fs::write(
        repo.path().join("src/lib.rs"),
        "// TODO: finish\npub fn a() {}\n",
    )
    .expect("write");
    repo
}

/// Runs the review of `root` with real actor processes (suffering `faults`) while `hostile`
/// talks to the Lead's listener; the coordinator's result.
fn review_under_attack<F, Fut>(
    root: &std::path::Path,
    faults: FaultPlan,
    hostile: F,
) -> Result<Finished, ReviewFailure>
where
    F: FnOnce(SocketAddr, Secret, WireConfig) -> Fut + 'static,
    Fut: Future<Output = ()> + 'static,
{
    let journal = Journal::create(&root.join(".retake"), "r1").expect("journal");
    let plan = plan(root);
    actix::System::new().block_on(async move {
        let secret = Secret::generate();
        let wire = WireConfig {
            handshake_timeout: Duration::from_millis(500),
            ..WireConfig::default()
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_retake"));
        let spawner = LocalSpawner::new(
            exe,
            addr,
            secret.clone(),
            Duration::from_millis(200),
            wire.max_frame,
            faults,
        );
        let (tx, rx) = tokio::sync::oneshot::channel();
        // The real actors are spawned now and connect while the hostile peers do.
        let coordinator = Coordinator::new(plan, journal, Box::new(spawner), tx).start();
        actix::spawn(accept_loop(
            listener,
            secret.clone(),
            wire.clone(),
            std::sync::Arc::new(coordinator.clone()),
        ));
        hostile(addr, secret, wire).await;
        let result = tokio::time::timeout(Duration::from_secs(20), rx)
            .await
            .expect("no hang")
            .expect("answered");
        if let Ok(Some(spawner)) = coordinator.send(review::coordinator::Stop).await {
            spawner.reap(Duration::from_secs(2)).await;
        }
        result
    })
}

/// The review found exactly the TODO marker, journaled, with a GO verdict and no restart.
fn assert_one_clean_review(root: &std::path::Path, finished: &Finished) {
    assert_eq!(finished.outcome.verdict, Verdict::Go);
    assert_eq!(
        finished.outcome.findings.len(),
        1,
        "{:?}",
        finished.outcome.findings
    );
    assert_eq!(finished.outcome.findings[0].rule, "quality/todo-marker");
    assert_eq!(
        finished.restarts.values().sum::<u32>(),
        0,
        "{:?}",
        finished.restarts
    );
    assert!(root
        .join(".retake/runs/r1/reports/inspector-quality.cpf")
        .is_file());
    assert!(root.join(".retake/runs/r1/verdict.cpf").is_file());
}

#[test]
fn hostile_peers_are_refused_and_the_review_still_ends_in_a_verdict() {
    let repo = repo_with_a_todo();
    let finished = review_under_attack(
        repo.path(),
        FaultPlan::default(),
        |addr, secret, wire| async move {
            // 1. The wrong secret is rejected during the handshake.
            let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
            let wrong = Secret::generate();
            let refused =
                client_handshake(stream, &wrong, "inspector", "inspector-quality", &wire).await;
            assert!(
                matches!(refused, Err(WireError::Rejected(ref r)) if r.contains("authentication")),
                "{refused:?}"
            );

            // 2. A frame header claiming 4 GiB is dropped without waiting for the bytes.
            let mut huge = tokio::net::TcpStream::connect(addr).await.expect("connect");
            huge.write_all(&0xFFFF_FFF0u32.to_be_bytes())
                .await
                .expect("write");
            // 3. A forged frame (random bytes where the Hello belongs).
            let mut forged = tokio::net::TcpStream::connect(addr).await.expect("connect");
            forged
                .write_all(&[0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8])
                .await
                .expect("write");
            // 4. A peer with the secret but a name the review does not expect.
            let stranger = tokio::net::TcpStream::connect(addr).await.expect("connect");
            let stranger =
                client_handshake(stranger, &secret, "inspector", "inspector-intruder", &wire).await;
            let (mut reader, _writer) = stranger.expect("authenticated, then refused by the hub");
            let goodbye = reader.recv().await.expect("a frame").expect("not EOF");
            assert_eq!(goodbye.body, protocol::Body::Goodbye);
        },
    )
    .expect("the review finished");
    assert_one_clean_review(repo.path(), &finished);
}

/// A peer holding the secret registers under the name of the (connected, working) quality
/// Inspector and disconnects at once: it is refused, and its disconnect is not taken for the
/// real Inspector's — which is neither killed nor replaced.
#[test]
fn a_duplicate_name_that_disconnects_leaves_the_registered_actor_alone() {
    let repo = repo_with_a_todo();
    // The real Inspector holds its report back, so it is connected and busy when the rogue comes.
    let faults = FaultPlan {
        faults: vec![FaultSpec {
            actor: "inspector-quality".into(),
            spawn: None,
            fault: Fault::Delay(2500),
        }],
    };
    let finished = review_under_attack(repo.path(), faults, |addr, secret, wire| async move {
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let rogue = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let rogue = client_handshake(rogue, &secret, "inspector", "inspector-quality", &wire).await;
        let (mut reader, writer) = rogue.expect("authenticated, then refused by the hub");
        let goodbye = reader.recv().await.expect("a frame").expect("not EOF");
        assert_eq!(goodbye.body, protocol::Body::Goodbye);
        drop((reader, writer));
    })
    .expect("the review finished");
    assert_one_clean_review(repo.path(), &finished);
}
