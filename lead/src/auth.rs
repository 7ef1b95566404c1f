//! Who may use `retake serve`'s job API and the dashboard's pages: a bearer token
//! (`RETAKE_API_TOKEN`, or the file `[serve] api_token_file` names), compared in time
//! independent of where it differs. The probes (`/healthz`, `/readyz`, `/metrics`) stay open:
//! they reveal no repository data.
//!
//! Without a token the API is open, so the service refuses to start unless it listens on
//! loopback only ([`require_for`]).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The variable holding the API token (removed from the environment once read, so no job's
/// child process inherits it).
pub const TOKEN_ENV: &str = "RETAKE_API_TOKEN";

/// The shortest token accepted: 32 characters, as long as a 128-bit key in hex.
pub const MIN_TOKEN_LEN: usize = 32;

/// The API's bearer token.
pub struct ApiToken(Vec<u8>);

impl std::fmt::Debug for ApiToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiToken(<redacted>)")
    }
}

/// Why the API's token cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The token holds whitespace or a control character.
    #[error("{from}: the API token holds whitespace")]
    Whitespace {
        /// Where it came from (the variable or the file).
        from: String,
    },
    /// The token is too short to resist guessing.
    #[error("{from}: the API token is {len} characters; at least {MIN_TOKEN_LEN} are required (e.g. `openssl rand -hex 32`)")]
    TooShort {
        /// Where it came from.
        from: String,
        /// Its length.
        len: usize,
    },
    /// Both the variable and the file name a token.
    #[error("both {TOKEN_ENV} and [serve] api_token_file ({}) are set; set one", file.display())]
    Both {
        /// The file.
        file: PathBuf,
    },
    /// The token file cannot be read.
    #[error("[serve] api_token_file {}: {source}", file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The API would listen beyond loopback without a token.
    #[error("the API listens on {addr}, beyond loopback, without a token: set {TOKEN_ENV} or [serve] api_token_file, or listen on 127.0.0.1")]
    Unprotected {
        /// The address it is bound to.
        addr: SocketAddr,
    },
}

impl ApiToken {
    /// A token from its text: at least [`MIN_TOKEN_LEN`] visible characters, no whitespace
    /// inside (surrounding whitespace, a file's newline, is trimmed).
    pub fn parse(text: &str, from: &str) -> Result<ApiToken, TokenError> {
        let token = text.trim();
        if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(TokenError::Whitespace { from: from.into() });
        }
        if token.len() < MIN_TOKEN_LEN {
            return Err(TokenError::TooShort {
                from: from.into(),
                len: token.len(),
            });
        }
        Ok(ApiToken(token.as_bytes().to_vec()))
    }

    /// The token from `RETAKE_API_TOKEN` or from `file`; both set is an error (which one
    /// would win is not obvious to whoever set the other), neither is `None`.
    pub fn load(env: Option<String>, file: Option<&Path>) -> Result<Option<ApiToken>, TokenError> {
        let env = env.filter(|v| !v.is_empty());
        match (env, file) {
            (Some(_), Some(path)) => Err(TokenError::Both {
                file: path.to_path_buf(),
            }),
            (Some(text), None) => ApiToken::parse(&text, TOKEN_ENV).map(Some),
            (None, Some(path)) => {
                let text =
                    std::fs::read_to_string(path).map_err(|source| TokenError::Unreadable {
                        file: path.to_path_buf(),
                        source,
                    })?;
                ApiToken::parse(&text, &path.display().to_string()).map(Some)
            }
            (None, None) => Ok(None),
        }
    }

    /// Whether an `Authorization` header value carries this token (`Bearer TOKEN`), compared
    /// in time independent of where the two differ.
    pub fn admits(&self, authorization: Option<&str>) -> bool {
        let Some(given) = authorization.and_then(|h| {
            let (scheme, rest) = h.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
        }) else {
            return false;
        };
        let given = given.as_bytes();
        given.len() == self.0.len()
            && given
                .iter()
                .zip(&self.0)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

/// Refuses an API that listens beyond loopback (`addr`, as bound) without a token.
pub fn require_for(addr: SocketAddr, token: Option<&ApiToken>) -> Result<(), TokenError> {
    if token.is_none() && !addr.ip().is_loopback() {
        return Err(TokenError::Unprotected { addr });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn only_the_exact_bearer_token_is_admitted() {
        let token = ApiToken::parse(&format!("{TOKEN}\n"), "file").expect("valid");
        assert!(token.admits(Some(&format!("Bearer {TOKEN}"))));
        assert!(token.admits(Some(&format!("bearer  {TOKEN} "))));
        for wrong in [
            None,
            Some(""),
            Some(TOKEN),
            Some("Bearer"),
            Some("Basic MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="),
            Some("Bearer 0123456789abcdef0123456789abcdeF"),
            Some("Bearer 0123456789abcdef0123456789abcdef0"),
            Some("Bearer 0123456789abcdef0123456789abcde"),
        ] {
            assert!(!token.admits(wrong), "{wrong:?}");
        }
    }

    #[test]
    fn short_or_spaced_tokens_and_two_sources_are_refused() {
        assert_eq!(
            ApiToken::parse("ab", TOKEN_ENV).expect_err("short").to_string(),
            "RETAKE_API_TOKEN: the API token is 2 characters; at least 32 are required (e.g. `openssl rand -hex 32`)"
        );
        assert_eq!(
            ApiToken::parse("0123456789abcdef 0123456789abcdef", "f")
                .expect_err("space")
                .to_string(),
            "f: the API token holds whitespace"
        );
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("token");
        std::fs::write(&file, format!("{TOKEN}\n")).expect("write");
        assert!(ApiToken::load(None, Some(&file))
            .expect("file")
            .is_some_and(|t| t.admits(Some(&format!("Bearer {TOKEN}")))));
        assert!(ApiToken::load(Some(String::new()), None)
            .expect("empty is unset")
            .is_none());
        let both = ApiToken::load(Some(TOKEN.into()), Some(&file))
            .expect_err("both")
            .to_string();
        assert!(
            both.starts_with("both RETAKE_API_TOKEN and [serve] api_token_file ("),
            "{both}"
        );
        let missing = ApiToken::load(None, Some(&dir.path().join("nope")))
            .expect_err("missing")
            .to_string();
        assert!(missing.starts_with("[serve] api_token_file "), "{missing}");
        assert_eq!(
            format!("{:?}", ApiToken::parse(TOKEN, "x").expect("ok")),
            "ApiToken(<redacted>)"
        );
    }

    #[test]
    fn only_loopback_may_go_without_a_token() {
        let token = ApiToken::parse(TOKEN, "x").expect("ok");
        let open: SocketAddr = "0.0.0.0:8080".parse().expect("addr");
        let lo: SocketAddr = "127.0.0.1:8080".parse().expect("addr");
        let lo6: SocketAddr = "[::1]:8080".parse().expect("addr");
        assert!(require_for(lo, None).is_ok() && require_for(lo6, None).is_ok());
        assert!(require_for(open, Some(&token)).is_ok());
        assert_eq!(
            require_for(open, None).expect_err("open").to_string(),
            "the API listens on 0.0.0.0:8080, beyond loopback, without a token: set RETAKE_API_TOKEN or [serve] api_token_file, or listen on 127.0.0.1"
        );
    }
}
