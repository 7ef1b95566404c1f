//! Reading an assertion's arguments from its raw text (literals kept, so `f("a")` and `f("b")`
//! stay different): the top-level arguments of a call, and whether a condition is always true.

/// `cond` is a constant truth or compares an operand with itself ([`same_operands`]).
pub(super) fn always_true(cond: &str, eq: &str, constants: &[&str], literals_only: bool) -> bool {
    let cond = cond.trim();
    constants.contains(&cond)
        || cond
            .split_once(eq)
            .is_some_and(|(a, b)| same_operands(a, b, literals_only))
}

/// Whether two compared operands are one and the same value: the same name, path or literal
/// (whitespace aside). Never when a call is in them: `C(1) == C(1)` builds two distinct values
/// and `hash(x) == hash(x)` checks determinism, so the comparison can fail. With
/// `literals_only` (Python, whose `==` runs the operand's own `__eq__`, so `x == x` checks its
/// reflexivity) only the same literal counts.
pub(super) fn same_operands(a: &str, b: &str, literals_only: bool) -> bool {
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    let (a, b) = (squeeze(a), squeeze(b));
    !a.is_empty() && a == b && !a.contains('(') && (!literals_only || is_literal(&a))
}

/// A number, a quoted string or a constant (`True`, `None`, `null`, …).
fn is_literal(s: &str) -> bool {
    s.parse::<f64>().is_ok()
        || matches!(
            s,
            "True" | "False" | "None" | "true" | "false" | "null" | "undefined" | "nil"
        )
        || s.len() >= 2
            && ['"', '\'', '`']
                .iter()
                .any(|q| s.starts_with(*q) && s.ends_with(*q))
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
        assert!(always_true("x.len == x.len", "==", &["true"], false));
        assert!(always_true("true", "==", &["true"], false));
        assert!(!always_true("x == y", "==", &["true"], false));
        // Two calls build two values: `C(1) == C(1)` tests `C`'s equality.
        assert!(!always_true("C(1) == C(1)", "==", &["true"], false));
        assert!(!always_true("e2 == e2", "==", &["True"], true));
        assert!(always_true("'a' == 'a'", "==", &["True"], true));
    }
}
