//! The authenticated wire: length-delimited frames, the bincode codec, the handshake, per-frame MACs.
