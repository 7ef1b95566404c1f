//! What a test's own code says of its tautologies: a test named for equality compares a value
//! with itself on purpose, one named for running without an error marks the end it reached, a
//! test of nothing but tautologies is a placeholder, and a tautology that is the whole body of a
//! function the test declares makes that function a valid one. Each is an excuse
//! ([`crate::engine::Hit::excuse`]), not a skip: it holds on lines the change did not write.

use super::{Named, EQUALITY, NO_ERROR, PLACEHOLDER};
use crate::lexical::is_ident;

/// What the test's own code says of its tautologies (code lines `start..=end`, the header
/// first), if anything: a test named for equality compares a value with itself on purpose; a
/// test named for running without an error or a hang marks the end it reached (`assert True`
/// after the code that could deadlock); a test of nothing but tautologies is a placeholder; a
/// test that checks with other assertions and adds a bare constant one (`marker`, see
/// [`super::args::bare_constant`]) only satisfies a runner that wants an `expect`.
pub(super) fn tautology_excuse(
    named: &Named,
    codes: &[String],
    (start, end): (usize, usize),
    tautologies: &[usize],
    marker: bool,
) -> Option<&'static str> {
    if named.equality {
        Some(EQUALITY)
    } else if named.no_error {
        Some(NO_ERROR)
    } else if placeholder(codes, start, end, tautologies) {
        Some(PLACEHOLDER)
    } else if marker && !tautologies.is_empty() {
        Some(MARKER)
    } else if !tautologies.is_empty() {
        let before = |k: usize| {
            (start + 1..k)
                .rev()
                .find(|&i| !codes[i].trim().is_empty())
                .map(|i| codes[i].trim())
        };
        let nested = |k: usize| {
            let after = (k + 1..=end).find(|&i| !codes[i].trim().is_empty());
            before(k).zip(after).is_some_and(|(header, a)| {
                let opens_function = header.ends_with(") {") || header.ends_with("=> {");
                let control = ["if", "for", "while", "switch", "else", "} else"]
                    .iter()
                    .any(|w| header.starts_with(w));
                opens_function && !control && codes[a].trim().starts_with('}')
            })
        };
        // `try: …; assert False` / `except Error: assert True`: the first statement of the
        // handler marks the path the test expects.
        let handler =
            |k: usize| before(k).is_some_and(|h| h.starts_with("except") || h.contains("catch"));
        // `await cleared;` then `assert.ok(true, 'cleared')`: the awaited promise settling is
        // the check (the runner's timeout fails the test otherwise), the tautology marks it.
        let awaited =
            |k: usize| before(k).is_some_and(|b| b.starts_with("await ") && !b.contains('='));
        if tautologies.iter().all(|&k| nested(k)) {
            Some(TYPE_LEVEL)
        } else if tautologies.iter().all(|&k| awaited(k)) {
            Some(AWAITED)
        } else if tautologies.iter().all(|&k| handler(k)) {
            Some(EXPECTED_ERROR)
        } else {
            None
        }
    } else {
        None
    }
}

/// A bare constant tautology (no value of the test, no message) beside the test's real checks
/// (a type test's compile-time `assert(value, _ as Type)`, say): written to satisfy a runner
/// that fails a test without a runtime `expect`, not a check that went wrong.
const MARKER: &str =
    "the test checks with its other assertions; the bare constant one only satisfies the runner";

/// A tautology right after a bare `await` marks that the awaited promise settled.
const AWAITED: &str =
    "the tautology follows an awaited promise: the promise settling is what the test checks";

/// A tautology opening an exception handler marks the path a hand-written expected-error check
/// expects (its `try` fails the test when nothing is raised).
const EXPECTED_ERROR: &str =
    "the tautology marks the except path of a hand-written check that the call raises";

/// A tautology that is the whole body of a function inside the test is there to make the
/// function a valid one: its typed parameters are what the test checks, at compile time.
const TYPE_LEVEL: &str =
    "the tautology is the whole body of a function the test declares to type-check its parameters";

/// Whether a test (code lines `start..=end`) holds nothing but its tautologies: a placeholder
/// kept on purpose (`test("x", () => { expect(true).toBe(true) })`, often beside tests that
/// are commented out), not a test that runs code and pretends to check it. Its header, closing
/// brackets, blank lines and a call of the test's completion callback (`done()`) aside; a
/// one-line test is its header.
fn placeholder(codes: &[String], start: usize, end: usize, tautologies: &[usize]) -> bool {
    let callback = callback_of(&codes[start]);
    !tautologies.is_empty()
        && (start + 1..=end).all(|k| {
            let code = codes[k].trim();
            tautologies.contains(&k)
                || code.chars().all(|c| "})]);,".contains(c))
                || callback.is_some_and(|cb| {
                    code.strip_prefix(cb)
                        .is_some_and(|rest| matches!(rest.trim(), "()" | "();"))
                })
        })
}

/// The completion callback a JavaScript test's header takes as its only parameter
/// (`function (done) {`, `(done) => {`, `done => {`), if any.
fn callback_of(header: &str) -> Option<&str> {
    let params = if let Some((_, rest)) = header.rsplit_once("function") {
        rest.trim_start().strip_prefix('(')?.split_once(')')?.0
    } else {
        let before = header.split_once("=>")?.0.trim_end();
        match before.strip_suffix(')') {
            Some(open) => open.rsplit_once('(')?.1,
            None => before
                .rsplit(|c: char| !c.is_alphanumeric() && c != '_')
                .next()?,
        }
    };
    let name = params.trim();
    (!name.is_empty() && name.bytes().all(is_ident)).then_some(name)
}
