//! The link's scenarios: order, replay, reordering, altered frames, limits, garbage.

use super::*;
use crate::message::{Body, Count, Phase, Progress, Unit};
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

fn heartbeat(n: u64) -> Envelope {
    Envelope::new(
        "inspector-test",
        "lead",
        Body::Heartbeat {
            phase: Phase::Inspect,
            progress: Progress::counted(Count::of(n, 10, Unit::Steps)),
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

#[tokio::test]
async fn a_garbage_frame_fails_the_readers_mac_and_sends_no_sequence_number() {
    let (end, mut raw) = tokio::io::duplex(1 << 16);
    let (_, frames) = split(end, MAX);
    let mut writer = LinkWriter::new(frames, key(Direction::ClientToServer));
    writer.send_garbage().await.unwrap();
    writer.send(&heartbeat(1)).await.unwrap();
    let mut wire = vec![0u8; 4 + GARBAGE_FRAME.len()];
    raw.read_exact(&mut wire).await.unwrap();
    assert_eq!(&wire[..4], &(GARBAGE_FRAME.len() as u32).to_be_bytes());
    assert_eq!(&wire[4..], &GARBAGE_FRAME[..], "sent as is, unsealed");
    let len = raw.read_u32().await.unwrap() as usize;
    let mut next = vec![0u8; len];
    raw.read_exact(&mut next).await.unwrap();
    assert_eq!(
        &next[..SEQ_LEN],
        &0u64.to_be_bytes(),
        "the next sealed frame is #0"
    );

    let (mut reader, mut peer) = sealed_reader();
    peer.write_all(&wire).await.unwrap();
    assert!(matches!(reader.recv().await, Err(WireError::BadMac)));
    assert!(matches!(reader.recv().await, Err(WireError::Closed)));
}
