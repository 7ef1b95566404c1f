//! Identifier conventions: splitting names into words, telling credential names apart, and the
//! case styles the naming rules check (the same definitions rustc's style lints use).

/// `apiKey`, `API_KEY`, `api-key`, `APIKey` → `["api", "key"]`.
pub(crate) fn split_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Whether a name denotes a credential: its last word is `password`, `passwd`, `passphrase`,
/// `secret`, `token` (or a run-together form like `authtoken`), or its last two words are
/// `api key`, `private key`, `access key` or `secret key`. `token_type`, `max_tokens` are not.
pub(crate) fn is_credential_name(key: &str) -> bool {
    let words = split_words(key);
    let Some(last) = words.last() else {
        return false;
    };
    let single = [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "privatekey",
        "accesskey",
        "secretkey",
    ];
    if single.iter().any(|w| last == w)
        || ["password", "passwd", "token", "secret", "apikey"]
            .iter()
            .any(|w| last.ends_with(w) && last.len() > w.len() + 1)
    {
        return true;
    }
    words.len() >= 2
        && last == "key"
        && matches!(
            words[words.len() - 2].as_str(),
            "api" | "private" | "access" | "secret"
        )
}

/// rustc's `non_snake_case` definition: no upper-case letter and no `__` inside (leading and
/// trailing underscores allowed).
pub(crate) fn is_snake_case(name: &str) -> bool {
    let name = name.trim_matches('_');
    !name.contains("__") && !name.chars().any(char::is_uppercase)
}

/// rustc's `non_camel_case_types` definition: does not start lower-case, no `__`, and no `_`
/// next to a cased letter (`HTTP_2` is fine, `Http_Client` is not).
pub(crate) fn is_camel_case(name: &str) -> bool {
    let name = name.trim_matches('_');
    let chars: Vec<char> = name.chars().collect();
    let cased = |c: char| c.is_uppercase() || c.is_lowercase();
    !chars.first().is_some_and(|c| c.is_lowercase())
        && !name.contains("__")
        && !chars
            .windows(2)
            .any(|w| (cased(w[0]) && w[1] == '_') || (w[0] == '_' && cased(w[1])))
}

/// rustc's `non_upper_case_globals` definition: no lower-case letter.
pub(crate) fn is_upper_case(name: &str) -> bool {
    !name.chars().any(char::is_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_words() {
        assert_eq!(split_words("APIKey"), vec!["api", "key"]);
        assert_eq!(
            split_words("db.adminPassword"),
            vec!["db", "admin", "password"]
        );
        for name in [
            "password",
            "DB_PASSWORD",
            "apiKey",
            "api-key",
            "AWS_SECRET_ACCESS_KEY",
            "authtoken",
            "client_secret",
            "PRIVATE_KEY",
        ] {
            assert!(is_credential_name(name), "{name}");
        }
        for name in [
            "token_type",
            "max_tokens",
            "secret_name",
            "password_prompt",
            "key",
            "monkey",
            "tokens",
        ] {
            assert!(!is_credential_name(name), "{name}");
        }
    }

    #[test]
    fn case_styles_follow_rustc() {
        for ok in ["parse_file", "_unused", "x2", "__private__"] {
            assert!(is_snake_case(ok), "{ok}");
        }
        for bad in ["parseFile", "Parse", "a__b"] {
            assert!(!is_snake_case(bad), "{bad}");
        }
        for ok in ["HttpClient", "HTTP2", "X", "Ipv4_0", "_Hidden"] {
            assert!(is_camel_case(ok), "{ok}");
        }
        for bad in ["httpClient", "Http_Client", "my_type"] {
            assert!(!is_camel_case(bad), "{bad}");
        }
        assert!(is_upper_case("MAX_LEN") && !is_upper_case("MaxLen"));
    }
}
