//! Python without a Python parser: the mistakes an executor's cut-off or half-edited file shows
//! — a bracket or string left open, a block header (`def`, `if`, `class`, …) without its
//! colon, a header whose block never comes, an indented line where no block was opened, or a
//! dedent to a column no enclosing block had. Each is a syntax error to CPython too, so a file
//! it flags never runs; what it cannot see (a misspelt keyword) the optional Q7–Q9 commands
//! and the re-review still catch.

/// Keywords that open a block and need a trailing `:` on their logical line.
const BLOCK_KEYWORDS: [&str; 12] = [
    "def", "class", "if", "elif", "else", "for", "while", "try", "except", "finally", "with",
    "async",
];

/// One logical line: its first physical line (1-based), indentation and code without comments
/// and with string contents blanked.
struct Logical {
    line: usize,
    indent: usize,
    code: String,
}

/// The first syntax problem, as (line, description).
pub(super) fn python_problem(text: &str) -> Option<(Option<usize>, String)> {
    let logical = match logical_lines(text) {
        Ok(lines) => lines,
        Err(problem) => return Some(problem),
    };
    let mut stack: Vec<usize> = vec![0];
    let mut expect_block: Option<&Logical> = None;
    for line in &logical {
        let top = *stack.last().unwrap_or(&0);
        if let Some(header) = expect_block.take() {
            if line.indent <= header.indent {
                return Some((
                    Some(header.line),
                    format!("`{}` opens a block that has no body", clip(&header.code)),
                ));
            }
            stack.push(line.indent);
        } else if line.indent > top {
            return Some((Some(line.line), "unexpected indent".to_string()));
        } else if line.indent < top {
            while stack.last().is_some_and(|&i| i > line.indent) {
                stack.pop();
            }
            if stack.last() != Some(&line.indent) {
                return Some((
                    Some(line.line),
                    "unindent does not match any outer indentation level".to_string(),
                ));
            }
        }
        let code = line.code.trim_end();
        let keyword = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if BLOCK_KEYWORDS.contains(&keyword)
            && !is_simple_async(code)
            && !code.ends_with(':')
            && !has_inline_body(code)
        {
            return Some((
                Some(line.line),
                format!("`{}` lacks the `:` that opens its block", clip(code)),
            ));
        }
        // A logical line that ends in `:` outside brackets opens a block, whatever its first
        // word (`match x:` and `case 1:` too, whose words are also plain names elsewhere).
        if code.ends_with(':') {
            expect_block = Some(line);
        }
    }
    expect_block.map(|header| {
        (
            Some(header.line),
            format!("`{}` opens a block that has no body", clip(&header.code)),
        )
    })
}

/// `async` followed by something other than `def`/`for`/`with` is not a header (a name).
fn is_simple_async(code: &str) -> bool {
    code.strip_prefix("async")
        .map(str::trim_start)
        .is_some_and(|rest| !["def", "for", "with"].iter().any(|k| rest.starts_with(k)))
}

/// `if x: return 1` — a header with its body on the same line.
fn has_inline_body(code: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in code.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            // `lambda x: …` inside the header is not the block's colon; a body after the
            // colon is, when something follows it.
            ':' if depth == 0 && !code[i + 1..].trim().is_empty() => {
                return !code[..i].contains("lambda")
            }
            _ => {}
        }
    }
    false
}

/// Splits `text` into logical lines (brackets and backslashes join physical lines, strings
/// span lines only when triple-quoted); an unclosed bracket or string is the error.
fn logical_lines(text: &str) -> Result<Vec<Logical>, (Option<usize>, String)> {
    let mut out = Vec::new();
    let mut brackets: Vec<(char, usize)> = Vec::new();
    let mut current: Option<Logical> = None;
    let mut line = 1;
    let mut at_line_start = true;
    let mut indent = 0;
    let mut chars = text.chars().peekable();
    let mut continued = false;
    while let Some(c) = chars.next() {
        if at_line_start {
            if c == ' ' || c == '\t' {
                indent += if c == '\t' { 8 - indent % 8 } else { 1 };
                continue;
            }
            at_line_start = false;
        }
        let entry = current.get_or_insert_with(|| Logical {
            line,
            indent,
            code: String::new(),
        });
        match c {
            '\n' => {
                line += 1;
                if brackets.is_empty() && !continued {
                    if let Some(done) = current.take() {
                        if !done.code.trim().is_empty() {
                            out.push(done);
                        }
                    }
                    at_line_start = true;
                    indent = 0;
                } else {
                    entry.code.push(' ');
                }
                continued = false;
            }
            '\\' if chars.peek() == Some(&'\n') => continued = true,
            '#' => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '"' | '\'' => {
                let triple = chars.peek() == Some(&c) && {
                    let mut ahead = chars.clone();
                    ahead.next();
                    ahead.peek() == Some(&c)
                };
                if triple {
                    chars.next();
                    chars.next();
                }
                let opened = line;
                let mut escaped = false;
                let mut run = 0;
                let mut closed = false;
                for n in chars.by_ref() {
                    if n == '\n' {
                        line += 1;
                        if !triple && !escaped {
                            return Err((
                                Some(opened),
                                "a string opened here is never closed".to_string(),
                            ));
                        }
                    }
                    if escaped {
                        escaped = false;
                        run = 0;
                        continue;
                    }
                    if n == '\\' {
                        escaped = true;
                        run = 0;
                    } else if n == c {
                        run += 1;
                        if !triple || run == 3 {
                            closed = true;
                            break;
                        }
                    } else {
                        run = 0;
                    }
                }
                if !closed {
                    return Err((
                        Some(opened),
                        "a string opened here is never closed".to_string(),
                    ));
                }
                entry.code.push_str("\"\"");
            }
            '(' | '[' | '{' => {
                brackets.push((c, line));
                entry.code.push(c);
            }
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match brackets.pop() {
                    Some((open, _)) if open == want => entry.code.push(c),
                    Some((open, at)) => {
                        return Err((
                            Some(line),
                            format!("'{c}' closes '{open}' opened on line {at}"),
                        ))
                    }
                    None => return Err((Some(line), format!("unmatched '{c}'"))),
                }
            }
            _ => entry.code.push(c),
        }
    }
    if let Some((open, at)) = brackets.pop() {
        return Err((Some(at), format!("'{open}' opened here is never closed")));
    }
    if let Some(done) = current.take() {
        if !done.code.trim().is_empty() {
            out.push(done);
        }
    }
    Ok(out)
}

fn clip(code: &str) -> String {
    const MAX: usize = 60;
    let code = code.trim();
    match code.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &code[..i]),
        None => code.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_python_passes() {
        let ok = "import os\n\n\nclass A(Base):\n    \"\"\"Doc with ( and '.\"\"\"\n\n    def f(self, x: int) -> int:  # note (\n        if x: return 1\n        d = {\n            'a': [1, 2],\n        }\n        s = 'it\\'s'\n        return len(d) + \\\n            x\n\n\nasync def g():\n    async with lock:\n        pass\n\nf = lambda x: x\nasync_mode = True\nmatch = 1\nmatch command:\n    case [x, *rest]:\n        pass\n    case _:\n        pass\n";
        assert_eq!(python_problem(ok), None);
    }

    #[test]
    fn cut_off_and_malformed_python_is_named_with_its_line() {
        assert_eq!(
            python_problem("def f(x:\n    return x\n"),
            Some((Some(1), "'(' opened here is never closed".to_string()))
        );
        assert_eq!(
            python_problem("def f(x)\n    return x\n"),
            Some((
                Some(1),
                "`def f(x)` lacks the `:` that opens its block".to_string()
            ))
        );
        assert_eq!(
            python_problem("def f():\n    if x:\n\nprint(1)\n"),
            Some((
                Some(2),
                "`if x:` opens a block that has no body".to_string()
            ))
        );
        assert_eq!(
            python_problem("x = 1\n    y = 2\n"),
            Some((Some(2), "unexpected indent".to_string()))
        );
        assert_eq!(
            python_problem("def f():\n        a = 1\n    b = 2\n"),
            Some((
                Some(3),
                "unindent does not match any outer indentation level".to_string()
            ))
        );
        assert_eq!(
            python_problem("s = 'open\nt = 1\n"),
            Some((Some(1), "a string opened here is never closed".to_string()))
        );
        assert_eq!(
            python_problem("class A:\n    def f(self):\n"),
            Some((
                Some(2),
                "`def f(self):` opens a block that has no body".to_string()
            ))
        );
    }
}
