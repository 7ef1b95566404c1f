//! The function enclosing a line, for the deep-dive's root-cause context.
//!
//! Rust is parsed with syn (functions, methods, trait default methods; `#[test]`-style
//! functions and everything inside a `#[cfg(test)]` module are test code). Python, Go,
//! JavaScript and TypeScript — and Rust that does not parse — use a text heuristic: a `def`
//! header and its deeper-indented body for Python; a `func`/`function`/`fn` header, an arrow
//! function bound to a name, or an indented `name(args) {` method, with the body found by brace
//! matching outside strings and `//` comments, for the others. The innermost function wins.

use inspector::engine::Language;
use serde::Serialize;
use syn::visit::Visit;

/// A named function and the lines it spans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FnSpan {
    /// Its name.
    pub name: String,
    /// 1-based line of the header.
    pub start: u32,
    /// 1-based last line of the body.
    pub end: u32,
    /// Whether it is test code (a test function, or inside a Rust `#[cfg(test)]` module).
    pub test: bool,
}

impl FnSpan {
    /// Whether 1-based `line` lies inside it.
    pub fn contains(&self, line: u32) -> bool {
        self.start <= line && line <= self.end
    }
}

/// The named functions of a file, by its path's language (none for other files).
pub fn functions(path: &str, text: &str) -> Vec<FnSpan> {
    let language = Language::of(path);
    // A file beyond what the Inspectors can analyse (50,000 nested braces) would overflow the
    // Lead's stack in syn too: it has no functions the deep dive can name.
    if language.is_some_and(|lang| inspector::engine::limits::check(text, lang).is_some()) {
        return Vec::new();
    }
    match language {
        Some(Language::Rust) => match syn::parse_file(text) {
            Ok(file) => {
                let mut c = RustFns::default();
                c.visit_file(&file);
                c.out
            }
            Err(_) => brace_functions(text, Language::Rust),
        },
        Some(Language::Python) => python_functions(text),
        Some(lang @ (Language::Go | Language::JavaScript | Language::TypeScript)) => {
            brace_functions(text, lang)
        }
        _ => Vec::new(),
    }
}

/// The innermost function of `functions` around `line`.
pub fn innermost(functions: &[FnSpan], line: u32) -> Option<&FnSpan> {
    functions
        .iter()
        .filter(|f| f.contains(line))
        .max_by_key(|f| (f.start, std::cmp::Reverse(f.end)))
}

#[derive(Default)]
struct RustFns {
    out: Vec<FnSpan>,
    test_modules: usize,
}

impl RustFns {
    fn push(&mut self, sig: &syn::Signature, attrs: &[syn::Attribute], block: &syn::Block) {
        let test = self.test_modules > 0
            || attrs.iter().any(|a| {
                a.path()
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "test" || s.ident == "bench")
            });
        self.out.push(FnSpan {
            name: sig.ident.to_string(),
            start: line_of(sig.fn_token.span.start().line),
            end: line_of(block.brace_token.span.close().end().line),
            test,
        });
    }
}

fn line_of(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::List(l) => l.path.is_ident("cfg") && l.tokens.to_string().trim() == "test",
        _ => false,
    })
}

impl<'ast> Visit<'ast> for RustFns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.push(&f.sig, &f.attrs, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.push(&f.sig, &f.attrs, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.push(&f.sig, &f.attrs, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let test = is_cfg_test(&m.attrs);
        self.test_modules += usize::from(test);
        syn::visit::visit_item_mod(self, m);
        self.test_modules -= usize::from(test);
    }
}

fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect()
}

fn python_functions(text: &str) -> Vec<FnSpan> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let head = line.trim_start();
        let Some(rest) = head
            .strip_prefix("def ")
            .or_else(|| head.strip_prefix("async def "))
        else {
            continue;
        };
        let name = ident(rest.trim_start());
        if name.is_empty() {
            continue;
        }
        let base = indent_of(line);
        let mut end = i;
        for (k, body) in lines.iter().enumerate().skip(i + 1) {
            let code = body.trim();
            if code.is_empty() || code.starts_with('#') {
                continue;
            }
            if indent_of(body) <= base {
                break;
            }
            end = k;
        }
        out.push(FnSpan {
            test: name.starts_with("test"),
            name,
            start: line_of(i + 1),
            end: line_of(end + 1),
        });
    }
    out
}

/// The code of a line without its `//` comment and with string contents blanked, so braces
/// inside them do not count; `'` opens a string except in Rust (lifetimes, chars).
fn code_of(line: &str, lang: Language) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(_) if c == '\\' => {
                chars.next();
                out.push(' ');
            }
            Some(q) if c == q => {
                quote = None;
                out.push(c);
            }
            Some(_) => out.push(' '),
            None if c == '/' && chars.peek() == Some(&'/') => break,
            None if c == '"' || c == '`' || (c == '\'' && lang != Language::Rust) => {
                quote = Some(c);
                out.push(c);
            }
            None => out.push(c),
        }
    }
    out
}

/// The name a line declares a function with, in a brace language.
fn brace_header(code: &str, lang: Language) -> Option<String> {
    let t = code.trim_start();
    let named = |name: String| (!name.is_empty()).then_some(name);
    match lang {
        Language::Go => {
            let rest = t.strip_prefix("func ")?.trim_start();
            let rest = match rest.strip_prefix('(') {
                Some(r) => r.split_once(')')?.1.trim_start(),
                None => rest,
            };
            named(ident(rest))
        }
        Language::Rust => {
            let mut words = t.split_whitespace();
            loop {
                let w = words.next()?;
                if w == "fn" {
                    return named(ident(words.next()?));
                }
                let modifier = w.starts_with("pub")
                    || matches!(w, "async" | "const" | "unsafe" | "extern" | "\"C\"");
                if !modifier {
                    return None;
                }
            }
        }
        _ => {
            let mut t = t;
            for word in ["export ", "default ", "async "] {
                t = t.strip_prefix(word).unwrap_or(t).trim_start();
            }
            if let Some(rest) = t.strip_prefix("function") {
                return named(ident(rest.trim_start_matches('*').trim_start()));
            }
            for word in ["const ", "let ", "var "] {
                if let Some(rest) = t.strip_prefix(word) {
                    let name = ident(rest);
                    let after = rest[name.len()..].trim_start();
                    let is_fn = after.starts_with('=')
                        && (after.contains("=>") || after.contains("function"));
                    return if is_fn { named(name) } else { None };
                }
            }
            // An indented class method: `name(args) {`, possibly after modifiers.
            if !code.starts_with(char::is_whitespace) || !code.trim_end().ends_with('{') {
                return None;
            }
            let mut m = t;
            for word in [
                "public ",
                "private ",
                "protected ",
                "static ",
                "async ",
                "get ",
                "set ",
            ] {
                m = m.strip_prefix(word).unwrap_or(m).trim_start();
            }
            let name = ident(m);
            let keyword = matches!(
                name.as_str(),
                "if" | "for" | "while" | "switch" | "catch" | "function" | "return" | "with"
            );
            (!keyword && m[name.len()..].trim_start().starts_with('('))
                .then_some(name)
                .and_then(named)
        }
    }
}

fn brace_functions(text: &str, lang: Language) -> Vec<FnSpan> {
    let codes: Vec<String> = text.lines().map(|l| code_of(l, lang)).collect();
    let mut out = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let Some(name) = brace_header(code, lang) else {
            continue;
        };
        if let Some(end) = body_end(&codes, i) {
            let test = match lang {
                Language::Go => name.starts_with("Test") || name.starts_with("Benchmark"),
                Language::Rust => i > 0 && codes[i - 1].trim_start().starts_with("#[test]"),
                _ => false,
            };
            out.push(FnSpan {
                name,
                start: line_of(i + 1),
                end: line_of(end + 1),
                test,
            });
        }
    }
    out
}

/// The index of the line closing the body that opens on or after `header`; `None` for a
/// declaration without a body (`;` outside parentheses before any `{`, or no `{` within 30
/// lines).
fn body_end(codes: &[String], header: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut nest = 0i32;
    let mut open = false;
    for (i, code) in codes.iter().enumerate().skip(header) {
        if !open && i > header + 30 {
            return None;
        }
        for c in code.chars() {
            match c {
                '(' | '[' if !open => nest += 1,
                ')' | ']' if !open => nest -= 1,
                ';' if !open && nest <= 0 => return None,
                '{' if open || nest <= 0 => {
                    open = true;
                    depth += 1;
                }
                '}' if open => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
    }
    None
}
