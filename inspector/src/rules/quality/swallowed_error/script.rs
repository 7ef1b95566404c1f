//! Swallowed errors in Python (`except: pass`) and TypeScript/JavaScript (`catch (e) {}`,
//! `.catch(() => {})`), at the text level over comment- and string-aware lines.
//!
//! Python flags only bare and broad handlers (`except:`, `except Exception`, `except
//! BaseException`): `except KeyError: pass` is a common, deliberate way to say "absent is fine".

use super::Swallow;
use crate::engine::Language;
use crate::rules::lexical::{find_word, lex, Seg};

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
        if body_is_pass {
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
            if !body.trim_start().starts_with('}') {
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

fn previous_code(lines: &[crate::rules::lexical::LexLine<'_>]) -> String {
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
}
