//! Accepting actors: every connection, TCP or in-memory, is authenticated with the handshake and
//! then pumped into the coordinator under its authenticated name. A peer that fails the handshake
//! or sends a bad frame is dropped and logged; the others are not affected.

use super::coordinator::{Connected, Coordinator, Incoming, Lost};
use actix::Addr;
use protocol::wire::{server_handshake, Outbox, Secret, WireConfig};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;

/// The reason given when a peer closes its connection without a word.
pub const DISCONNECTED: &str = "disconnected";

/// Authenticates `stream` and, if it passes, feeds its messages to the coordinator until it ends.
pub async fn attach<S>(stream: S, secret: Secret, wire: WireConfig, coordinator: Addr<Coordinator>)
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (peer, mut reader, writer) = match server_handshake(stream, &secret, &wire).await {
        Ok(parts) => parts,
        Err(e) => {
            tracing::warn!(error = %e, "connection refused");
            return;
        }
    };
    let name = peer.name.clone();
    let (outbox, _writer) = Outbox::spawn(writer);
    coordinator.do_send(Connected {
        name: name.clone(),
        outbox,
    });
    let reason = loop {
        match reader.recv().await {
            Ok(Some(env)) if env.from == name => coordinator.do_send(Incoming {
                from: name.clone(),
                env,
            }),
            Ok(Some(env)) => {
                break format!(
                    "claimed to be '{}' on an authenticated connection",
                    env.from
                );
            }
            Ok(None) => break DISCONNECTED.to_string(),
            Err(e) => break format!("sent a bad frame ({e})"),
        }
    };
    tracing::debug!(name, reason, "connection ended");
    coordinator.do_send(Lost {
        name,
        reason,
        connection_closed: true,
    });
}

/// Accepts TCP connections forever, each handled on its own task.
pub async fn accept_loop(
    listener: TcpListener,
    secret: Secret,
    wire: WireConfig,
    coordinator: Addr<Coordinator>,
) {
    loop {
        match listener.accept().await {
            Ok((stream, addr)) => {
                let _nodelay = stream.set_nodelay(true);
                tracing::debug!(%addr, "connection");
                actix::spawn(attach(
                    stream,
                    secret.clone(),
                    wire.clone(),
                    coordinator.clone(),
                ));
            }
            Err(e) => tracing::warn!(error = %e, "accept failed"),
        }
    }
}
