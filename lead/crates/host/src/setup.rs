//! Starting a hub's actors in the runtime asked for: one place for what the review's
//! coordinator and the team loop's hub both need — a fresh secret, and a loopback listener in
//! the `local` runtime, in-memory streams in `inproc`, reserved workers in `remote`.

use crate::hub::{accept_loop, HubRef};
use crate::inproc::InprocSpawner;
use crate::local::LocalSpawner;
use crate::remote::{HostingError, RemoteSpawner, WorkerPool};
use crate::{ActorKind, Runtime, Spawner};
use protocol::chaos::FaultPlan;
use protocol::wire::{Secret, WireConfig};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// What the settings say about hosting, before a runtime is chosen: [`Hosting::open`] makes the
/// [`Setup`] of a review or a run.
#[derive(Debug, Clone)]
pub struct Hosting {
    /// The heartbeat interval of workers in the remote runtime.
    pub remote_heartbeat: Duration,
    /// The heartbeat interval of the actors the Lead starts itself (local, inproc).
    pub local_heartbeat: Duration,
    /// Wire limits.
    pub wire: WireConfig,
    /// Where the remote runtime's workers connect (host:port).
    pub listen: String,
    /// The remote runtime's shared secret (hex).
    pub secret: Option<String>,
    /// How long the remote runtime waits for a worker of a kind.
    pub connect_timeout: Duration,
}

impl Hosting {
    /// How actors are started in `runtime` with `faults`: in the remote runtime the process's
    /// worker pool is opened (an error names why it cannot be).
    pub fn open(&self, runtime: Runtime, faults: &FaultPlan) -> Result<Setup, HostingError> {
        // Workers of the remote runtime heartbeat at their own pace (`--heartbeat-ms`, 1 s by
        // default), over a network: they are judged by the slower interval.
        let heartbeat = match runtime {
            Runtime::Remote => self.remote_heartbeat,
            Runtime::Local | Runtime::Inproc => self.local_heartbeat,
        };
        let pool = match runtime {
            Runtime::Remote => Some(crate::remote::open_pool(
                &self.listen,
                self.secret.as_deref(),
                &self.wire,
                heartbeat,
                faults,
            )?),
            Runtime::Local | Runtime::Inproc => None,
        };
        let exe = std::env::current_exe().map_err(HostingError::NoExecutable)?;
        Ok(Setup {
            runtime,
            exe,
            wire: self.wire.clone(),
            heartbeat,
            faults: faults.clone(),
            pool,
            connect_timeout: self.connect_timeout,
        })
    }
}

/// How a hub's actors are started.
#[derive(Clone)]
pub struct Setup {
    /// Where they run.
    pub runtime: Runtime,
    /// The `retake` executable the local runtime starts.
    pub exe: PathBuf,
    /// Wire limits.
    pub wire: WireConfig,
    /// Their heartbeat interval.
    pub heartbeat: Duration,
    /// Faults to inject (empty unless chaos is enabled).
    pub faults: FaultPlan,
    /// The remote runtime's worker pool (`None` in the others).
    pub pool: Option<Arc<WorkerPool>>,
    /// How long the remote runtime waits for a worker of a kind.
    pub connect_timeout: Duration,
}

/// The local runtime's listener, waiting for the hub it will feed.
pub struct Accepting {
    listener: TcpListener,
    secret: Secret,
    wire: WireConfig,
}

impl Accepting {
    /// Authenticates every connection to the listener and feeds it to `hub`.
    pub fn serve(self, hub: HubRef) {
        actix::spawn(accept_loop(self.listener, self.secret, self.wire, hub));
    }
}

impl Setup {
    /// A spawner for one hub whose actors will be of `kinds` (the remote runtime reserves a
    /// worker for each), and in the local runtime the listener its children connect to: hand it
    /// the hub once the hub is started ([`Accepting::serve`]).
    pub async fn spawner(
        &self,
        kinds: &[ActorKind],
    ) -> std::io::Result<(Box<dyn Spawner>, Option<Accepting>)> {
        let secret = Secret::generate();
        Ok(match self.runtime {
            Runtime::Local => {
                let listener = TcpListener::bind("127.0.0.1:0").await.map_err(|e| {
                    std::io::Error::new(e.kind(), format!("cannot listen on loopback: {e}"))
                })?;
                let at = listener.local_addr()?;
                let spawner = LocalSpawner::new(
                    self.exe.clone(),
                    at,
                    secret.clone(),
                    self.heartbeat,
                    self.wire.max_frame,
                    self.faults.clone(),
                );
                let accepting = Accepting {
                    listener,
                    secret,
                    wire: self.wire.clone(),
                };
                (Box::new(spawner), Some(accepting))
            }
            Runtime::Inproc => {
                let spawner = InprocSpawner::new(
                    secret,
                    self.wire.clone(),
                    self.heartbeat,
                    self.faults.clone(),
                );
                (Box::new(spawner), None)
            }
            Runtime::Remote => {
                let pool = self.pool.clone().ok_or_else(|| {
                    std::io::Error::other("the remote runtime has no worker pool")
                })?;
                let spawner = RemoteSpawner::reserving(pool, kinds, self.connect_timeout).await;
                (Box::new(spawner), None)
            }
        })
    }
}
