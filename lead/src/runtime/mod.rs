//! Where the actors run: as child processes over loopback TCP (`local`, the default) or on
//! actix Arbiters in this process over in-memory streams (`inproc`). Both speak the same
//! authenticated protocol to the same hub, so the review logic cannot tell them apart.

pub mod inproc;
pub mod local;

use crate::review::coordinator::Coordinator;
use actix::Addr;
use protocol::InspectorKind;
use std::time::Duration;

/// Which runtime to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Runtime {
    /// One child process per actor, loopback TCP.
    Local,
    /// Every actor in this process, each on its own Arbiter.
    Inproc,
}

impl std::str::FromStr for Runtime {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "local" => Ok(Runtime::Local),
            "inproc" => Ok(Runtime::Inproc),
            other => Err(format!(
                "unknown runtime '{other}' (expected local or inproc)"
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

/// The role-specific part of an [`ActorSpec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActorKind {
    /// An Inspector of a kind.
    Inspector(InspectorKind),
    /// The Auditor.
    Auditor,
    /// An Implementer of the team loop (`retake run`).
    Implementer,
}

/// Starts and stops actor instances for the coordinator; one implementation per runtime.
pub trait Spawner: Send {
    /// Starts an instance; its connection and its end are reported to `coordinator`.
    fn spawn(&mut self, spec: &ActorSpec, coordinator: Addr<Coordinator>) -> std::io::Result<()>;
    /// Stops an instance at once (its whole process group in the local runtime).
    fn kill(&mut self, instance: &str);
    /// At the end: waits up to `grace` for every instance to exit, then kills what is left.
    fn reap(self: Box<Self>, grace: Duration) -> futures::future::BoxFuture<'static, ()>;
}
