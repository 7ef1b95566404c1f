//! Q4: incomplete syntax in a changed file. Rust is parsed with `syn` (the parser the
//! Inspectors' `quality/incomplete-syntax` uses), JSON, TOML and YAML with their parsers;
//! C-like languages (Go, TypeScript, JavaScript, …) get a bracket balance check that skips
//! strings and comments, Python its own structural check (`python.rs`). Other files (prose,
//! shell) are not judged here: no cheap check is sound.

mod python;

/// The first syntax problem in `text`, as (1-based line when known, description); `None` when
/// the file parses or its language is not checked.
pub fn syntax_problem(path: &str, text: &str) -> Option<(Option<usize>, String)> {
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        "rs" => syn::parse_file(text).err().map(|e| {
            (
                Some(e.span().start().line),
                format!("Rust does not parse: {e}"),
            )
        }),
        "json" => serde_json::from_str::<serde_json::Value>(text)
            .err()
            .map(|e| (Some(e.line()), format!("JSON does not parse: {e}"))),
        "toml" => toml::from_str::<toml::Table>(text)
            .err()
            .map(|e| (None, format!("TOML does not parse: {}", e.message()))),
        "yaml" | "yml" => serde_yaml::from_str::<serde_yaml::Value>(text)
            .err()
            .map(|e| {
                let line = e.location().map(|l| l.line());
                (line, format!("YAML does not parse: {e}"))
            }),
        "py" | "pyi" => python::python_problem(text),
        "c" | "h" | "cc" | "cpp" | "hpp" | "cs" | "go" | "java" | "js" | "jsx" | "ts" | "tsx"
        | "mjs" | "kt" | "swift" | "scala" | "css" | "scss" => bracket_problem(text),
        _ => None,
    }
}

/// The first unbalanced bracket outside strings and comments.
fn bracket_problem(text: &str) -> Option<(Option<usize>, String)> {
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                    }
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            '"' | '\'' | '`' => {
                let mut escaped = false;
                for n in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                        // Only template literals span lines; a broken quote ends at the line.
                        if c != '`' {
                            break;
                        }
                    }
                    if escaped {
                        escaped = false;
                    } else if n == '\\' {
                        escaped = true;
                    } else if n == c {
                        break;
                    }
                }
            }
            '(' | '[' | '{' => stack.push((c, line)),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match stack.pop() {
                    Some((open, _)) if open == want => {}
                    Some((open, at)) => {
                        return Some((
                            Some(line),
                            format!("'{c}' closes '{open}' opened on line {at}"),
                        ))
                    }
                    None => return Some((Some(line), format!("unmatched '{c}'"))),
                }
            }
            _ => {}
        }
    }
    stack
        .pop()
        .map(|(open, at)| (Some(at), format!("'{open}' opened here is never closed")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_is_parsed_and_the_line_named() {
        assert_eq!(syntax_problem("src/a.rs", "fn a() -> u8 { 1 }\n"), None);
        let (line, what) = syntax_problem("src/a.rs", "fn a() {\n    let x = 1;\n").expect("bad");
        assert!(what.starts_with("Rust does not parse"), "{what}");
        assert!(line.is_some());
    }

    #[test]
    fn data_formats_are_parsed() {
        assert_eq!(syntax_problem("a.json", "{\"a\": 1}"), None);
        assert_eq!(
            syntax_problem("a.json", "{\"a\": 1").map(|p| p.0),
            Some(Some(1))
        );
        assert!(syntax_problem("Cargo.toml", "[package\nname = 1").is_some());
        assert_eq!(
            syntax_problem("Cargo.toml", "[package]\nname = \"x\"\n"),
            None
        );
        assert!(syntax_problem("a.yaml", "a: [1, 2").is_some());
    }

    #[test]
    fn c_like_brackets_ignore_strings_and_comments() {
        let ok = "function f(a) {\n  const s = \"}\"; // )\n  /* { */ return `${a}`;\n}\n";
        assert_eq!(syntax_problem("a.js", ok), None);
        assert_eq!(
            syntax_problem("a.ts", "function f() {\n  if (x) {\n}\n"),
            Some((Some(1), "'{' opened here is never closed".to_string()))
        );
        assert_eq!(
            syntax_problem("a.go", "func f() {\n  g(]\n}\n"),
            Some((Some(2), "']' closes '(' opened on line 2".to_string()))
        );
        assert_eq!(syntax_problem("notes.md", "("), None);
    }
}
