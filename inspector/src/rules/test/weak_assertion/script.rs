//! Weak assertions in Python, Go and TypeScript/JavaScript tests, at the text level (comments
//! and strings told apart by the lexer): tautologies — `assert True`, `assert 1 == 1`,
//! `assert.True(t, true)`, `assert.Equal(t, x, x)`, `expect(true).toBe(true)`,
//! `expect(x).toEqual(x)`, `t.is(x, x)` —, tests whose only assertion is commented out, and
//! tests with nothing that can fail (no assertion of the file's frameworks and no call).

use super::args::{always_true, bare_constant, call_args, same_operands, split_args};
use super::context::{
    calls_a_check, context_checks, declares_a_count, macro_test, skips_itself, ContextChecks,
};
use super::excuses::tautology_excuse;
use super::record::unread_record;
use super::vocabulary::{
    asserts_on, commented_assertion, frameworks_of, go_helper_asserts, go_test_handle,
};
use super::{Named, Weak, NO_ERROR, SKIPPED};
use crate::engine::{Language, SourceFile};
use crate::lexical::calls::{logs_on, print_on};
use crate::lexical::functions::{functions, indent_of};
use crate::lexical::{is_ident, LexLine};

/// Words before a `(` that open no call: control flow, declarations, test declarators.
const NOT_CALLS: [&str; 22] = [
    "if", "elif", "for", "while", "switch", "catch", "return", "function", "async", "await", "def",
    "func", "and", "or", "not", "in", "with", "lambda", "yield", "it", "test", "describe",
];

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
                // `go test` runs top-level `func TestX(t *testing.T)` only: a method named
                // `TestX` is a fixture of a suite or an interface, run (if at all) by a test.
                .filter(|f| {
                    lang != Language::Go
                        || lines[f.start as usize - 1]
                            .code()
                            .trim_start()
                            .starts_with("func Test")
                })
                .map(|f| (f.name, f.start as usize - 1, f.end as usize - 1))
                .filter(|(_, start, _)| lang == Language::Go || collected(&lines, *start))
                // A pytest-benchmark test (`benchmark` fixture) measures, it does not check.
                .filter(|(_, start, _)| !takes_benchmark(&lines, *start))
                // A test skipped for good (`@pytest.mark.skip`, `@unittest.skip`) never runs.
                .filter(|(_, start, _)| lang == Language::Go || !skipped(&lines, *start))
                .collect()
        }
        _ => js_tests(&lines),
    };
    let frameworks = frameworks_of(&file.text, lang);
    let codes: Vec<String> = lines.iter().map(LexLine::code).collect();
    let mut out = Vec::new();
    // Tests that skip themselves, by line span: what is found in them is excused (on lines the
    // change under review did not write — a change that skips a test it weakens still gates).
    let mut skipped: Vec<(u32, u32)> = Vec::new();
    for (name, start, end) in tests {
        let end = end.min(lines.len() - 1);
        if skips_itself(&codes[start + 1..=end.max(start)]) {
            skipped.push((lines[start].number, lines[end].number));
        }
        let mut asserts = lang == Language::Python && expects_raise(&lines, start);
        let mut tautologies = Vec::new();
        let mut checks = 0;
        let context = match lang {
            Language::TypeScript | Language::JavaScript => context_checks(&codes[start..=end]),
            _ => ContextChecks::default(),
        };
        let handle = (lang == Language::Go)
            .then(|| go_test_handle(&codes[start]))
            .flatten();
        for (k, (line, code)) in lines[start..=end]
            .iter()
            .zip(&codes[start..=end])
            .enumerate()
        {
            let here = asserts_on(code, &frameworks)
                || type_check(line, code, lang)
                || context.asserts_on(code)
                || handle.is_some_and(|t| go_helper_asserts(code, t));
            if here && tautology(line.text.trim(), lang) {
                tautologies.push(start + k);
            } else if (here || calls_a_check(code)) && !declares_a_count(code) {
                checks += 1;
            }
            asserts |= here;
        }
        let named = Named::of(&name);
        let marker = checks > 0
            && tautologies
                .iter()
                .all(|&k| bare_constant(lines[k].text.trim()));
        let excuse = tautology_excuse(&named, &codes, (start, end), &tautologies, marker);
        out.extend(tautologies.iter().map(|&k| {
            Weak::tautology(&name, lines[k].number, lines[k].text.trim()).excused(excuse)
        }));
        if asserts {
            continue;
        }
        let excuse = named.no_error.then_some(NO_ERROR);
        if let Some((number, written)) = commented_assertion(&lines[start..=end], &frameworks) {
            out.push(Weak::commented_out(&name, number, &written).excused(excuse));
        } else if let Some((k, record)) = unread_record(&codes[start..=end], lang) {
            out.push(Weak::unread_record(&name, lines[start + k].number, &record).excused(excuse));
        } else if !named.no_error
            && !macro_test(&codes[start..=end], lang)
            && !(start..=end).any(|k| can_fail(&codes[k], lang, k == start))
        {
            out.push(Weak::no_assertion(&name, lines[start].number));
        }
    }
    let mut out: Vec<Weak> = out
        .into_iter()
        .map(|w| {
            let line = w.line();
            if skipped.iter().any(|&(a, b)| a <= line && line <= b) {
                w.or_excused(SKIPPED)
            } else {
                w
            }
        })
        .collect();
    out.sort_by_key(|w| w.line);
    out
}

/// Whether a line of a test can fail it without an assertion: a call (the code under test may
/// raise, throw or reject; a helper may check), or an explicit `raise`/`throw`. Logging and
/// printing alone cannot; on the test's `header` line, only calls after the declaration count.
fn can_fail(code: &str, lang: Language, header: bool) -> bool {
    let words = |w: &str| code.split(|c: char| !c.is_alphanumeric()).any(|x| x == w);
    if words("raise") || words("throw") {
        return true;
    }
    let calls = calls_in(code, header, lang);
    let logging = usize::from(logs_on(code, lang) || print_on(code, lang).is_some());
    calls > logging
}

/// How many calls a line of code makes (`name(`, `obj.name(`, `f()(`), declarations, control
/// flow and test declarators aside; a Python or Go `header` line declares its own name.
fn calls_in(code: &str, header: bool, lang: Language) -> usize {
    let b = code.as_bytes();
    let mut count = 0;
    for (at, _) in code.match_indices('(') {
        let mut start = at;
        while start > 0 && is_ident(b[start - 1]) {
            start -= 1;
        }
        let name = &code[start..at];
        let before = code[..start].trim_end();
        let declared = ["def", "func", "function"]
            .iter()
            .any(|d| before.ends_with(d));
        // `f()(`, `a[0](`, and a generic call `assertEqual<A, B>(`.
        let callee = !name.is_empty() || before.ends_with([')', ']', '>']);
        if callee && !declared && !NOT_CALLS.contains(&name) {
            count += 1;
        }
    }
    // `func TestX(t *testing.T) {` and `def test_x(client):` are declarations.
    if header && matches!(lang, Language::Python | Language::Go) {
        count = 0;
    }
    count
}

/// TypeScript's compile-time checks, which a vitest typecheck run fails on: `x satisfies T`,
/// a `// @ts-expect-error` line, a type alias and a declaration annotated with a type
/// (`const _a: ZodType = schema`) — a type-level test is made of them.
fn type_check(line: &LexLine<'_>, code: &str, lang: Language) -> bool {
    let t = code.trim_start();
    let annotated = ["const ", "let ", "var "].iter().any(|d| {
        t.strip_prefix(d).is_some_and(|rest| {
            let name_end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'));
            // `let _t!: T;` declares without assigning.
            name_end
                .is_some_and(|end| end > 0 && rest[end..].trim_start_matches('!').starts_with(':'))
        })
    });
    lang == Language::TypeScript
        && (code.contains(" satisfies ")
            || annotated
            || t.starts_with("type ")
            || line
                .comments()
                .any(|c| c.body.trim_start().starts_with("@ts-expect-error")))
}

/// Whether the Python test at `def` line index `at` is decorated `xfail(raises=…)`: the
/// expected exception is its assertion.
fn expects_raise(lines: &[LexLine<'_>], at: usize) -> bool {
    lines[..at]
        .iter()
        .rev()
        .take_while(|l| {
            let c = l.code();
            let t = c.trim();
            t.starts_with('@') || t.ends_with(',') || t.ends_with('(') || t.starts_with(')')
        })
        .any(|l| l.code().contains("xfail(") && l.code().contains("raises="))
}

/// Whether the Python `def` at line index `at` takes pytest-benchmark's `benchmark` fixture.
fn takes_benchmark(lines: &[LexLine<'_>], at: usize) -> bool {
    // The signature may run over several lines: up to the one that ends it with `:`.
    for line in lines[at..].iter().take(16) {
        let code = line.code();
        if code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "benchmark")
        {
            return true;
        }
        if code.trim_end().ends_with(':') {
            break;
        }
    }
    false
}

/// Whether the decorators right above the Python `def` at line index `at` skip it for good
/// (`@pytest.mark.skip`, `@unittest.skip`; a conditional `skipif` may still run it).
fn skipped(lines: &[LexLine<'_>], at: usize) -> bool {
    lines[..at]
        .iter()
        .rev()
        .map(|l| l.code())
        .take_while(|c| c.trim_start().starts_with('@'))
        .any(|c| {
            let c = c.trim();
            ["@pytest.mark.skip", "@unittest.skip", "@skip"]
                .iter()
                .any(|d| c == *d || c.starts_with(&format!("{d}(")))
        })
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

/// Whether an assertion line (raw text, literals kept) cannot fail. The assertion must be the
/// statement itself: a test that reads an assertion's result (`if assert.Equal(t, 1, 1) !=
/// true {`) is testing the assertion library, whose call is the code under test.
fn tautology(raw: &str, lang: Language) -> bool {
    let stated = ["await ", "return ", "self."]
        .iter()
        .fold(raw.trim_start(), |s, p| s.strip_prefix(p).unwrap_or(s));
    let args_of = |callee: &str| {
        stated
            .starts_with(callee)
            .then(|| call_args(raw, callee))
            .flatten()
    };
    let same = |args: Option<Vec<&str>>, i: usize, k: usize, literals: bool| {
        args.is_some_and(|a| a.len() > i.max(k) && same_operands(a[i], a[k], literals))
    };
    let first_is =
        |callee: &str, truth: &str| args_of(callee).is_some_and(|a| a.first() == Some(&truth));
    match lang {
        Language::Python => {
            if let Some(rest) = raw.strip_prefix("assert ") {
                let cond = split_args(rest).first().copied().unwrap_or_default();
                return always_true(cond, "==", &["True", "1", "not False"], true);
            }
            first_is("assertTrue(", "True") || same(args_of("assertEqual("), 0, 1, true)
        }
        Language::Go => {
            ["assert.True(", "require.True("]
                .iter()
                .any(|c| args_of(c).is_some_and(|a| a.get(1) == Some(&"true")))
                || ["assert.Equal(", "require.Equal("]
                    .iter()
                    .any(|c| same(args_of(c), 1, 2, false))
        }
        _ => {
            // A property may be a getter (`SystemZone.instance`, a singleton's): comparing it
            // with itself checks that it is stable, so only a plain name is a tautology.
            if let Some(actual) = args_of("expect(")
                .and_then(|a| a.first().copied())
                .filter(|a| !a.contains('.'))
            {
                let after = &raw[raw.find("expect(").unwrap_or(0)..];
                let matcher = [".toBe(", ".toEqual(", ".toStrictEqual("]
                    .iter()
                    .find_map(|m| call_args(after, m));
                return matcher
                    .is_some_and(|m| m.first().is_some_and(|e| same_operands(actual, e, false)))
                    || (actual == "true" && after.contains(".toBeTruthy()"));
            }
            ["assert(", "assert.ok(", "t.true(", "t.truthy(", "t.assert("]
                .iter()
                .any(|c| first_is(c, "true"))
                || [
                    "assert.equal(",
                    "assert.strictEqual(",
                    "assert.deepEqual(",
                    "t.is(",
                    "t.deepEqual(",
                ]
                .iter()
                .any(|c| {
                    let args = args_of(c).filter(|a| a.first().is_some_and(|x| !x.contains('.')));
                    same(args, 0, 1, false)
                })
        }
    }
}

/// The `it(..)`/`test(..)` blocks of a JavaScript/TypeScript file: (name, first, last line index).
fn js_tests(lines: &[LexLine<'_>]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let head = code.trim_start();
        // A test is declared with its title: `test(app1)` is a helper's call.
        let Some(open) = ["it(", "test(", "it.only(", "test.only(", "test.serial("]
            .iter()
            .find(|c| head.starts_with(*c) && head[c.len()..].trim_start().starts_with('"'))
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
            .filter(|w| w.excuse.is_none())
            .map(|w| (w.line, w.description))
            .collect()
    }

    fn no_assertion(name: &str) -> String {
        format!("test `{name}` has no assertion: it passes whatever the code does")
    }

    fn tautology(name: &str, written: &str) -> String {
        format!("test `{name}` asserts something that cannot fail: `{written}`")
    }

    #[test]
    fn python_tautologies_are_the_same_literal_not_two_values() {
        let text = "def test_always():\n    assert True, \"fine\"\n    assert total(cart) == total(cart)\n    assert C(2) == C(2)\n    assert e2 == e2\n    assert 'a' == 'a'\n\nclass TestX(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(a.b, a.b)\n        self.assertEqual(1, 1)\n";
        assert_eq!(
            weak("tests/test_cart.py", text),
            vec![
                (2, tautology("test_always", "assert True, \"fine\"")),
                (6, tautology("test_always", "assert 'a' == 'a'")),
                // `test_sum`'s bare `assertEqual(1, 1)` beside its check of `a.b` is excused.
            ]
        );
    }

    #[test]
    fn a_python_test_whose_call_is_the_check_has_an_assertion() {
        let py = "def test_smoke(app):\n    setup(app)\n\ndef test_success(self):\n    v = instance_of(int)\n    v(None, simple_attr('test'), 42)\n\ndef test_empty():\n    x = 1\n    print(x)\n\n@pytest.mark.xfail(raises=FrozenError)\ndef test_confused(self):\n    \"\"\"\n    Currently does not work.\n    \"\"\"\n\ndef test_pyright(tmp_path):\n    path.write_text(\n        \"\"\"\\\nimport attrs\n\"\"\"\n    )\n    assert diagnostics == expected\n\ndef test_indent():\n    text = \"\"\"\\\nfoo\n    bar\n    \"\"\"\n    assert detect(text) == 4\n\ndef test_speed(benchmark):\n    x = 1\n\ndef test_later():\n    pass\n";
        assert_eq!(
            weak("tests/test_views.py", py),
            vec![
                (8, no_assertion("test_empty")),
                (36, no_assertion("test_later"))
            ]
        );
        let fixtures = "import pytest\n\n@pytest.fixture\ndef test_apps(monkeypatch):\n    pass\n";
        assert!(weak("tests/conftest.py", fixtures).is_empty());
        // A benchmark whose signature runs over several lines still takes the fixture.
        let skipped = "@pytest.mark.skip(reason='flaky')\ndef test_off():\n    x = 1\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_on():\n    x = 1\n";
        assert_eq!(
            weak("tests/test_skip.py", skipped),
            vec![(6, no_assertion("test_on"))]
        );
        let bench = "def test_insert(\n    benchmark: BenchmarkFixture, cls: type\n) -> None:\n    md = cls()\n\n    @benchmark\n    def _run() -> None:\n        md[1] = 1\n";
        assert!(weak("tests/test_multidict.py", bench).is_empty());
    }

    #[test]
    fn go_tests_fail_by_calls_and_tautologies_need_one_value() {
        let go = "package cart\n\nimport \"github.com/stretchr/testify/assert\"\nfunc TestEmpty(t *testing.T) {\n\t_ = 1\n}\n\nfunc TestNew(t *testing.T) {\n\tNew()\n}\n\nfunc TestTotal(t *testing.T) {\n\tassert.Equal(t, Total(c), Total(c))\n\tassert.Equal(t, c, c)\n}\n\nfunc (s *Suite) TestNothing() {\n}\n\nfunc TestImports(t *testing.T) {\n\tif assert.Equal(t, 1, 1) != true {\n\t\tt.Error(\"Equal must return true\")\n\t}\n}\n";
        assert_eq!(
            weak("cart/cart_test.go", go),
            vec![
                (4, no_assertion("TestEmpty")),
                (14, tautology("TestTotal", "assert.Equal(t, c, c)")),
            ]
        );
    }

    #[test]
    fn a_test_that_skips_itself_claims_nothing() {
        let go = "package toml\n\nfunc TestStrict(t *testing.T) {\n\tt.Skip()\n\t//if err != nil {\n\t//\tt.Fatal(\"unexpected error:\", err)\n\t//}\n}\n";
        assert!(weak("decode_test.go", go).is_empty());
        assert_eq!(
            crate::rules::fixture::excused(
                &super::super::WeakAssertion::CANNOT_FAIL,
                "decode_test.go",
                go
            ),
            vec![(6, SKIPPED.to_string())],
            "excused, so a change that skips a test it weakens still gates"
        );
    }

    #[test]
    fn tspl_asserts_through_the_test_s_t() {
        let js = "const { test } = require('node:test')\nconst { tspl } = require('@matteo.collina/tspl')\ntest('h2 continue', async t => {\n  t = tspl(t, { plan: 1 })\n  const requestBody = []\n  server.on('request', (req) => {\n    t.strictEqual(req.headers.expect, '100-continue')\n  })\n})\n";
        assert!(weak("test/http2-continue.js", js).is_empty());
    }

    #[test]
    fn a_property_compared_with_itself_checks_its_getter() {
        let js = "test('instance is a singleton', () => {\n  expect(SystemZone.instance).toBe(SystemZone.instance);\n  const z = make();\n  expect(z).toBe(z);\n});\n";
        assert_eq!(
            weak("test/zones.test.js", js),
            vec![(
                4,
                tautology("instance is a singleton", "expect(z).toBe(z);")
            )]
        );
    }

    #[test]
    fn ava_tests_assert_through_t_when_the_file_imports_ava() {
        let ava = "import test from 'ava';\n\ntest('status', async t => {\n\tconst {statusCode} = await got('x');\n\tt.is(statusCode, 200);\n});\n\ntest.serial('plan', t => {\n\tt.plan(1);\n\tt.true(true);\n});\n\ntest('same', t => {\n\tconst a = parse('x');\n\tt.is(a, a);\n});\n\ntest('nothing', t => {\n\tconst a = 1;\n});\n\ntest('appends hooks', extendHooksMacro, {useFunction: false});\n\ntest('placeholder', t => {\n\tt.true(true);\n});\n";
        assert_eq!(
            weak("test/http.ts", ava),
            vec![
                (10, tautology("plan", "t.true(true);")),
                (15, tautology("same", "t.is(a, a);")),
                (18, no_assertion("nothing")),
            ]
        );
    }

    #[test]
    fn jest_mocha_and_type_level_tests() {
        let jest = "describe('cart', () => {\n  it('adds', () => {\n    expect(true).toBe(true);\n  });\n  it('renders', () => {\n    render(<Cart />);\n  });\n  it('handler', function (done) {\n    axios('/foo');\n    getAjaxRequest().then(function (request) {\n      // expect(progressSpy).toHaveBeenCalled();\n      done();\n    });\n  });\n  it('listens', function (done) {\n    const server = app.listen(0, function () {\n      server.close(done)\n    });\n  });\n  test('infers', () => {\n    expectTypeOf<z.infer<typeof s>>().toEqualTypeOf<string>();\n    expect(x).toEqual(x);\n    expect(f()).toBe(f());\n  });\n  test('types', () => {\n    const a = { x: 1 } satisfies Shape;\n    // @ts-expect-error\n    const b = { y: 1 };\n  });\n  test('annotated', () => {\n    const _a: ZodType = {} as any as ZodString;\n    type T = Infer<typeof s>;\n  });\n  test('generic', () => {\n    util.assertEqual<A, B>(true);\n  });\n  test(app1);\n  test('tape', ({ end, same, throws }) => {\n    const instance = pino();\n    throws(() => { instance.level = 'x' });\n    end();\n  });\n  test('tspl', async (t) => {\n    const plan = tspl(t, { plan: 1 });\n    const child = instance.child({});\n    plan.ok(child);\n  });\n  test('tape unchecked', ({ end }) => {\n    const instance = pino();\n    end();\n  });\n  it('should not throw unhandled errors', async () => {\n    const res = response();\n    res.body = stream;\n  });\n});\n";
        assert_eq!(
            weak("web/cart.test.tsx", jest),
            vec![
                (
                    11,
                    "test `handler` asserts nothing but a commented-out `expect(progressSpy).toHaveBeenCalled();`: it passes whatever the code does".to_string()
                ),
                (22, tautology("infers", "expect(x).toEqual(x);")),
            ]
        );
    }
}
