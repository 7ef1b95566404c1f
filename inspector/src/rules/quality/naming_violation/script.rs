//! Python, Go, TypeScript and JavaScript names, at the text level (declarations only: a name
//! is judged where it is introduced, never where it is used).
//!
//! - Python (PEP 8): `class` names in CapWords; `def` names without upper-case letters, unless
//!   they are unittest's hooks (`setUp`, ...) or the file's own functions are mostly mixed-case
//!   (code overriding a camelCase framework such as Qt follows that framework).
//! - Go: `func` and `type` names without underscores (MixedCaps; Effective Go), except the
//!   test harness names `TestX_y`, `BenchmarkX_y`, `ExampleX_y`, `FuzzX_y` and cgo files.
//! - TypeScript/JavaScript: `class` and `interface` names in PascalCase; `function` names
//!   without snake_case words (`load_users`); SCREAMING_CASE constants are not functions.

use super::Misnamed;
use crate::engine::Language;
use crate::lexical::lex;

/// unittest's camelCase hooks, which subclasses must spell that way.
const PY_HOOKS: [&str; 8] = [
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "setUpModule",
    "tearDownModule",
    "asyncSetUp",
    "asyncTearDown",
];

/// The misnamed declarations of a non-Rust source file.
pub(super) fn find(text: &str, lang: Language) -> Vec<Misnamed> {
    if lang == Language::Go && text.contains("import \"C\"") {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut py_defs = (0usize, 0usize); // (snake, mixed)
    for line in lex(text, lang) {
        let code = line.code();
        let t = code.trim_start();
        let decl = declared(t, lang);
        let Some((kind, name)) = decl else {
            continue;
        };
        let (ok, convention) = judge(kind, &name, lang);
        if lang == Language::Python && kind == "function" && !PY_HOOKS.contains(&name.as_str()) {
            if ok {
                py_defs.0 += 1;
            } else {
                py_defs.1 += 1;
            }
        }
        let hook = lang == Language::Python && PY_HOOKS.contains(&name.as_str());
        if !(ok || hook) {
            found.push(Misnamed {
                line: line.number,
                kind,
                name,
                convention,
            });
        }
    }
    if lang == Language::Python && py_defs.1 > py_defs.0 {
        found.retain(|m| m.kind != "function");
    }
    found
}

fn ident(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect()
}

/// What a line declares: (kind, name).
fn declared(t: &str, lang: Language) -> Option<(&'static str, String)> {
    let strip = |t: &'static str, s: &str| -> Option<String> {
        s.strip_prefix(t).map(ident).filter(|n| !n.is_empty())
    };
    match lang {
        Language::Python => {
            let t = t.strip_prefix("async ").unwrap_or(t);
            strip("def ", t)
                .map(|n| ("function", n))
                .or_else(|| strip("class ", t).map(|n| ("class", n)))
        }
        Language::Go => {
            if let Some(rest) = t.strip_prefix("func ") {
                let rest = match rest.trim_start().strip_prefix('(') {
                    Some(r) => r.split_once(')')?.1,
                    None => rest,
                };
                let name = ident(rest);
                return (!name.is_empty()).then_some(("function", name));
            }
            strip("type ", t).map(|n| ("type", n))
        }
        _ => {
            let mut t = t;
            for word in ["export ", "default ", "declare ", "abstract ", "async "] {
                t = t.strip_prefix(word).unwrap_or(t);
            }
            strip("class ", t)
                .map(|n| ("class", n))
                .or_else(|| strip("interface ", t).map(|n| ("interface", n)))
                .or_else(|| {
                    t.strip_prefix("function")
                        .map(|r| ident(r.trim_start_matches('*')))
                        .filter(|n| !n.is_empty())
                        .map(|n| ("function", n))
                })
        }
    }
}

/// Whether `name` follows its language's convention for `kind`, and the convention's name.
fn judge(kind: &str, name: &str, lang: Language) -> (bool, &'static str) {
    // `_private` and TypeScript's `$Internal` prefixes are markers, not part of the case.
    let bare = name.trim_matches(['_', '$']);
    let starts_upper = bare.starts_with(|c: char| c.is_uppercase());
    let inner_underscore = bare.contains('_');
    match (lang, kind) {
        (Language::Python, "class") => (starts_upper && !inner_underscore, "CapWords"),
        (Language::Python, _) => (!bare.chars().any(char::is_uppercase), "snake_case"),
        (Language::Go, _) => {
            let harness = ["Test", "Benchmark", "Example", "Fuzz"]
                .iter()
                .any(|p| name.starts_with(p));
            (!inner_underscore || harness || name == "_", "MixedCaps")
        }
        (_, "function") => {
            let screaming = !bare.chars().any(char::is_lowercase);
            (!inner_underscore || screaming, "camelCase")
        }
        _ => (starts_upper && !inner_underscore, "PascalCase"),
    }
}
