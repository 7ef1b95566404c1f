//! The hub refuses hostile connections — a wrong secret, an oversized frame, garbage instead of a
//! handshake, an authenticated stranger — and keeps serving the real actors, whose review still
//! ends in a verdict.

use actix::Actor;
use lead::journal::Journal;
use lead::review::coordinator::{Coordinator, Plan};
use lead::review::hub::accept_loop;
use lead::runtime::{inproc, ActorSpec};
use protocol::message::{AuditRequest, InspectOptions, InspectRequest, TestFailurePolicy};
use protocol::wire::{client_handshake, Secret, WireConfig, WireError};
use protocol::{InspectorKind, Scope, Verdict};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

fn plan(root: &std::path::Path) -> Plan {
    let kind = InspectorKind::Quality;
    let request = InspectRequest {
        review: "r1".into(),
        root: root.to_string_lossy().into_owned(),
        scope: Scope::repository(),
        report_to: "auditor".into(),
        deadline_ms: u64::MAX,
        options: InspectOptions {
            no_exec: true,
            ..InspectOptions::default()
        },
    };
    Plan {
        inspections: vec![(kind.actor_name(), request)],
        audit: (
            "auditor".into(),
            AuditRequest {
                review: "r1".into(),
                scope: "repository".into(),
                expect: vec![kind.actor_name()],
                recovery: None,
                budget_ms: 10_000,
                test_failure: TestFailurePolicy::NoGo,
            },
        ),
        heartbeat: Duration::from_millis(200),
        suspect_after: 10,
        connect_timeout: Duration::from_secs(10),
    }
}

#[test]
fn hostile_peers_are_refused_and_the_review_still_ends_in_a_verdict() {
    let repo = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(repo.path().join("src")).expect("mkdir");
    std::fs::write(
        repo.path().join("src/lib.rs"),
        "// TODO: finish\npub fn a() {}\n",
    )
    .expect("write");
    let journal = Journal::create(&repo.path().join(".retake"), "r1").expect("journal");
    let plan = plan(repo.path());
    let outcome = actix::System::new().block_on(async move {
        let secret = Secret::generate();
        let wire = WireConfig {
            handshake_timeout: Duration::from_millis(500),
            ..WireConfig::default()
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let coordinator = Coordinator::new(plan, journal, tx).start();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        actix::spawn(accept_loop(
            listener,
            secret.clone(),
            wire.clone(),
            coordinator.clone(),
        ));

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
        assert!(stranger.is_ok(), "authenticated, then ignored by the hub");

        // The real actors connect after all that and are served.
        let hb = Duration::from_millis(200);
        let quality = ActorSpec::Inspector(InspectorKind::Quality, "inspector-quality".into());
        let a1 = inproc::spawn(&quality, &secret, &wire, hb, coordinator.clone());
        let a2 = inproc::spawn(
            &ActorSpec::Auditor("auditor".into()),
            &secret,
            &wire,
            hb,
            coordinator.clone(),
        );
        let result = tokio::time::timeout(Duration::from_secs(20), rx)
            .await
            .expect("no hang")
            .expect("answered");
        a1.stop();
        a2.stop();
        result
    });
    let finished = outcome.expect("the review finished");
    assert_eq!(finished.outcome.verdict, Verdict::Go);
    assert_eq!(
        finished.outcome.findings.len(),
        1,
        "{:?}",
        finished.outcome.findings
    );
    assert_eq!(finished.outcome.findings[0].rule, "quality/todo-marker");
    assert!(repo
        .path()
        .join(".retake/runs/r1/reports/inspector-quality.cpf")
        .is_file());
    assert!(repo.path().join(".retake/runs/r1/verdict.cpf").is_file());
}
