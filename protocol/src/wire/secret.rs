//! The shared secret both ends of a connection hold; it never appears in logs.

use super::WireError;
use rand::RngCore;
use std::fmt;

/// The environment variable that carries the shared secret (hex) to an actor process.
pub const SECRET_ENV: &str = "RETAKE_SECRET";

/// The length of a generated secret, in bytes.
const GENERATED_LEN: usize = 32;

/// The shortest secret accepted from outside (hex in the environment or a configuration).
pub(super) const MIN_LEN: usize = 32;

/// The shared secret behind the handshake and the session keys. `Debug` never shows it.
#[derive(Clone)]
pub struct Secret(Vec<u8>);

impl Secret {
    /// A secret from raw bytes; an empty secret is refused.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Secret, WireError> {
        if bytes.is_empty() {
            return Err(WireError::InvalidSecret(
                "the shared secret is empty".into(),
            ));
        }
        Ok(Secret(bytes))
    }

    /// A secret from hexadecimal text (surrounding whitespace ignored), as found in the
    /// environment or a configuration: at least [`MIN_LEN`] bytes, so that a guessable short
    /// key is refused rather than used.
    pub fn from_hex(text: &str) -> Result<Secret, WireError> {
        // The hex crate's error names the offending character; that would leak part of the
        // secret into logs, so the message stays generic.
        let bytes = hex::decode(text.trim()).map_err(|_| {
            WireError::InvalidSecret(
                "not valid hexadecimal (expected an even number of 0-9, a-f digits)".into(),
            )
        })?;
        if !bytes.is_empty() && bytes.len() < MIN_LEN {
            return Err(WireError::InvalidSecret(format!(
                "the shared secret is {} bytes; at least {MIN_LEN} are required ({} hex digits, e.g. `openssl rand -hex 32`)",
                bytes.len(),
                MIN_LEN * 2
            )));
        }
        Secret::from_bytes(bytes)
    }

    /// A fresh random secret of 32 bytes (what the Lead generates per run).
    pub fn generate() -> Secret {
        let mut bytes = vec![0u8; GENERATED_LEN];
        rand::thread_rng().fill_bytes(&mut bytes);
        Secret(bytes)
    }

    /// The secret as lowercase hexadecimal, to hand to a child process through its environment.
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }

    /// The secret handed over in the environment variable [`SECRET_ENV`] (hex). The variable is
    /// removed from this process's environment once read, so nothing this actor starts (a test
    /// command, say) inherits it. Call it at startup, before other threads exist.
    pub fn from_env() -> Result<Secret, WireError> {
        let text = std::env::var(SECRET_ENV).map_err(|_| {
            WireError::InvalidSecret(format!(
                "{SECRET_ENV} is not set: actors get the shared secret from their environment, never from the command line"
            ))
        })?;
        std::env::remove_var(SECRET_ENV);
        Secret::from_hex(&text)
    }

    /// The raw key material, for the MAC helpers only.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Whether two secrets are the same key, compared in time independent of where they differ.
    pub fn same_as(&self, other: &Secret) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_tolerates_a_trailing_newline() {
        let secret = Secret::generate();
        let hex = secret.to_hex();
        assert_eq!(hex.len(), 64);
        let back = Secret::from_hex(&format!("{hex}\n")).unwrap();
        assert_eq!(back.as_bytes(), secret.as_bytes());
    }

    #[test]
    fn empty_or_malformed_secrets_are_refused() {
        assert!(matches!(
            Secret::from_bytes(Vec::new()),
            Err(WireError::InvalidSecret(_))
        ));
        assert!(matches!(
            Secret::from_hex("  "),
            Err(WireError::InvalidSecret(_))
        ));
        let short = Secret::from_hex("deadbeef").unwrap_err();
        assert_eq!(
            short.to_string(),
            WireError::InvalidSecret(
                "the shared secret is 4 bytes; at least 32 are required (64 hex digits, e.g. `openssl rand -hex 32`)".into()
            )
            .to_string()
        );
        let err = Secret::from_hex("abcZ").unwrap_err();
        assert!(matches!(err, WireError::InvalidSecret(_)));
        assert!(
            !err.to_string().contains('Z'),
            "the message must not echo the secret"
        );
    }

    #[test]
    fn debug_is_redacted() {
        let secret = Secret::generate();
        assert_eq!(format!("{secret:?}"), "Secret(<redacted>)");
    }
}
