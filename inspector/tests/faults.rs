//! Injected faults on a real Inspector process (`retake-inspector --fault …`), seen from a Lead
//! played by the test: a crash is an abort, an exit code is the exit status, a hang is a live
//! process that stopped heartbeating, and `fail-times` spares later spawns.

use protocol::message::{InspectOptions, InspectRequest, LEAD};
use protocol::wire::{server_handshake, LinkReader, LinkWriter, Secret, WireConfig, SECRET_ENV};
use protocol::{Body, Envelope, Scope};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::time::timeout;

const BEAT_MS: u64 = 50;

struct Actor {
    child: Child,
    listener: TcpListener,
    secret: Secret,
    _cwd: tempfile::TempDir,
}

/// Starts `retake-inspector --kind quality` with `extra` arguments against a listener of ours.
async fn start(extra: &[&str]) -> Actor {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let secret = Secret::generate();
    // Its own working directory, so an aborting child could only ever drop a core file there.
    let cwd = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_retake-inspector"))
        .args(["--kind", "quality", "--lead", &addr])
        .args(["--heartbeat-ms", &BEAT_MS.to_string()])
        .args(extra)
        .env(SECRET_ENV, secret.to_hex())
        .current_dir(cwd.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Actor {
        child,
        listener,
        secret,
        _cwd: cwd,
    }
}

impl Actor {
    async fn accept(&self) -> Result<(LinkReader, LinkWriter), protocol::wire::WireError> {
        let (stream, _) = timeout(Duration::from_secs(10), self.listener.accept())
            .await
            .expect("the actor connects")
            .unwrap();
        let (peer, reader, writer) =
            server_handshake(stream, &self.secret, &WireConfig::default()).await?;
        assert_eq!(peer.name, "inspector-quality");
        Ok((reader, writer))
    }

    fn wait(&mut self) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "still running");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Actor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn inspect_request(root: &std::path::Path) -> Envelope {
    let req = InspectRequest {
        review: "r1".into(),
        root: root.display().to_string(),
        scope: Scope::Module { globs: Vec::new() },
        report_to: "auditor".into(),
        deadline_ms: 0,
        options: InspectOptions {
            no_exec: true,
            ..InspectOptions::default()
        },
    };
    Envelope::new(LEAD, "inspector-quality", Body::InspectRequest(req))
}

/// Heartbeats received within `span`; panics on anything else but the end of the stream.
async fn heartbeats(reader: &mut LinkReader, span: Duration) -> u32 {
    let deadline = tokio::time::Instant::now() + span;
    let mut beats = 0;
    while let Ok(got) = tokio::time::timeout_at(deadline, reader.recv()).await {
        match got {
            Ok(Some(Envelope {
                body: Body::Heartbeat { .. },
                ..
            })) => beats += 1,
            other => panic!("expected heartbeats only, got {other:?}"),
        }
    }
    beats
}

#[tokio::test]
async fn crash_at_handshake_aborts_the_process() {
    let mut actor = start(&["--fault", "crash-at=handshake"]).await;
    assert!(actor.accept().await.is_err(), "no handshake");
    let status = actor.wait();
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status:?}");
}

#[tokio::test]
async fn exit_code_is_the_exit_status_once_inspecting_starts() {
    let mut actor = start(&["--fault", "exit-code=7"]).await;
    let (mut reader, mut writer) = actor.accept().await.unwrap();
    assert!(heartbeats(&mut reader, Duration::from_millis(20 * BEAT_MS)).await >= 1);
    assert!(
        actor.child.try_wait().unwrap().is_none(),
        "alive while idle"
    );
    let repo = tempfile::tempdir().unwrap();
    writer.send(&inspect_request(repo.path())).await.unwrap();
    assert_eq!(actor.wait().code(), Some(7));
}

#[tokio::test]
async fn hang_at_inspect_keeps_the_process_alive_but_silent() {
    let mut actor = start(&["--fault", "hang-at=inspect"]).await;
    let (mut reader, mut writer) = actor.accept().await.unwrap();
    // Alive while idle: beats keep coming (a wide window: a loaded machine may stall the
    // first ones; the silence below is what this test is about).
    assert!(heartbeats(&mut reader, Duration::from_millis(20 * BEAT_MS)).await >= 2);
    let repo = tempfile::tempdir().unwrap();
    writer.send(&inspect_request(repo.path())).await.unwrap();
    // One heartbeat may already be on its way; then nothing for four intervals.
    heartbeats(&mut reader, Duration::from_millis(2 * BEAT_MS)).await;
    let silent = heartbeats(&mut reader, Duration::from_millis(4 * BEAT_MS)).await;
    assert_eq!(silent, 0, "no heartbeat after the hang");
    assert!(actor.child.try_wait().unwrap().is_none(), "hung, not dead");
}

#[tokio::test]
async fn fail_times_spares_a_later_spawn() {
    let mut actor = start(&["--fault", "fail-times=1", "--spawn", "2"]).await;
    let (mut reader, mut writer) = actor.accept().await.unwrap();
    assert!(heartbeats(&mut reader, Duration::from_millis(20 * BEAT_MS)).await >= 1);
    let shutdown = Envelope::new(LEAD, "inspector-quality", Body::Shutdown { grace_ms: 1000 });
    writer.send(&shutdown).await.unwrap();
    assert_eq!(actor.wait().code(), Some(0));
}

#[test]
fn a_malformed_fault_is_a_usage_error_naming_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_retake-inspector"))
        .args(["--kind", "quality", "--lead", "127.0.0.1:9"])
        .args(["--fault", "hang-at=lunch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown phase 'lunch'"), "{stderr}");
}
