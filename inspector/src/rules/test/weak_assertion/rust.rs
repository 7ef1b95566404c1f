//! Weak assertions in Rust tests, read at the text level (the lexer tells code from strings and
//! comments; no syntax tree is built, so the test Inspector parses nothing): `#[test]`-style
//! functions that assert nothing, and assertions that cannot fail (`assert!(true)`,
//! `assert_eq!(x, x)`, `assert!(a == a)`).
//!
//! An assertion is any `assert*!`/`debug_assert*!`/`prop_assert*!` macro, `panic!`/`unreachable!`
//! (a failing branch), `#[should_panic]`, a call of a helper named for checking (a word of its
//! name starts with `assert`, `check`, `verify` or `expect`: `do_check`, `check_assist`) or of a
//! function of the same file that asserts (`fn type_char_noop(..) { assert_eq!(..) }`), a mock
//! expectation (`.expect_x()` — mockall verifies it on drop), or a method that asserts or fails
//! on the wrong variant (`.assert_eq(..)`, `.unwrap_err()`, `.expect_err(..)`).

use super::args::{always_true, call_args, checking_name, ident_before};
use super::helpers::{Facts, Helpers};
use super::Weak;
use crate::engine::{Language, SourceFile};
use crate::rules::lexical::{is_ident, LexLine};

/// The weak assertions of a Rust file.
pub(super) fn weak_in_rust(file: &SourceFile) -> Vec<Weak> {
    let lines = file.lexed(Language::Rust);
    let codes: Vec<String> = lines.iter().map(LexLine::code).collect();
    let mut helpers = Helpers::new(&codes, helper_defs(&codes), facts);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_test_attribute(codes[i].trim()) {
            i += 1;
            continue;
        }
        let mut should_panic = false;
        let mut header = i;
        while header < lines.len() && !codes[header].contains("fn ") {
            should_panic |= codes[header].contains("should_panic");
            header += 1;
        }
        let Some((name, end)) = codes.get(header).and_then(|h| {
            let name = fn_name(h)?;
            Some((name, body_end(&codes, header)?))
        }) else {
            i = header + 1;
            continue;
        };
        if !should_panic && !helpers.range_asserts(header, end, 0) {
            out.push(Weak::no_assertion(&name, lines[header].number));
        }
        for k in header..=end {
            if tautology_at(&lines, k) {
                out.push(Weak::tautology(
                    &name,
                    lines[k].number,
                    lines[k].text.trim(),
                ));
            }
        }
        i = end + 1;
    }
    out
}

/// `#[test]`, `#[tokio::test(..)]`, `#[rstest]`, `#[test_case(..)]` — not `#[cfg(test)]`.
fn is_test_attribute(code: &str) -> bool {
    let Some(inner) = code.strip_prefix("#[") else {
        return false;
    };
    let path: &str = inner.split(['(', ']', ' ']).next().unwrap_or_default();
    let last = path.rsplit("::").next().unwrap_or(path);
    matches!(last, "test" | "rstest" | "test_case")
}

/// The name after `fn ` on a header line.
fn fn_name(code: &str) -> Option<String> {
    let at = code.find("fn ")?;
    let name: String = code[at + 3..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The index of the line that closes the body opening at or after `header`.
fn body_end(codes: &[String], header: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut open = false;
    for (k, code) in codes.iter().enumerate().skip(header) {
        for c in code.chars() {
            match c {
                '{' => {
                    open = true;
                    depth += 1;
                }
                '}' if open => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                ';' if !open => return None,
                _ => {}
            }
        }
    }
    None
}

fn is_assert_macro(name: &str) -> bool {
    ["assert", "debug_assert", "prop_assert"]
        .iter()
        .any(|p| name.starts_with(p))
        || matches!(name, "panic" | "unreachable")
}

/// What one Rust line does: `name!(`, `name! {`, `name(`, `name::<T>(`, `.name(` calls, and
/// whether it asserts by itself.
fn facts(code: &str) -> Facts<'_> {
    let b = code.as_bytes();
    let mut facts = Facts {
        direct: [".expect_", ".unwrap_err(", ".expect_err(", ".assert"]
            .iter()
            .any(|m| code.contains(m)),
        calls: Vec::new(),
    };
    let ends = code
        .match_indices(['(', '!'])
        .map(|(at, _)| at)
        .chain(code.match_indices("::<").map(|(at, _)| at));
    for at in ends {
        let is_macro = b[at] == b'!';
        if is_macro && !code[at + 1..].trim_start().starts_with(['(', '[', '{']) {
            continue;
        }
        let name = ident_before(code, at);
        if name.is_empty() {
            continue;
        }
        let start = at - name.len();
        let method = start > 0 && b[start - 1] == b'.';
        facts.direct |= (is_macro && is_assert_macro(name)) || (!method && checking_name(name));
        facts.calls.push(name);
    }
    facts
}

/// The file's functions and `macro_rules!`: (name, first line index, last line index).
fn helper_defs(codes: &[String]) -> Vec<(String, usize, usize)> {
    let mut defs = Vec::new();
    for (k, code) in codes.iter().enumerate() {
        let name = match code.find("macro_rules!") {
            Some(at) => Some(code[at + "macro_rules!".len()..].trim_start()),
            None => code.find("fn ").map(|at| code[at + 3..].trim_start()),
        };
        let Some(name) = name.map(|n| &n[..n.bytes().take_while(|c| is_ident(*c)).count()]) else {
            continue;
        };
        if let (false, Some(end)) = (name.is_empty(), body_end(codes, k)) {
            defs.push((name.to_string(), k, end));
        }
    }
    defs
}

/// Whether line `k` holds an `assert!`/`assert_eq!` (or `debug_` form) that cannot fail; its
/// arguments are read from the raw text of up to ten lines, literals kept.
fn tautology_at(lines: &[LexLine<'_>], k: usize) -> bool {
    let code = lines[k].code();
    if !code.contains("assert") {
        return false;
    }
    let raw: String = lines[k..lines.len().min(k + 10)]
        .iter()
        .map(|l| l.text)
        .collect::<Vec<_>>()
        .join("\n");
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    ["assert!(", "debug_assert!("]
        .iter()
        .filter(|m| code.contains(*m))
        .any(|m| {
            call_args(&raw, m)
                .and_then(|a| a.first().map(|c| squeeze(c)))
                .is_some_and(|c| always_true(&c, "==", &["true", "!false"]))
        })
        || ["assert_eq!(", "debug_assert_eq!("]
            .iter()
            .filter(|m| code.contains(*m))
            .any(|m| {
                call_args(&raw, m).is_some_and(|a| a.len() >= 2 && squeeze(a[0]) == squeeze(a[1]))
            })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weak(text: &str) -> Vec<(u32, String)> {
        weak_in_rust(&SourceFile::new("src/a.rs", text))
            .into_iter()
            .map(|w| (w.line, w.description))
            .collect()
    }

    #[test]
    fn finds_empty_and_tautological_tests() {
        let text = "\
#[cfg(test)]
mod tests {
    #[test]
    fn smoke() {
        let _ = super::run();
    }
    #[tokio::test]
    async fn always() {
        assert!(true, \"ok\");
        assert_eq!(total(&cart), total(&cart));
        assert!(x.len() == x.len());
        assert_eq!(total(&cart), 3);
        assert_eq!(f(\"a\"), f(\"b\"));
    }
    fn helper() {}
}
";
        assert_eq!(
            weak(text),
            vec![
                (
                    4,
                    "test `smoke` has no assertion: it passes whatever the code does".to_string()
                ),
                (
                    9,
                    "test `always` asserts something that cannot fail: `assert!(true, \"ok\");`"
                        .to_string()
                ),
                (
                    10,
                    "test `always` asserts something that cannot fail: `assert_eq!(total(&cart), total(&cart));`"
                        .to_string()
                ),
                (
                    11,
                    "test `always` asserts something that cannot fail: `assert!(x.len() == x.len());`"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn real_assertions_helpers_mocks_and_should_panic_are_enough() {
        let text = "\
#[test]
fn a() { assert_eq!(add(1, 2), 3); }
#[test]
#[should_panic]
fn b() { add(0, 0); }
#[test]
fn c() { check_invariants(&state); }
#[test]
fn d() { let mut m = MockRepo::new(); m.expect_save().returning(|_| Ok(())); run(&m); }
#[test]
fn e() { parse(\"\").unwrap_err(); }
#[test]
fn f() { match x { Ok(_) => {}, Err(e) => panic!(\"{e}\") } }
#[test]
fn g() { assert!(!done); }
#[test]
fn i() { type_char_noop('=', \"let x\"); assert_tokens::<Range>(&r, &[]); }
fn type_char_noop(c: char, before: &str) {
    let after = type_char(c, before);
    assert_eq!(after, None)
}
#[test]
fn j() { expect![[\"x\"]].assert_eq(&actual); }
macro_rules! size_and_align {
    ($($t:tt)*) => { check_size(stringify!($($t)*)) };
}
#[test]
fn k() { size_and_align! { struct Goal(i32); } }
#[test]
fn h() {
    let s = \"assert!(true)\"; // assert!(true)
    assert_eq!(
        s.len(),
        13
    );
}
";
        assert_eq!(weak(text), Vec::<(u32, String)>::new());
    }
}
