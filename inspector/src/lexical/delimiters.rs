//! The lexical details of each language the scanner knows: where comments, strings, char
//! literals and regex literals start and end.
//!
//! Every delimiter of every grammar here is ASCII, so the scanner works on bytes, and it jumps
//! over plain code, string bodies and comment bodies straight to the next byte that can matter
//! instead of testing each position.

use super::is_ident;
use super::search::find_any;
use crate::engine::Language;

/// The most `#`s a Rust raw string may have.
const MAX_HASHES: usize = 255;

/// A quote and [`MAX_HASHES`] `#`s: the closing delimiter of a raw string with `n` hashes is
/// its first `n + 1` bytes.
const CLOSERS: &str = {
    const BYTES: [u8; MAX_HASHES + 1] = {
        let mut bytes = [b'#'; MAX_HASHES + 1];
        bytes[0] = b'"';
        bytes
    };
    match std::str::from_utf8(&BYTES) {
        Ok(closers) => closers,
        Err(_) => panic!("ASCII"),
    }
};

/// The first index from `i` where a comment or literal may start in code, or where a `\n` ends
/// the line (none does inside a line; the scanner also searches whole texts), if any. A Rust
/// raw string's `r` is not such a byte: [`string_open`] finds it looking back from the quote.
pub(super) fn next_stop(b: &[u8], i: usize, lang: Language) -> Option<usize> {
    match lang {
        Language::Rust => find_any(b, i, *b"\n/\"'"),
        Language::Python => find_any(b, i, *b"\n#\"'"),
        Language::TypeScript | Language::JavaScript | Language::Go => find_any(b, i, *b"\n/\"'`"),
        Language::Config => find_any(b, i, [b'\n']),
    }
}

/// How many bytes the line-comment marker takes, and whether it is a doc comment.
pub(super) fn line_comment_marker(rest: &[u8], lang: Language) -> (usize, bool) {
    if lang == Language::Python {
        return (1, false);
    }
    let doc = lang == Language::Rust
        && ((rest.starts_with(b"///") && !rest.starts_with(b"////")) || rest.starts_with(b"//!"));
    (if doc { 3 } else { 2 }, doc)
}

/// The end of a block comment from `i`: (index after it or line end, depth still open).
pub(super) fn block_end(b: &[u8], mut i: usize, mut depth: u32, nested: bool) -> (usize, u32) {
    // Only a `*` can close, and only a `/` can open a nested comment.
    let opener = if nested { b'/' } else { b'*' };
    while let Some(at) = find_any(b, i, [b'*', opener]) {
        i = at;
        if b[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return (i, 0);
            }
        } else if nested && b[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    (b.len(), depth)
}

/// A string literal's opening delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Opener {
    /// Where it starts.
    pub(super) at: usize,
    /// Its length.
    pub(super) len: usize,
    /// The delimiter that closes the string.
    pub(super) close: &'static str,
    /// Whether backslash escapes are off (raw strings).
    pub(super) raw: bool,
}

impl Opener {
    /// An escaped string whose one-byte-or-longer opener `close` is also its closer.
    fn plain(at: usize, close: &'static str) -> Opener {
        Opener {
            at,
            len: close.len(),
            close,
            raw: false,
        }
    }
}

/// Whether a string opens at the stop byte `b[i]` (see [`next_stop`]), where the code being
/// scanned began at `start`. A Rust raw string opens earlier, at the `r` of the `r#"` that ends
/// at `i`: it is recognised from its quote, since an `r` alone is far too common to stop at.
pub(super) fn string_open(b: &[u8], start: usize, i: usize, lang: Language) -> Option<Opener> {
    let rest = &b[i..];
    match (lang, rest[0]) {
        (Language::Rust, b'"') => {
            let hashes = b[start..i].iter().rev().take_while(|&&h| h == b'#').count();
            let raw = (i - start > hashes && hashes <= MAX_HASHES)
                .then(|| i - hashes - 1)
                .filter(|&r| b[r] == b'r' && raw_prefix_ok(b, r));
            Some(match raw {
                Some(at) => Opener {
                    at,
                    len: 2 + hashes,
                    close: &CLOSERS[..=hashes],
                    raw: true,
                },
                None => Opener::plain(i, "\""),
            })
        }
        (Language::Python, b'"' | b'\'') => {
            let close = match rest {
                [b'"', b'"', b'"', ..] => "\"\"\"",
                [b'\'', b'\'', b'\'', ..] => "\'\'\'",
                [b'"', ..] => "\"",
                _ => "'",
            };
            Some(Opener::plain(i, close))
        }
        (Language::JavaScript | Language::TypeScript | Language::Go, b'"') => {
            Some(Opener::plain(i, "\""))
        }
        (Language::JavaScript | Language::TypeScript | Language::Go, b'\'') => {
            Some(Opener::plain(i, "'"))
        }
        (Language::JavaScript | Language::TypeScript | Language::Go, b'`') => Some(Opener {
            raw: lang == Language::Go,
            ..Opener::plain(i, "`")
        }),
        _ => None,
    }
}

/// Whether the `r` at `r` may start a raw string: it is not inside an identifier, except as
/// the `r` of a `br` or `cr` prefix.
fn raw_prefix_ok(b: &[u8], r: usize) -> bool {
    let prev_ident = r > 0 && is_ident(b[r - 1]);
    let prefixed = r > 0 && matches!(b[r - 1], b'b' | b'c') && !(r > 1 && is_ident(b[r - 2]));
    !prev_ident || prefixed
}

/// The index just after the string's closing delimiter, searching from `i`; `None` when the
/// string does not close on this line.
pub(super) fn string_end(b: &[u8], mut i: usize, close: &str, raw: bool) -> Option<usize> {
    let close = close.as_bytes();
    // Only a backslash (unless raw) or the closer's first byte can matter.
    let escape = if raw { close[0] } else { b'\\' };
    while i < b.len() {
        i = find_any(b, i, [escape, close[0]])?;
        if !raw && b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i..].starts_with(close) {
            return Some(i + close.len());
        }
        i += 1;
    }
    None
}

/// The length of a Rust char literal at the start of `rest`, or `None` for a lifetime or label.
pub(super) fn rust_char_len(rest: &[u8]) -> Option<usize> {
    if rest.get(1) == Some(&b'\\') {
        let close = rest.get(3..)?.iter().position(|&c| c == b'\'')?;
        return Some(3 + close + 1);
    }
    let first = *rest.get(1)?;
    let width = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    (rest.get(1 + width) == Some(&b'\'')).then_some(width + 2)
}

/// Whether a `/` after `before` (this line's code so far) starts a JS regex literal rather
/// than a division: it does after an operator, an opening bracket or `return`.
pub(super) fn regex_may_start(before: &[u8]) -> bool {
    let trimmed = before.trim_ascii_end();
    match trimmed.last() {
        None => true,
        Some(c) if b"(,=:[!&|?{};+-*%<>~^".contains(c) => true,
        Some(_) => trimmed.ends_with(b"return") || trimmed.ends_with(b"typeof"),
    }
}

/// The length of a regex literal at the start of `rest` when it closes on this line.
pub(super) fn regex_len(rest: &[u8]) -> Option<usize> {
    if rest.get(1).is_none_or(|&c| c == b'/' || c == b'*') {
        return None;
    }
    let mut i = 1;
    let mut in_class = false;
    while i < rest.len() {
        match rest[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => {
                let flags = rest[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .count();
                return Some(i + 1 + flags);
            }
            _ => {}
        }
        i += 1;
    }
    None
}
