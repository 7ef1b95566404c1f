//! Starting and stopping the team's Implementers in either runtime: child processes
//! (`retake actor implementer …`, via the local runtime's spawner) or Arbiters of this process
//! (via the inproc runtime's spawner), both connected to the team hub over the authenticated
//! wire.

use super::hub::{Lost, TeamHub};
use super::link::attach;
use crate::runtime::inproc::InprocSpawner;
use crate::runtime::local::LocalSpawner;
use crate::runtime::{ActorKind, ActorSpec, Spawner};
use actix::Addr;
use protocol::wire::{Secret, WireConfig};
use std::time::Duration;

/// The runtime the Implementers run in.
pub enum TeamSpawner {
    /// Child processes over loopback TCP.
    Local(LocalSpawner),
    /// Arbiters of this process over in-memory streams.
    Inproc {
        /// The inproc runtime's spawner.
        spawner: InprocSpawner,
        /// The run's secret, for the hub's end of each stream.
        secret: Secret,
        /// Wire limits.
        wire: WireConfig,
    },
}

impl TeamSpawner {
    /// Starts Implementer `instance` (slot `logical`, spawn `spawn_no`); its end is reported to
    /// `hub` as [`Lost`].
    pub fn spawn(
        &mut self,
        logical: &str,
        instance: &str,
        spawn_no: u32,
        hub: Addr<TeamHub>,
    ) -> std::io::Result<()> {
        let spec = ActorSpec {
            kind: ActorKind::Implementer,
            logical: logical.to_string(),
            instance: instance.to_string(),
            spawn_no,
        };
        match self {
            TeamSpawner::Local(local) => {
                let name = instance.to_string();
                local.spawn_with(&spec, move |reason| hub.do_send(Lost { name, reason }))
            }
            TeamSpawner::Inproc {
                spawner,
                secret,
                wire,
            } => {
                let lead_end = spawner.spawn_actor(&spec)?;
                actix::spawn(attach(lead_end, secret.clone(), wire.clone(), hub));
                Ok(())
            }
        }
    }

    /// Stops an instance at once (its whole process group in the local runtime).
    pub fn kill(&mut self, instance: &str) {
        match self {
            TeamSpawner::Local(local) => local.kill(instance),
            TeamSpawner::Inproc { spawner, .. } => spawner.kill(instance),
        }
    }

    /// Waits up to `grace` for every instance to exit, then kills what is left.
    pub async fn reap(self, grace: Duration) {
        match self {
            TeamSpawner::Local(local) => Box::new(local).reap(grace).await,
            TeamSpawner::Inproc { spawner, .. } => Box::new(spawner).reap(grace).await,
        }
    }
}
