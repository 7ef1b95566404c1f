//! The payload codec: the only place that knows messages are bincode 2 (serde path, standard config).
//!
//! bincode is unmaintained upstream and pinned to 2.0.x, so it stays behind these two functions
//! and a bincode-compatible crate can replace it here alone.
//!
//! bincode pre-allocates a container from the length the input claims, and aborts the process
//! when that allocation fails. Its only guard is the configuration's byte limit, a const generic;
//! [`decode`] therefore picks, at run time, the largest power-of-two limit not above the caller's.
//! Each power of two is a separate copy of the envelope decoder (~0.2 MB of release code), so
//! the ladder covers only 1 KiB to 1 GiB.

use super::WireError;
use crate::message::Envelope;
use bincode::config;
use bincode::error::DecodeError;

/// The smallest decode limit [`decode`] accepts, in bytes.
pub(crate) const MIN_DECODE_LIMIT: usize = 1 << MIN_LIMIT_BITS;
const MIN_LIMIT_BITS: u32 = 10;
/// Limits above 1 GiB are clamped to it (frame lengths are 32-bit; 1 GiB is far above any use).
const MAX_LIMIT_BITS: u32 = 30;

/// Encodes an envelope into a payload.
pub fn encode(env: &Envelope) -> Result<Vec<u8>, WireError> {
    bincode::serde::encode_to_vec(env, config::standard())
        .map_err(|e| WireError::Encode(e.to_string()))
}

/// Decodes one envelope that must fill `payload` exactly, allocating at most about `limit` bytes.
///
/// The effective limit is `limit` rounded down to a power of two (at most 1 GiB); a `limit`
/// below 1 KiB, a payload longer than `limit`, trailing bytes, garbage or an unknown
/// variant are all [`WireError::Decode`].
pub fn decode(payload: &[u8], limit: usize) -> Result<Envelope, WireError> {
    if limit < MIN_DECODE_LIMIT {
        return Err(WireError::Decode(format!(
            "a decode limit of {limit} bytes is below the {MIN_DECODE_LIMIT}-byte minimum"
        )));
    }
    if payload.len() > limit {
        return Err(WireError::Decode(format!(
            "the payload has {} bytes, more than the {limit}-byte limit",
            payload.len()
        )));
    }
    let bits = (usize::BITS - 1 - limit.leading_zeros()).min(MAX_LIMIT_BITS);
    let effective = 1usize << bits;
    let (env, used) = decode_with_limit_bits(payload, bits).map_err(|e| match e {
        DecodeError::LimitExceeded => WireError::Decode(format!(
            "the message claims more than the {effective}-byte decode limit"
        )),
        other => WireError::Decode(other.to_string()),
    })?;
    if used != payload.len() {
        return Err(WireError::Decode(format!(
            "{} trailing bytes after the message",
            payload.len() - used
        )));
    }
    Ok(env)
}

fn decode_limited<const N: usize>(payload: &[u8]) -> Result<(Envelope, usize), DecodeError> {
    bincode::serde::decode_from_slice(payload, config::standard().with_limit::<N>())
}

/// Maps `bits` (already clamped to `MIN_LIMIT_BITS..=MAX_LIMIT_BITS`) to a const limit of `1 << bits`.
macro_rules! dispatch_limit {
    ($payload:expr, $bits:expr; $($b:literal)*) => {
        match $bits {
            $($b => decode_limited::<{ 1usize << $b }>($payload),)*
            // Only MAX_LIMIT_BITS reaches here, since `bits` is clamped by the caller.
            _ => decode_limited::<{ 1usize << MAX_LIMIT_BITS }>($payload),
        }
    };
}

fn decode_with_limit_bits(payload: &[u8], bits: u32) -> Result<(Envelope, usize), DecodeError> {
    dispatch_limit!(payload, bits; 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29)
}

/// The most a cached value may claim while [`decode_cached`] reads it: 256 MiB, far above the
/// bounded cache files that use it, so a hostile length is refused rather than allocated.
pub const CACHE_DECODE_LIMIT: usize = 1 << 28;

/// Encodes any serde value with the message codec, for a cache on disk (the Inspectors'
/// per-file results): the same bincode configuration, so only this module knows the format.
pub fn encode_cached<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, WireError> {
    bincode::serde::encode_to_vec(value, config::standard())
        .map_err(|e| WireError::Encode(e.to_string()))
}

/// Decodes a value [`encode_cached`] wrote, which must fill `bytes` exactly. A cache file can be
/// stale, truncated or foreign: every such input is an error, never a panic or an abort (at
/// most [`CACHE_DECODE_LIMIT`] bytes are claimed).
pub fn decode_cached<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    let limited = config::standard().with_limit::<CACHE_DECODE_LIMIT>();
    let (value, used) = bincode::serde::decode_from_slice(bytes, limited)
        .map_err(|e| WireError::Decode(format!("cached value: {e}")))?;
    if used != bytes.len() {
        return Err(WireError::Decode(format!(
            "cached value: {} trailing bytes",
            bytes.len() - used
        )));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Body, Count, Envelope, Phase, Progress, Unit};

    fn sample() -> Envelope {
        Envelope::new(
            "inspector-quality",
            "lead",
            Body::Heartbeat {
                phase: Phase::Inspect,
                progress: Progress::about("module:**").with_count(Some(Count::of(
                    120,
                    300,
                    Unit::Steps,
                ))),
                busy_since_ms: Some(1_700_000_000_000),
            },
        )
    }

    #[test]
    fn round_trips() {
        let env = sample();
        let bytes = encode(&env).unwrap();
        assert_eq!(decode(&bytes, 8 << 20).unwrap(), env);
    }

    #[test]
    fn garbage_is_a_decode_error() {
        for garbage in [&[0xFFu8; 16][..], &[][..], &[1, 0, 250][..]] {
            assert!(matches!(
                decode(garbage, 1 << 20),
                Err(WireError::Decode(_))
            ));
        }
    }

    #[test]
    fn unknown_variant_index_is_a_decode_error() {
        let mut bytes = encode(&Envelope::new("a", "b", Body::Goodbye)).unwrap();
        // `body` is the envelope's last field and `Goodbye` a unit variant, so the last byte
        // is its variant index (a one-byte varint).
        let last = bytes.len() - 1;
        assert_eq!(bytes[last], 8);
        bytes[last] = 200;
        let err = decode(&bytes, 1 << 20).unwrap_err();
        assert!(
            matches!(err, WireError::Decode(ref m) if m.contains("200")),
            "{err}"
        );
    }

    #[test]
    fn trailing_bytes_are_a_decode_error() {
        let mut bytes = encode(&sample()).unwrap();
        bytes.push(0);
        let err = decode(&bytes, 1 << 20).unwrap_err();
        assert!(
            matches!(err, WireError::Decode(ref m) if m.contains("1 trailing")),
            "{err}"
        );
    }

    #[test]
    fn a_limit_smaller_than_the_value_is_an_error() {
        let env = Envelope::new("x".repeat(1000), "lead", Body::Goodbye);
        let bytes = encode(&env).unwrap();
        assert!(matches!(decode(&bytes, 512), Err(WireError::Decode(_))));
        assert!(matches!(decode(&bytes, 8), Err(WireError::Decode(_))));
        assert_eq!(decode(&bytes, 2048).unwrap(), env);
    }

    #[test]
    fn a_hostile_length_hits_the_limit_without_allocating() {
        // A version (1, 0: decoding leaves versions to the handshake), then `from` claiming
        // 2^40 bytes (varint marker 253 = u64 follows).
        let mut bytes = vec![1u8, 0, 253];
        bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let err = decode(&bytes, 8 << 20).unwrap_err();
        assert!(
            matches!(err, WireError::Decode(ref m) if m.contains("8388608-byte")),
            "{err}"
        );
    }

    #[test]
    fn cached_values_round_trip_and_bad_bytes_are_errors() {
        let value: Vec<(String, u32, Option<bool>)> = vec![("a.rs".into(), 7, Some(true))];
        let bytes = encode_cached(&value).unwrap();
        let back: Vec<(String, u32, Option<bool>)> = decode_cached(&bytes).unwrap();
        assert_eq!(back, value);
        let short = decode_cached::<Vec<(String, u32, Option<bool>)>>(&bytes[..bytes.len() - 1]);
        assert!(matches!(short, Err(WireError::Decode(_))));
        let mut long = bytes.clone();
        long.push(0);
        let err = decode_cached::<Vec<(String, u32, Option<bool>)>>(&long).unwrap_err();
        assert!(err.to_string().contains("1 trailing bytes"), "{err}");
        // A vector claiming 2^40 elements is refused by the limit, not allocated.
        let mut hostile = vec![253u8];
        hostile.extend_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(matches!(
            decode_cached::<Vec<u64>>(&hostile),
            Err(WireError::Decode(_))
        ));
    }

    #[test]
    fn the_bincode_limit_is_not_above_the_callers() {
        // 1500 bytes of string decode within 2048 but not within 2047 (rounded down to 1024),
        // even though the whole payload fits in 2047 bytes.
        let env = Envelope::new("y".repeat(1500), "lead", Body::Goodbye);
        let bytes = encode(&env).unwrap();
        assert!(bytes.len() < 2047);
        assert_eq!(decode(&bytes, 2048).unwrap(), env);
        let err = decode(&bytes, 2047).unwrap_err();
        assert!(
            matches!(err, WireError::Decode(ref m) if m.contains("1024-byte")),
            "{err}"
        );
        assert!(matches!(decode(&bytes, 1023), Err(WireError::Decode(_))));
    }
}
