//! The keyed hashes: the handshake's proofs, the session keys and each frame's MAC.
//!
//! Every MAC input starts with a distinct context string, so that no proof computed for one
//! purpose can be replayed for another; variable-length fields are length-prefixed so that
//! bytes cannot be shifted between them (`role="ab", name="c"` ≠ `role="a", name="bc"`).

use super::{Secret, WireError};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// The length of every MAC and key, in bytes.
pub(crate) const MAC_LEN: usize = 32;

/// A handshake nonce.
pub(crate) type Nonce = [u8; 32];

const AUTH_CONTEXT: &[u8] = b"retake/auth/v1";
const WELCOME_CONTEXT: &[u8] = b"retake/welcome/v1";
const SESSION_CONTEXT: &[u8] = b"retake/session/v1";

/// A fresh random nonce.
pub(crate) fn nonce() -> Nonce {
    let mut nonce = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut nonce);
    nonce
}

fn keyed(key: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length (longer ones are hashed, shorter ones padded), so
    // `new_from_slice` cannot fail for Hmac<Sha256>; its Result exists for other MACs.
    HmacSha256::new_from_slice(key).expect("HMAC accepts keys of any length")
}

fn update_prefixed(mac: &mut HmacSha256, field: &[u8]) {
    mac.update(&(field.len() as u64).to_be_bytes());
    mac.update(field);
}

fn auth_input(secret: &Secret, client: &Nonce, server: &Nonce, who: &Claimed<'_>) -> HmacSha256 {
    let mut mac = keyed(secret.as_bytes());
    mac.update(AUTH_CONTEXT);
    mac.update(client);
    mac.update(server);
    update_prefixed(&mut mac, who.role.as_bytes());
    update_prefixed(&mut mac, who.name.as_bytes());
    update_prefixed(&mut mac, who.kind.as_bytes());
    mac
}

/// Who a client claims to be in its `Hello`: everything its proof covers besides the nonces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claimed<'a> {
    pub(crate) role: &'a str,
    pub(crate) kind: &'a str,
    pub(crate) name: &'a str,
}

/// The client's proof: HMAC(secret, context ‖ client nonce ‖ server nonce ‖ role ‖ name ‖ kind).
pub(crate) fn auth_mac(
    secret: &Secret,
    client: &Nonce,
    server: &Nonce,
    who: &Claimed<'_>,
) -> [u8; MAC_LEN] {
    auth_input(secret, client, server, who)
        .finalize()
        .into_bytes()
        .into()
}

/// Checks the client's proof in constant time.
pub(crate) fn verify_auth(
    secret: &Secret,
    client: &Nonce,
    server: &Nonce,
    who: &Claimed<'_>,
    mac: &[u8],
) -> bool {
    auth_input(secret, client, server, who)
        .verify_slice(mac)
        .is_ok()
}

fn welcome_input(secret: &Secret, client: &Nonce, server: &Nonce) -> HmacSha256 {
    let mut mac = keyed(secret.as_bytes());
    mac.update(WELCOME_CONTEXT);
    mac.update(client);
    mac.update(server);
    mac
}

/// The server's proof that it holds the secret too.
pub(crate) fn welcome_proof(secret: &Secret, client: &Nonce, server: &Nonce) -> [u8; MAC_LEN] {
    welcome_input(secret, client, server)
        .finalize()
        .into_bytes()
        .into()
}

/// Checks the server's proof in constant time.
pub(crate) fn verify_welcome(
    secret: &Secret,
    client: &Nonce,
    server: &Nonce,
    proof: &[u8],
) -> bool {
    welcome_input(secret, client, server)
        .verify_slice(proof)
        .is_ok()
}

/// Which way a frame travels; each direction has its own key and sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// From the connecting actor to the Lead.
    ClientToServer,
    /// From the Lead to the connecting actor.
    ServerToClient,
}

impl Direction {
    fn byte(self) -> u8 {
        match self {
            Direction::ClientToServer => 1,
            Direction::ServerToClient => 2,
        }
    }
}

/// The key that seals and opens the frames of one direction of one session.
#[derive(Clone)]
pub(crate) struct SessionKey {
    dir: Direction,
    key: [u8; MAC_LEN],
}

impl SessionKey {
    /// HMAC(secret, context ‖ client nonce ‖ server nonce ‖ direction).
    pub(crate) fn derive(
        secret: &Secret,
        client: &Nonce,
        server: &Nonce,
        dir: Direction,
    ) -> SessionKey {
        let mut mac = keyed(secret.as_bytes());
        mac.update(SESSION_CONTEXT);
        mac.update(client);
        mac.update(server);
        mac.update(&[dir.byte()]);
        SessionKey {
            dir,
            key: mac.finalize().into_bytes().into(),
        }
    }

    fn frame_input(&self, seq: u64, body: &[u8]) -> HmacSha256 {
        let mut mac = keyed(&self.key);
        mac.update(&[self.dir.byte()]);
        mac.update(&seq.to_be_bytes());
        mac.update(body);
        mac
    }

    /// The MAC of a frame: HMAC(key, direction ‖ sequence number ‖ payload).
    pub(crate) fn seal(&self, seq: u64, body: &[u8]) -> [u8; MAC_LEN] {
        self.frame_input(seq, body).finalize().into_bytes().into()
    }

    /// Checks a frame's MAC in constant time.
    pub(crate) fn verify(&self, seq: u64, body: &[u8], mac: &[u8]) -> Result<(), WireError> {
        self.frame_input(seq, body)
            .verify_slice(mac)
            .map_err(|_| WireError::BadMac)
    }
}

impl fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SessionKey({:?}, <redacted>)", self.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> Secret {
        Secret::from_bytes(b"correct horse battery staple".to_vec()).unwrap()
    }

    fn who<'a>(role: &'a str, kind: &'a str, name: &'a str) -> Claimed<'a> {
        Claimed { role, kind, name }
    }

    #[test]
    fn auth_binds_role_and_name_without_shifting() {
        let (s, c, n) = (secret(), [1u8; 32], [2u8; 32]);
        let mac = auth_mac(&s, &c, &n, &who("ab", "", "c"));
        assert!(verify_auth(&s, &c, &n, &who("ab", "", "c"), &mac));
        assert!(!verify_auth(&s, &c, &n, &who("a", "", "bc"), &mac));
        assert!(
            !verify_auth(&s, &n, &c, &who("ab", "", "c"), &mac),
            "nonces are ordered"
        );
        assert!(
            !verify_auth(&s, &c, &n, &who("ab", "", "c"), &mac[..31]),
            "a truncated MAC fails"
        );
        let other = Secret::from_bytes(b"another secret".to_vec()).unwrap();
        assert!(!verify_auth(&other, &c, &n, &who("ab", "", "c"), &mac));
    }

    #[test]
    fn auth_binds_the_kind_without_shifting_it_into_the_name() {
        let (s, c, n) = (secret(), [1u8; 32], [2u8; 32]);
        let mac = auth_mac(&s, &c, &n, &who("inspector", "quality", "w"));
        assert!(verify_auth(
            &s,
            &c,
            &n,
            &who("inspector", "quality", "w"),
            &mac
        ));
        assert!(!verify_auth(
            &s,
            &c,
            &n,
            &who("inspector", "test", "w"),
            &mac
        ));
        assert!(!verify_auth(
            &s,
            &c,
            &n,
            &who("inspector", "", "wquality"),
            &mac
        ));
        assert!(!verify_auth(&s, &c, &n, &who("inspector", "", "w"), &mac));
    }

    #[test]
    fn proofs_and_keys_are_separated_by_context_and_direction() {
        let (s, c, n) = (secret(), [1u8; 32], [2u8; 32]);
        let proof = welcome_proof(&s, &c, &n);
        assert!(verify_welcome(&s, &c, &n, &proof));
        assert_ne!(proof, auth_mac(&s, &c, &n, &who("", "", "")));
        let up = SessionKey::derive(&s, &c, &n, Direction::ClientToServer);
        let down = SessionKey::derive(&s, &c, &n, Direction::ServerToClient);
        assert_ne!(up.key, down.key);
        let mac = up.seal(0, b"body");
        assert!(up.verify(0, b"body", &mac).is_ok());
        assert!(matches!(
            down.verify(0, b"body", &mac),
            Err(WireError::BadMac)
        ));
        assert!(matches!(
            up.verify(1, b"body", &mac),
            Err(WireError::BadMac)
        ));
    }
}
