//! Swallowed errors in Python (`except: pass`) and TypeScript/JavaScript (`catch (e) {}`,
//! `.catch(() => {})`), at the text level over comment- and string-aware lines.
//!
//! Python flags only bare and broad handlers (`except:`, `except Exception`, `except
//! BaseException`): `except KeyError: pass` is a common, deliberate way to say "absent is fine".
//!
//! A parse attempt is not a swallow: a short `try` whose body parses ([`PARSE_CALLS`]: `try {
//! u = new URL(x) } catch {}`, `try: n = int(x) except Exception: pass`) leaves the fallback in
//! place when the input does not parse. Nor is a `try { …; return … } catch {}` that ends its
//! function (the caller gets `undefined` as the "no" answer), nor a handler with a comment
//! (lint directives included) just before its `catch`.

use super::Swallow;
use crate::engine::Language;
use crate::lexical::{find_word, lex, Seg};

/// Calls that parse or convert their input: the failure of the attempt is the answer "not of
/// that form".
const PARSE_CALLS: [&str; 19] = [
    "new URL(",
    "JSON.parse(",
    "parseInt(",
    "parseFloat(",
    "new RegExp(",
    "decodeURIComponent(",
    "decodeURI(",
    "BigInt(",
    "atob(",
    "int(",
    "float(",
    "json.loads(",
    "Decimal(",
    "strptime(",
    "fromisoformat(",
    "ip_address(",
    "literal_eval(",
    "urlparse(",
    "parse(",
];

/// Whether a `try` body of these code lines is a short parse attempt (at most two statements,
/// one of them a call of [`PARSE_CALLS`]).
fn is_parse_attempt(code: &[&str]) -> bool {
    let statements: Vec<&str> = code
        .iter()
        .flat_map(|l| l.split(';'))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    statements.len() <= 2
        && statements
            .iter()
            .any(|st| PARSE_CALLS.iter().any(|p| contains_call(st, p)))
}

/// Whether `code` calls `call` (`int(` matches `int(x)` but not `print(`).
fn contains_call(code: &str, call: &str) -> bool {
    code.match_indices(call).any(|(at, _)| {
        !call.starts_with(char::is_alphabetic)
            || !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// `except: pass` and `except Exception: pass` handlers whose whole body is `pass`.
pub(super) fn find_python(text: &str) -> Vec<Swallow> {
    let lines = lex(text, Language::Python);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let Some(clause) = code.trim_start().strip_prefix("except") else {
            continue;
        };
        let Some((caught, inline_body)) = clause.split_once(':') else {
            continue;
        };
        let caught = caught.split(" as ").next().unwrap_or_default().trim();
        let broad = matches!(
            caught.trim_matches(['(', ')']),
            "" | "Exception" | "BaseException"
        );
        if !broad || line.has_comment() {
            continue;
        }
        let indent = indent_of(line.text);
        let body_is_pass = if inline_body.trim().is_empty() {
            let mut body = lines[i + 1..].iter().filter(|l| !l.text.trim().is_empty());
            match (body.next(), body.next()) {
                (Some(first), next) => {
                    first.code().trim() == "pass"
                        && !first.has_comment()
                        && indent_of(first.text) > indent
                        && next.is_none_or(|n| indent_of(n.text) <= indent)
                }
                (None, _) => false,
            }
        } else {
            inline_body.trim() == "pass"
        };
        let attempt = try_body(&lines[..i], indent);
        let attempt: Vec<&str> = attempt.iter().map(String::as_str).collect();
        if body_is_pass && !is_parse_attempt(&attempt) {
            let shown = if caught.is_empty() {
                "except:".to_string()
            } else {
                format!("except {caught}:")
            };
            found.push(Swallow {
                line: line.number,
                what: format!("`{shown} pass` ignores every exception"),
                key: format!("{shown} pass after {}", previous_code(&lines[..i])),
            });
        }
    }
    found
}

/// The code lines of the `try:` body that ends just before the handler at `indent`.
fn try_body(before: &[crate::lexical::LexLine<'_>], indent: usize) -> Vec<String> {
    let mut body = Vec::new();
    for line in before.iter().rev() {
        let code = line.code();
        if code.trim().is_empty() {
            continue;
        }
        if indent_of(line.text) <= indent {
            return if code.trim() == "try:" {
                body
            } else {
                Vec::new()
            };
        }
        body.push(code);
    }
    Vec::new()
}

/// Whether the empty `catch` at `at` in `flat` follows a deliberate `try` (a comment before
/// the `catch`, a parse attempt, or a body ending in `return` at the end of its function);
/// `after` is the text after the empty handler.
fn deliberate_try(flat: &str, at: usize, after: &str) -> bool {
    let before = flat[..at].trim_end();
    let Some(block) = before.strip_suffix('}') else {
        return false;
    };
    let Some(open) = block_start(block) else {
        return false;
    };
    if !block[..open].trim_end().ends_with("try") {
        return false;
    }
    let body = &block[open + 1..];
    if body.trim_end().ends_with('\u{1}') {
        return true;
    }
    let lines: Vec<&str> = body.lines().collect();
    let returns_last = lines
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with("return ") || l.starts_with("return;"));
    let ends_function = after.trim_start().starts_with('}');
    (returns_last && ends_function) || is_parse_attempt(&lines)
}

/// The byte index of the `{` that opens the block `text` ends inside of.
fn block_start(text: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text.char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth == 0 => return Some(i),
            '{' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Empty `catch` blocks and `.catch()` callbacks with an empty body.
pub(super) fn find_js(text: &str, lang: Language) -> Vec<Swallow> {
    // One flat string of code: literals as `""`, each comment as '\u{1}' so that a comment
    // inside a handler makes it non-empty.
    let mut flat = String::with_capacity(text.len());
    let mut line_starts = Vec::new();
    for line in lex(text, lang) {
        line_starts.push(flat.len());
        for seg in &line.segs {
            match seg {
                Seg::Code(c) => flat.push_str(c),
                Seg::Str(_) => flat.push_str("\"\""),
                Seg::Comment(_) => flat.push('\u{1}'),
            }
        }
        flat.push('\n');
    }
    let line_of = |at: usize| line_starts.partition_point(|&s| s <= at) as u32;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = find_word(&flat[from..], "catch").map(|p| p + from) {
        from = at + "catch".len();
        let method = flat[..at].trim_end().ends_with('.');
        let rest = flat[from..].trim_start();
        let what = if method {
            let Some(args) = rest.strip_prefix('(').and_then(|r| balanced(r, '(', ')')) else {
                continue;
            };
            if !is_empty_callback(args) {
                continue;
            }
            "`.catch()` with an empty callback ignores the rejection"
        } else {
            let after_param = match rest.strip_prefix('(') {
                Some(r) => match balanced(r, '(', ')') {
                    Some(param) => r[param.len() + 1..].trim_start(),
                    None => continue,
                },
                None => rest,
            };
            let Some(body) = after_param.strip_prefix('{') else {
                continue;
            };
            let Some(after) = body.trim_start().strip_prefix('}') else {
                continue;
            };
            if deliberate_try(&flat, at, after) {
                continue;
            }
            "an empty `catch` block"
        };
        let line = line_of(at);
        found.push(Swallow {
            line,
            what: what.to_string(),
            key: format!("{what} after {}", previous_line(text, line)),
        });
    }
    found
}

/// The text up to the `close` that balances an already-consumed `open`.
fn balanced(text: &str, open: char, close: char) -> Option<&str> {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(&text[..i]);
            }
        }
    }
    None
}

/// `() => {}`, `e => {}`, `(_e) => {}`, `function () {}`.
fn is_empty_callback(args: &str) -> bool {
    let compact: String = args.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some((params, body)) = compact.split_once("=>") {
        return body == "{}" && !params.contains(['{', '\u{1}']);
    }
    compact.starts_with("function") && compact.ends_with("){}")
}

/// The trimmed text of the line before 1-based `line`.
fn previous_line(text: &str, line: u32) -> &str {
    (line as usize)
        .checked_sub(2)
        .and_then(|i| text.lines().nth(i))
        .unwrap_or_default()
        .trim()
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn previous_code(lines: &[crate::lexical::LexLine<'_>]) -> String {
    lines
        .iter()
        .rev()
        .map(|l| l.code().trim().to_string())
        .find(|c| !c.is_empty())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::super::SwallowedError;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_broad_except_pass_and_empty_catch() {
        let py = "def load():\n    try:\n        read()\n    except:\n        pass\n    try:\n        read()\n    except Exception as e: pass\n";
        assert_eq!(
            hits(&SwallowedError, "app/load.py", py),
            vec![
                (4, "`except: pass` ignores every exception: the error is swallowed silently".to_string()),
                (8, "`except Exception: pass` ignores every exception: the error is swallowed silently".to_string()),
            ]
        );
        let js = "try {\n  run();\n} catch (e) {\n}\ntry { run(); } catch {}\nfetch(u).catch(() => {});\n";
        let lines: Vec<u32> = hits(&SwallowedError, "web/a.js", js)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![3, 5, 6]);
    }

    #[test]
    fn quiet_on_narrow_handlers_real_bodies_and_comments() {
        let py = "try:\n    import ujson\nexcept ImportError:\n    pass\ntry:\n    x()\nexcept Exception:\n    pass  # optional feature\ntry:\n    y()\nexcept Exception:\n    pass\n    log()\n";
        assert!(hits(&SwallowedError, "app/a.py", py).is_empty());
        let ts = "try { run(); } catch (e) { log(e); }\ntry { run(); } catch {\n  // offline is fine\n}\np.catch((e) => { report(e); });\nconst s = \"catch {}\";\n";
        assert!(hits(&SwallowedError, "web/a.ts", ts).is_empty());
        assert!(hits(&SwallowedError, "web/a.test.ts", "try {} catch {}\n").is_empty());
    }

    #[test]
    fn quiet_on_parse_attempts_lone_returns_and_commented_trys() {
        let ts = "function host(x) {\n  let u = null;\n  try { u = new URL(x); } catch {}\n  return u;\n}\nasync function isMember(user) {\n  try {\n    return (await api.get(user)).status === 204;\n  } catch (e) {\n  }\n}\nasync function latest() {\n  try {\n    const {stdout} = await run('git tag');\n    return stdout.split('/').pop();\n  } catch (e) {}\n}\nif (!known) {\n  try {\n    n = await length(data);\n    /*eslint no-empty:0*/\n  } catch (e) {\n  }\n}\n";
        assert!(hits(&SwallowedError, "web/url.ts", ts).is_empty());
        let py = "def port(x):\n    n = 80\n    try:\n        n = int(x)\n    except Exception:\n        pass\n    return n\n";
        assert!(hits(&SwallowedError, "app/port.py", py).is_empty());
        // A try that does more than parse, or a return in the middle of a function, still fires.
        let ts = "function f(x) {\n  try { save(x); } catch {}\n  try {\n    return load(x);\n  } catch (e) {}\n  log();\n}\n";
        let lines: Vec<u32> = hits(&SwallowedError, "web/f.ts", ts)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![2, 5]);
        let py = "def load(x):\n    try:\n        n = int(x)\n        save(n)\n        notify(n)\n    except Exception:\n        pass\n";
        assert_eq!(hits(&SwallowedError, "app/load.py", py).len(), 1);
    }
}
