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

/// Whether an assertion, as written, is a bare constant: no string in it (a message says what
/// the author meant to check) and no name but the assertion's own callees and constants
/// (`expect(true).toBe(true)`, `assert True`, `assert.True(t, true)`, `assert!(true)`). A
/// tautology that mentions a value of the test (`assert.True(t, true, stub.Exited)`, `assert
/// 1, "1" == f()`) is a check that went wrong; a bare one is written on purpose.
pub(super) fn bare_constant(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if matches!(c, b'"' | b'\'' | b'`') {
            return false;
        }
        if !(c.is_ascii_alphabetic() || c == b'_') {
            i += 1;
            continue;
        }
        let from = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let word = &raw[from..i];
        let callee = matches!(raw[i..].trim_start().chars().next(), Some('(' | '.' | '!'));
        let statement = raw[..from].trim().is_empty();
        let constant = is_literal(word) || word == "t";
        if !(callee || statement || constant) {
            return false;
        }
    }
    true
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
    fn a_bare_constant_names_nothing_of_the_test() {
        for bare in [
            "expect(true).toBe(true)",
            "assert True",
            "assert.True(t, true)",
            "assert!(true);",
            "self.assertTrue(True)",
            "assert 1 == 1",
        ] {
            assert!(bare_constant(bare), "{bare}");
        }
        for meant in [
            "assert.True(t, true, stub.Exited)",
            "assert 1, \"1\" == nofallback()",
            "assert(true, 'should call callback')",
            "assert!(true, \"discount applied\");",
            "expect(x).toBe(x)",
        ] {
            assert!(!bare_constant(meant), "{meant}");
        }
    }

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
