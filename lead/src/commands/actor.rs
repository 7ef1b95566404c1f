//! `retake actor ROLE …`: one actor as its own process; the secret comes on standard input from
//! the Lead (or from the environment for a worker), never on the command line.

use crate::cli::ActorRole;
use outputs::ExitCode;

/// Runs the actor until the Lead shuts it down.
pub fn run(role: ActorRole) -> anyhow::Result<ExitCode> {
    let secret = protocol::session::process::take_secret()?;
    match role {
        ActorRole::Inspector(args) => inspector::runtime::run_process(args, secret)?,
        ActorRole::Auditor(args) => auditor::runtime::run_process(args, secret)?,
        ActorRole::Implementer(args) => implementer::runtime::run_process(args, secret)?,
    }
    Ok(ExitCode::Success)
}
