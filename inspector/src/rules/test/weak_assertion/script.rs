//! Weak assertions in Python, Go and TypeScript/JavaScript tests, at the text level (comments
//! and strings told apart by the lexer): test functions with no assertion, and tautologies —
//! `assert True`, `assert x == x`, `self.assertEqual(a, a)`, `assert.True(t, true)`,
//! `assert.Equal(t, x, x)`, `expect(true).toBe(true)`, `expect(x).toEqual(x)`.

use super::args::{always_true, call_args, checking_name, ident_before, split_args};
use super::helpers::{Facts, Helpers};
use super::Weak;
use crate::engine::{Language, SourceFile};
use crate::rules::lexical::functions::{functions, indent_of};
use crate::rules::lexical::LexLine;

/// The weak assertions of a Python, Go, TypeScript or JavaScript test file.
pub(super) fn weak_in_script(file: &SourceFile, lang: Language) -> Vec<Weak> {
    let lines = file.lexed(lang);
    let tests: Vec<(String, usize, usize)> = match lang {
        // pytest never collects from conftest.py: its `test_*` functions are fixtures.
        Language::Python if file.rel_path.ends_with("conftest.py") => Vec::new(),
        Language::Python | Language::Go => {
            let prefix = if lang == Language::Go { "Test" } else { "test" };
            functions(&lines, lang)
                .into_iter()
                .filter(|f| f.name.starts_with(prefix))
                .map(|f| (f.name, f.start as usize - 1, f.end as usize - 1))
                .filter(|(_, start, _)| lang == Language::Go || collected(&lines, *start))
                .collect()
        }
        _ => js_tests(&lines),
    };
    let codes: Vec<String> = lines.iter().map(LexLine::code).collect();
    let defs = functions(&lines, lang)
        .into_iter()
        .map(|f| (f.name, f.start as usize - 1, f.end as usize - 1))
        .collect();
    let mut helpers = Helpers::new(&codes, defs, |code| facts(code, lang));
    let mut out = Vec::new();
    for (name, start, end) in tests {
        let end = end.min(lines.len() - 1);
        for line in &lines[start..=end] {
            if asserts_on(&codes[line.number as usize - 1], lang)
                && tautology(line.text.trim(), lang)
            {
                out.push(Weak::tautology(&name, line.number, line.text.trim()));
            }
        }
        if !helpers.range_asserts(start, end, 0) {
            out.push(Weak::no_assertion(&name, lines[start].number));
        }
    }
    out.sort_by_key(|w| w.line);
    out
}

/// What one line of a Python, Go, TypeScript or JavaScript test does: an assertion, a call of
/// a checking helper (a word of its name starts with assert, check, verify or expect), or a Go
/// call handed the test's `t` (it can fail the test) assert by themselves; the other calls are
/// followed into the file's own functions.
fn facts(code: &str, lang: Language) -> Facts<'_> {
    let mut facts = Facts {
        direct: asserts_on(code, lang) || (lang == Language::Go && hands_over_t(code)),
        calls: Vec::new(),
    };
    for (at, _) in code.match_indices('(') {
        let name = ident_before(code, at);
        let before = code[..at - name.len()].trim_end();
        // `def test_check_x(` declares the test; it calls nothing.
        let declared = ["def", "func", "function"]
            .iter()
            .any(|d| before.ends_with(d));
        if name.is_empty() || declared {
            continue;
        }
        facts.direct |= !before.ends_with('.') && checking_name(name);
        facts.calls.push(name);
    }
    facts
}

/// Whether a Go line hands the test's `t` to a call (`check(t, got)`, `helper(t)`) or runs a
/// subtest (`t.Run(name, tc.test)`), which gets a `t` of its own.
fn hands_over_t(code: &str) -> bool {
    ["(t)", "(t,", ", t)", ", t,", "t.Run("]
        .iter()
        .any(|p| code.contains(p))
}

/// Whether the Python `def` at line index `at` is one pytest collects: at module level or a
/// method of a class, not a function nested in another (a view `def test():` inside a test).
fn collected(lines: &[LexLine<'_>], at: usize) -> bool {
    let indent = indent_of(lines[at].text);
    if indent == 0 {
        return true;
    }
    lines[..at]
        .iter()
        .rev()
        .find(|l| !l.code().trim().is_empty() && indent_of(l.text) < indent)
        .is_some_and(|parent| parent.code().trim_start().starts_with("class "))
}

/// Whether a line of code asserts something.
fn asserts_on(code: &str, lang: Language) -> bool {
    let any = |needles: &[&str]| needles.iter().any(|n| code.contains(n));
    match lang {
        Language::Python => any(&[
            "assert",
            "pytest.raises",
            "pytest.fail",
            ".fail(",
            "expect(",
        ]),
        Language::Go => any(&[
            ".Error(",
            ".Errorf(",
            ".Fatal(",
            ".Fatalf(",
            ".Fail(",
            ".FailNow(",
            "assert.",
            "require.",
            "Expect(",
        ]),
        // `expectTypeOf<T>().toEqualTypeOf<U>()` asserts at compile time (vitest).
        _ => any(&["expect(", "expect.", "expectTypeOf", "assert", ".should"]),
    }
}

/// Whether an assertion line (raw text, literals kept) cannot fail.
fn tautology(raw: &str, lang: Language) -> bool {
    match lang {
        Language::Python => {
            if let Some(rest) = raw.strip_prefix("assert ") {
                let cond = split_args(rest).first().copied().unwrap_or_default();
                return always_true(cond, "==", &["True", "1", "not False"]);
            }
            call_args(raw, "assertTrue(").is_some_and(|a| a.first() == Some(&"True"))
                || call_args(raw, "assertEqual(").is_some_and(|a| a.len() >= 2 && a[0] == a[1])
        }
        Language::Go => {
            ["assert.True(", "require.True("]
                .iter()
                .any(|c| call_args(raw, c).is_some_and(|a| a.get(1) == Some(&"true")))
                || ["assert.Equal(", "require.Equal("]
                    .iter()
                    .any(|c| call_args(raw, c).is_some_and(|a| a.len() >= 3 && a[1] == a[2]))
        }
        _ => {
            if let Some(actual) = call_args(raw, "expect(").and_then(|a| a.first().copied()) {
                let after = &raw[raw.find("expect(").unwrap_or(0)..];
                let matcher = [".toBe(", ".toEqual(", ".toStrictEqual("]
                    .iter()
                    .find_map(|m| call_args(after, m));
                return matcher.is_some_and(|m| m.first() == Some(&actual))
                    || (actual == "true" && after.contains(".toBeTruthy()"));
            }
            call_args(raw, "assert(").is_some_and(|a| a.first() == Some(&"true"))
                || call_args(raw, "assert.ok(").is_some_and(|a| a.first() == Some(&"true"))
                || ["assert.equal(", "assert.strictEqual(", "assert.deepEqual("]
                    .iter()
                    .any(|c| call_args(raw, c).is_some_and(|a| a.len() >= 2 && a[0] == a[1]))
        }
    }
}

/// The `it(..)`/`test(..)` blocks of a JavaScript/TypeScript file: (name, first, last line index).
fn js_tests(lines: &[LexLine<'_>]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let head = code.trim_start();
        let Some(open) = ["it(", "test(", "it.only(", "test.only("]
            .iter()
            .find(|c| head.starts_with(*c))
        else {
            continue;
        };
        let name = line
            .text
            .split(['\'', '"', '`'])
            .nth(1)
            .unwrap_or(open.trim_end_matches('('))
            .to_string();
        let mut depth = 0i32;
        let mut last = i;
        'lines: for (k, l) in lines.iter().enumerate().skip(i) {
            for c in l.code().chars() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            last = k;
                            break 'lines;
                        }
                    }
                    _ => {}
                }
            }
            last = k;
        }
        out.push((name, i, last));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weak(path: &str, text: &str) -> Vec<(u32, String)> {
        let file = SourceFile::new(path, text);
        let lang = file.language.expect("language");
        weak_in_script(&file, lang)
            .into_iter()
            .map(|w| (w.line, w.description))
            .collect()
    }

    #[test]
    fn python_tests_without_or_with_tautological_assertions() {
        let text = "def test_smoke():\n    run()\n\ndef test_always():\n    assert True, \"fine\"\n    assert total(cart) == total(cart)\n    assert total(cart) == 3\n\nclass TestX(unittest.TestCase):\n    def test_eq(self):\n        self.assertEqual(a.b, a.b)\n    def test_ok(self):\n        self.assertEqual(f('a'), 'a')\n        with pytest.raises(ValueError):\n            f(None)\n";
        assert_eq!(
            weak("tests/test_cart.py", text),
            vec![
                (1, "test `test_smoke` has no assertion: it passes whatever the code does".to_string()),
                (5, "test `test_always` asserts something that cannot fail: `assert True, \"fine\"`".to_string()),
                (6, "test `test_always` asserts something that cannot fail: `assert total(cart) == total(cart)`".to_string()),
                (11, "test `test_eq` asserts something that cannot fail: `self.assertEqual(a.b, a.b)`".to_string()),
            ]
        );
    }

    #[test]
    fn helpers_that_check_count_as_assertions() {
        let go = "package cmd\n\nfunc TestValid(t *testing.T) {\n\tout, err := run(\"a\")\n\texpectSuccess(out, err, t)\n}\n\nfunc TestHelp(t *testing.T) {\n\tout := help(root)\n\tcontains(t, out, \"Usage\")\n}\n\nfunc TestCheckFlags(t *testing.T) {\n\tparse(\"--x\")\n}\n\nfunc TestCalledAs(t *testing.T) {\n\tfor name, tc := range cases {\n\t\tt.Run(name, tc.test)\n\t}\n}\n";
        let no_assertion = |name: &str| {
            format!("test `{name}` has no assertion: it passes whatever the code does")
        };
        assert_eq!(
            weak("cmd/args_test.go", go),
            vec![(13, no_assertion("TestCheckFlags"))]
        );
        let py = "def common_test(app):\n    c = app.test_client()\n    assert c.get('/').data == b'GET'\n\ndef test_view(app):\n    app.add_url_rule('/', view_func=v)\n    common_test(app)\n\ndef test_options(\n    app: Flask, client: Client\n) -> None:\n    rv = client.options()\n    assert rv.headers['X'] == 'x'\n\ndef test_smoke(app):\n    setup(app)\n\ndef test_routes(app, client):\n    @app.route('/')\n    def test():\n        return 'x'\n    assert client.get('/').data == b'x'\n\nclass TestViews:\n    def test_get(self, client):\n        client.get('/')\n";
        assert_eq!(
            weak("tests/test_views.py", py),
            vec![
                (15, no_assertion("test_smoke")),
                (25, no_assertion("test_get"))
            ]
        );
        let fixtures = "import pytest\n\n@pytest.fixture\ndef test_apps(monkeypatch):\n    monkeypatch.syspath_prepend('x')\n";
        assert!(weak("tests/conftest.py", fixtures).is_empty());
    }

    #[test]
    fn go_and_jest_tests() {
        let go = "package cart\n\nfunc TestEmpty(t *testing.T) {\n\tNew()\n}\n\nfunc TestTotal(t *testing.T) {\n\tassert.Equal(t, Total(c), Total(c))\n\tif Total(c) != 3 {\n\t\tt.Errorf(\"got %d\", Total(c))\n\t}\n}\n";
        assert_eq!(
            weak("cart/cart_test.go", go),
            vec![
                (3, "test `TestEmpty` has no assertion: it passes whatever the code does".to_string()),
                (8, "test `TestTotal` asserts something that cannot fail: `assert.Equal(t, Total(c), Total(c))`".to_string()),
            ]
        );
        let jest = "describe('cart', () => {\n  it('adds', () => {\n    expect(true).toBe(true);\n  });\n  test('sums', () => {\n    expect(sum([1, 2])).toBe(3);\n  });\n  it('renders', () => {\n    render(<Cart />);\n  });\n  test('infers', () => {\n    expectTypeOf<z.infer<typeof s>>().toEqualTypeOf<string>();\n  });\n});\n";
        assert_eq!(
            weak("web/cart.test.tsx", jest),
            vec![
                (
                    3,
                    "test `adds` asserts something that cannot fail: `expect(true).toBe(true);`"
                        .to_string()
                ),
                (
                    8,
                    "test `renders` has no assertion: it passes whatever the code does".to_string()
                ),
            ]
        );
    }
}
