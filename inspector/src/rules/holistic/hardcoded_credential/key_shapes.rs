//! Well-known credential shapes that are secrets wherever they appear (code, comments, tests):
//! AWS access key ids, PEM private key blocks and GitHub tokens. Hand-scanned: three fixed
//! prefixes do not need a regex engine.

/// The name of a PEM private key block.
pub(super) const PEM: &str = "a PEM private key";

/// The name of the credential shape found on `line` (with `next` the following line, for PEM
/// blocks whose body starts there), or `None`.
pub(super) fn find(line: &str, next: Option<&str>) -> Option<&'static str> {
    if has_aws_key_id(line) {
        return Some("an AWS access key id");
    }
    if has_github_token(line) {
        return Some("a GitHub token");
    }
    if has_private_key_block(line, next) {
        return Some(PEM);
    }
    None
}

/// Whether `text` holds the start of some key shape: every shape [`find`] reads starts with one
/// of these, so a text (a line or a whole file) without any holds no key.
pub(super) fn may_hold(text: &str) -> bool {
    const STARTS: [&str; 8] = [
        "AKIA",
        "ASIA",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "-----BEGIN ",
    ];
    STARTS.iter().any(|s| text.contains(s))
}

/// `AKIA`/`ASIA` + 16 upper-case letters or digits, as a whole word; AWS's documentation
/// placeholders (ending in `EXAMPLE`) excepted.
fn has_aws_key_id(line: &str) -> bool {
    ["AKIA", "ASIA"].iter().any(|prefix| {
        word_matches(line, prefix, 16, |c| {
            c.is_ascii_uppercase() || c.is_ascii_digit()
        })
        .any(|id| !id.ends_with("EXAMPLE"))
    })
}

/// `ghp_`, `gho_`, `ghu_`, `ghs_` or `ghr_` + 36 letters or digits, as a whole word.
fn has_github_token(line: &str) -> bool {
    ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]
        .iter()
        .any(|prefix| {
            word_matches(line, prefix, 36, |c| c.is_ascii_alphanumeric())
                .next()
                .is_some()
        })
}

/// A PEM header for a private key followed by key material (base64) on the same line (an
/// escaped `\n` in a string) or on the next: a bare header is a parser constant, not a key.
fn has_private_key_block(line: &str, next: Option<&str>) -> bool {
    const OPEN: &str = "-----BEGIN ";
    let Some(start) = line.find(OPEN) else {
        return false;
    };
    let header = &line[start + OPEN.len()..];
    let close = "PRIVATE KEY-----";
    let Some(end) = header.find(close) else {
        return false;
    };
    let label = &header[..end];
    if label.len() > 20 || !label.chars().all(|c| c.is_ascii_uppercase() || c == ' ') {
        return false;
    }
    let after = header[end + close.len()..].replace("\\n", "");
    base64_run(&after) >= 20 || next.is_some_and(|n| base64_run(n.trim()) >= 40)
}

/// The length of the longest run of base64 characters in `text`.
fn base64_run(text: &str) -> usize {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')))
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// The whole-word occurrences of `prefix` followed by exactly `len` characters satisfying `ok`.
fn word_matches<'a>(
    line: &'a str,
    prefix: &'a str,
    len: usize,
    ok: fn(char) -> bool,
) -> impl Iterator<Item = &'a str> + 'a {
    let b = line.as_bytes();
    line.match_indices(prefix).filter_map(move |(at, _)| {
        if at > 0 && b[at - 1].is_ascii_alphanumeric() {
            return None;
        }
        let end = at + prefix.len() + len;
        let body = line.get(at + prefix.len()..end)?;
        let bounded = b.get(end).is_none_or(|c| !c.is_ascii_alphanumeric());
        (body.chars().all(ok) && bounded).then(|| &line[at..end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_shape() {
        let aws = format!("key = \"AKIA{}\"", "Q7".repeat(8));
        assert_eq!(find(&aws, None), Some("an AWS access key id"));
        let gh = format!("// ghp_{}", "a1".repeat(18));
        assert_eq!(find(&gh, None), Some("a GitHub token"));
        let pem = format!("-----BEGIN RSA {}", "PRIVATE KEY-----");
        assert_eq!(
            find(&pem, Some(&"MIIEow".repeat(8))),
            Some("a PEM private key")
        );
        for line in [aws.as_str(), gh.as_str(), pem.as_str()] {
            assert!(may_hold(line), "{line}");
        }
        assert!(!may_hold("let akia = \"ghp\"; // BEGIN"));
        let inline = format!(
            "\"-----BEGIN {}\\nMIIEvQIBADANBgkqhkiG9w0\"",
            "PRIVATE KEY-----"
        );
        assert_eq!(find(&inline, None), Some("a PEM private key"));
    }

    #[test]
    fn quiet_on_near_misses() {
        assert_eq!(find(&format!("AKIA{}", "Q".repeat(15)), None), None);
        assert_eq!(find(&format!("XAKIA{}", "Q".repeat(16)), None), None);
        assert_eq!(find("id = AKIAIOSFODNN7EXAMPLE", None), None);
        assert_eq!(find(&format!("ghp_{}", "a".repeat(37)), None), None);
        let header = format!("const H: &str = \"-----BEGIN {}\";", "PRIVATE KEY-----");
        assert_eq!(find(&header, Some("const F: &str = \"-----END\";")), None);
    }
}
