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
mod tests {
    use super::*;
    use crate::message::Body;
    use crate::wire::frame::split;
    use crate::wire::mac::Direction;
    use crate::wire::Secret;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    const MAX: usize = 1 << 20;

    fn key(dir: Direction) -> SessionKey {
        let secret = Secret::from_bytes(b"link test secret".to_vec()).unwrap();
        SessionKey::derive(&secret, &[7; 32], &[9; 32], dir)
    }

    /// A reader opening client-to-server frames, and the raw stream feeding it.
    fn sealed_reader() -> (LinkReader, DuplexStream) {
        let (raw, end) = tokio::io::duplex(1 << 16);
        let (frames, _) = split(end, MAX);
        (LinkReader::new(frames, key(Direction::ClientToServer)), raw)
    }

    /// The exact bytes (length prefix included) a client's writer puts on the wire.
    async fn captured(envs: &[Envelope]) -> Vec<Vec<u8>> {
        let (end, mut raw) = tokio::io::duplex(1 << 16);
        let (_, frames) = split(end, MAX);
        let mut writer = LinkWriter::new(frames, key(Direction::ClientToServer));
        let mut out = Vec::new();
        for env in envs {
            writer.send(env).await.unwrap();
            let len = raw.read_u32().await.unwrap();
            let mut frame = len.to_be_bytes().to_vec();
            frame.resize(4 + len as usize, 0);
            raw.read_exact(&mut frame[4..]).await.unwrap();
            out.push(frame);
        }
        out
    }

    fn heartbeat(n: u32) -> Envelope {
        Envelope::new(
            "inspector-test",
            "lead",
            Body::Heartbeat {
                phase: "inspect".into(),
                progress: format!("{n}/10"),
                busy_since_ms: None,
            },
        )
    }

    #[tokio::test]
    async fn sealed_frames_arrive_in_order_then_end_cleanly() {
        let envs = [heartbeat(1), heartbeat(2)];
        let frames = captured(&envs).await;
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&frames.concat()).await.unwrap();
        drop(raw);
        assert_eq!(reader.recv().await.unwrap(), Some(envs[0].clone()));
        assert_eq!(reader.recv().await.unwrap(), Some(envs[1].clone()));
        assert_eq!(reader.recv().await.unwrap(), None);
        assert_eq!(reader.recv().await.unwrap(), None);
    }

    #[tokio::test]
    async fn a_replayed_frame_is_out_of_sequence() {
        let env = heartbeat(1);
        let frames = captured(std::slice::from_ref(&env)).await;
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&frames[0]).await.unwrap();
        raw.write_all(&frames[0]).await.unwrap();
        assert_eq!(reader.recv().await.unwrap(), Some(env));
        let err = reader.recv().await.unwrap_err();
        assert!(
            matches!(
                err,
                WireError::OutOfSequence {
                    expected: 1,
                    got: 0
                }
            ),
            "{err}"
        );
        assert!(
            matches!(reader.recv().await, Err(WireError::Closed)),
            "the reader stays failed"
        );
    }

    #[tokio::test]
    async fn a_reordered_or_dropped_frame_is_out_of_sequence() {
        let frames = captured(&[heartbeat(1), heartbeat(2)]).await;
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&frames[1]).await.unwrap();
        let err = reader.recv().await.unwrap_err();
        assert!(
            matches!(
                err,
                WireError::OutOfSequence {
                    expected: 0,
                    got: 1
                }
            ),
            "{err}"
        );
    }

    #[tokio::test]
    async fn an_altered_frame_fails_its_mac_before_decoding() {
        let mut frame = captured(&[heartbeat(1)]).await.remove(0);
        // Flip a byte of the encoded envelope (after length prefix, sequence number and MAC).
        let at = 4 + SEALED_HEADER_LEN + 3;
        frame[at] ^= 0x01;
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&frame).await.unwrap();
        assert!(matches!(reader.recv().await, Err(WireError::BadMac)));
    }

    #[tokio::test]
    async fn an_altered_sequence_number_fails_its_mac() {
        let frames = captured(&[heartbeat(1), heartbeat(2)]).await;
        let mut second = frames[1].clone();
        second[4 + SEQ_LEN - 1] = 0; // claim #0 for the frame sealed as #1
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&second).await.unwrap();
        assert!(matches!(reader.recv().await, Err(WireError::BadMac)));
    }

    #[tokio::test]
    async fn a_frame_sealed_for_the_other_direction_fails_its_mac() {
        let body = codec::encode(&heartbeat(1)).unwrap();
        let reflected = seal(&key(Direction::ServerToClient), 0, &body);
        let (mut reader, mut raw) = sealed_reader();
        raw.write_u32(reflected.len() as u32).await.unwrap();
        raw.write_all(&reflected).await.unwrap();
        assert!(matches!(reader.recv().await, Err(WireError::BadMac)));
    }

    #[tokio::test]
    async fn a_short_frame_or_a_sealed_garbage_payload_is_a_decode_error() {
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&[0, 0, 0, 3, 1, 2, 3]).await.unwrap();
        assert!(matches!(reader.recv().await, Err(WireError::Decode(_))));

        // Correctly sealed, so it passes the MAC, but not an envelope: decoded, refused, no panic.
        let k = key(Direction::ClientToServer);
        let garbage = seal(&k, 0, &[0xFF; 24]);
        let (mut reader, mut raw) = sealed_reader();
        raw.write_u32(garbage.len() as u32).await.unwrap();
        raw.write_all(&garbage).await.unwrap();
        assert!(matches!(reader.recv().await, Err(WireError::Decode(_))));
    }

    #[tokio::test]
    async fn a_huge_header_after_the_handshake_is_frame_too_large() {
        let (mut reader, mut raw) = sealed_reader();
        raw.write_all(&[0xFF, 0xFF, 0xFF, 0xF0]).await.unwrap();
        let err = tokio::time::timeout(std::time::Duration::from_secs(5), reader.recv())
            .await
            .expect("must not wait for the claimed bytes")
            .unwrap_err();
        assert!(
            matches!(
                err,
                WireError::FrameTooLarge {
                    len: 0xFFFF_FFF0,
                    max: MAX
                }
            ),
            "{err}"
        );
    }

    #[tokio::test]
    async fn an_oversized_message_is_refused_and_the_writer_stays_usable() {
        let (end, mut raw) = tokio::io::duplex(1 << 16);
        let (_, frames) = split(end, 256);
        let mut writer = LinkWriter::new(frames, key(Direction::ClientToServer));
        let big = Envelope::new("x".repeat(300), "lead", Body::Goodbye);
        assert!(matches!(
            writer.send(&big).await,
            Err(WireError::FrameTooLarge { max: 256, .. })
        ));
        writer.send(&heartbeat(1)).await.unwrap();
        let len = raw.read_u32().await.unwrap() as usize;
        let mut frame = vec![0u8; len];
        raw.read_exact(&mut frame).await.unwrap();
        assert_eq!(
            &frame[..SEQ_LEN],
            &0u64.to_be_bytes(),
            "the refused message used no number"
        );
    }
}
