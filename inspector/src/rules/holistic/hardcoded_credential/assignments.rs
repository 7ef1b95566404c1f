//! Credential-named keys given a literal value: `db_password = "…"`, `apiKey: '…'`,
//! `const API_KEY: &str = "…"`, `"token": "…"`, `API_TOKEN=…` in a `.env` file.
//!
//! A name is a credential when its last word is one (`password`, `passwd`, `passphrase`,
//! `secret`, `token`, or a run-together form like `authtoken`), or its last two words are
//! `api key`, `private key`, `access key` or `secret key` — so `token_type`, `max_tokens`,
//! `secret_name` and `password_prompt` are not. A value is not a credential when it is shorter
//! than four characters, holds whitespace (a message), is a placeholder or reference (`${VAR}`,
//! `{{ x }}`, `<...>`, `$VAR`, `***`, an `ENV_VAR_NAME`, a path or URL), names the field itself
//! (`password: "Password"`, a form label; `token = "acme-dev-token"`, a self-describing
//! placeholder) or says it is a sample (`example`, `dummy`, `fake`, `your`, ...).

use crate::lexical::names::{is_credential_name, split_words};
use crate::lexical::{LexLine, Seg};

/// A credential-named key with a literal value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Assignment {
    /// 1-based line.
    pub(super) line: u32,
    /// The key as written.
    pub(super) key: String,
    /// The value's length in characters (the value itself is never reported).
    pub(super) value_chars: usize,
    /// Whether the value looks generated ([`looks_generated`]).
    pub(super) generated: bool,
}

/// Whether a value looks like a generated secret — an API key, a token, a random password:
/// 16 characters or more, letters and digits mixed. What people type (`hunter2!`, `pass`,
/// `changeme`, `mysqlrootpassword`) is short or word-like: the value of a test, an example or
/// a local setup, in a mature repository nearly always.
pub(super) fn looks_generated(value: &str) -> bool {
    value.chars().count() >= 16
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
}

/// Calls whose single literal argument is the assigned value.
const WRAPPERS: [&str; 4] = ["String::from", "Some", "str", "String"];

/// Credential assignments in source code, read from comment- and string-aware lines.
pub(super) fn in_code(lines: &[LexLine<'_>]) -> Vec<Assignment> {
    let mut out = Vec::new();
    for line in lines {
        for (k, seg) in line.segs.iter().enumerate() {
            let (Seg::Str(literal), Some(Seg::Code(before))) =
                (seg, k.checked_sub(1).map(|p| line.segs[p]))
            else {
                continue;
            };
            let Some(value) = unquote(literal) else {
                continue;
            };
            let dict_key = k.checked_sub(2).and_then(|p| match line.segs[p] {
                Seg::Str(s) => unquote(s),
                _ => None,
            });
            let Some(key) = key_before(before, dict_key) else {
                continue;
            };
            if is_credential_name(&key) && is_literal_secret(value, &key) {
                out.push(Assignment {
                    line: line.number,
                    key,
                    value_chars: value.chars().count(),
                    generated: looks_generated(value),
                });
            }
        }
    }
    out
}

/// Credential assignments in configuration text (YAML, TOML, JSON, INI, `.env`), line by line.
pub(super) fn in_config(text: &str) -> Vec<Assignment> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with(['#', ';']) || line.starts_with("//") {
            continue;
        }
        let line = line.trim_start_matches("- ").trim_start_matches("export ");
        let (key, rest) = match line.strip_prefix(['"', '\'']) {
            Some(quoted) => match quoted.find(['"', '\'']) {
                Some(end) => (&quoted[..end], quoted[end + 1..].trim_start()),
                None => continue,
            },
            None => match line.find([':', '=']) {
                Some(at) => (line[..at].trim(), &line[at..]),
                None => continue,
            },
        };
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        {
            continue;
        }
        let Some(value) = rest.strip_prefix([':', '=']).map(str::trim) else {
            continue;
        };
        let value = value.trim_end_matches(',');
        let value = match value.strip_prefix(['"', '\'']) {
            Some(quoted) => match quoted.find(['"', '\'']) {
                Some(end) => &quoted[..end],
                None => continue,
            },
            None => {
                let bare = value.split(" #").next().unwrap_or_default().trim();
                let structural = bare.starts_with(['|', '>', '{', '[', '!', '&', '*']);
                let scalar = matches!(
                    bare.to_ascii_lowercase().as_str(),
                    "true" | "false" | "null" | "~" | "none"
                ) || bare.parse::<f64>().is_ok();
                if structural || scalar {
                    continue;
                }
                bare
            }
        };
        if is_credential_name(key) && is_literal_secret(value, key) {
            out.push(Assignment {
                line: i as u32 + 1,
                key: key.to_string(),
                value_chars: value.chars().count(),
                generated: looks_generated(value),
            });
        }
    }
    out
}

/// The key that the code `before` a string literal assigns it to, if it is an assignment
/// (`=`, `:=`, `:`); `dict_key` is the literal before that code (`"password": "x"`).
fn key_before(before: &str, dict_key: Option<&str>) -> Option<String> {
    let mut left = before.trim_end();
    while let Some(call) = left.strip_suffix('(') {
        let call = call.trim_end();
        let wrapper = WRAPPERS.iter().find(|w| {
            call.strip_suffix(*w).is_some_and(|head| {
                !head.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            })
        })?;
        left = call[..call.len() - wrapper.len()].trim_end();
    }
    let (rest, typed) = if let Some(r) = left.strip_suffix(":=") {
        (r, false)
    } else if let Some(r) = left.strip_suffix('=') {
        if r.ends_with(['=', '!', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^']) {
            return None;
        }
        (r, true)
    } else if let Some(r) = left.strip_suffix(':') {
        if r.ends_with(':') {
            return None;
        }
        (r, false)
    } else {
        return None;
    };
    let rest = rest.trim_end();
    if rest.is_empty() || rest.ends_with(']') {
        // `{"password": "x"}` or `env["PASSWORD"] = "x"`: the key is the literal before.
        return dict_key
            .filter(|_| rest.is_empty() || rest == "]")
            .map(str::to_string);
    }
    // In a parameter or argument list, the value belongs to the last name before it:
    // `def f(password: str, method: str = "scrypt")` sets `method`.
    let rest = if typed {
        before_type_annotation(rest.rsplit([',', '(']).next().unwrap_or(rest))
    } else {
        rest
    };
    let idents: Vec<&str> = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|s| !s.is_empty())
        .collect();
    let last = *idents.last()?;
    let key = if matches!(last, "string" | "str" | "String") && idents.len() > 1 {
        idents[idents.len() - 2]
    } else {
        last
    };
    rest.trim_end()
        .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .then(|| key.to_string())
}

/// `const KEY: &str` → `const KEY`: the text before the first `:` that is not part of `::`.
fn before_type_annotation(text: &str) -> &str {
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let double = b.get(i + 1) == Some(&b':') || (i > 0 && b[i - 1] == b':');
        if c == b':' && !double {
            return &text[..i];
        }
    }
    text
}

/// The content of a one-line string literal (`"x"`, `'x'`, `r#"x"#`, `b"x"`, `` `x` ``).
fn unquote(literal: &str) -> Option<&str> {
    let body = literal.trim_start_matches(|c: char| "rbfuRBFUc#".contains(c));
    let quote = body
        .chars()
        .next()
        .filter(|q| matches!(q, '"' | '\'' | '`'))?;
    let body = body.trim_end_matches('#');
    let inner = body.strip_prefix(quote)?.strip_suffix(quote)?;
    // A template with `${..}` is computed, and `'x'` is a char in Rust and Go.
    let templated = inner.contains("${");
    // `'\u{f0306}'`, `'\n'`: one escaped character (an icon table's `PRIVATE_KEY` glyph).
    let escaped_char = inner.starts_with('\\')
        && (inner.len() == 2 || inner.starts_with("\\u{") || inner.starts_with("\\x"))
        && !inner[1..].contains('\\');
    let char_literal = quote == '\'' && (inner.chars().count() == 1 || escaped_char);
    (!templated && !char_literal).then_some(inner)
}

/// Whether `value`, assigned to `key`, looks like a real secret rather than a placeholder.
fn is_literal_secret(value: &str, key: &str) -> bool {
    let v = value.trim();
    let env_name = v.len() >= 3
        && v.contains('_')
        && v.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let placeholder = v.starts_with('$')
        || v.contains("{{")
        || (v.starts_with('<') && v.ends_with('>'))
        || (v.starts_with('{') && v.ends_with('}'))
        || v.starts_with(['/', '~'])
        || v.starts_with("./")
        || v.contains("://")
        // A format string (`"%s_upgrades" % name`, `"{}-token"`) is filled in at run time.
        || ["%s", "%d", "%(", "{}", "{0}"].iter().any(|f| v.contains(f))
        // A pattern (`TOKEN = "[a-zA-Z_][a-zA-Z0-9_-]*"`, a tokenizer's) matches secrets, it is none.
        || ["[a-z", "[A-Z", "[0-9", "]*", "]+", "\\d", "\\w", "(?:", ".*"].iter().any(|f| v.contains(f))
        || !v.chars().any(char::is_alphanumeric);
    // `password: "Password"` (a label) or `token = "sparkpost-dev-token"` (a self-describing
    // placeholder): the value names the field instead of being a secret.
    // So does a value made of the key's own words (`SecretAccessKey: "secret"`, `AccessKeyId:
    // "accessKey"`): a sample file's field names repeated as values.
    let value_words = split_words(v);
    let key_words = split_words(key);
    let names_itself = key_words.last().is_some_and(|w| {
        value_words.concat() == *w || (value_words.len() >= 2 && value_words.contains(w))
    }) || (!value_words.is_empty() && value_words.iter().all(|w| key_words.contains(w)))
        // `ResourceTypeDelegationToken: "Delegationtoken"`: the key's last words run together.
        || (2..=key_words.len())
            .any(|n| key_words[key_words.len() - n..].concat() == value_words.concat());
    // Settings that happen to sit under a credential-like key (`id-token: write` in a CI
    // workflow's permissions).
    let setting = matches!(
        v.to_ascii_lowercase().as_str(),
        "read" | "write" | "none" | "required" | "optional" | "enabled" | "disabled" | "auto"
    );
    // A filler no generator makes: one character repeated (`xxxxxxxx`), or the digits counted
    // up at length (`0123456789012…`, a dummy session's CSRF token; `1234` is a weak password).
    let first = v.chars().next().unwrap_or(' ');
    let repeated = v.chars().count() >= 6 && v.chars().all(|c| c == first);
    let counted = v.len() >= 10
        && v.bytes().all(|c| c.is_ascii_digit())
        && v.bytes()
            .zip(v.bytes().skip(1))
            .all(|(a, b)| b == if a == b'9' { b'0' } else { a + 1 });
    let sample = repeated
        || counted
        || value_words.iter().any(|w| {
            matches!(
                w.as_str(),
                "example" | "sample" | "dummy" | "fake" | "placeholder" | "your"
            )
        });
    // `token = "other"`, `key: "lastWeek"`: under the bare words `token` and `key` a plain word
    // is a name (a format token, a lexer's token kind, a map key), never a generated secret.
    let bare_generic = matches!(key_words.as_slice(), [w] if w == "token" || w == "key");
    // So are lower-case words under a name that ends in `token` or `key` and says nothing
    // secret (`upgrade_token = "upgrades"`, a template's variable; `sort_key: "created_at"`):
    // a generated token mixes cases and digits.
    let named_thing = key_words.last().is_some_and(|w| w == "token" || w == "key")
        && !key_words.iter().any(|w| {
            matches!(
                w.as_str(),
                "secret" | "private" | "password" | "passwd" | "passphrase"
            )
        })
        && v.len() <= 24
        && v.chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-');
    // A plain word holding a credential's own name (`"PGPASSWORD": "sslpassword"` of an
    // environment-to-setting table) names a field.
    // A field name is an identifier: the word itself after at most a short qualifier (`ssl`,
    // `new_`, `client_`), never `supersecret` or `ci-secret`.
    let field_name = v.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        && ["password", "passwd", "secret", "token", "passphrase"]
            .iter()
            .any(|w| {
                v.strip_suffix(w)
                    .is_some_and(|q| q.trim_end_matches('_').len() <= 3 || q.ends_with('_'))
            });
    // A key about a credential rather than holding one (`ERRCODE_INVALID_PASSWORD = "28P01"`,
    // `password_prompt`, `token_header`).
    let about = key_words.iter().any(|w| {
        matches!(
            w.as_str(),
            "errcode"
                | "error"
                | "err"
                | "status"
                | "msg"
                | "message"
                | "prompt"
                | "label"
                | "hint"
                | "field"
                | "param"
                | "header"
                | "column"
                | "env"
                | "var"
                | "kind"
                | "type"
        )
    });
    let a_name = (bare_generic && v.chars().all(|c| c.is_ascii_alphabetic()))
        || named_thing
        || field_name
        || about;
    v.chars().count() >= 4
        && !a_name
        && !v.contains(char::is_whitespace)
        && !is_version(v)
        && !env_name
        && !placeholder
        && !names_itself
        && !sample
        && !setting
}

/// A version or version requirement (`^9.0.0`, `~1.2`, `>=2.0.1-rc.1`, `1.x`): a dependency
/// named like a credential (`jsonwebtoken`, `secret-manager`) pinned in a manifest. Without an
/// operator it needs a dot, so a digits-only password (`"1234"`) still counts.
fn is_version(v: &str) -> bool {
    let core = v.trim_start_matches(['^', '~', '=', '>', '<', 'v']);
    let operator = core.len() < v.len();
    let (release, suffix) = match core.find(['-', '+']) {
        Some(at) => (&core[..at], &core[at + 1..]),
        None => (core, ""),
    };
    let parts: Vec<&str> = release.split('.').collect();
    let numeric = parts[0].chars().next().is_some_and(|c| c.is_ascii_digit())
        && parts.iter().all(|p| {
            !p.is_empty() && (p.chars().all(|c| c.is_ascii_digit()) || *p == "x" || *p == "*")
        });
    let suffix_ok = suffix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'));
    numeric && suffix_ok && (operator || parts.len() >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_not_secrets_but_digit_passwords_are() {
        for v in [
            "^9.0.0",
            "~1.2",
            ">=2.0.1-rc.1",
            "1.x",
            "9.0.0",
            "=0.4.12+build.5",
        ] {
            assert!(is_version(v), "{v}");
            assert!(!is_literal_secret(v, "jsonwebtoken"), "{v}");
        }
        for v in ["1234", "hunter2!", "sk_live_51Hx", "^abc", "1..2"] {
            assert!(!is_version(v), "{v}");
        }
        assert!(is_literal_secret("1234", "password"));
        // A sample file's field names repeated as values.
        assert!(!is_literal_secret("secret", "SecretAccessKey"));
        assert!(!is_literal_secret("accessKey", "AccessKeyId"));
        assert!(is_literal_secret("wJalrXUtnFEMI", "SecretAccessKey"));
        assert!(!is_literal_secret(
            "Delegationtoken",
            "ResourceTypeDelegationToken"
        ));
        assert!(!is_literal_secret(
            "0123456789012345678901234567890123456789",
            "token"
        ));
        assert!(!is_literal_secret("xxxxxxxx", "password"));
        // Lower-case words under a name ending in `token`/`key` name a thing; a format string
        // is filled in at run time; a secret's own name still counts.
        assert!(!is_literal_secret("upgrades", "upgrade_token"));
        assert!(!is_literal_secret("created_at", "sortKey"));
        assert!(!is_literal_secret("%s_upgrades", "upgrade_token"));
        assert!(is_literal_secret("changeme", "secret_key"));
        assert!(is_literal_secret("k8Fq2mZ0", "upgrade_token"));
        // A field's name, and a key about a credential, hold none.
        assert!(!is_literal_secret("sslpassword", "PGSSLPASSWORD"));
        assert!(!is_literal_secret("28P01", "ERRCODE_INVALID_PASSWORD"));
        assert!(!is_literal_secret("Enter password", "password_prompt"));
        assert!(is_literal_secret("mypass-1", "db_password"));
        assert!(!is_literal_secret("client_secret", "OAUTH_SECRET"));
        assert!(is_literal_secret("supersecret", "app_secret"));
        assert!(!is_literal_secret("[a-zA-Z_][a-zA-Z0-9_-]*", "TOKEN"));
        let manifest = "{\n  \"dependencies\": {\n    \"jsonwebtoken\": \"^9.0.0\"\n  },\n  \"token\": \"a8f5f167f44f4964e6c998dee827110c\"\n}\n";
        let found: Vec<(u32, String)> = in_config(manifest)
            .into_iter()
            .map(|a| (a.line, a.key))
            .collect();
        assert_eq!(found, vec![(5, "token".to_string())]);
    }

    #[test]
    fn keys_before_literals() {
        assert_eq!(
            key_before("let db_password = ", None).as_deref(),
            Some("db_password")
        );
        assert_eq!(
            key_before("const API_KEY: &str = ", None).as_deref(),
            Some("API_KEY")
        );
        assert_eq!(
            key_before("    token: String::from(", None).as_deref(),
            Some("token")
        );
        assert_eq!(
            key_before("var password string = ", None).as_deref(),
            Some("password")
        );
        assert_eq!(key_before(": ", Some("apiKey")).as_deref(), Some("apiKey"));
        assert_eq!(key_before("if password == ", None), None);
        assert_eq!(key_before("Kind::Token => ", None), None);
        assert_eq!(key_before("prompt(", None), None);
        // A char, escaped or not, is no string.
        assert_eq!(unquote("'\\u{f0306}'"), None);
        assert_eq!(unquote("'\\n'"), None);
        assert_eq!(unquote("'s3cr\\t-pw'"), Some("s3cr\\t-pw"));
    }
}
