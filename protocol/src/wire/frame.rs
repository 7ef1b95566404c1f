//! Framing: a 4-byte big-endian length, then the payload; lengths over the maximum are refused
//! from the header alone, before any buffer of that size is reserved.

use super::WireError;
use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::{Decoder, Encoder, FramedRead, FramedWrite, LengthDelimitedCodec};

/// The read half of a connection, boxed so that links need no stream type parameter.
pub type BoxedRead = Box<dyn AsyncRead + Send + Unpin>;
/// The write half of a connection, boxed so that links need no stream type parameter.
pub type BoxedWrite = Box<dyn AsyncWrite + Send + Unpin>;

/// The read half, cut into frames.
pub(crate) type FrameReader = FramedRead<BoxedRead, FrameCodec>;
/// The write half, framing what it is given.
pub(crate) type FrameWriter = FramedWrite<BoxedWrite, FrameCodec>;

/// The length prefix's size in bytes.
const HEADER_LEN: usize = 4;

/// `LengthDelimitedCodec` with a maximum that reports the offending length as
/// [`WireError::FrameTooLarge`] instead of an opaque I/O error.
#[derive(Debug)]
pub(crate) struct FrameCodec {
    inner: LengthDelimitedCodec,
    max: usize,
}

impl FrameCodec {
    /// A codec refusing frames longer than `max` bytes (payload, not counting the prefix).
    pub(crate) fn new(max: usize) -> FrameCodec {
        let inner = LengthDelimitedCodec::builder()
            .length_field_length(HEADER_LEN)
            .big_endian()
            .max_frame_length(max)
            .new_codec();
        FrameCodec { inner, max }
    }

    /// Changes the maximum (the handshake runs under a smaller one than the session).
    pub(crate) fn set_max(&mut self, max: usize) {
        self.inner.set_max_frame_length(max);
        self.max = max;
    }

    /// The current maximum payload length.
    pub(crate) fn max(&self) -> usize {
        self.max
    }
}

impl Decoder for FrameCodec {
    type Item = BytesMut;
    type Error = WireError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, WireError> {
        self.inner.decode(src).map_err(|e| {
            // LengthDelimitedCodec rejects an oversized header without consuming it (and before
            // reserving anything), so the claimed length is still at the front of `src`.
            let oversized = e
                .get_ref()
                .is_some_and(|inner| inner.is::<tokio_util::codec::LengthDelimitedCodecError>());
            match src.get(..HEADER_LEN) {
                Some(&[a, b, c, d]) if oversized => WireError::FrameTooLarge {
                    len: u32::from_be_bytes([a, b, c, d]) as usize,
                    max: self.max,
                },
                _ => WireError::Io(e),
            }
        })
    }
}

impl Encoder<Bytes> for FrameCodec {
    type Error = WireError;

    fn encode(&mut self, payload: Bytes, dst: &mut BytesMut) -> Result<(), WireError> {
        if payload.len() > self.max {
            return Err(WireError::FrameTooLarge {
                len: payload.len(),
                max: self.max,
            });
        }
        Ok(self.inner.encode(payload, dst)?)
    }
}

/// Splits a stream into boxed, framed halves with the given maximum frame length.
pub(crate) fn split<S>(stream: S, max: usize) -> (FrameReader, FrameWriter)
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (read, write) = tokio::io::split(stream);
    let read: BoxedRead = Box::new(read);
    let write: BoxedWrite = Box::new(write);
    (
        FramedRead::new(read, FrameCodec::new(max)),
        FramedWrite::new(write, FrameCodec::new(max)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::{SinkExt, StreamExt};
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn frames_round_trip() {
        let (a, b) = tokio::io::duplex(1024);
        let (_, mut tx) = split(a, 64);
        let (mut rx, _) = split(b, 64);
        tx.send(Bytes::from_static(b"hello")).await.unwrap();
        tx.send(Bytes::new()).await.unwrap();
        assert_eq!(&rx.next().await.unwrap().unwrap()[..], b"hello");
        assert!(rx.next().await.unwrap().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_huge_header_fails_promptly_without_allocating() {
        let (mut raw, b) = tokio::io::duplex(1024);
        let (mut rx, _) = split(b, 8 << 20);
        // Only the header and three bytes are ever sent; the peer stays connected.
        raw.write_all(&[0xFF, 0xFF, 0xFF, 0xF0, 1, 2, 3])
            .await
            .unwrap();
        let got = tokio::time::timeout(Duration::from_secs(5), rx.next())
            .await
            .expect("the oversized header must be refused without waiting for more data");
        match got {
            Some(Err(WireError::FrameTooLarge { len, max })) => {
                assert_eq!(len, 0xFFFF_FFF0);
                assert_eq!(max, 8 << 20);
            }
            other => panic!("expected FrameTooLarge, got {other:?}"),
        }
        assert!(
            rx.read_buffer().capacity() < 1 << 20,
            "no large buffer was reserved"
        );
    }

    #[tokio::test]
    async fn sending_an_oversized_frame_is_refused_before_writing() {
        let (a, _b) = tokio::io::duplex(1024);
        let (_, mut tx) = split(a, 4);
        let err = tx.send(Bytes::from_static(b"12345")).await.unwrap_err();
        assert!(
            matches!(err, WireError::FrameTooLarge { len: 5, max: 4 }),
            "{err}"
        );
        assert!(tx.write_buffer().is_empty());
    }
}
