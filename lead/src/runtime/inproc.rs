//! The `inproc` runtime: every actor in this process's actix System, each on its own Arbiter,
//! connected to the hub over in-memory streams with the same handshake and frames as TCP.

use super::ActorSpec;
use crate::review::coordinator::Coordinator;
use crate::review::hub::attach;
use actix::{Addr, Arbiter};
use protocol::wire::{Secret, WireConfig};
use std::time::Duration;

/// Buffer of each in-memory connection, bytes.
const PIPE_BYTES: usize = 256 * 1024;

/// Starts `spec` on a new Arbiter and attaches its stream to the hub.
pub fn spawn(
    spec: &ActorSpec,
    secret: &Secret,
    wire: &WireConfig,
    heartbeat: Duration,
    coordinator: Addr<Coordinator>,
) -> Arbiter {
    let (lead_end, actor_end) = tokio::io::duplex(PIPE_BYTES);
    actix::spawn(attach(lead_end, secret.clone(), wire.clone(), coordinator));
    let arbiter = Arbiter::new();
    let name = spec.name().to_string();
    let (spec, secret, wire) = (spec.clone(), secret.clone(), wire.clone());
    let started = arbiter.spawn(async move {
        let result = match &spec {
            ActorSpec::Inspector(kind, name) => {
                inspector::runtime::serve(actor_end, *kind, name, &secret, &wire, heartbeat).await
            }
            ActorSpec::Auditor(name) => {
                auditor::runtime::serve(actor_end, name, &secret, &wire, heartbeat).await
            }
        };
        if let Err(e) = result {
            tracing::error!(actor = spec.name(), error = %e, "actor stopped");
        }
    });
    if !started {
        tracing::error!(actor = name, "arbiter is not running");
    }
    arbiter
}
