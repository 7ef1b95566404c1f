//! A real `retake-inspector` process with its health endpoint, seen from a Lead played by the
//! test: /readyz follows the session, /metrics counts heartbeats and the spawn number, logs are
//! JSON on request; in worker mode it comes back after a dropped session and leaves on SIGTERM.

use protocol::message::LEAD;
use protocol::session::process::{fetch, probe};
use protocol::wire::{server_handshake, LinkReader, PeerInfo, Secret, WireConfig, SECRET_ENV};
use protocol::{Body, Envelope};
use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::time::timeout;

const WAIT: Duration = Duration::from_secs(10);
const PROBE: Duration = Duration::from_secs(2);

struct Actor {
    child: Child,
    listener: TcpListener,
    secret: Secret,
    health: String,
}

/// A loopback port free right now (bound, then released for the actor).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Starts `retake-inspector --kind quality` with a health endpoint and `extra` arguments.
async fn start(extra: &[&str]) -> Actor {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let lead = listener.local_addr().unwrap().to_string();
    let health = format!("127.0.0.1:{}", free_port());
    let secret = Secret::generate();
    let child = Command::new(env!("CARGO_BIN_EXE_retake-inspector"))
        .args(["--kind", "quality", "--lead", &lead, "--heartbeat-ms", "50"])
        .args(["--health-listen", &health, "--log-format", "json"])
        .args(extra)
        .env(SECRET_ENV, secret.to_hex())
        .env("RUST_LOG", "info")
        .env_remove("RETAKE_HEALTH_LISTEN")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let actor = Actor {
        child,
        listener,
        secret,
        health: format!("http://{health}"),
    };
    // The endpoint comes up before the actor connects.
    let started = Instant::now();
    while probe(&actor.url("/healthz"), PROBE).is_err() {
        assert!(
            started.elapsed() < WAIT,
            "the health endpoint never came up"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    actor
}

impl Actor {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.health)
    }

    fn status(&self, path: &str) -> u16 {
        fetch(&self.url(path), PROBE)
            .expect("the endpoint answers")
            .0
    }

    /// The value of the metric line that starts with `series `.
    fn metric(&self, series: &str) -> u64 {
        let (status, text) = fetch(&self.url("/metrics"), PROBE).unwrap();
        assert_eq!(status, 200);
        let prefix = format!("{series} ");
        let line = text
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no {series} in\n{text}"));
        line[prefix.len()..].parse().unwrap()
    }

    async fn accept(&self) -> (PeerInfo, LinkReader, protocol::wire::LinkWriter) {
        let (stream, _) = timeout(WAIT, self.listener.accept())
            .await
            .expect("the actor connects")
            .unwrap();
        server_handshake(stream, &self.secret, &WireConfig::default())
            .await
            .expect("the actor authenticates")
    }

    fn wait(&mut self) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(started.elapsed() < WAIT, "still running");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            err.read_to_string(&mut text).unwrap();
        }
        text
    }
}

impl Drop for Actor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Heartbeats until `n` have arrived; anything else is a failure.
async fn heartbeats(reader: &mut LinkReader, n: u32) {
    for _ in 0..n {
        let got = timeout(WAIT, reader.recv()).await.expect("heartbeats");
        assert!(
            matches!(&got, Ok(Some(env)) if matches!(env.body, Body::Heartbeat { .. })),
            "{got:?}"
        );
    }
}

/// The next envelope that is not a heartbeat.
async fn next_other(reader: &mut LinkReader) -> Option<Envelope> {
    loop {
        match timeout(WAIT, reader.recv()).await.expect("not silent") {
            Ok(Some(env)) if matches!(env.body, Body::Heartbeat { .. }) => continue,
            other => return other.expect("a good frame"),
        }
    }
}

#[tokio::test]
async fn metrics_count_heartbeats_and_the_spawn_number_and_readyz_follows_the_session() {
    let mut actor = start(&["--spawn", "3"]).await;
    assert_eq!(actor.status("/readyz"), 503, "no session yet");
    assert_eq!(actor.metric("retake_actor_session_up"), 0);

    let (peer, mut reader, mut writer) = actor.accept().await;
    assert_eq!(
        (peer.role.as_str(), peer.kind.as_str(), peer.name.as_str()),
        ("inspector", "quality", "inspector-quality")
    );
    heartbeats(&mut reader, 3).await;
    assert_eq!(actor.status("/readyz"), 200);
    assert_eq!(actor.metric("retake_actor_restarts"), 2);
    assert_eq!(actor.metric("retake_actor_session_up"), 1);
    assert_eq!(actor.metric("retake_actor_sessions_total"), 1);
    let beats = actor.metric("retake_actor_heartbeats_total");
    assert!(beats >= 3, "{beats} heartbeats");
    let sent = actor.metric(r#"retake_actor_messages_total{direction="sent"}"#);
    assert!(sent >= beats, "{sent} sent, {beats} heartbeats");
    assert_eq!(
        actor.metric(r#"retake_actor_messages_total{direction="received"}"#),
        0
    );

    let shutdown = Envelope::new(LEAD, "inspector-quality", Body::Shutdown { grace_ms: 100 });
    writer.send(&shutdown).await.unwrap();
    assert_eq!(
        next_other(&mut reader).await.map(|e| e.body),
        Some(Body::ShutdownAck)
    );
    let status = actor.wait();
    assert_eq!(status.code(), Some(0), "{status:?}");

    // --log-format json: every line on standard error is one JSON object.
    let logs = actor.stderr();
    let events: Vec<serde_json::Value> = logs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e["fields"]["message"] == "health endpoint listening"),
        "{logs}"
    );
}

#[tokio::test]
async fn a_worker_comes_back_after_its_session_ends_and_leaves_on_sigterm() {
    let mut actor = start(&["--worker"]).await;
    let (first, reader, writer) = actor.accept().await;
    assert_eq!(first.kind, "quality");
    let pid = actor.child.id();
    assert!(
        first.name.starts_with("inspector-quality@") && first.name.ends_with(&format!("-{pid}")),
        "{}",
        first.name
    );
    drop((reader, writer));

    let (second, mut reader, _writer) = actor.accept().await;
    assert_eq!(second.name, first.name);
    heartbeats(&mut reader, 1).await;
    assert_eq!(actor.metric("retake_actor_sessions_total"), 2);
    assert_eq!(actor.metric("retake_actor_restarts"), 0);

    // SAFETY: kill(2) on our own child's pid; it has no memory effects.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTERM) }, 0);
    assert_eq!(
        next_other(&mut reader).await.map(|e| e.body),
        Some(Body::Goodbye)
    );
    let status = actor.wait();
    assert_eq!(status.code(), Some(0), "{status:?}");
}
