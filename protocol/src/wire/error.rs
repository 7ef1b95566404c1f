//! Everything that can go wrong on the wire, worded so that an operator knows what to do.

/// An error on the wire. Any error from a link means the connection must be dropped.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The underlying stream failed.
    #[error("connection I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A frame's length exceeds the configured maximum (checked before anything is allocated).
    #[error(
        "frame of {len} bytes exceeds the {max}-byte maximum: the peer is misbehaving, \
         or max_frame is configured too low for this message"
    )]
    FrameTooLarge {
        /// The length the frame claims (or has, when sending).
        len: usize,
        /// The configured maximum.
        max: usize,
    },
    /// A payload is not a valid message (garbage, unknown variant, trailing bytes, over the limit).
    #[error("could not decode a message from the peer: {0}")]
    Decode(String),
    /// A message could not be encoded.
    #[error("could not encode a message: {0}")]
    Encode(String),
    /// A frame's MAC does not match: it was altered, forged, or sealed with another key.
    #[error(
        "frame authentication failed: its MAC does not match \
         (the data was altered or the peer holds a different key)"
    )]
    BadMac,
    /// A frame's sequence number is not the next one: a replayed, reordered or dropped frame.
    #[error(
        "frame out of sequence: expected #{expected}, got #{got} \
         (a frame was replayed, reordered or dropped)"
    )]
    OutOfSequence {
        /// The sequence number the reader expected.
        expected: u64,
        /// The sequence number the frame carries.
        got: u64,
    },
    /// The handshake failed for the stated reason.
    #[error("handshake failed: {0}")]
    Handshake(String),
    /// The peer speaks another major protocol version.
    #[error(
        "protocol version mismatch: this side speaks {}.{}, the peer speaks {}.{} \
         (major versions must match; upgrade the older side)",
        .ours.0, .ours.1, .theirs.0, .theirs.1
    )]
    VersionMismatch {
        /// This side's `(major, minor)`.
        ours: (u16, u16),
        /// The peer's `(major, minor)`.
        theirs: (u16, u16),
    },
    /// The peer refused the handshake with this reason.
    #[error("the peer refused the connection: {0}")]
    Rejected(String),
    /// A deadline passed during the named phase.
    #[error("timed out during the {0} (the peer is too slow or not a retake peer)")]
    Timeout(&'static str),
    /// The connection (or the outbox's writer task) is closed.
    #[error("the connection is closed")]
    Closed,
    /// The shared secret is unusable.
    #[error("invalid shared secret: {0}")]
    InvalidSecret(String),
    /// An outbox's queue is full; the message was not queued.
    #[error("outbox is full ({capacity} messages queued): the peer is not reading fast enough")]
    OutboxFull {
        /// The queue's capacity.
        capacity: usize,
    },
}
