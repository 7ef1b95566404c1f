//! `holistic/weak-password-hash`: MD5 or SHA-1 used where a password is at hand (a name with
//! `password`, `passwd` or `passphrase` within three lines). Both are fast, unsalted digests:
//! a leaked table of them is cracked at billions of guesses a second. Password storage needs a
//! slow, salted KDF (argon2, bcrypt, scrypt, PBKDF2). MD5/SHA-1 for checksums and cache keys,
//! with no password nearby, is not flagged. Test code is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::line_hits::LazyTestCode;
use protocol::{Category, Dimension, Location, Severity};

/// Weak-digest calls, as they appear in code (literals are blanked, so JS's
/// `createHash('md5')` is matched on the raw line).
const WEAK: [(&str, &str); 14] = [
    ("md5::compute(", "MD5"),
    ("Md5::new(", "MD5"),
    ("Md5::digest(", "MD5"),
    ("Sha1::new(", "SHA-1"),
    ("Sha1::digest(", "SHA-1"),
    ("hashlib.md5(", "MD5"),
    ("hashlib.sha1(", "SHA-1"),
    ("md5.Sum(", "MD5"),
    ("md5.New(", "MD5"),
    ("sha1.Sum(", "SHA-1"),
    ("sha1.New(", "SHA-1"),
    ("createHash('md5')", "MD5"),
    ("createHash(\"md5\")", "MD5"),
    ("createHash('sha1')", "SHA-1"),
];

/// How many lines around the call may name the password.
const NEAR: usize = 3;

/// Words for the challenge a peer sends in an authentication handshake.
const CHALLENGE_WORDS: [&str; 4] = ["nonce", "scramble", "challenge", "seed"];

/// How many lines around the call may name the challenge (a handshake function's parameters).
const HANDSHAKE_NEAR: usize = 10;

static META: RuleMeta = RuleMeta {
    id: "holistic/weak-password-hash",
    category: Category::OperationalRisk,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Security],
    explanation:
        "MD5/SHA-1 used to hash passwords: fast unsalted digests are cracked offline in seconds",
};

/// Flags weak digests applied to passwords.
pub(crate) struct WeakPasswordHash;

impl Rule for WeakPasswordHash {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && !file.is_test_file()
            && (file.text.contains("md5")
                || file.text.contains("Md5")
                || file.text.contains("sha1")
                || file.text.contains("Sha1"))
            && file.text.to_ascii_lowercase().contains("passw")
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let lexed = file.lexed(lang);
        let lower: Vec<String> = lexed
            .iter()
            .map(|l| l.code().to_ascii_lowercase())
            .collect();
        let mut tests = LazyTestCode::new(file);
        for (i, line) in lexed.iter().enumerate() {
            let code = line.code();
            let raw = line.text;
            let Some((call, algo)) = WEAK.iter().find(|(c, _)| {
                if c.contains('\'') || c.contains('"') {
                    raw.contains(c) && code.contains("createHash(")
                } else {
                    code.contains(c)
                }
            }) else {
                continue;
            };
            let from = i.saturating_sub(NEAR);
            let to = (i + NEAR + 1).min(lexed.len());
            let near = lower[from..to].iter().any(|c| {
                ["password", "passwd", "passphrase"]
                    .iter()
                    .any(|w| c.contains(w))
            });
            if !near || tests.contains(line.number) {
                continue;
            }
            let hit = Hit::new(
                Location::at(&file.rel_path, line.number),
                format!(
                    "{algo} (`{}`) hashes a password: fast unsalted digests are cracked offline",
                    call.trim_end_matches('(')
                ),
                format!("weak hash {algo}"),
            )
            .suggest("hash passwords with argon2, bcrypt, scrypt or PBKDF2 and a per-user salt");
            // A digest mixed with the peer's challenge is a protocol's handshake (MySQL's
            // `mysql_native_password` scramble): the protocol fixes the algorithm, and nothing
            // is stored.
            let from = i.saturating_sub(HANDSHAKE_NEAR);
            let to = (i + HANDSHAKE_NEAR + 1).min(lexed.len());
            let handshake = lower[from..to]
                .iter()
                .any(|c| CHALLENGE_WORDS.iter().any(|w| c.contains(w)));
            out.hit(if handshake {
                hit.excused("the digest answers the peer's challenge (a nonce or scramble nearby): a protocol's handshake, whose algorithm the protocol fixes, not password storage")
            } else {
                hit
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_md5_or_sha1_of_a_password() {
        let rust = "pub fn store(user: &str, password: &str) -> String {\n    let digest = md5::compute(password.as_bytes());\n    format!(\"{:x}\", digest)\n}\n";
        assert_eq!(
            hits(&WeakPasswordHash, "src/auth.rs", rust),
            vec![(
                2,
                "MD5 (`md5::compute`) hashes a password: fast unsalted digests are cracked offline"
                    .to_string()
            )]
        );
        let py = "def check(pw_input, stored_password):\n    return hashlib.sha1(pw_input.encode()).hexdigest() == stored_password\n";
        assert_eq!(hits(&WeakPasswordHash, "app/auth.py", py).len(), 1);
        let js = "const h = crypto.createHash('md5').update(password).digest('hex');\n";
        assert_eq!(hits(&WeakPasswordHash, "web/auth.js", js).len(), 1);
    }

    #[test]
    fn a_handshake_answering_a_challenge_is_excused() {
        use crate::rules::fixture::excused;
        let go = "package mysql\n\nfunc scramblePassword(scramble []byte, password string) []byte {\n\tcrypt := sha1.New()\n\tcrypt.Write([]byte(password))\n\treturn crypt.Sum(nil)\n}\n";
        assert!(hits(&WeakPasswordHash, "auth.go", go).is_empty());
        assert_eq!(excused(&WeakPasswordHash, "auth.go", go).len(), 1);
        let store = go.replace("scramblePassword(scramble []byte, ", "store(");
        assert_eq!(hits(&WeakPasswordHash, "auth.go", &store).len(), 1);
    }

    #[test]
    fn quiet_on_checksums_and_strong_kdfs() {
        let rust = "pub fn etag(body: &[u8]) -> String {\n    format!(\"{:x}\", md5::compute(body))\n}\n\n\n\n\npub fn store(password: &str) -> String {\n    argon2::hash_encoded(password.as_bytes(), &salt, &cfg).unwrap_or_default()\n}\n";
        assert!(hits(&WeakPasswordHash, "src/auth.rs", rust).is_empty());
        let py = "# never md5 a password\ndigest = hashlib.md5(data).hexdigest()\n";
        assert!(hits(&WeakPasswordHash, "app/cache.py", py).is_empty());
    }
}
