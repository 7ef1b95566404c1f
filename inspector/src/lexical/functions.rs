//! Functions found at the text level in Python, Go, TypeScript and JavaScript (Rust rules use
//! the syntax tree instead), and the nesting of control blocks inside them.
//!
//! Python functions are `def` headers and their indented body; Go, TypeScript and JavaScript
//! functions are `func`/`function` headers, arrow functions bound to a name and class methods,
//! with their body found by brace matching over code segments (strings and comments cannot
//! unbalance it).

use super::{LexLine, Seg};
use crate::engine::Language;

/// A function found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FnSpan {
    /// Its name (`<anonymous>` never occurs: only named functions are found).
    pub(crate) name: String,
    /// 1-based line of the header.
    pub(crate) start: u32,
    /// 1-based last line of the body.
    pub(crate) end: u32,
}

/// Words that open a control block in the brace languages and in Python.
const CONTROL: [&str; 12] = [
    "if", "else", "elif", "for", "while", "switch", "select", "try", "catch", "except", "with",
    "match",
];

/// Keywords that look like a method header (`if (x) {`) but are not one.
const NOT_METHODS: [&str; 9] = [
    "if", "for", "while", "switch", "catch", "function", "return", "with", "else",
];

/// The leading indentation of a line in columns (a tab counts 4).
pub(crate) fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The named functions of a lexed file.
pub(crate) fn functions(lines: &[LexLine<'_>], lang: Language) -> Vec<FnSpan> {
    match lang {
        Language::Python => python_functions(lines),
        Language::Go | Language::TypeScript | Language::JavaScript => brace_functions(lines, lang),
        _ => Vec::new(),
    }
}

/// The last line index (0-based) of the indented block whose header is at index `header`:
/// the lines after it indented deeper than it, blank and comment-only lines included, trailing
/// ones not.
pub(crate) fn python_block_end(lines: &[LexLine<'_>], header: usize) -> usize {
    let base = indent_of(lines[header].text);
    let header_end = python_header_end(lines, header);
    let mut end = header_end;
    for (i, line) in lines.iter().enumerate().skip(header_end + 1) {
        // A line that starts inside a multi-line string is the string's, whatever its indent.
        if line.code().trim().is_empty() || starts_in_string(line) {
            continue;
        }
        if indent_of(line.text) <= base {
            break;
        }
        end = i;
    }
    end
}

/// Whether a line begins inside a string literal opened on an earlier line: its first segment
/// is a string that does not start with a quote (or a string prefix) there.
fn starts_in_string(line: &LexLine<'_>) -> bool {
    match line.segs.first() {
        Some(Seg::Str(s)) => {
            let body = s.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            !(line.text.trim_start().starts_with(s) && body.starts_with(['"', '\'']))
        }
        _ => false,
    }
}

/// The last line index of a header that starts at `header`: a `def f(` whose parameters run on
/// to `) -> None:` lines below ends where its brackets close.
fn python_header_end(lines: &[LexLine<'_>], header: usize) -> usize {
    let mut depth = 0i32;
    for (i, line) in lines.iter().enumerate().skip(header) {
        for c in line.code().bytes() {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return i;
        }
    }
    header
}

fn python_functions(lines: &[LexLine<'_>]) -> Vec<FnSpan> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let head = code.trim_start();
        let Some(rest) = head
            .strip_prefix("def ")
            .or_else(|| head.strip_prefix("async def "))
        else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        out.push(FnSpan {
            name,
            start: line.number,
            end: lines[python_block_end(lines, i)].number,
        });
    }
    out
}

/// The name a brace-language line declares a function with, if it does.
fn brace_header(code: &str, lang: Language) -> Option<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    };
    let mut t = code.trim_start();
    if lang == Language::Rust {
        // `pub(crate) async unsafe fn name(`: modifiers, then `fn` and the name.
        let mut words = t.split_whitespace();
        loop {
            let w = words.next()?;
            if w == "fn" {
                let name = ident(words.next()?);
                return (!name.is_empty()).then_some(name);
            }
            let modifier = w.starts_with("pub")
                || matches!(w, "async" | "const" | "unsafe" | "extern" | "\"C\"");
            if !modifier {
                return None;
            }
        }
    }
    if lang == Language::Go {
        let rest = t.strip_prefix("func ")?.trim_start();
        let rest = match rest.strip_prefix('(') {
            Some(r) => r.split_once(')')?.1.trim_start(),
            None => rest,
        };
        let name = ident(rest);
        return (!name.is_empty()).then_some(name);
    }
    for word in ["export ", "default ", "async "] {
        t = t.strip_prefix(word).unwrap_or(t).trim_start();
    }
    if let Some(rest) = t.strip_prefix("function") {
        let name = ident(rest.trim_start_matches('*').trim_start());
        return (!name.is_empty()).then_some(name);
    }
    for word in ["const ", "let ", "var "] {
        if let Some(rest) = t.strip_prefix(word) {
            let name = ident(rest);
            let after = rest[name.len()..].trim_start();
            let bound = after.starts_with('=') || after.starts_with(':');
            return (!name.is_empty()
                && bound
                && (after.contains("=>") || after.contains("function")))
            .then_some(name);
        }
    }
    // A class method: `name(args) {`, possibly with modifiers, indented.
    if code.starts_with(char::is_whitespace) && code.trim_end().ends_with('{') {
        let mut m = t;
        for word in [
            "public ",
            "private ",
            "protected ",
            "static ",
            "async ",
            "get ",
            "set ",
            "override ",
        ] {
            m = m.strip_prefix(word).unwrap_or(m).trim_start();
        }
        let name = ident(m);
        if !name.is_empty()
            && !NOT_METHODS.contains(&name.as_str())
            && m[name.len()..].trim_start().starts_with('(')
        {
            return Some(name);
        }
    }
    None
}

/// The functions of a brace language's lexed lines: Go, TypeScript, JavaScript, and Rust read
/// as text (a file syn cannot parse).
pub(crate) fn brace_functions(lines: &[LexLine<'_>], lang: Language) -> Vec<FnSpan> {
    let codes: Vec<String> = lines.iter().map(LexLine::code).collect();
    let mut out = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let Some(name) = brace_header(code, lang) else {
            continue;
        };
        if let Some(end) = body_end(&codes, i) {
            out.push(FnSpan {
                name,
                start: lines[i].number,
                end: lines[end].number,
            });
        }
    }
    out
}

/// The index of the line closing the body that opens after the parameters of the header at
/// `header`; `None` for a declaration without a body (`;` first, or no body within 30 lines).
fn body_end(codes: &[String], header: usize) -> Option<usize> {
    let mut parens = 0i32;
    let mut seen_params = false;
    let mut depth = 0i32;
    let mut open = false;
    for (i, code) in codes.iter().enumerate().skip(header) {
        if !open && i > header + 30 {
            return None;
        }
        let bytes = code.as_bytes();
        for (k, &c) in bytes.iter().enumerate() {
            match c {
                b'(' => parens += 1,
                b')' => {
                    parens -= 1;
                    if parens == 0 {
                        seen_params = true;
                    }
                }
                b'>' if k > 0 && bytes[k - 1] == b'=' && parens == 0 => seen_params = true,
                b';' if !open && parens == 0 => return None,
                // Once the body is open every brace counts, a composite literal's inside a
                // call (`f(&T{A: 1})`) too.
                b'{' if open || (parens == 0 && seen_params) => {
                    open = true;
                    depth += 1;
                }
                b'}' if open => {
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

/// The deepest nesting of control blocks inside a function body of a text-level language,
/// with the 1-based line where it is reached. Lines are the function's own (header included).
pub(crate) fn max_control_depth(lines: &[LexLine<'_>], lang: Language) -> (usize, u32) {
    if lang == Language::Python {
        return python_depth(lines);
    }
    let mut stack: Vec<bool> = Vec::new();
    let mut best = (0, 0);
    for line in lines {
        let code = line.code();
        let control = starts_with_control(code.trim_start().trim_start_matches('}').trim_start());
        for c in code.bytes() {
            match c {
                b'{' => {
                    stack.push(control);
                    let depth = stack.iter().filter(|c| **c).count();
                    if depth > best.0 {
                        best = (depth, line.number);
                    }
                }
                b'}' => {
                    stack.pop();
                }
                _ => {}
            }
        }
    }
    best
}

fn starts_with_control(code: &str) -> bool {
    let word: String = code.chars().take_while(|c| c.is_alphanumeric()).collect();
    CONTROL.contains(&word.as_str()) || word == "do" || word == "case" && code.ends_with(':')
}

fn python_depth(lines: &[LexLine<'_>]) -> (usize, u32) {
    let mut stack: Vec<(usize, bool)> = Vec::new();
    let mut best = (0, 0);
    for line in lines.iter().skip(1) {
        let code = line.code();
        let head = code.trim();
        if head.is_empty() {
            continue;
        }
        let indent = indent_of(line.text);
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        if head.ends_with(':') {
            let depth = stack.iter().filter(|(_, c)| *c).count() + 1;
            let control = starts_with_control(head) || head.starts_with("finally");
            if control && depth > best.0 {
                best = (depth, line.number);
            }
            stack.push((indent, control));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexical::lex;

    #[test]
    fn python_functions_and_depth() {
        let text = "def a(x):\n    if x:\n        for y in x:\n            pass\n\n    return 1\n\nclass C:\n    async def b(self):\n        pass\nz = 1\n";
        let lines = lex(text, Language::Python);
        let spans: Vec<(String, u32, u32)> = functions(&lines, Language::Python)
            .into_iter()
            .map(|f| (f.name, f.start, f.end))
            .collect();
        assert_eq!(
            spans,
            vec![("a".to_string(), 1, 6), ("b".to_string(), 9, 10)]
        );
        assert_eq!(max_control_depth(&lines[..6], Language::Python), (2, 3));
        // Parameters on lines of their own, the closing bracket back at the def's indent.
        let wrapped = "def test_options(\n    app: Flask, client: Client\n) -> None:\n    rv = client.options()\n    assert rv.ok\n\nx = 1\n";
        let lines = lex(wrapped, Language::Python);
        let spans: Vec<(String, u32, u32)> = functions(&lines, Language::Python)
            .into_iter()
            .map(|f| (f.name, f.start, f.end))
            .collect();
        assert_eq!(spans, vec![("test_options".to_string(), 1, 5)]);
    }

    #[test]
    fn brace_functions_of_go_and_js() {
        let go = "func (s *S) Get(id string) (T, error) {\n\tif id == \"}\" {\n\t\treturn T{}, nil\n\t}\n\treturn T{}, nil\n}\nfunc decl()\n";
        let lines = lex(go, Language::Go);
        let spans: Vec<(String, u32, u32)> = functions(&lines, Language::Go)
            .into_iter()
            .map(|f| (f.name, f.start, f.end))
            .collect();
        assert_eq!(spans, vec![("Get".to_string(), 1, 6)]);
        assert_eq!(max_control_depth(&lines[..6], Language::Go), (1, 2));
        // A composite literal inside a call does not close the function.
        let literal = "func TestGroup(t *testing.T) {\n\troot.AddGroup(&Group{ID: \"g\"})\n\tif err != nil {\n\t\tt.Errorf(\"%v\", err)\n\t}\n}\n";
        let lines = lex(literal, Language::Go);
        let spans: Vec<(String, u32, u32)> = functions(&lines, Language::Go)
            .into_iter()
            .map(|f| (f.name, f.start, f.end))
            .collect();
        assert_eq!(spans, vec![("TestGroup".to_string(), 1, 6)]);
        let js = "export async function load({ id }) {\n  return id;\n}\nconst f = (a) => {\n  if (a) { return 1; }\n};\nclass K {\n  run(x) {\n    return x;\n  }\n}\n";
        let lines = lex(js, Language::JavaScript);
        let names: Vec<(String, u32, u32)> = functions(&lines, Language::JavaScript)
            .into_iter()
            .map(|f| (f.name, f.start, f.end))
            .collect();
        assert_eq!(
            names,
            vec![
                ("load".to_string(), 1, 3),
                ("f".to_string(), 4, 6),
                ("run".to_string(), 8, 10)
            ]
        );
    }
}
