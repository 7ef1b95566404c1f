//! A call's arguments at the text level, and whether a string among them is built at run time.
//! Shared by the rules that read calls in Python, TypeScript/JavaScript and Go (injection,
//! secrets in log calls).

use super::{LexLine, Seg};

/// One piece of a call's arguments: code, or a literal with the code right before and after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg<'a> {
    /// Code between literals.
    Code(&'a str),
    /// A literal (quotes included).
    Str(&'a str),
}

/// The segments of the call whose `(` ends at byte `open` of line `from`'s code (offsets in
/// [`LexLine::code`] coordinates), up to the matching `)`, over at most 10 lines.
pub(crate) fn call_args<'a>(lines: &[LexLine<'a>], from: usize, open: usize) -> Vec<Arg<'a>> {
    let mut out = Vec::new();
    let mut depth = 1;
    for (k, line) in lines.iter().enumerate().skip(from).take(10) {
        let mut pos = 0;
        for seg in &line.segs {
            let (piece, width) = match seg {
                Seg::Code(c) => {
                    let skip = if k == from {
                        open.saturating_sub(pos).min(c.len())
                    } else {
                        0
                    };
                    (Some(Arg::Code(c.get(skip..).unwrap_or_default())), c.len())
                }
                Seg::Str(s) => ((k > from || pos >= open).then_some(Arg::Str(s)), 2),
                Seg::Comment(_) => (None, 1),
            };
            pos += width;
            match piece {
                Some(Arg::Code(part)) => match close_at(part, &mut depth) {
                    Some(end) => {
                        out.push(Arg::Code(&part[..end]));
                        return out;
                    }
                    None => out.push(Arg::Code(part)),
                },
                Some(arg) => out.push(arg),
                None => {}
            }
        }
    }
    out
}

/// Where the bracket that brings `depth` to zero sits in `code`, updating `depth` as it goes.
fn close_at(code: &str, depth: &mut i32) -> Option<usize> {
    for (p, ch) in code.char_indices() {
        match ch {
            '(' | '[' | '{' => *depth += 1,
            ')' | ']' | '}' => *depth -= 1,
            _ => {}
        }
        if *depth == 0 {
            return Some(p);
        }
    }
    None
}

/// The text inside a literal's quotes, and whether it is a Python f-string / JS template.
pub(crate) fn literal_text(literal: &str) -> (&str, bool) {
    let quote_at = literal.find(['"', '\'', '`']).unwrap_or(0);
    let prefix = &literal[..quote_at];
    let body = &literal[quote_at..];
    let q = body.chars().next().unwrap_or('"');
    let inner = body.trim_start_matches(q).trim_end_matches(q);
    let interpolated =
        (prefix.contains(['f', 'F']) && inner.contains('{')) || (q == '`' && inner.contains("${"));
    (inner, interpolated)
}

/// Whether every hole of a template or f-string (`${VERSION}`, `{TABLE}`) names a constant
/// (`SCREAMING_CASE`, by convention never input): `` `FROM cacheV${VERSION}` `` is fixed text.
pub(crate) fn holes_are_constants(inner: &str) -> bool {
    let mut holes = 0;
    let mut rest = inner;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return false;
        };
        let hole = after[..close].trim();
        let constant = hole.starts_with(|c: char| c.is_ascii_uppercase())
            && hole
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if !constant {
            return false;
        }
        holes += 1;
        rest = &after[close + 1..];
    }
    holes > 0
}

/// The text between the quotes of a literal that opens and closes on its line, its prefix
/// (`r`, `b`, `f`, `u`, raw `#`s) dropped: `r#"C:\\x"#` → `C:\\x`.
pub(crate) fn quoted_body(literal: &str) -> Option<&str> {
    let body = literal.trim_start_matches(['r', 'b', 'f', 'u', 'R', 'B', 'F', 'U', '#']);
    let quote = body
        .chars()
        .next()
        .filter(|q| matches!(q, '"' | '\'' | '`'))?;
    body.trim_end_matches('#')
        .strip_prefix(quote)?
        .strip_suffix(quote)
}

/// Whether the literal at index `i` of `args` is built at run time: interpolated (f-string,
/// template), formatted (`% x`, `.format(`), or concatenated (`+` on either side).
pub(crate) fn is_built(args: &[Arg<'_>], i: usize, prefix_before: Option<&str>) -> bool {
    let Some(Arg::Str(s)) = args.get(i) else {
        return false;
    };
    let (inner, interpolated) = literal_text(s);
    let mut interpolated = interpolated && !holes_are_constants(inner);
    if let (Some(p), Some(Arg::Code(before))) =
        (prefix_before, i.checked_sub(1).and_then(|p| args.get(p)))
    {
        interpolated |= before.ends_with(p) && s.contains('{');
    }
    let after = match args.get(i + 1) {
        Some(Arg::Code(c)) => c.trim_start(),
        _ => "",
    };
    let before = match i.checked_sub(1).and_then(|p| args.get(p)) {
        Some(Arg::Code(c)) => c.trim_end(),
        _ => "",
    };
    interpolated
        || after.starts_with('%')
        || after.starts_with(".format(")
        || after.starts_with('+')
        || before.ends_with('+')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Language;
    use crate::lexical::lex;

    #[test]
    fn arguments_and_built_strings() {
        let lines = lex(
            "cur.execute(f\"SELECT {x}\",\n  (a,)) + 1\n",
            Language::Python,
        );
        let open = lines[0].code().find('(').unwrap_or(0) + 1;
        let args = call_args(&lines, 0, open);
        assert_eq!(args[0], Arg::Code("f"));
        assert_eq!(args[1], Arg::Str("\"SELECT {x}\""));
        assert!(is_built(&args, 1, Some("f")));
        let lines = lex("q('SELECT 1' + x)\nq('SELECT 1')\n", Language::JavaScript);
        assert!(is_built(&call_args(&lines, 0, 2), 1, None));
        assert!(!is_built(&call_args(&lines, 1, 2), 1, None));
        assert_eq!(literal_text("`a ${b}`"), ("a ${b}", true));
        assert!(holes_are_constants(
            "DELETE FROM cacheV${VERSION} WHERE url = ?"
        ));
        assert!(!holes_are_constants("SELECT * FROM t WHERE id = ${id}"));
        assert!(!holes_are_constants("FROM ${TABLE} WHERE id = ${id}"));
        assert!(!holes_are_constants("SELECT 1"));
    }

    #[test]
    fn quoted_bodies_lose_prefix_and_quotes() {
        assert_eq!(quoted_body("r#\"C:\\x\"#"), Some("C:\\x"));
        assert_eq!(quoted_body("f'/tmp/{x}'"), Some("/tmp/{x}"));
        assert_eq!(quoted_body("\"unterminated"), None);
    }
}
