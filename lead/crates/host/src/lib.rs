//! Actor hosting, for any hub: where the actors run — as child processes over loopback TCP
//! (`local`, the default), on actix Arbiters in this process over in-memory streams (`inproc`),
//! or as workers started by an orchestrator that connect to the Lead's listen address
//! (`remote`) — how their connections are authenticated and fed to a [`hub::Hub`], and the
//! [`supervisor::Supervisor`] that decides what to do when one dies, hangs or stalls. All
//! runtimes speak the same authenticated protocol, so neither the review's coordinator nor the
//! team loop's hub can tell them apart; both are users of this module and nothing here knows
//! either.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod hub;
pub mod inproc;
pub mod journal;
pub mod live;
pub mod local;
pub mod lock;
pub mod remote;
pub mod setup;
pub mod supervisor;
pub mod writer;

use futures::future::BoxFuture;
use hub::HubRef;
pub use protocol::ActorKind;
use std::time::Duration;

/// Which runtime to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// One child process per actor, loopback TCP.
    Local,
    /// Every actor in this process, each on its own Arbiter.
    Inproc,
    /// Workers started elsewhere (compose, Kubernetes) connect to `[review] listen`.
    Remote,
}

impl Runtime {
    /// Every runtime, the default first.
    pub const ALL: [Runtime; 3] = [Runtime::Local, Runtime::Inproc, Runtime::Remote];

    /// What it is, in a phrase (the command line's help).
    pub fn about(self) -> &'static str {
        match self {
            Runtime::Local => "One child process per actor, loopback TCP",
            Runtime::Inproc => "Every actor in this process, each on its own Arbiter",
            Runtime::Remote => {
                "Workers started elsewhere (compose, Kubernetes) connect to `[review] listen`"
            }
        }
    }

    /// The name used in configuration, state files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Local => "local",
            Runtime::Inproc => "inproc",
            Runtime::Remote => "remote",
        }
    }
}

impl std::str::FromStr for Runtime {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "local" => Ok(Runtime::Local),
            "inproc" => Ok(Runtime::Inproc),
            "remote" => Ok(Runtime::Remote),
            other => Err(format!(
                "unknown runtime '{other}' (expected local, inproc or remote)"
            )),
        }
    }
}

/// An actor to start: its role, the slot it fills and the instance name it runs under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorSpec {
    /// What it is.
    pub kind: ActorKind,
    /// The stable slot name (`inspector-quality`): fault plans and reports use it.
    pub logical: String,
    /// This instance's name (`inspector-quality-r1` after a re-spawn).
    pub instance: String,
    /// 1-based spawn number within the slot.
    pub spawn_no: u32,
}

/// Starts and stops actor instances for a hub; one implementation per runtime.
pub trait Spawner: Send {
    /// Starts an instance; its connection, its messages and its end are reported to `hub`.
    fn spawn(&mut self, spec: &ActorSpec, hub: HubRef) -> std::io::Result<()>;
    /// Stops an instance at once (its whole process group in the local runtime).
    fn kill(&mut self, instance: &str);
    /// At the end: waits up to `grace` for every instance to exit, then kills what is left.
    fn reap(self: Box<Self>, grace: Duration) -> BoxFuture<'static, ()>;
}
