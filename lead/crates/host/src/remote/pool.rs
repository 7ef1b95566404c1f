//! The pool of registered workers: the accept loop on a thread of its own, the handshake that
//! registers a worker with its role and kind, and the reading of every worker connection —
//! dropped while the worker waits idle, routed to the hub that claimed it (a review's
//! coordinator, a run's team hub).

use super::liveness::{tend_forever, Census, Heard};
use super::HostingError;
use crate::hub::{Ended, HubRef, DISCONNECTED};
use protocol::wire::{server_handshake, Outbox, Secret, WireConfig};
use protocol::{Body, Envelope};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// The most messages a worker may leave for the hub that will claim it.
const MAX_HELD: usize = 16;

/// Where a registered worker's messages go.
pub(super) enum Route {
    /// Waiting in the pool: heartbeats are dropped; anything else it says (an Implementer asks
    /// for a task as soon as it connects) is held, in order, for the hub that claims it.
    Idle(Vec<Envelope>),
    /// Claimed: messages go to `hub` as coming from `instance`.
    Attached {
        /// The instance it serves.
        instance: String,
        /// Its review's coordinator or its run's team hub.
        hub: HubRef,
    },
    /// Dropped by the Lead or disconnected.
    Gone,
}

/// One registered worker connection.
pub(super) struct Worker {
    pub(super) role: String,
    pub(super) kind: String,
    pub(super) name: String,
    pub(super) outbox: Outbox,
    route: Arc<Mutex<Route>>,
    reader: JoinHandle<()>,
    /// When the Lead last heard from it.
    pub(super) heard: Heard,
}

/// A worker taken out of the pool for one instance.
pub(crate) struct Claimed {
    pub(super) role: String,
    pub(super) kind: String,
    pub(super) name: String,
    pub(super) outbox: Outbox,
    pub(super) route: Arc<Mutex<Route>>,
    pub(super) reader: JoinHandle<()>,
    heard: Heard,
}

impl From<Worker> for Claimed {
    fn from(w: Worker) -> Self {
        Claimed {
            role: w.role,
            kind: w.kind,
            name: w.name,
            outbox: w.outbox,
            route: w.route,
            reader: w.reader,
            heard: w.heard,
        }
    }
}

static SHARED: std::sync::OnceLock<Arc<WorkerPool>> = std::sync::OnceLock::new();

/// The process's pool, started on first use on `listen` with the hex `secret` (required: the
/// remote runtime authenticates workers it did not start). A later call gets that same pool:
/// in `retake serve` every job's review runs on the service's workers, whatever the job's own
/// `[review] listen` or `[wire] secret` say — a job's repository can neither move the service's
/// listener nor change the secret its workers registered with. When a later call asks for
/// other settings, the log says which ones the pool keeps. `heartbeat` is the interval idle
/// workers are held to, set by the first call only (a job's repository cannot loosen it).
pub fn shared_pool(
    listen: &str,
    secret: Option<&str>,
    wire: &WireConfig,
    heartbeat: Duration,
) -> Result<Arc<WorkerPool>, HostingError> {
    let hex = secret.ok_or(HostingError::NoSecret)?;
    let secret = Secret::from_hex(hex).map_err(HostingError::BadSecret)?;
    if let Some(pool) = SHARED.get() {
        if let Some(other) = pool.differs(listen, &secret) {
            tracing::info!(pool = %pool.listen, "the review runs on this process's worker pool: {other}");
        }
        return Ok(Arc::clone(pool));
    }
    let pool = WorkerPool::start(listen, secret, wire.clone()).map_err(HostingError::Listen)?;
    pool.set_heartbeat(heartbeat);
    Ok(Arc::clone(SHARED.get_or_init(|| pool)))
}

/// The registered workers, shared by every review of the process.
pub struct WorkerPool {
    /// The address it was asked to listen on, as given.
    asked: String,
    secret: Secret,
    full_set_wait: Mutex<Option<Duration>>,
    idle: Mutex<Vec<Worker>>,
    registered: Notify,
    listen: SocketAddr,
    /// The heartbeat interval idle workers are held to (`tend`).
    heartbeat: Mutex<Duration>,
    census: Arc<Census>,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data behind, still consistent.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl WorkerPool {
    /// Listens on `listen` and accepts workers authenticated with `secret`, on a thread of its
    /// own; fails when the address cannot be bound.
    pub fn start(listen: &str, secret: Secret, wire: WireConfig) -> std::io::Result<Arc<Self>> {
        let std_listener = std::net::TcpListener::bind(listen).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot listen on {listen} for workers: {e}"),
            )
        })?;
        std_listener.set_nonblocking(true)?;
        let pool = Arc::new(WorkerPool {
            asked: listen.to_string(),
            secret: secret.clone(),
            full_set_wait: Mutex::new(None),
            idle: Mutex::new(Vec::new()),
            registered: Notify::new(),
            listen: std_listener.local_addr()?,
            heartbeat: Mutex::new(Duration::from_secs(1)),
            census: Arc::new(Census::default()),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("retake-workers")
            .enable_all()
            .build()?;
        let accepting = Arc::clone(&pool);
        std::thread::Builder::new()
            .name("retake-worker-pool".into())
            .spawn(move || {
                runtime.block_on(async move {
                    tokio::spawn(tend_forever(Arc::clone(&accepting)));
                    match tokio::net::TcpListener::from_std(std_listener) {
                        Ok(listener) => accept_loop(listener, secret, wire, accepting).await,
                        Err(e) => tracing::error!(error = %e, "cannot accept workers"),
                    }
                })
            })?;
        tracing::info!(listen = %pool.listen, "waiting for workers");
        Ok(pool)
    }

    /// How `listen` and `secret` differ from what this pool was started with, if they do.
    fn differs(&self, listen: &str, secret: &Secret) -> Option<String> {
        if listen != self.asked {
            return Some(format!(
                "it listens on {} (asked for '{}'), not on '{listen}'",
                self.listen, self.asked
            ));
        }
        (!secret.same_as(&self.secret))
            .then(|| "its workers registered with another wire.secret".to_string())
    }

    /// The address workers connect to (the bound port when `start` was given port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listen
    }

    /// The secret workers authenticate with.
    pub fn secret(&self) -> &Secret {
        &self.secret
    }

    /// How many workers wait idle, by `role/kind` (`inspector/quality`, `auditor/`).
    pub fn idle_counts(&self) -> std::collections::BTreeMap<String, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for w in lock(&self.idle).iter() {
            *counts.entry(format!("{}/{}", w.role, w.kind)).or_insert(0) += 1;
        }
        counts
    }

    /// How long a review waits for a full set of idle workers before it starts with what is
    /// there (`None`: the connect timeout). `retake serve` waits longer: its jobs queue for
    /// workers rather than start half-staffed.
    pub fn set_full_set_wait(&self, wait: Duration) {
        *lock(&self.full_set_wait) = Some(wait);
    }

    /// The heartbeat interval of the workers (`[supervision] heartbeat_interval_ms`): an idle
    /// worker silent for [`SILENT_AFTER`](super::liveness::SILENT_AFTER) of them is dropped,
    /// and the Lead heartbeats idle workers at this pace.
    pub fn set_heartbeat(&self, every: Duration) {
        *lock(&self.heartbeat) = every.max(Duration::from_millis(10));
    }

    /// See [`WorkerPool::set_heartbeat`].
    pub(super) fn heartbeat(&self) -> Duration {
        *lock(&self.heartbeat)
    }

    pub(super) fn census(&self) -> &Arc<Census> {
        &self.census
    }

    /// Removes the idle workers `silent` picks and closes their connections.
    pub(super) fn drop_idle_where(&self, silent: impl Fn(&Worker) -> bool) -> Vec<Worker> {
        let dropped: Vec<Worker> = {
            let mut idle = lock(&self.idle);
            let (gone, kept) = std::mem::take(&mut *idle)
                .into_iter()
                .partition(|w| silent(w));
            *idle = kept;
            gone
        };
        for worker in &dropped {
            *lock(&worker.route) = Route::Gone;
            // With the reader and (dropped with the worker) the outbox gone, the connection closes.
            worker.reader.abort();
        }
        dropped
    }

    /// Calls `each` on every idle worker.
    pub(super) fn each_idle(&self, mut each: impl FnMut(&Worker)) {
        for worker in lock(&self.idle).iter() {
            each(worker);
        }
    }

    /// See [`WorkerPool::set_full_set_wait`].
    pub fn full_set_wait(&self) -> Option<Duration> {
        *lock(&self.full_set_wait)
    }

    /// Takes one idle worker for each `(role, kind)` of `wanted` at once — all of them, so
    /// that reviews sharing the pool never hold half a set each and wait on one another —
    /// waiting up to `wait` for a full set; then it takes what there is.
    pub(crate) async fn reserve(&self, wanted: &[(&str, &str)], wait: Duration) -> Vec<Claimed> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let registered = self.registered.notified();
            tokio::pin!(registered);
            registered.as_mut().enable();
            let timed_out = tokio::time::Instant::now() >= deadline;
            {
                let mut idle = lock(&self.idle);
                let mut picks: Vec<usize> = Vec::new();
                for (role, kind) in wanted {
                    let found = idle.iter().enumerate().position(|(i, w)| {
                        w.role == *role && w.kind == *kind && !picks.contains(&i)
                    });
                    if let Some(i) = found {
                        picks.push(i);
                    }
                }
                if picks.len() == wanted.len() || timed_out {
                    picks.sort_unstable_by(|a, b| b.cmp(a));
                    return picks
                        .into_iter()
                        .map(|i| Claimed::from(idle.remove(i)))
                        .collect();
                }
            }
            let _woken = tokio::time::timeout_at(deadline, registered).await;
        }
    }

    /// Puts a reserved worker that was not needed back, first in line.
    pub(super) fn give_back(&self, claimed: Claimed) {
        if matches!(*lock(&claimed.route), Route::Idle(_)) {
            lock(&self.idle).insert(
                0,
                Worker {
                    role: claimed.role,
                    kind: claimed.kind,
                    name: claimed.name,
                    outbox: claimed.outbox,
                    route: claimed.route,
                    reader: claimed.reader,
                    heard: claimed.heard,
                },
            );
            self.registered.notify_waiters();
        }
    }

    fn register(&self, worker: Worker) {
        tracing::info!(
            name = worker.name,
            role = worker.role,
            kind = worker.kind,
            "worker registered"
        );
        lock(&self.idle).push(worker);
        self.registered.notify_waiters();
    }

    fn forget(&self, route: &Arc<Mutex<Route>>) {
        lock(&self.idle).retain(|w| !Arc::ptr_eq(&w.route, route));
    }

    /// Takes the longest-waiting idle worker of `role`/`kind`, waiting up to `wait` for one to
    /// register.
    pub(super) async fn claim(&self, role: &str, kind: &str, wait: Duration) -> Option<Claimed> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let registered = self.registered.notified();
            tokio::pin!(registered);
            registered.as_mut().enable();
            {
                let mut idle = lock(&self.idle);
                if let Some(i) = idle.iter().position(|w| w.role == role && w.kind == kind) {
                    return Some(Claimed::from(idle.remove(i)));
                }
            }
            if tokio::time::timeout_at(deadline, registered).await.is_err() {
                return None;
            }
        }
    }
}

/// `env` from worker `worker` as coming from the instance it serves.
pub(super) fn renamed(mut env: Envelope, worker: &str, instance: &str) -> Envelope {
    env.from = instance.to_string();
    as_instance(&mut env.body, worker, instance);
    env
}

/// Names what a worker wrote under its own name (`inspector-quality@HOST-PID`: its report and
/// its findings' agents) after the instance it serves, as a local child names it, so that the
/// review's report, notes ("reported by inspector-quality only") and journal read the same in
/// every runtime.
pub(super) fn as_instance(body: &mut Body, worker: &str, instance: &str) {
    if let Body::InspectorReport(report) = body {
        if report.inspector == worker {
            report.inspector = instance.to_string();
        }
        for agent in report.findings.iter_mut().flat_map(|f| f.agents.iter_mut()) {
            if agent == worker {
                *agent = instance.to_string();
            }
        }
    }
}

async fn accept_loop(
    listener: tokio::net::TcpListener,
    secret: Secret,
    wire: WireConfig,
    pool: Arc<WorkerPool>,
) {
    loop {
        match listener.accept().await {
            Ok((stream, addr)) => {
                let _nodelay = stream.set_nodelay(true);
                tracing::debug!(%addr, "worker connection");
                tokio::spawn(admit(
                    stream,
                    secret.clone(),
                    wire.clone(),
                    Arc::clone(&pool),
                ));
            }
            Err(e) => tracing::warn!(error = %e, "accept failed"),
        }
    }
}

/// Authenticates one connection and keeps reading it: dropped while idle, routed once claimed.
async fn admit(
    stream: tokio::net::TcpStream,
    secret: Secret,
    wire: WireConfig,
    pool: Arc<WorkerPool>,
) {
    let (peer, mut reader, writer) = match server_handshake(stream, &secret, &wire).await {
        Ok(parts) => parts,
        Err(e) => {
            tracing::warn!(error = %e, "worker refused");
            return;
        }
    };
    let (outbox, _writer) = Outbox::spawn(writer);
    let route = Arc::new(Mutex::new(Route::Idle(Vec::new())));
    let heard = Heard::now();
    let (start_tx, start_rx) = tokio::sync::oneshot::channel::<()>();
    let reading = {
        let (route, pool, name) = (Arc::clone(&route), Arc::clone(&pool), peer.name.clone());
        let (heard, live) = (heard.clone(), pool.census().live(&peer.role, &peer.kind));
        let (role, kind) = (peer.role.clone(), peer.kind.clone());
        tokio::spawn(async move {
            let _live = live;
            // Registered first, so that an early message cannot race the pool entry.
            let _registered = start_rx.await;
            let reason = loop {
                let env = match reader.recv().await {
                    Ok(Some(env)) => env,
                    Ok(None) => break DISCONNECTED.to_string(),
                    Err(e) => break format!("sent a bad frame ({e})"),
                };
                heard.touch();
                if env.from != name {
                    break format!(
                        "claimed to be '{}' on an authenticated connection",
                        env.from
                    );
                }
                // Under the lock: a claim switching the route replays what was held first.
                match &mut *lock(&route) {
                    Route::Idle(held) => {
                        if !matches!(env.body, Body::Heartbeat { .. }) && held.len() < MAX_HELD {
                            held.push(env);
                        }
                    }
                    Route::Attached { instance, hub } => {
                        hub.incoming(instance.clone(), renamed(env, &name, instance));
                    }
                    Route::Gone => return,
                }
            };
            tracing::debug!(name, reason, "worker connection ended");
            if matches!(*lock(&route), Route::Idle(_)) {
                pool.census().lose(&role, &kind);
            }
            pool.forget(&route);
            let previous = std::mem::replace(&mut *lock(&route), Route::Gone);
            if let Route::Attached { instance, hub } = previous {
                hub.lost(instance, reason, Ended::Connection);
            }
        })
    };
    pool.register(Worker {
        role: peer.role,
        kind: peer.kind,
        name: peer.name,
        outbox,
        route,
        reader: reading,
        heard,
    });
    let _started = start_tx.send(());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_review_is_told_what_the_pool_keeps() {
        let secret = |byte: u8| Secret::from_bytes(vec![byte; 32]).expect("secret");
        let pool =
            WorkerPool::start("127.0.0.1:0", secret(1), WireConfig::default()).expect("listening");
        assert_eq!(pool.differs("127.0.0.1:0", &secret(1)), None);
        let elsewhere = pool
            .differs("0.0.0.0:7000", &secret(1))
            .expect("other address");
        assert!(
            elsewhere.contains("(asked for '127.0.0.1:0'), not on '0.0.0.0:7000'"),
            "{elsewhere}"
        );
        assert_eq!(
            pool.differs("127.0.0.1:0", &secret(2)).as_deref(),
            Some("its workers registered with another wire.secret")
        );
    }
}
