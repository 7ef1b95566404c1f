//! `retake actor ROLE …`: one actor as its own process; the secret comes from the environment.

use crate::cli::ActorRole;
use protocol::wire::Secret;

/// Runs the actor until the Lead shuts it down.
pub fn run(role: ActorRole) -> anyhow::Result<u8> {
    let secret = Secret::from_env()?;
    match role {
        ActorRole::Inspector(args) => inspector::runtime::run_process(args, secret)?,
        ActorRole::Auditor(args) => auditor::runtime::run_process(args, secret)?,
        ActorRole::Implementer(args) => implementer::runtime::run_process(args, secret)?,
    }
    Ok(0)
}
