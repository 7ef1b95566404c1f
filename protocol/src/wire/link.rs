//! An authenticated connection after its handshake: each frame is
//! `sequence number (8 bytes, big-endian) ‖ MAC (32 bytes) ‖ bincode(envelope)`.
//!
//! The MAC covers the direction, the sequence number and the payload, under a key per direction
//! and session; sequence numbers start at 0 and rise by one, so a replayed, reordered, dropped or
//! reflected frame fails. The reader checks the MAC before it decodes anything.

use super::codec;
use super::frame::{FrameReader, FrameWriter};
use super::mac::{SessionKey, MAC_LEN};
use super::WireError;
use crate::message::Envelope;
use bytes::{BufMut, Bytes, BytesMut};
use futures::{SinkExt, StreamExt};
use std::fmt;

const SEQ_LEN: usize = 8;
/// Bytes before the encoded envelope in every sealed frame.
pub(crate) const SEALED_HEADER_LEN: usize = SEQ_LEN + MAC_LEN;

/// The payload [`LinkWriter::send_garbage`] sends: long enough to carry a header, so the peer
/// checks its MAC (a fixed pattern: a real HMAC matching it is a 2^-256 chance) and refuses it.
pub(crate) const GARBAGE_FRAME: [u8; SEALED_HEADER_LEN + 32] = [0xA5; SEALED_HEADER_LEN + 32];

/// Builds a sealed frame payload.
pub(crate) fn seal(key: &SessionKey, seq: u64, body: &[u8]) -> Bytes {
    let mut frame = BytesMut::with_capacity(SEALED_HEADER_LEN + body.len());
    frame.put_u64(seq);
    frame.put_slice(&key.seal(seq, body));
    frame.put_slice(body);
    frame.freeze()
}

/// Checks a sealed frame payload (MAC first, then sequence) and returns the encoded envelope.
fn open<'f>(key: &SessionKey, expected: u64, frame: &'f [u8]) -> Result<&'f [u8], WireError> {
    let (Some(seq), Some(mac), Some(body)) = (
        frame.get(..SEQ_LEN),
        frame.get(SEQ_LEN..SEALED_HEADER_LEN),
        frame.get(SEALED_HEADER_LEN..),
    ) else {
        return Err(WireError::Decode(format!(
            "a frame of {} bytes is shorter than its {SEALED_HEADER_LEN}-byte header",
            frame.len()
        )));
    };
    let mut seq_bytes = [0u8; SEQ_LEN];
    seq_bytes.copy_from_slice(seq);
    let got = u64::from_be_bytes(seq_bytes);
    key.verify(got, body, mac)?;
    if got != expected {
        return Err(WireError::OutOfSequence { expected, got });
    }
    Ok(body)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadState {
    Open,
    Ended,
    Failed,
}

/// The receiving half of an authenticated connection.
///
/// Any error means the connection can no longer be trusted: the caller must drop it (both halves).
/// After an error `recv` returns [`WireError::Closed`]; after a clean end it returns `Ok(None)`.
pub struct LinkReader {
    frames: FrameReader,
    key: SessionKey,
    next_seq: u64,
    state: ReadState,
}

impl LinkReader {
    /// A reader over frames that come after a completed handshake.
    pub(crate) fn new(frames: FrameReader, key: SessionKey) -> LinkReader {
        LinkReader {
            frames,
            key,
            next_seq: 0,
            state: ReadState::Open,
        }
    }

    /// The next envelope, or `Ok(None)` once the peer has closed cleanly.
    ///
    /// Cancel-safe: a frame is consumed only when this returns. On any error, drop the connection.
    pub async fn recv(&mut self) -> Result<Option<Envelope>, WireError> {
        match self.state {
            ReadState::Ended => return Ok(None),
            ReadState::Failed => return Err(WireError::Closed),
            ReadState::Open => {}
        }
        match self.next_envelope().await {
            Ok(Some(env)) => Ok(Some(env)),
            Ok(None) => {
                self.state = ReadState::Ended;
                Ok(None)
            }
            Err(e) => {
                self.state = ReadState::Failed;
                Err(e)
            }
        }
    }

    async fn next_envelope(&mut self) -> Result<Option<Envelope>, WireError> {
        let Some(frame) = self.frames.next().await.transpose()? else {
            return Ok(None);
        };
        let body = open(&self.key, self.next_seq, &frame)?;
        // 2^64 frames cannot be sent in practice; refusing beats wrapping to a replayable 0.
        self.next_seq = self.next_seq.checked_add(1).ok_or(WireError::Closed)?;
        codec::decode(body, self.frames.decoder().max()).map(Some)
    }
}

/// The sending half of an authenticated connection.
///
/// For several senders, wrap it in an [`Outbox`](super::Outbox).
pub struct LinkWriter {
    frames: FrameWriter,
    key: SessionKey,
    next_seq: u64,
    failed: bool,
}

impl LinkWriter {
    /// A writer for frames that come after a completed handshake.
    pub(crate) fn new(frames: FrameWriter, key: SessionKey) -> LinkWriter {
        LinkWriter {
            frames,
            key,
            next_seq: 0,
            failed: false,
        }
    }

    /// Seals and sends one envelope, flushing it.
    ///
    /// A message over `max_frame` is refused with [`WireError::FrameTooLarge`] and the link stays
    /// usable; after an I/O error every later send returns [`WireError::Closed`].
    pub async fn send(&mut self, env: &Envelope) -> Result<(), WireError> {
        if self.failed {
            return Err(WireError::Closed);
        }
        let body = codec::encode(env)?;
        let frame = seal(&self.key, self.next_seq, &body);
        let max = self.frames.encoder().max();
        if frame.len() > max {
            return Err(WireError::FrameTooLarge {
                len: frame.len(),
                max,
            });
        }
        // `feed` either queues the frame or leaves it unsent, so a cancelled send never
        // consumes a sequence number without the frame following.
        if let Err(e) = self.frames.feed(frame).await {
            self.failed = true;
            return Err(e);
        }
        self.next_seq = self.next_seq.checked_add(1).ok_or(WireError::Closed)?;
        if let Err(e) = self.frames.flush().await {
            self.failed = true;
            return Err(e);
        }
        Ok(())
    }

    /// Fault injection only (`garbage-frame`): sends one frame that is not sealed — a fixed
    /// 72-byte pattern — so the peer's reader fails with [`WireError::BadMac`] and drops the
    /// connection. Uses no sequence number: nothing valid can follow it anyway.
    pub async fn send_garbage(&mut self) -> Result<(), WireError> {
        if self.failed {
            return Err(WireError::Closed);
        }
        let sent = match self.frames.feed(Bytes::from_static(&GARBAGE_FRAME)).await {
            Ok(()) => self.frames.flush().await,
            Err(e) => Err(e),
        };
        if sent.is_err() {
            self.failed = true;
        }
        sent
    }

    /// Flushes what is queued and shuts the stream down; the peer's reader sees a clean end.
    pub async fn close(mut self) {
        if let Err(e) = self.frames.close().await {
            tracing::debug!(error = %e, "closing the link failed; the peer is already gone");
        }
    }
}

impl fmt::Debug for LinkReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LinkReader")
            .field("next_seq", &self.next_seq)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for LinkWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LinkWriter")
            .field("next_seq", &self.next_seq)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
