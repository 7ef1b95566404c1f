//! A file's path as text, losslessly. Paths travel as UTF-8 strings (findings, reports, JSON),
//! but a Unix file name is any bytes: a name that is not UTF-8 shown lossily (`caf�.rs`) can
//! no longer be matched back to its file. The text form keeps valid UTF-8 as it is, writes
//! each byte of an invalid sequence as `\xHH` (two upper-case hex digits) and a backslash as
//! `\\`, and joins components with `/` — so [`path_from_text`] gives back the exact bytes, and
//! a person still reads the name (`caf\xE9.rs`).

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::{Component, Path, PathBuf};

/// The lossless text of a relative path (components joined by `/`).
pub fn path_text(path: &Path) -> String {
    let mut out = String::new();
    for (i, c) in path.components().enumerate() {
        if i > 0 {
            out.push('/');
        }
        match c {
            Component::Normal(name) => escape_into(name.as_bytes(), &mut out),
            Component::CurDir => out.push('.'),
            Component::ParentDir => out.push_str(".."),
            Component::RootDir | Component::Prefix(_) => {}
        }
    }
    if path.has_root() {
        out.insert(0, '/');
    }
    out
}

/// Whether a path's text holds an escape: the file's name is not the text as it reads.
pub fn path_text_escaped(text: &str) -> bool {
    text.contains('\\')
}

/// The path a [`path_text`] stands for; `None` when `text` holds a malformed escape.
pub fn path_from_text(text: &str) -> Option<PathBuf> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b != b'\\' {
            bytes.push(b);
            rest = tail;
            continue;
        }
        match tail {
            [b'\\', more @ ..] => {
                bytes.push(b'\\');
                rest = more;
            }
            [b'x', h, l, more @ ..] => {
                let hex = std::str::from_utf8(&[*h, *l]).ok()?.to_string();
                bytes.push(u8::from_str_radix(&hex, 16).ok()?);
                rest = more;
            }
            _ => return None,
        }
    }
    Some(PathBuf::from(OsString::from_vec(bytes)))
}

fn escape_into(mut bytes: &[u8], out: &mut String) {
    while !bytes.is_empty() {
        let (valid, bad) = match std::str::from_utf8(bytes) {
            Ok(all) => (all, 0),
            Err(e) => {
                let (good, _) = bytes.split_at(e.valid_up_to());
                // Safe by construction: `valid_up_to` bytes are UTF-8.
                let good = std::str::from_utf8(good).unwrap_or_default();
                (good, e.error_len().unwrap_or(bytes.len() - e.valid_up_to()))
            }
        };
        for ch in valid.chars() {
            if ch == '\\' {
                out.push_str("\\\\");
            } else {
                out.push(ch);
            }
        }
        let after = valid.len();
        for b in &bytes[after..after + bad] {
            out.push_str(&format!("\\x{b:02X}"));
        }
        bytes = &bytes[after + bad..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(bytes: &[u8]) -> PathBuf {
        PathBuf::from(OsString::from_vec(bytes.to_vec()))
    }

    #[test]
    fn utf8_paths_read_as_they_are() {
        let p = Path::new("src/ログイン/lib.rs");
        assert_eq!(path_text(p), "src/ログイン/lib.rs");
        assert!(!path_text_escaped(&path_text(p)));
        assert_eq!(path_from_text("src/ログイン/lib.rs").as_deref(), Some(p));
    }

    #[test]
    fn non_utf8_bytes_and_backslashes_escape_and_map_back_byte_exactly() {
        // Latin-1 "café.rs", a backslash, a text that looks like an escape, a torn sequence.
        for (bytes, text) in [
            (&b"src/caf\xe9.rs"[..], "src/caf\\xE9.rs"),
            (&b"a\\b.rs"[..], "a\\\\b.rs"),
            (&b"\\xE9.rs"[..], "\\\\xE9.rs"),
            (&b"x\xe3\x83.rs"[..], "x\\xE3\\x83.rs"),
            (&b"\xff\xfe/ok.rs"[..], "\\xFF\\xFE/ok.rs"),
        ] {
            let path = os(bytes);
            assert_eq!(path_text(&path), text);
            assert!(path_text_escaped(text));
            assert_eq!(path_from_text(text), Some(path), "{text}");
        }
        assert_eq!(path_from_text("bad\\q"), None);
        assert_eq!(path_from_text("bad\\xZZ"), None);
        assert_eq!(path_from_text("end\\"), None);
    }
}
