//! Secrets among the arguments of logging and printing calls.
//!
//! Rust reads the macro tokens (`info!(.., password)`, `"{api_key:?}"` inline placeholders,
//! tracing fields `token = %t`); the other languages read the call's arguments at the text level,
//! across lines until its parentheses close, with Python f-string and JS template placeholders.

use super::is_secret_name;
use crate::engine::Language;
use crate::lexical::args::{call_args, Arg};
use crate::lexical::calls::{logs_on, print_on};
use crate::lexical::{is_ident, lex};
use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Rust macros that log or print.
const RUST_MACROS: [&str; 12] = [
    "info", "warn", "error", "debug", "trace", "log", "event", "println", "eprintln", "print",
    "eprint", "dbg",
];

/// Methods that reveal nothing about the secret's value.
const HARMLESS: [&str; 8] = [
    "len", "is_empty", "is_some", "is_none", "length", "count", "isEmpty", "size",
];

/// (line, call, name) of each secret passed to a logging or printing macro.
pub(super) fn in_rust(ast: &syn::File, text: &str) -> Vec<(u32, String, String)> {
    // In a lexer or parser, `token` is a syntax token, not a credential.
    let parser = [
        "Token::",
        "TokenKind",
        "TokenStream",
        "TokenTree",
        ": Token",
        "&Token",
    ]
    .iter()
    .any(|t| text.contains(t));
    let mut finder = MacroFinder {
        parser,
        found: Vec::new(),
    };
    finder.visit_file(ast);
    finder.found
}

struct MacroFinder {
    parser: bool,
    found: Vec<(u32, String, String)>,
}

impl<'ast> Visit<'ast> for MacroFinder {
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let Some(last) = mac.path.segments.last() else {
            return;
        };
        let name = last.ident.to_string();
        if !RUST_MACROS.contains(&name.as_str()) {
            return;
        }
        let mut names = Vec::new();
        scan_tokens(mac.tokens.clone(), &mut names);
        names.retain(|n| !(self.parser && n.to_ascii_lowercase().contains("token")));
        if let Some(secret) = names.into_iter().next() {
            self.found.push((
                last.ident.span().start().line as u32,
                format!("{name}!"),
                secret,
            ));
        }
    }
}

/// Secret names used as values in macro tokens.
fn scan_tokens(tokens: TokenStream, out: &mut Vec<String>) {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tts.iter().enumerate() {
        match tt {
            TokenTree::Group(g) => scan_tokens(g.stream(), out),
            TokenTree::Literal(lit) => {
                if let Ok(s) = syn::parse_str::<syn::LitStr>(&lit.to_string()) {
                    out.extend(placeholders(&s.value(), '{'));
                }
            }
            TokenTree::Ident(id) => {
                let name = id.to_string();
                if !is_secret_name(&name) {
                    continue;
                }
                let punct = |k: usize| match tts.get(k) {
                    Some(TokenTree::Punct(p)) => Some(p.as_char()),
                    _ => None,
                };
                let is_path = punct(i + 1) == Some(':') && punct(i + 2) == Some(':');
                let harmless = punct(i + 1) == Some('.')
                    && matches!(tts.get(i + 2), Some(TokenTree::Ident(m)) if HARMLESS.contains(&m.to_string().as_str()));
                if !is_path && !harmless {
                    out.push(name);
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

/// Secret names in `{name}`/`{name:fmt}`/`{user.token}` placeholders (Rust, Python f-strings;
/// `open` = '{') or `${name}` ones (JS templates) of a string's text. `{{` is an escaped brace;
/// a placeholder that measures or calls (`{token.len()}`, `${hash(pw)}`) reveals nothing.
fn placeholders(s: &str, open: char) -> Vec<String> {
    let opener = if open == '$' { "${" } else { "{" };
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(at) = rest.find(opener) {
        let after = &rest[at + opener.len()..];
        rest = after;
        if open == '{' && after.starts_with('{') {
            rest = &after[1..];
            continue;
        }
        let expr: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let parts: Vec<&str> = expr.split('.').collect();
        let harmless = parts.last().is_some_and(|m| HARMLESS.contains(m))
            || after[expr.len()..].trim_start().starts_with('(');
        if harmless {
            continue;
        }
        if let Some(name) = parts.iter().rev().find(|w| is_secret_name(w)) {
            out.push(name.to_string());
        }
    }
    out
}

/// (line, call, name) of each secret passed to a logging or printing call in Python,
/// TypeScript, JavaScript or Go.
pub(super) fn in_text(text: &str, lang: Language) -> Vec<(u32, String, String)> {
    let lines = lex(text, lang);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((call, open)) = call_on(&line.code(), lang) else {
            continue;
        };
        let args = call_args(&lines, i, open);
        let secret = args.iter().enumerate().find_map(|(k, arg)| match arg {
            Arg::Code(c) => code_names(c).into_iter().next(),
            Arg::Str(s) => {
                let before = k.checked_sub(1).and_then(|p| match args.get(p) {
                    Some(Arg::Code(c)) => Some(*c),
                    _ => None,
                });
                interpolated(s, before, lang)
            }
        });
        if let Some(name) = secret {
            found.push((line.number, call, name));
        }
    }
    found
}

/// The first secret in a Python f-string's or a JS template's placeholders.
fn interpolated(literal: &str, code_before: Option<&str>, lang: Language) -> Option<String> {
    let f_string = lang == Language::Python
        && (literal.starts_with(['f', 'F'])
            || code_before.is_some_and(|c| c.ends_with(['f', 'F'])));
    let open = if f_string {
        '{'
    } else if literal.starts_with('`') {
        '$'
    } else {
        return None;
    };
    placeholders(literal, open).into_iter().next()
}

/// Secret names used as values in a piece of code: not a keyword-argument or object key
/// (`token=`, `token:`), not called (`get_token()`), not measured (`len(x)`, `x.length`).
fn code_names(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !is_ident(b[i]) || (i > 0 && is_ident(b[i - 1])) {
            i += 1;
            continue;
        }
        let end = (i..b.len()).find(|&k| !is_ident(b[k])).unwrap_or(b.len());
        let word = &code[i..end];
        let rest = code[end..].trim_start();
        let before = code[..i].trim_end();
        let harmless = code[end..]
            .strip_prefix('.')
            .is_some_and(|r| HARMLESS.iter().any(|m| r.starts_with(m)))
            || before.ends_with("len(");
        let key = (rest.starts_with('=') && !rest.starts_with("=="))
            || (rest.starts_with(':') && !rest.starts_with("::"));
        if is_secret_name(word) && !harmless && !key && !rest.starts_with('(') {
            out.push(word.to_string());
        }
        i = end;
    }
    out
}

/// The logging or printing call on a line of code and the offset just after its `(`.
fn call_on(code: &str, lang: Language) -> Option<(String, usize)> {
    if lang == Language::Go {
        for recv in ["log", "fmt", "slog", "logger", "zap", "logrus"] {
            for method in ["Print", "Fatal", "Panic", "Info", "Warn", "Error", "Debug"] {
                let pat = format!("{recv}.{method}");
                let Some(at) = code
                    .find(&pat)
                    .filter(|&a| a == 0 || !is_ident(code.as_bytes()[a - 1]))
                else {
                    continue;
                };
                let tail = &code[at + pat.len()..];
                let suffix: String = tail.chars().take_while(|c| c.is_alphanumeric()).collect();
                if tail[suffix.len()..].starts_with('(') {
                    return Some((format!("{pat}{suffix}"), at + pat.len() + suffix.len() + 1));
                }
            }
        }
        return None;
    }
    if !(logs_on(code, lang) || print_on(code, lang).is_some()) {
        return None;
    }
    let open = code.find('(')?;
    let head = code[..open].trim_end();
    let start = head
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |p| p + 1);
    Some((format!("{}()", &head[start..]), open + 1))
}
