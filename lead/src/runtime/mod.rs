//! Where the actors run: as child processes over loopback TCP (`local`, the default) or on
//! actix Arbiters in this process over in-memory streams (`inproc`). Both speak the same
//! authenticated protocol to the same hub, so the review logic cannot tell them apart.

pub mod inproc;
pub mod local;

use protocol::InspectorKind;

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

/// An actor to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActorSpec {
    /// An Inspector of a kind, under a name.
    Inspector(InspectorKind, String),
    /// The Auditor, under a name.
    Auditor(String),
}

impl ActorSpec {
    /// The actor's name.
    pub fn name(&self) -> &str {
        match self {
            ActorSpec::Inspector(_, n) | ActorSpec::Auditor(n) => n,
        }
    }
}
