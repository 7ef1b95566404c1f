//! A test that records what the code does and never looks at it: a local the test binds
//! (`rv = {}`, `const calls = []`) that is only ever written afterwards — by a fake it hands
//! the code (`rv["x"] = kwargs.get("x")`, `calls.push(arg)`) — and never read. The test meant
//! to check the record and does not: it passes whatever the code does.

use crate::engine::Language;
use crate::lexical::functions::indent_of;
use crate::lexical::is_ident;

/// Methods that add to a container without reading it.
const WRITERS: [&str; 7] = [
    ".append(", ".push(", ".add(", ".update(", ".extend(", ".set(", ".insert(",
];

/// The first local of the test's lines of code `codes` (its header first) that is bound, then
/// written at least once more, and never read: (index into `codes` of its binding, its name).
pub(super) fn unread_record(codes: &[String], lang: Language) -> Option<(usize, String)> {
    // The test's own level: a binding deeper in is a class attribute or a nested function's.
    let level = codes
        .iter()
        .skip(1)
        // The closing `});` of a JavaScript test is its declaration's, not its body's.
        .filter(|c| !c.trim().is_empty() && !c.trim_start().starts_with(['}', ')']))
        .map(|c| indent_of(c))
        .min()?;
    codes.iter().enumerate().skip(1).find_map(|(k, code)| {
        let name = bound_name(code, lang).filter(|_| indent_of(code) == level)?;
        let mut writes = 0;
        for (i, other) in codes.iter().enumerate().skip(1) {
            for at in occurrences(other, name) {
                if i == k && is_binding_at(code, at) || is_keyword_argument(other, at) {
                    continue;
                }
                if !is_write(other, at, name) {
                    return None;
                }
                writes += 1;
            }
        }
        (writes > 0).then(|| (k, name.to_string()))
    })
}

/// The local a line declares as a whole statement: Python's `name = …`, JavaScript's
/// `const|let|var name = …`, Go's `name := …`/`var name = …`. A bare `name = …` in JavaScript
/// or Go assigns a variable of an outer scope (a package setting), no record of the test's.
fn bound_name(code: &str, lang: Language) -> Option<&str> {
    let t = code.trim_start();
    let declared = ["const ", "let ", "var "]
        .iter()
        .find_map(|d| t.strip_prefix(d));
    let t = declared.unwrap_or(t);
    let end = t.bytes().take_while(|b| is_ident(*b)).count();
    let rest = t[end..].trim_start();
    let assigns = rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>");
    let local = match lang {
        Language::Python => assigns,
        Language::Go => rest.starts_with(":=") || declared.is_some() && assigns,
        _ => declared.is_some() && assigns,
    };
    let value = rest.trim_start_matches([':', '=']).trim_start();
    (end > 0 && local && is_record_value(value)).then(|| &t[..end])
}

/// Whether a binding's value is a record the test starts for itself: an empty or literal
/// container (`{}`, `[]`, `map[string]bool{}`, `new Map()`, `dict()`, `defaultdict(list)`), a
/// counter or a flag (`0`, `None`, `false`). What a call returns (`winston.createLogger()`)
/// is the code under test, used rather than recorded into, even where a method of it is
/// named like a writer (`logger.add(5)`).
fn is_record_value(value: &str) -> bool {
    const STARTS: [&str; 14] = [
        "{",
        "[",
        "map[",
        "make(",
        "new Map",
        "new Set",
        "new Array",
        "dict(",
        "list(",
        "set(",
        "defaultdict(",
        "collections.",
        "Counter(",
        "deque(",
    ];
    const WHOLE: [&str; 9] = [
        "0",
        "None",
        "null",
        "undefined",
        "false",
        "False",
        "nil",
        "\"\"",
        "''",
    ];
    let value = value.trim_end_matches(';').trim();
    STARTS.iter().any(|s| value.starts_with(s)) || WHOLE.contains(&value)
}

/// Whether the name at `at` names a keyword argument or an object key (`f(a=1)`, `{a: 1}`),
/// not the local.
fn is_keyword_argument(code: &str, at: usize) -> bool {
    let before = code[..at].trim_end();
    let after = code[at..].trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
    before.ends_with(['(', ',', '{'])
        && (after.trim_start().starts_with(':')
            || after.starts_with('=') && !after.starts_with("=="))
}

/// Whether the occurrence at `at` is the binding's own name.
fn is_binding_at(code: &str, at: usize) -> bool {
    let before = code[..at].trim();
    before.is_empty() || matches!(before, "const" | "let" | "var")
}

/// The byte offsets where `name` occurs as a whole word.
fn occurrences<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = code.as_bytes();
    code.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let end = at + name.len();
            (at == 0 || !is_ident(b[at - 1]) && b[at - 1] != b'.')
                && (end >= b.len() || !is_ident(b[end]))
        })
}

/// Whether `name` at `at` is written, not read: assigned (`rv = …`, `rv["k"] = …`, `rv.k = …`),
/// added to (`rv.append(…)`), or declared `nonlocal`/`global`.
fn is_write(code: &str, at: usize, name: &str) -> bool {
    let before = code[..at].trim_end();
    if before.ends_with("nonlocal") || before.ends_with("global") {
        return true;
    }
    let mut rest = &code[at + name.len()..];
    if WRITERS.iter().any(|w| rest.starts_with(w)) {
        return true;
    }
    // Skip one subscript or attribute: `rv["k"]`, `rv.k`.
    if rest.starts_with('[') {
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            depth += match c {
                '[' => 1,
                ']' => -1,
                _ => 0,
            };
            if depth == 0 {
                rest = &rest[i + 1..];
                break;
            }
        }
    } else if let Some(attr) = rest.strip_prefix('.') {
        rest = &attr[attr.bytes().take_while(|b| is_ident(*b)).count()..];
    }
    let rest = rest.trim_start();
    rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_record_only_written_is_unread() {
        let flask = "def test_passthrough(monkeypatch, app):\n    rv = {}\n    def run_simple_mock(*args, **kwargs):\n        rv[\"passthrough_errors\"] = kwargs.get(\"passthrough_errors\")\n    monkeypatch.setattr(serving, \"run_simple\", run_simple_mock)\n    app.run(debug=True)";
        assert_eq!(
            unread_record(&codes(flask), Language::Python),
            Some((1, "rv".to_string()))
        );
        let js = "it('calls', () => {\n  const calls = [];\n  run((x) => calls.push(x));\n});";
        assert_eq!(
            unread_record(&codes(js), Language::JavaScript),
            Some((1, "calls".to_string()))
        );
    }

    #[test]
    fn what_a_call_returns_is_used_not_recorded_into() {
        let winston = "it('throws on an invalid transport', function () {\n  let logger = winston.createLogger();\n  assume(function () {\n    logger.add(5);\n  }).throws(/invalid transport/i);\n});";
        assert_eq!(unread_record(&codes(winston), Language::JavaScript), None);
        let counter = "def test_hook(app):\n    calls = 0\n    def hook():\n        nonlocal calls\n        calls = calls + 1\n    app.run(hook)";
        assert_eq!(
            unread_record(&codes(counter), Language::Python),
            None,
            "read by its own increment"
        );
        let flag =
            "func TestX(t *testing.T) {\n\tvar seen = false\n\trun(func() { seen = true })\n}";
        assert_eq!(
            unread_record(&codes(flag), Language::Go),
            Some((1, "seen".to_string()))
        );
    }

    #[test]
    fn a_record_read_anywhere_or_never_written_is_no_finding() {
        let read = "def test_x(app):\n    rv = {}\n    def fake(**kw):\n        rv[\"k\"] = kw\n    app.run()\n    check(rv)";
        assert_eq!(unread_record(&codes(read), Language::Python), None);
        let bound_only = "def test_x(app):\n    client = app.test_client()\n    client.get('/')";
        assert_eq!(unread_record(&codes(bound_only), Language::Python), None);
        let unused = "def test_x(app):\n    x = make()\n    app.run()";
        assert_eq!(unread_record(&codes(unused), Language::Python), None);
        // A class attribute, and a keyword argument of the same name, are not the test's local.
        let class = "def test_x():\n    @attr.s\n    class A:\n        a = attr.ib(converter=f)\n    check(A, a=int)";
        assert_eq!(unread_record(&codes(class), Language::Python), None);
        let keyword = "def test_x():\n    a = []\n    run(a=1)\n    a.append(2)";
        assert_eq!(
            unread_record(&codes(keyword), Language::Python),
            Some((1, "a".to_string()))
        );
        // Go and JavaScript assign an outer (package) setting without declaring it.
        let setting = "func TestHooks(t *testing.T) {\n\tEnableHooks = true\n\tdefer func() {\n\t\tEnableHooks = false\n\t}()\n\trun(t)\n}";
        assert_eq!(unread_record(&codes(setting), Language::Go), None);
        let go = "func TestX(t *testing.T) {\n\tgot := map[string]bool{}\n\trun(func(k string) { got[k] = true })\n}";
        assert_eq!(
            unread_record(&codes(go), Language::Go),
            Some((1, "got".to_string()))
        );
    }
}
