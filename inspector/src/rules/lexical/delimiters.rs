//! The lexical details of each language the scanner knows: where comments, strings, char
//! literals and regex literals start and end.

use super::is_ident;
use crate::engine::Language;

/// Closing delimiters of Rust raw strings by hash count.
const HASHES: [&str; 5] = ["\"", "\"#", "\"##", "\"###", "\"####"];

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
    while i < b.len() {
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

/// Whether a string opens at `i`: (opening length, closing delimiter, raw).
pub(super) fn string_open(
    b: &[u8],
    i: usize,
    lang: Language,
) -> Option<(usize, &'static str, bool)> {
    let rest = &b[i..];
    let c = rest[0];
    match lang {
        Language::Rust => {
            if c == b'"' {
                return Some((1, "\"", false));
            }
            let prev_ident = i > 0 && is_ident(b[i - 1]);
            let prefixed =
                i > 0 && matches!(b[i - 1], b'b' | b'c') && !(i > 1 && is_ident(b[i - 2]));
            if c == b'r' && (!prev_ident || prefixed) {
                let hashes = rest[1..].iter().take_while(|&&h| h == b'#').count();
                if rest.get(1 + hashes) == Some(&b'"') && hashes < HASHES.len() {
                    return Some((2 + hashes, HASHES[hashes], true));
                }
            }
            None
        }
        Language::Python => {
            if rest.starts_with(b"\"\"\"") {
                Some((3, "\"\"\"", false))
            } else if rest.starts_with(b"'''") {
                Some((3, "'''", false))
            } else if c == b'"' {
                Some((1, "\"", false))
            } else if c == b'\'' {
                Some((1, "'", false))
            } else {
                None
            }
        }
        Language::JavaScript | Language::TypeScript => match c {
            b'"' => Some((1, "\"", false)),
            b'\'' => Some((1, "'", false)),
            b'`' => Some((1, "`", false)),
            _ => None,
        },
        Language::Go => match c {
            b'"' => Some((1, "\"", false)),
            b'\'' => Some((1, "'", false)),
            b'`' => Some((1, "`", true)),
            _ => None,
        },
        Language::Config => None,
    }
}

/// The index just after the string's closing delimiter, searching from `i`; `None` when the
/// string does not close on this line.
pub(super) fn string_end(b: &[u8], mut i: usize, close: &str, raw: bool) -> Option<usize> {
    let close = close.as_bytes();
    while i < b.len() {
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
