//! The authenticated wire: length-delimited frames, the bincode codec, the handshake, per-frame MACs.
//!
//! Actors run in other processes and containers, so nothing read from a socket is trusted:
//! frames are capped before allocation, payloads are decoded under a byte limit, a connection
//! starts with a mutually authenticated handshake over a shared secret, and every later frame
//! carries a MAC over its direction and sequence number. Any error from a link means the
//! caller drops that connection (and logs it) while serving everyone else.
//!
//! Layers, one file each: `frame` cuts frames, `codec` turns payloads into envelopes (the
//! only bincode user), `mac` computes the keyed hashes, `handshake` opens a connection,
//! `link` seals and opens frames afterwards, and `outbox` shares one writer among tasks.

mod codec;
mod config;
mod error;
mod frame;
mod handshake;
mod link;
mod mac;
mod outbox;
mod secret;

pub use codec::{decode, decode_cached, encode, encode_cached, CACHE_DECODE_LIMIT};
pub use config::{WireConfig, DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_MAX_FRAME};
pub use error::WireError;
pub use frame::{BoxedRead, BoxedWrite};
pub use handshake::{client_handshake, client_handshake_kind, server_handshake, PeerInfo};
pub use link::{LinkReader, LinkWriter};
pub use outbox::{Outbox, OUTBOX_CAPACITY};
pub use secret::{Secret, SECRET_ENV};
