//! The `inproc` runtime: every actor in this process's actix System, each on its own Arbiter,
//! connected to the hub over in-memory streams with the same handshake and frames as TCP.

use super::hub::{attach, HubRef};
use super::{ActorKind, ActorSpec, Spawner};
use actix::Arbiter;
use futures::future::BoxFuture;
use protocol::chaos::{ActorFaults, FaultPlan, ProcessMode};
use protocol::wire::{Secret, WireConfig};
use std::collections::HashMap;
use std::time::Duration;
use tokio::io::DuplexStream;

/// Buffer of each in-memory connection, bytes.
const PIPE_BYTES: usize = 256 * 1024;

/// Runs actors on Arbiters of this process.
pub struct InprocSpawner {
    secret: Secret,
    wire: WireConfig,
    heartbeat: Duration,
    faults: FaultPlan,
    arbiters: HashMap<String, Arbiter>,
}

impl InprocSpawner {
    /// In-process actors speaking the authenticated protocol with `secret`.
    pub fn new(secret: Secret, wire: WireConfig, heartbeat: Duration, faults: FaultPlan) -> Self {
        InprocSpawner {
            secret,
            wire,
            heartbeat,
            faults,
            arbiters: HashMap::new(),
        }
    }
}

impl Spawner for InprocSpawner {
    fn spawn(&mut self, spec: &ActorSpec, hub: HubRef) -> std::io::Result<()> {
        let lead_end = self.spawn_actor(spec)?;
        actix::spawn(attach(
            lead_end,
            self.secret.clone(),
            self.wire.clone(),
            hub,
        ));
        Ok(())
    }

    fn kill(&mut self, instance: &str) {
        if let Some(arbiter) = self.arbiters.remove(instance) {
            arbiter.stop();
        }
    }

    fn reap(self: Box<Self>, _grace: Duration) -> BoxFuture<'static, ()> {
        for arbiter in self.arbiters.into_values() {
            arbiter.stop();
        }
        Box::pin(async {})
    }
}

impl InprocSpawner {
    /// Starts an instance on an Arbiter of its own and returns the Lead's end of its in-memory
    /// connection, for the hub to authenticate and serve.
    fn spawn_actor(&mut self, spec: &ActorSpec) -> std::io::Result<DuplexStream> {
        let (lead_end, actor_end) = tokio::io::duplex(PIPE_BYTES);
        let arbiter = Arbiter::new();
        let (spec, secret, wire, heartbeat) = (
            spec.clone(),
            self.secret.clone(),
            self.wire.clone(),
            self.heartbeat,
        );
        let name = spec.instance.clone();
        // In-process, a crash closes the actor's connection instead of aborting the Lead.
        let faults = ActorFaults {
            mode: ProcessMode::InProcess,
            spawn_no: spec.spawn_no,
            faults: self.faults.for_actor(&spec.logical, spec.spawn_no),
        };
        let started = arbiter.spawn(async move {
            let result = match spec.kind {
                ActorKind::Inspector(kind) => {
                    inspector::runtime::serve_with_faults(
                        actor_end,
                        kind,
                        &spec.instance,
                        &secret,
                        &wire,
                        heartbeat,
                        faults,
                    )
                    .await
                }
                ActorKind::Auditor => {
                    auditor::runtime::serve_with_faults(
                        actor_end,
                        &spec.instance,
                        &secret,
                        &wire,
                        heartbeat,
                        faults,
                    )
                    .await
                }
                ActorKind::Implementer => {
                    implementer::runtime::serve_with_faults(
                        actor_end,
                        &spec.instance,
                        &secret,
                        &wire,
                        heartbeat,
                        faults,
                    )
                    .await
                }
            };
            if let Err(e) = result {
                tracing::warn!(actor = spec.instance, error = %e, "actor stopped");
            }
        });
        if !started {
            return Err(std::io::Error::other(format!(
                "the arbiter for {name} is not running"
            )));
        }
        self.arbiters.insert(name, arbiter);
        Ok(lead_end)
    }
}
