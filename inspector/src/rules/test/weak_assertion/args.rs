//! Reading an assertion's arguments from its raw text (literals kept, so `f("a")` and `f("b")`
//! stay different): the top-level arguments of a call, and whether a condition is always true.

use crate::rules::lexical::is_ident;

/// `cond` is a constant truth or compares an expression with itself.
pub(super) fn always_true(cond: &str, eq: &str, constants: &[&str]) -> bool {
    let cond = cond.trim();
    constants.contains(&cond)
        || cond
            .split_once(eq)
            .is_some_and(|(a, b)| !a.trim().is_empty() && a.trim() == b.trim())
}

/// The top-level arguments of the first call `callee(` on a line (callee text included the `(`),
/// with a word boundary before it.
pub(super) fn call_args<'a>(raw: &'a str, callee: &str) -> Option<Vec<&'a str>> {
    let at = raw.match_indices(callee).map(|(i, _)| i).find(|&i| {
        i == 0 || !raw.as_bytes()[i - 1].is_ascii_alphanumeric() && raw.as_bytes()[i - 1] != b'_'
    })?;
    let inside = &raw[at + callee.len()..];
    let mut depth = 1;
    let mut end = None;
    let mut quote: Option<char> = None;
    for (i, c) in inside.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    Some(split_args(&inside[..end?]))
}

/// Splits at the commas outside brackets and quotes; each part trimmed.
pub(super) fn split_args(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut quote) = (0i32, 0usize, None::<char>);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

/// The identifier that ends at byte `end` of `code`.
pub(super) fn ident_before(code: &str, end: usize) -> &str {
    let b = code.as_bytes();
    let mut start = end;
    while start > 0 && is_ident(b[start - 1]) {
        start -= 1;
    }
    &code[start..end]
}

/// Whether a name reads as a checking helper: a word of it (snake_case or camelCase) starts with
/// assert, check, verify or expect (`do_check`, `check_assist`, `expectSuccess`).
pub(super) fn checking_name(name: &str) -> bool {
    let mut words: Vec<String> = Vec::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' {
            prev_lower = false;
            words.push(String::new());
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower || words.is_empty() {
            words.push(String::new());
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if let Some(w) = words.last_mut() {
            w.push(c.to_ascii_lowercase());
        }
    }
    words.iter().any(|w| {
        ["assert", "check", "verify", "expect"]
            .iter()
            .any(|p| w.starts_with(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_top_level_arguments_and_spots_truisms() {
        assert_eq!(
            call_args("assert_eq!(f(\"a, b\"), [1, 2]);", "assert_eq!("),
            Some(vec!["f(\"a, b\")", "[1, 2]"])
        );
        assert_eq!(call_args("my_assert_eq!(a, b)", "assert_eq!("), None);
        assert!(always_true("x.len() == x.len()", "==", &["true"]));
        assert!(always_true("true", "==", &["true"]));
        assert!(!always_true("x == y", "==", &["true"]));
    }
}
