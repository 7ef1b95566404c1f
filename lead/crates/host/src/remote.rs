//! The `remote` runtime: actors started by someone else (compose, Kubernetes, `retake actor …
//! --worker` by hand) connect to the Lead's listen address, authenticate with the shared secret
//! and register with their role and kind. They wait in a [`WorkerPool`] until a hub claims
//! them (a review's coordinator, a run's team hub); "spawning" an instance is claiming an idle
//! worker of its kind and attaching it to the hub under the instance's name, and "killing" one is dropping its connection
//! (a worker reconnects and registers again when its process is still alive). When no worker of
//! the kind registers within the connect timeout, the instance is lost as a dead child would be,
//! so the supervisor's re-spawn and partial-coverage rules apply unchanged.
//!
//! The pool runs its accept loop and every connection on a thread of its own, independent of the
//! actix systems of the reviews that use it: `retake serve` runs several reviews on one pool.

mod liveness;
mod pool;

pub use liveness::{WorkerCount, SILENT_AFTER};
pub use pool::{shared_pool, WorkerPool};

use super::hub::{Ended, HubRef, DISCONNECTED};
use super::{ActorKind, ActorSpec, Spawner};
use futures::future::BoxFuture;
use pool::{lock, renamed, Claimed, Route};
use protocol::chaos::FaultPlan;
use protocol::wire::WireConfig;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

/// Why a hub's actors cannot be hosted as asked.
#[derive(Debug, thiserror::Error)]
pub enum HostingError {
    /// Faults were asked for where this Lead does not start the actors.
    #[error("fault injection needs the local or inproc runtime; in the remote runtime kill, pause or disconnect the workers' containers instead")]
    FaultsInRemote,
    /// The remote runtime has no secret to authenticate workers with.
    #[error("the remote runtime needs a shared secret: set [wire] secret or RETAKE__WIRE__SECRET")]
    NoSecret,
    /// The configured secret is not one.
    #[error("wire.secret: {0}")]
    BadSecret(protocol::wire::WireError),
    /// The workers' listener could not be opened.
    #[error("{0}")]
    Listen(std::io::Error),
    /// The running executable, which the local runtime starts, cannot be found.
    #[error("cannot find the retake executable: {0}")]
    NoExecutable(std::io::Error),
}

/// The process's worker pool for a review or a run in the remote runtime (see [`shared_pool`]),
/// its address told on stderr. Faults cannot be injected into workers this Lead did not start.
pub fn open_pool(
    listen: &str,
    secret: Option<&str>,
    wire: &WireConfig,
    heartbeat: Duration,
    faults: &FaultPlan,
) -> Result<Arc<WorkerPool>, HostingError> {
    if !faults.is_empty() {
        return Err(HostingError::FaultsInRemote);
    }
    let pool = shared_pool(listen, secret, wire, heartbeat)?;
    eprintln!(
        "retake: remote runtime: workers connect to {} (idle now: {:?})",
        pool.local_addr(),
        pool.idle_counts()
    );
    Ok(pool)
}

/// An instance's worker, or the claim still waiting for one.
enum Slot {
    Waiting(JoinHandle<()>),
    Attached {
        route: Arc<Mutex<Route>>,
        reader: Arc<Mutex<Option<JoinHandle<()>>>>,
    },
}

/// Spawns instances by claiming registered workers from a [`WorkerPool`].
pub struct RemoteSpawner {
    pool: Arc<WorkerPool>,
    wait: Duration,
    reserved: Vec<Claimed>,
    slots: Arc<Mutex<HashMap<String, Slot>>>,
}

impl RemoteSpawner {
    /// Reserves a worker for each of `kinds` (see [`WorkerPool::reserve`]; up to the pool's
    /// full-set wait, else `wait`), then serves spawns from those first and claims from `pool`
    /// for the rest, waiting up to `wait` for a worker of the needed kind.
    pub async fn reserving(pool: Arc<WorkerPool>, kinds: &[ActorKind], wait: Duration) -> Self {
        let wanted: Vec<(&str, &str)> = kinds.iter().map(|k| (k.role(), k.kind())).collect();
        let full_set_wait = pool.full_set_wait().unwrap_or(wait);
        let reserved = pool.reserve(&wanted, full_set_wait).await;
        RemoteSpawner {
            pool,
            wait,
            reserved,
            slots: Arc::new(Mutex::new(HashMap::new())),
        }
    }
}

impl Spawner for RemoteSpawner {
    fn spawn(&mut self, spec: &ActorSpec, hub: HubRef) -> std::io::Result<()> {
        let (role, kind) = (spec.kind.role(), spec.kind.kind());
        let (pool, wait, slots) = (Arc::clone(&self.pool), self.wait, Arc::clone(&self.slots));
        let instance = spec.instance.clone();
        let reserved = self
            .reserved
            .iter()
            .position(|c| c.role == role && c.kind == kind)
            .map(|i| self.reserved.remove(i));
        let claiming = actix::spawn(async move {
            let claimed = match reserved {
                Some(worker) => Some(worker),
                None => pool.claim(role, kind, wait).await,
            };
            let Some(worker) = claimed else {
                lock(&slots).remove(&instance);
                let what = if kind.is_empty() {
                    role.to_string()
                } else {
                    format!("{role} {kind}")
                };
                let reason = format!("no {what} worker registered within {} s", wait.as_secs());
                hub.lost(instance, reason, Ended::Instance);
                return;
            };
            tracing::info!(worker = worker.name, instance, "worker claimed");
            // The hub hears of the instance before any of its messages: until it has taken it,
            // what the worker says is held in the pool (`Route::Idle`) and replayed below.
            if !hub.connected(instance.clone(), worker.outbox).await {
                // The hub is gone or expects no such instance: the connection is closed (a
                // live worker registers again) and the hub hears no more of it.
                tracing::warn!(worker = worker.name, instance, "claimed worker not taken");
                *lock(&worker.route) = Route::Gone;
                worker.reader.abort();
                return;
            }
            let attached = Route::Attached {
                instance: instance.clone(),
                hub: hub.clone(),
            };
            let gone = {
                let mut route = lock(&worker.route);
                match std::mem::replace(&mut *route, attached) {
                    Route::Gone => {
                        *route = Route::Gone;
                        true
                    }
                    Route::Idle(held) => {
                        // What it said while it waited, in order, before anything newer.
                        for env in held {
                            hub.incoming(instance.clone(), renamed(env, &worker.name, &instance));
                        }
                        false
                    }
                    Route::Attached { .. } => false,
                }
            };
            if gone {
                // It disconnected between the claim and now: lost like any other.
                hub.lost(
                    instance.clone(),
                    DISCONNECTED.to_string(),
                    Ended::Connection,
                );
            }
            lock(&slots).insert(
                instance,
                Slot::Attached {
                    route: worker.route,
                    reader: Arc::new(Mutex::new(Some(worker.reader))),
                },
            );
        });
        lock(&self.slots).insert(spec.instance.clone(), Slot::Waiting(claiming));
        Ok(())
    }

    fn kill(&mut self, instance: &str) {
        match lock(&self.slots).remove(instance) {
            Some(Slot::Waiting(claiming)) => claiming.abort(),
            Some(Slot::Attached { route, reader }) => {
                let previous = std::mem::replace(&mut *lock(&route), Route::Gone);
                if let Some(reader) = lock(&reader).take() {
                    // Dropping the reader (and, with the coordinator's outbox gone, the writer)
                    // closes the connection: a live worker registers again.
                    reader.abort();
                }
                if let Route::Attached { instance, hub } = previous {
                    hub.lost(
                        instance,
                        "was dropped by the Lead".into(),
                        Ended::Connection,
                    );
                }
            }
            None => {}
        }
    }

    fn reap(mut self: Box<Self>, grace: Duration) -> BoxFuture<'static, ()> {
        for unused in std::mem::take(&mut self.reserved) {
            self.pool.give_back(unused);
        }
        Box::pin(async move {
            let slots: Vec<Slot> = lock(&self.slots).drain().map(|(_, s)| s).collect();
            let deadline = tokio::time::Instant::now() + grace;
            for slot in slots {
                match slot {
                    Slot::Waiting(claiming) => claiming.abort(),
                    Slot::Attached { route, reader } => {
                        let Some(mut reader) = lock(&reader).take() else {
                            continue;
                        };
                        // A worker told to shut down closes its connection and registers anew.
                        if tokio::time::timeout_at(deadline, &mut reader)
                            .await
                            .is_err()
                        {
                            *lock(&route) = Route::Gone;
                            reader.abort();
                        }
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests;
