//! Accepting Implementers into the team hub: every connection, TCP or in-memory, is
//! authenticated with the handshake and then pumped into the hub under its authenticated name,
//! exactly as the review's hub does for Inspectors and the Auditor.

use super::hub::{Connected, Incoming, Lost, TeamHub};
use actix::Addr;
use protocol::wire::{server_handshake, Outbox, Secret, WireConfig};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;

/// Authenticates `stream` and, if it passes, feeds its messages to the hub until it ends.
pub async fn attach<S>(stream: S, secret: Secret, wire: WireConfig, hub: Addr<TeamHub>)
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
    hub.do_send(Connected {
        name: name.clone(),
        outbox,
    });
    let reason = loop {
        match reader.recv().await {
            Ok(Some(env)) if env.from == name => hub.do_send(Incoming {
                from: name.clone(),
                env,
            }),
            Ok(Some(env)) => {
                break format!(
                    "claimed to be '{}' on an authenticated connection",
                    env.from
                );
            }
            Ok(None) => break "disconnected".to_string(),
            Err(e) => break format!("sent a bad frame ({e})"),
        }
    };
    tracing::debug!(name, reason, "connection ended");
    hub.do_send(Lost { name, reason });
}

/// Accepts TCP connections until the hub's System stops, each handled on its own task.
pub async fn accept_loop(
    listener: TcpListener,
    secret: Secret,
    wire: WireConfig,
    hub: Addr<TeamHub>,
) {
    loop {
        match listener.accept().await {
            Ok((stream, addr)) => {
                let _nodelay = stream.set_nodelay(true);
                tracing::debug!(%addr, "connection");
                actix::spawn(attach(stream, secret.clone(), wire.clone(), hub.clone()));
            }
            Err(e) => tracing::warn!(error = %e, "accept failed"),
        }
    }
}
