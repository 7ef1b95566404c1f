//! What a JavaScript test's callback takes from its runner and checks with, whatever the
//! framework is called: tape's and node-tap's destructured assertions
//! (`test('x', ({ same, throws, end }) => …)`) and objects built from the test's context
//! (`const plan = tspl(t, { plan: 3 })`, then `plan.ok(…)`); and what a body says of itself:
//! a first statement that skips the test, a call of a helper named for checking, a declared
//! assertion count.
use crate::engine::Language;
use crate::lexical::is_ident;

/// The checks a JavaScript test receives from its runner, whatever the framework is called:
/// the names it destructures from its context (`test('x', ({ same, throws, end }) => …)`, tape
/// and node-tap), and the locals it builds from its context (`const plan = tspl(t, { plan: 3 })`,
/// then `plan.ok(…)`).
#[derive(Default)]
pub(super) struct ContextChecks {
    /// Destructured names that check (`same`, `throws`; not `end`, `plan`, `teardown`).
    names: Vec<String>,
    /// Locals built from the context, whose methods check.
    objects: Vec<String>,
}

/// Context members that control a test rather than check anything.
const CONTROLS: [&str; 10] = [
    "end",
    "plan",
    "teardown",
    "comment",
    "timeoutAfter",
    "skip",
    "todo",
    "test",
    "log",
    "context",
];

impl ContextChecks {
    pub(super) fn asserts_on(&self, code: &str) -> bool {
        let called = |name: &str, open: &str| {
            code.match_indices(&format!("{name}{open}")).any(|(at, _)| {
                !code[..at].ends_with(|c: char| c.is_alphanumeric() || "_.$".contains(c))
            })
        };
        self.names.iter().any(|n| called(n, "(")) || self.objects.iter().any(|o| called(o, "."))
    }
}

/// What a JavaScript test's callback takes from its context (`codes`: the test's code lines).
pub(super) fn context_checks(codes: &[String]) -> ContextChecks {
    let header = &codes[0];
    let mut checks = ContextChecks::default();
    if let Some(open) = header.find("({") {
        let inner = &header[open + 2..];
        let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
        checks.names = inner
            .split(',')
            .filter_map(|part| {
                let name = part.split([':', '=']).next()?.trim();
                (is_plain_name(name) && !CONTROLS.contains(&name)).then(|| name.to_string())
            })
            .collect();
        return checks;
    }
    // `async (t) => {`, `t => {`, `function (t) {`: the context's own name.
    let Some(param) = single_param(header) else {
        return checks;
    };
    for code in &codes[1..] {
        let t = code.trim_start();
        let Some(rest) = ["const ", "let ", "var "]
            .iter()
            .find_map(|d| t.strip_prefix(d))
        else {
            continue;
        };
        let Some((name, init)) = rest.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let takes_context =
            init.contains(&format!("({param},")) || init.contains(&format!("({param})"));
        if is_plain_name(name) && takes_context {
            checks.objects.push(name.to_string());
        }
    }
    checks
}

/// The one parameter of a test callback on its header line (`t` in `async (t) => {`).
fn single_param(header: &str) -> Option<String> {
    let arrow = header.rfind("=>").or_else(|| header.rfind('{'))?;
    let before = header[..arrow].trim_end();
    let name = match before.strip_suffix(')') {
        Some(inner) => &inner[inner.rfind('(')? + 1..],
        None => before.rsplit([' ', ',', '(']).next()?,
    };
    let name = name.trim();
    is_plain_name(name).then(|| name.to_string())
}

fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}
/// Whether a test's first statement skips it (`t.Skip()`, `pytest.skip(…)`, `this.skip()`): a
/// disabled test, its author's known choice, checks nothing and claims nothing.
pub(super) fn skips_itself(body: &[String]) -> bool {
    body.iter()
        .map(|c| c.trim())
        .find(|c| !c.is_empty())
        .is_some_and(|first| {
            [
                "t.Skip(",
                "t.SkipNow(",
                "pytest.skip(",
                "self.skipTest(",
                "this.skip(",
                "t.skip(",
            ]
            .iter()
            .any(|s| first.starts_with(s))
        })
}

/// Whether a line calls a helper named for checking (`assert(val, _ as T)` of a type-test
/// module, `expectType<T>(x)`): the project's own assertion, whatever its framework.
pub(super) fn calls_a_check(code: &str) -> bool {
    code.match_indices(['a', 'e']).any(|(at, _)| {
        let rest = &code[at..];
        let word_start = at == 0 || !is_ident(code.as_bytes()[at - 1]);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        word_start
            && (name.starts_with("assert") || name.starts_with("expect"))
            && rest[name.len()..].trim_start().starts_with(['(', '<'])
    })
}

/// Whether a line declares how many assertions the test will make (`t.plan(1)`,
/// `expect.assertions(2)`): a count, not a check.
pub(super) fn declares_a_count(code: &str) -> bool {
    ["t.plan(", "expect.assertions(", "expect.hasAssertions("]
        .iter()
        .any(|c| code.contains(c))
}
/// Whether a JavaScript/TypeScript test is declared with a macro instead of a body
/// (`test('title', extendHooksMacro, {…})`, AVA): the macro asserts, out of sight here.
pub(super) fn macro_test(codes: &[String], lang: Language) -> bool {
    matches!(lang, Language::TypeScript | Language::JavaScript)
        && !codes
            .iter()
            .any(|c| c.contains("=>") || c.contains("function"))
}
