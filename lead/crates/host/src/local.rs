//! The `local` runtime: each actor is a child process (`retake actor ROLE …`) that connects back
//! over loopback TCP. The secret travels through a pipe on the child's standard input, read and
//! closed at its start — never argv, never the environment, where the code under review could
//! read it from `/proc/<pid>/environ`. Children run in
//! their own process groups with a parent-death signal, so they die with the Lead even if it is
//! killed, and the Lead kills each whole group when it is done with it.

use super::hub::{Ended, HubRef};
use super::{ActorKind, ActorSpec, Spawner};
use futures::future::BoxFuture;
use protocol::chaos::FaultPlan;
use protocol::session::process::{HEALTH_LISTEN_ENV, SECRET_STDIN_ENV};
use protocol::wire::Secret;
use std::collections::HashMap;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::task::JoinHandle;

/// A running child actor.
struct Child {
    pgid: i32,
    exited: JoinHandle<()>,
}

/// Spawns actors as child processes of the `retake` executable.
pub struct LocalSpawner {
    exe: PathBuf,
    lead: SocketAddr,
    secret: Secret,
    heartbeat: Duration,
    max_frame: usize,
    faults: FaultPlan,
    children: HashMap<String, Child>,
}

impl LocalSpawner {
    /// Children of `exe` that connect to `lead`.
    pub fn new(
        exe: PathBuf,
        lead: SocketAddr,
        secret: Secret,
        heartbeat: Duration,
        max_frame: usize,
        faults: FaultPlan,
    ) -> Self {
        LocalSpawner {
            exe,
            lead,
            secret,
            heartbeat,
            max_frame,
            faults,
            children: HashMap::new(),
        }
    }
}

impl Spawner for LocalSpawner {
    fn spawn(&mut self, spec: &ActorSpec, hub: HubRef) -> std::io::Result<()> {
        // No secret of the Lead's, its own process group, dead with the Lead, no core files.
        let mut cmd = protocol::exec::child::supervised(&self.exe);
        cmd.arg("actor");
        match spec.kind {
            ActorKind::Inspector(kind) => cmd.args(["inspector", "--kind", kind.as_str()]),
            ActorKind::Auditor => cmd.arg("auditor"),
            ActorKind::Implementer => cmd.arg("implementer"),
        };
        cmd.args(["--name", &spec.instance])
            .args(["--lead", &self.lead.to_string()])
            .args(["--heartbeat-ms", &self.heartbeat.as_millis().to_string()])
            .args(["--max-frame", &self.max_frame.to_string()])
            .args(["--spawn", &spec.spawn_no.to_string()])
            .args(
                self.faults
                    .for_actor(&spec.logical, spec.spawn_no)
                    .iter()
                    .flat_map(|f| ["--fault".to_string(), f.to_string()]),
            )
            .env(SECRET_STDIN_ENV, "1")
            // Health endpoints are for containers; children sharing one address would collide.
            .env_remove(HEALTH_LISTEN_ENV)
            .stdin(secret_pipe(&self.secret)?);
        let mut child = cmd.spawn()?;
        let name = spec.instance.clone();
        let pgid = child.id().map_or(0, |p| p as i32);
        let exited = actix::spawn(async move {
            let reason = match child.wait().await {
                Ok(status) => match (
                    status.code(),
                    std::os::unix::process::ExitStatusExt::signal(&status),
                ) {
                    (Some(code), _) => format!("exited with code {code}"),
                    (None, Some(sig)) => format!("was killed by signal {sig}"),
                    (None, None) => "exited".to_string(),
                },
                Err(e) => format!("could not be waited for ({e})"),
            };
            hub.lost(name, reason, Ended::Instance);
        });
        self.children
            .insert(spec.instance.clone(), Child { pgid, exited });
        Ok(())
    }

    fn kill(&mut self, instance: &str) {
        if let Some(child) = self.children.get(instance) {
            protocol::exec::child::kill_group(child.pgid);
        }
    }

    fn reap(self: Box<Self>, grace: Duration) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            let deadline = tokio::time::Instant::now() + grace;
            for (name, mut child) in self.children {
                if tokio::time::timeout_at(deadline, &mut child.exited)
                    .await
                    .is_err()
                {
                    tracing::warn!(name, "did not exit in time: killing its process group");
                    protocol::exec::child::kill_group(child.pgid);
                    let _ = (&mut child.exited).await;
                }
                // Whatever the child left behind in its group (a test run, say) goes too.
                protocol::exec::child::kill_group(child.pgid);
            }
        })
    }
}

/// A pipe holding the secret (hex and a newline) with its writing end already closed: the child
/// reads it to the end at start. Both ends are close-on-exec, so no other child inherits them;
/// the text is far below the pipe's capacity, so writing never blocks.
fn secret_pipe(secret: &Secret) -> std::io::Result<std::process::Stdio> {
    let (reader, mut writer) = std::io::pipe()?;
    writer.write_all(format!("{}\n", secret.to_hex()).as_bytes())?;
    drop(writer);
    Ok(reader.into())
}
