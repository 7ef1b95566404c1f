//! The `remote` runtime: actors started by someone else (compose, Kubernetes, `retake actor …
//! --worker` by hand) connect to the Lead's listen address, authenticate with the shared secret
//! and register with their role and kind. They wait in a [`WorkerPool`] until a review claims
//! them; "spawning" an instance is claiming an idle worker of its kind and attaching it to the
//! review's coordinator under the instance's name, and "killing" one is dropping its connection
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

use super::{ActorKind, ActorSpec, Spawner};
use crate::review::coordinator::{Connected, Coordinator, Lost};
use crate::review::hub::DISCONNECTED;
use actix::Addr;
use futures::future::BoxFuture;
use pool::{lock, Claimed, Route};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

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
        let wanted: Vec<(&str, &str)> = kinds.iter().map(|k| role_of(*k)).collect();
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

/// The role and kind a worker registers with for `kind`.
fn role_of(kind: ActorKind) -> (&'static str, &'static str) {
    match kind {
        ActorKind::Inspector(k) => ("inspector", k.as_str()),
        ActorKind::Auditor => ("auditor", ""),
        ActorKind::Implementer => ("implementer", ""),
    }
}

impl Spawner for RemoteSpawner {
    fn spawn(&mut self, spec: &ActorSpec, coordinator: Addr<Coordinator>) -> std::io::Result<()> {
        let (role, kind) = role_of(spec.kind);
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
                coordinator.do_send(Lost {
                    name: instance,
                    reason: format!("no {what} worker registered within {} s", wait.as_secs()),
                    connection_closed: false,
                });
                return;
            };
            tracing::info!(worker = worker.name, instance, "worker claimed");
            coordinator.do_send(Connected {
                name: instance.clone(),
                outbox: worker.outbox,
            });
            let attached = Route::Attached {
                instance: instance.clone(),
                coordinator: coordinator.clone(),
            };
            let gone = {
                let mut route = lock(&worker.route);
                let gone = matches!(*route, Route::Gone);
                if !gone {
                    *route = attached;
                }
                gone
            };
            if gone {
                // It disconnected between the claim and now: lost like any other.
                coordinator.do_send(Lost {
                    name: instance.clone(),
                    reason: DISCONNECTED.to_string(),
                    connection_closed: true,
                });
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
                if let Route::Attached {
                    instance,
                    coordinator,
                } = previous
                {
                    coordinator.do_send(Lost {
                        name: instance,
                        reason: "was dropped by the Lead".into(),
                        connection_closed: true,
                    });
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
