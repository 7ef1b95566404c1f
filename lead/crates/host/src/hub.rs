//! Accepting actors: every connection, TCP or in-memory, is authenticated with the handshake and
//! then pumped into a hub — the review's coordinator, or the team loop's hub — under its
//! authenticated name. A peer that fails the handshake or sends a bad frame is dropped and
//! logged; the others are not affected. A connection the hub refuses (its name is taken, or no
//! actor of that name is expected) is closed without another word to the hub: its messages and
//! its disconnect would otherwise be taken for the registered actor's, and a rogue holding a
//! real actor's name could make the Lead replace that healthy actor.

use actix::dev::ToEnvelope;
use actix::prelude::*;
use futures::future::BoxFuture;
use futures::FutureExt as _;
use protocol::wire::{server_handshake, Outbox, Secret, WireConfig};
use protocol::Envelope;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;

/// The reason given when a peer closes its connection without a word.
pub const DISCONNECTED: &str = "disconnected";

/// How an actor instance ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Its connection closed (or sent a bad frame, or was dropped by the Lead).
    Connection,
    /// Its process or Arbiter was seen to end, or it never came (no worker to claim, could
    /// not be started).
    Instance,
}

/// Where the actors' events go: the one interface between the runtimes (which start actors
/// and carry their connections) and whoever uses them — the review's coordinator and the team
/// loop's hub alike.
pub trait Hub: Send + Sync + 'static {
    /// An actor authenticated as `name`; `outbox` reaches it. Resolves to whether the hub took
    /// it (false: refused, the connection is closed and the hub hears no more of it).
    fn connected(&self, name: String, outbox: Outbox) -> BoxFuture<'static, bool>;
    /// `env` arrived from `name` (its sender checked against the authenticated name).
    fn incoming(&self, name: String, env: Envelope);
    /// Instance `name` ended, for `reason`.
    fn lost(&self, name: String, reason: String, how: Ended);
}

/// A shared handle to a hub, as the runtimes hold it.
pub type HubRef = Arc<dyn Hub>;

/// An authenticated actor connected; the hub answers whether it takes it.
#[derive(Message)]
#[rtype(result = "bool")]
pub struct Connected {
    /// Its authenticated instance name.
    pub name: String,
    /// Where to send to it.
    pub outbox: Outbox,
}

/// An envelope arrived from an authenticated actor.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Incoming {
    /// The authenticated sender.
    pub from: String,
    /// The envelope.
    pub env: Envelope,
}

/// An actor instance ended.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Lost {
    /// The instance.
    pub name: String,
    /// What happened ("was killed by signal 9", "disconnected").
    pub reason: String,
    /// Whether its connection closed or the instance itself was seen to end.
    pub how: Ended,
}

/// Any actor that handles the three hub messages is a hub through its address.
impl<A> Hub for Addr<A>
where
    A: Actor + Handler<Connected> + Handler<Incoming> + Handler<Lost>,
    A::Context: ToEnvelope<A, Connected> + ToEnvelope<A, Incoming> + ToEnvelope<A, Lost>,
{
    fn connected(&self, name: String, outbox: Outbox) -> BoxFuture<'static, bool> {
        // A hub that is gone took nobody.
        let sent = self.send(Connected { name, outbox });
        sent.map(|taken| taken.unwrap_or(false)).boxed()
    }

    fn incoming(&self, from: String, env: Envelope) {
        self.do_send(Incoming { from, env });
    }

    fn lost(&self, name: String, reason: String, how: Ended) {
        self.do_send(Lost { name, reason, how });
    }
}

/// Authenticates `stream` and, if it passes, feeds its messages to `hub` until it ends.
pub async fn attach<S>(stream: S, secret: Secret, wire: WireConfig, hub: HubRef)
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
    if !hub.connected(name.clone(), outbox).await {
        tracing::warn!(name, "connection refused: unexpected or duplicate name");
        return;
    }
    let reason = loop {
        match reader.recv().await {
            Ok(Some(env)) if env.from == name => hub.incoming(name.clone(), env),
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
    hub.lost(name, reason, Ended::Connection);
}

/// Accepts TCP connections forever, each handled on its own task.
pub async fn accept_loop(listener: TcpListener, secret: Secret, wire: WireConfig, hub: HubRef) {
    loop {
        match listener.accept().await {
            Ok((stream, addr)) => {
                let _nodelay = stream.set_nodelay(true);
                tracing::debug!(%addr, "connection");
                actix::spawn(attach(
                    stream,
                    secret.clone(),
                    wire.clone(),
                    Arc::clone(&hub),
                ));
            }
            Err(e) => tracing::warn!(error = %e, "accept failed"),
        }
    }
}
