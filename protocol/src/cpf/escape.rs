//! Escaping inside CPF lines: `\|`, `\\`, `\n` (and `\:`), and cutting a row at unescaped pipes.
//!
//! Unknown escapes are kept as written rather than rejected: agents write Windows paths and
//! regexes unescaped, and `\d` meaning `\d` is the only reading that loses nothing.

/// Escapes a row field: backslash, pipe and newline.
pub(super) fn escape_field(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a free-text value (the SCOPE value): backslash and newline only, so `|` stays as is.
pub(super) fn escape_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a free-text line of a section (a note, an advisory): like [`escape_text`], and a line
/// that would read as a section header (`TODO:`) gets its colon written `\:`.
pub(super) fn escape_line(value: &str) -> String {
    let mut out = escape_text(value);
    if header_name(out.trim()).is_some() {
        if let Some(colon) = out.rfind(':') {
            out.replace_range(colon..colon + 1, "\\:");
        }
    }
    out
}

/// Undoes the escapes: `\|`, `\\`, `\n`, `\:`; any other backslash is kept as written.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('|') => out.push('|'),
            Some('n') => out.push('\n'),
            Some(':') => out.push(':'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Cuts `line` at unescaped pipes into at most `max` raw (still escaped, untrimmed) pieces; the
/// last piece keeps any further pipes, because agents write them unescaped in descriptions.
pub(super) fn split_raw(line: &str, max: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if pieces.len() + 1 >= max {
            break;
        }
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '|' {
            pieces.push(line.get(start..i).unwrap_or_default());
            // `|` is one byte, so `i + 1` is the next character boundary.
            start = i + 1;
        }
    }
    pieces.push(line.get(start..).unwrap_or_default());
    pieces
}

/// The name of a line shaped like a section header (`ISSUES:`, `FOO_BAR:`): an upper-case letter,
/// then upper-case letters, digits, `_` or `-`, then `:` and nothing else.
pub(super) fn header_name(line: &str) -> Option<&str> {
    let name = line.strip_suffix(':')?;
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    let rest_ok =
        chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-');
    (first_ok && rest_ok).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_escape_pipe_backslash_and_newline() {
        assert_eq!(escape_field("a|b\\c\nd"), "a\\|b\\\\c\\nd");
        assert_eq!(unescape("a\\|b\\\\c\\nd"), "a|b\\c\nd");
    }

    #[test]
    fn text_keeps_pipes_and_escapes_header_shaped_lines() {
        assert_eq!(
            escape_line("PARTIAL:inspector-quality|reason"),
            "PARTIAL:inspector-quality|reason"
        );
        assert_eq!(escape_line("a\\b\nc|d"), "a\\\\b\\nc|d");
        assert_eq!(escape_line("TODO:"), "TODO\\:");
        assert_eq!(escape_line("NOTES:"), "NOTES\\:");
        assert_eq!(unescape("NOTES\\:"), "NOTES:");
        assert_eq!(escape_line("Todo:"), "Todo:");
        assert_eq!(escape_text("TODO:"), "TODO:");
    }

    #[test]
    fn unknown_escapes_and_a_trailing_backslash_are_kept() {
        assert_eq!(unescape("C:\\Users\\d"), "C:\\Users\\d");
        assert_eq!(unescape("end\\"), "end\\");
        assert_eq!(unescape("\\|\\:"), "|:");
    }

    #[test]
    fn splits_at_unescaped_pipes_and_keeps_the_rest_in_the_last_piece() {
        assert_eq!(split_raw("a|b|c|d", 4), vec!["a", "b", "c", "d"]);
        assert_eq!(split_raw("a|b|c|d|e|f", 4), vec!["a", "b", "c", "d|e|f"]);
        assert_eq!(split_raw("a\\|b|c", 3), vec!["a\\|b", "c"]);
        assert_eq!(split_raw("a\\\\|b", 2), vec!["a\\\\", "b"]);
        assert_eq!(split_raw("é|ü", 2), vec!["é", "ü"]);
        assert_eq!(split_raw("", 3), vec![""]);
        assert_eq!(split_raw("a|b", 1), vec!["a|b"]);
    }

    #[test]
    fn header_shape_is_upper_case_name_and_colon() {
        assert_eq!(header_name("ISSUES:"), Some("ISSUES"));
        assert_eq!(header_name("SPEC_FEEDBACK:"), Some("SPEC_FEEDBACK"));
        assert_eq!(header_name("X-2:"), Some("X-2"));
        assert_eq!(header_name("Issues:"), None);
        assert_eq!(header_name(":"), None);
        assert_eq!(header_name("VERDICT:GO"), None);
        assert_eq!(header_name("A B:"), None);
    }
}
