//! Weak assertions in Rust tests, read at the text level (the lexer tells code from strings and
//! comments; no syntax tree is built, so the test Inspector parses nothing): assertions that
//! cannot fail (`assert!(true)`, `assert_eq!(1, 1)`, `assert!("a" == "a")`), tests whose only
//! assertion is commented out, and empty tests.
//!
//! A Rust test with any code in it can fail: a call panics or `?`/`unwrap()`s an error, and a
//! test of `let` bindings alone checks that types compile. So only a test whose body is empty
//! (or only prints or logs) is reported as asserting nothing; `#[should_panic]` is an
//! assertion of its own.

use super::args::{always_true, bare_constant, call_args, same_operands};
use super::excuses::tautology_excuse;
use super::vocabulary::{asserts_on, commented_assertion, Framework};
use super::{Named, Weak};
use crate::engine::{Language, SourceFile};
use crate::lexical::calls::{logs_on, print_on};
use crate::lexical::LexLine;

/// The weak assertions of a Rust file.
pub(super) fn weak_in_rust(file: &SourceFile) -> Vec<Weak> {
    let lines = file.lexed(Language::Rust);
    let codes: Vec<String> = lines.iter().map(LexLine::code).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_test_attribute(codes[i].trim()) {
            i += 1;
            continue;
        }
        let mut should_panic = false;
        let mut ignored = false;
        let mut header = i;
        while header < lines.len() && !codes[header].contains("fn ") {
            should_panic |= codes[header].contains("should_panic");
            // `#[ignore]`: the test does not run, so it cannot pass whatever the code does.
            ignored |= codes[header].trim_start().starts_with("#[ignore");
            header += 1;
        }
        let Some((name, end)) = codes.get(header).and_then(|h| {
            let name = fn_name(h)?;
            Some((name, body_end(&codes, header)?))
        }) else {
            i = header + 1;
            continue;
        };
        if ignored {
            i = end + 1;
            continue;
        }
        let asserts = should_panic
            || codes[header..=end]
                .iter()
                .any(|c| asserts_on(c, &[Framework::Libtest]));
        if !asserts {
            if let Some((number, written)) =
                commented_assertion(&lines[header..=end], &[Framework::Libtest])
            {
                out.push(Weak::commented_out(&name, number, &written));
            } else if body_is_empty(&codes[header..=end]) {
                out.push(Weak::no_assertion(&name, lines[header].number));
            }
        }
        let tautologies: Vec<usize> = (header..=end)
            .filter(|&k| tautology_at(&lines, k))
            .collect();
        let checks = (header..=end)
            .any(|k| !tautologies.contains(&k) && asserts_on(&codes[k], &[Framework::Libtest]));
        let marker = checks
            && tautologies
                .iter()
                .all(|&k| bare_constant(lines[k].text.trim()));
        let excuse = tautology_excuse(
            &Named::of(&name),
            &codes,
            (header, end),
            &tautologies,
            marker,
        );
        out.extend(tautologies.iter().map(|&k| {
            Weak::tautology(&name, lines[k].number, lines[k].text.trim()).excused(excuse)
        }));
        i = end + 1;
    }
    out
}

/// Whether a function's code (header to closing line) has nothing between its braces but
/// printing and logging of values it does not compute (`println!("{:?}", hostname().unwrap())`
/// calls the code under test, which can panic).
fn body_is_empty(codes: &[String]) -> bool {
    let only_output = |c: &String| {
        (logs_on(c, Language::Rust) || print_on(c, Language::Rust).is_some())
            && c.matches('(').count() == 1
    };
    let text: String = codes
        .iter()
        .filter(|c| !only_output(c))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("\n");
    let (Some(open), Some(close)) = (text.find('{'), text.rfind('}')) else {
        return false;
    };
    open < close && text[open + 1..close].trim().is_empty()
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
    ["assert!(", "debug_assert!("]
        .iter()
        .filter(|m| code.contains(*m))
        .any(|m| {
            call_args(&raw, m)
                .and_then(|a| a.first().map(|c| c.split_whitespace().collect::<String>()))
                .is_some_and(|c| always_true(&c, "==", &["true", "!false"], true))
        })
        || ["assert_eq!(", "debug_assert_eq!("]
            .iter()
            .filter(|m| code.contains(*m))
            .any(|m| {
                // Only the same literal: a value compared with itself checks its type's own
                // `PartialEq` (reflexivity, `NaN`), which crates implement and test on purpose.
                call_args(&raw, m).is_some_and(|a| a.len() >= 2 && same_operands(a[0], a[1], true))
            })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weak(text: &str) -> Vec<(u32, String)> {
        weak_in_rust(&SourceFile::new("src/a.rs", text))
            .into_iter()
            .filter(|w| w.excuse.is_none())
            .map(|w| (w.line, w.description))
            .collect()
    }

    #[test]
    fn an_ignored_test_does_not_run_so_it_passes_nothing() {
        let text = "#[tokio::test]\n#[ignore]\nasync fn iobuf_write_empty_slice() {\n    // TODO: writev back\n    // io.flush().await.expect(\"short-circuit\");\n}\n#[test]\nfn runs() {\n    // assert_eq!(f(), 1);\n}\n";
        assert_eq!(
            weak(text).into_iter().map(|w| w.0).collect::<Vec<_>>(),
            vec![9]
        );
    }

    #[test]
    fn finds_empty_commented_out_and_tautological_tests() {
        let text = "\
#[cfg(test)]
mod tests {
    #[test]
    fn smoke() {
        // to do
        println!(\"nothing yet\");
    }
    #[tokio::test]
    async fn always() {
        assert!(true, \"ok\");
        assert_eq!(total(&cart), total(&cart));
        assert!(x.len() == x.len());
        assert_eq!(\"x\", \"x\");
        assert_eq!(total(&cart), 3);
    }
    #[test]
    fn disabled() {
        let v = compute();
        // assert_eq!(v, 3);
    }
    #[test]
    fn runs() {
        let _ = super::run();
    }
    #[test]
    fn prints_a_call() {
        println!(\"{:?}\", hostname().unwrap());
    }
    #[test]
    fn compiles() {
        let _x: Wrapper<u8> = Wrapper { inner: 1 };
    }
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
                    10,
                    "test `always` asserts something that cannot fail: `assert!(true, \"ok\");`"
                        .to_string()
                ),
                (
                    13,
                    "test `always` asserts something that cannot fail: `assert_eq!(\"x\", \"x\");`"
                        .to_string()
                ),
                (
                    19,
                    "test `disabled` asserts nothing but a commented-out `assert_eq!(v, 3);`: it passes whatever the code does"
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
fn test_method_eq() {
    assert_eq!(Method::GET, Method::GET);
    assert_eq!(Method::GET, \"GET\");
}
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
