//! The handshake that opens every connection, under one deadline:
//! `Hello{magic, version, role, name, client nonce, kind}` → `Challenge{server nonce}` →
//! `Auth{HMAC(secret, …)}` → `Welcome{server proof}` (mutual authentication) or `Reject{reason}`.
//!
//! Handshake frames are plain encoded envelopes without a MAC, capped at 16 KiB so that an
//! unauthenticated peer cannot make the server buffer a full-size frame.

use super::frame::{self, FrameReader, FrameWriter};
use super::link::{LinkReader, LinkWriter};
use super::mac::{self, Claimed, Direction, Nonce, SessionKey};
use super::{codec, Secret, WireConfig, WireError};
use crate::message::{Body, Envelope, Hello, LEAD, MAGIC, PROTOCOL_MAJOR, PROTOCOL_MINOR};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};

/// The largest handshake frame; a `Hello` with long names is a few hundred bytes.
const HANDSHAKE_MAX_FRAME: usize = 16 * 1024;

/// The Lead's reply to a wrong `Auth`; deliberately says no more.
pub(crate) const AUTH_FAILED: &str = "authentication failed";

/// Who completed a handshake with the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerInfo {
    /// The role the peer announced (`inspector`, `auditor`, `implementer`).
    pub role: String,
    /// The peer's actor name (`inspector-quality`, `inspector-quality@host-42` for a worker).
    pub name: String,
    /// The peer's kind within its role (`quality`), empty when the role has none.
    pub kind: String,
    /// The peer's protocol minor version.
    pub minor: u16,
}

struct Nonces {
    client: Nonce,
    server: Nonce,
}

/// Connects as `role`/`name` with no kind: proves knowledge of `secret`, checks the server's
/// proof, and returns the authenticated halves. A refusal is [`WireError::Rejected`] with the
/// server's reason.
pub async fn client_handshake<S>(
    stream: S,
    secret: &Secret,
    role: &str,
    name: &str,
    cfg: &WireConfig,
) -> Result<(LinkReader, LinkWriter), WireError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    client_handshake_kind(stream, secret, role, "", name, cfg).await
}

/// [`client_handshake`] announcing a kind within the role too (`quality` for an Inspector);
/// the kind is covered by the client's proof like the role and the name.
pub async fn client_handshake_kind<S>(
    stream: S,
    secret: &Secret,
    role: &str,
    kind: &str,
    name: &str,
    cfg: &WireConfig,
) -> Result<(LinkReader, LinkWriter), WireError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let who = Claimed { role, kind, name };
    let ours = (PROTOCOL_MAJOR, PROTOCOL_MINOR);
    client_handshake_speaking(stream, secret, &who, cfg, ours).await
}

/// [`client_handshake_kind`] announcing an arbitrary version (tests play newer peers with it).
pub(crate) async fn client_handshake_speaking<S>(
    stream: S,
    secret: &Secret,
    who: &Claimed<'_>,
    cfg: &WireConfig,
    version: (u16, u16),
) -> Result<(LinkReader, LinkWriter), WireError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (role, name) = (who.role, who.name);
    let (mut rd, mut wr) = frame::split(stream, handshake_max(cfg));
    let exchange = client_exchange(&mut rd, &mut wr, secret, who, version);
    let nonces = tokio::time::timeout(cfg.handshake_timeout, exchange)
        .await
        .map_err(|_| WireError::Timeout("handshake"))??;
    tracing::debug!(role, name, "handshake complete");
    let (send, recv) = (Direction::ClientToServer, Direction::ServerToClient);
    Ok(open_link(rd, wr, secret, &nonces, send, recv, cfg))
}

/// Accepts one peer: checks its magic, major version and proof of the secret, proves ours, and
/// returns who it is with the authenticated halves. A refused peer is sent `Reject` first.
pub async fn server_handshake<S>(
    stream: S,
    secret: &Secret,
    cfg: &WireConfig,
) -> Result<(PeerInfo, LinkReader, LinkWriter), WireError>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (mut rd, mut wr) = frame::split(stream, handshake_max(cfg));
    let exchange = server_exchange(&mut rd, &mut wr, secret);
    let (peer, nonces) = tokio::time::timeout(cfg.handshake_timeout, exchange)
        .await
        .map_err(|_| WireError::Timeout("handshake"))??;
    tracing::debug!(role = %peer.role, kind = %peer.kind, name = %peer.name, "peer authenticated");
    let (send, recv) = (Direction::ServerToClient, Direction::ClientToServer);
    let (reader, writer) = open_link(rd, wr, secret, &nonces, send, recv, cfg);
    Ok((peer, reader, writer))
}

fn handshake_max(cfg: &WireConfig) -> usize {
    cfg.max_frame.min(HANDSHAKE_MAX_FRAME)
}

fn open_link(
    mut rd: FrameReader,
    mut wr: FrameWriter,
    secret: &Secret,
    nonces: &Nonces,
    send: Direction,
    recv: Direction,
    cfg: &WireConfig,
) -> (LinkReader, LinkWriter) {
    rd.decoder_mut().set_max(cfg.max_frame);
    wr.encoder_mut().set_max(cfg.max_frame);
    let key = |dir| SessionKey::derive(secret, &nonces.client, &nonces.server, dir);
    (
        LinkReader::new(rd, key(recv)),
        LinkWriter::new(wr, key(send)),
    )
}

async fn client_exchange(
    rd: &mut FrameReader,
    wr: &mut FrameWriter,
    secret: &Secret,
    who: &Claimed<'_>,
    version: (u16, u16),
) -> Result<Nonces, WireError> {
    let client = mac::nonce();
    let name = who.name;
    let hello = Hello {
        magic: MAGIC,
        major: version.0,
        minor: version.1,
        role: who.role.to_owned(),
        name: name.to_owned(),
        nonce: client,
        kind: who.kind.to_owned(),
    };
    let mut env = Envelope::new(name, LEAD, Body::Hello(hello));
    env.version = version;
    send_plain(wr, &env).await?;

    let challenge = recv_plain(rd).await?;
    let server = match challenge.body {
        Body::Challenge { nonce } if challenge.version.0 == version.0 => nonce,
        Body::Challenge { .. } => {
            return Err(WireError::VersionMismatch {
                ours: version,
                theirs: challenge.version,
            })
        }
        other => return Err(unexpected("Challenge", other)),
    };
    let auth = mac::auth_mac(secret, &client, &server, who);
    let env = Envelope::new(name, LEAD, Body::Auth { mac: auth.to_vec() });
    send_plain(wr, &env).await?;

    match recv_plain(rd).await?.body {
        Body::Welcome { proof } if mac::verify_welcome(secret, &client, &server, &proof) => {
            Ok(Nonces { client, server })
        }
        Body::Welcome { .. } => Err(WireError::Handshake(
            "the server's Welcome proof does not match our secret: it is not our Lead".into(),
        )),
        other => Err(unexpected("Welcome", other)),
    }
}

async fn server_exchange(
    rd: &mut FrameReader,
    wr: &mut FrameWriter,
    secret: &Secret,
) -> Result<(PeerInfo, Nonces), WireError> {
    let hello = match recv_plain(rd).await?.body {
        Body::Hello(hello) => hello,
        other => {
            let err = unexpected("Hello", other);
            refuse(wr, "unknown", "the first message must be Hello").await;
            return Err(err);
        }
    };
    let Hello {
        magic,
        major,
        minor,
        role,
        name,
        nonce: client,
        kind,
    } = hello;
    if magic != MAGIC {
        refuse(wr, &name, "bad magic: this is a retake Lead").await;
        return Err(WireError::Handshake(format!(
            "bad magic {magic:02x?} from '{name}': the peer is not a retake actor"
        )));
    }
    if major != PROTOCOL_MAJOR {
        let reason = format!(
            "protocol major version mismatch: {LEAD} speaks {PROTOCOL_MAJOR}.{PROTOCOL_MINOR}, \
             {name} speaks {major}.{minor}"
        );
        refuse(wr, &name, &reason).await;
        return Err(WireError::VersionMismatch {
            ours: (PROTOCOL_MAJOR, PROTOCOL_MINOR),
            theirs: (major, minor),
        });
    }
    if role.is_empty() || name.is_empty() {
        refuse(wr, &name, "role and name must not be empty").await;
        return Err(WireError::Handshake(
            "the peer announced an empty role or name".into(),
        ));
    }

    let server = mac::nonce();
    let challenge = Envelope::new(LEAD, name.as_str(), Body::Challenge { nonce: server });
    send_plain(wr, &challenge).await?;

    let auth = match recv_plain(rd).await?.body {
        Body::Auth { mac } => mac,
        other => {
            let err = unexpected("Auth", other);
            refuse(wr, &name, "expected Auth").await;
            return Err(err);
        }
    };
    let who = Claimed {
        role: &role,
        kind: &kind,
        name: &name,
    };
    if !mac::verify_auth(secret, &client, &server, &who, &auth) {
        refuse(wr, &name, AUTH_FAILED).await;
        return Err(WireError::Handshake(format!(
            "{AUTH_FAILED}: {role} '{name}' does not hold this run's shared secret"
        )));
    }
    let proof = mac::welcome_proof(secret, &client, &server).to_vec();
    send_plain(
        wr,
        &Envelope::new(LEAD, name.as_str(), Body::Welcome { proof }),
    )
    .await?;
    let peer = PeerInfo {
        role,
        name,
        kind,
        minor,
    };
    Ok((peer, Nonces { client, server }))
}

fn unexpected(wanted: &str, got: Body) -> WireError {
    match got {
        Body::Reject { reason } => WireError::Rejected(reason),
        other => WireError::Handshake(format!("expected {wanted}, got {}", other.name())),
    }
}

/// Sends `Reject{reason}` and closes; the peer may already be gone, which changes nothing.
async fn refuse(wr: &mut FrameWriter, to: &str, reason: &str) {
    let env = Envelope::new(
        LEAD,
        to,
        Body::Reject {
            reason: reason.to_owned(),
        },
    );
    if let Err(e) = send_plain(wr, &env).await {
        tracing::debug!(error = %e, "could not deliver Reject");
    }
    if let Err(e) = wr.close().await {
        tracing::debug!(error = %e, "could not close a refused connection");
    }
}

/// Sends one handshake envelope, unsealed.
pub(crate) async fn send_plain(wr: &mut FrameWriter, env: &Envelope) -> Result<(), WireError> {
    wr.send(Bytes::from(codec::encode(env)?)).await
}

/// Receives one handshake envelope, unsealed; the end of the stream is a handshake error.
pub(crate) async fn recv_plain(rd: &mut FrameReader) -> Result<Envelope, WireError> {
    match rd.next().await {
        Some(frame) => codec::decode(&frame?, rd.decoder().max()),
        None => Err(WireError::Handshake(
            "the peer closed the connection during the handshake".into(),
        )),
    }
}

#[cfg(test)]
mod tests;
