//! The public surface of a Python or TypeScript module, read from its top-level statements,
//! for `public_api`'s comparison: Python's top-level `def`s and `class`es whose names do not
//! start with `_` (or those `__all__` lists), TypeScript's `export`ed functions, classes,
//! constants, interfaces, types and enums. A function is its parameters: Python callers may
//! pass any of them by name, so a parameter gone, a new one without a default, or one that
//! lost its default breaks them; TypeScript checks arity, so a new required parameter or
//! fewer parameters break callers (a changed annotation may widen and is not compared). Go's
//! exported (capitalised) top-level functions, methods of exported types, types, constants and
//! variables: a function is its parameter and result types, which every caller depends on.

use super::public_api::{Api, Surface};

/// One parameter of a script function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ScriptParam {
    /// Its name (`*args`, `**kwargs` keep their stars).
    pub(super) name: String,
    /// Whether a caller must pass it (no default, not optional, not variadic).
    pub(super) required: bool,
}

/// The top-level parameter list of a call signature starting at `open` (the index of `(`):
/// the text between the parentheses, split at depth-0 commas; `None` when it never closes.
fn params_text(text: &str, open: usize) -> Option<(Vec<String>, usize)> {
    let mut depth = 0i32;
    let mut parts = Vec::new();
    let mut current = String::new();
    for (i, ch) in text[open..].char_indices() {
        match ch {
            '(' | '[' | '{' | '<' => {
                depth += 1;
                if depth > 1 {
                    current.push(ch);
                }
            }
            ')' | ']' | '}' | '>' => {
                // `=>` in a default is not a closing bracket.
                if ch == '>' && current.ends_with('=') {
                    current.push(ch);
                    continue;
                }
                depth -= 1;
                if depth == 0 {
                    if !current.trim().is_empty() {
                        parts.push(current.trim().to_string());
                    }
                    return Some((parts, open + i));
                }
                current.push(ch);
            }
            ',' if depth == 1 => parts.push(std::mem::take(&mut current).trim().to_string()),
            _ if depth >= 1 => current.push(ch),
            _ => {}
        }
    }
    None
}

/// 1-based line of byte `at` in `text`.
fn line_at(text: &str, at: usize) -> u32 {
    text[..at].matches('\n').count() as u32 + 1
}

/// The public surface of a Python module.
pub(super) fn python(text: &str) -> Surface {
    let listed = dunder_all(text);
    let public = |name: &str| match &listed {
        Some(all) => all.iter().any(|n| n == name),
        None => !name.starts_with('_'),
    };
    let mut out = Surface::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let rest = line.strip_prefix("async ").unwrap_or(line);
        if let Some(def) = rest.strip_prefix("def ") {
            let name: String = def
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let Some(open) = line.find('(').map(|i| start + i) else {
                continue;
            };
            if !public(&name) {
                continue;
            }
            let Some((parts, _)) = params_text(text, open) else {
                continue;
            };
            let params = parts
                .iter()
                .filter(|p| *p != "/" && *p != "*")
                .map(|p| {
                    let head = p.split(['=', ':']).next().unwrap_or(p).trim().to_string();
                    ScriptParam {
                        required: !p.contains('=') && !head.starts_with('*'),
                        name: head,
                    }
                })
                .collect();
            out.insert(
                format!("def {name}"),
                (
                    Api::Callable {
                        params,
                        by_name: true,
                    },
                    line_at(text, start),
                ),
            );
        } else if let Some(class) = line.strip_prefix("class ") {
            let name: String = class
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if public(&name) {
                out.insert(
                    format!("class {name}"),
                    (Api::Present, line_at(text, start)),
                );
            }
        }
    }
    out
}

/// The names a module's `__all__ = [...]` lists, when it has one.
fn dunder_all(text: &str) -> Option<Vec<String>> {
    let at = text
        .find("\n__all__")
        .map(|i| i + 1)
        .or_else(|| text.starts_with("__all__").then_some(0))?;
    let open = at + text[at..].find(['[', '('])?;
    let close = open + text[open..].find([']', ')'])?;
    Some(
        text[open + 1..close]
            .split(',')
            .map(|n| n.trim().trim_matches(['"', '\'']).to_string())
            .filter(|n| !n.is_empty())
            .collect(),
    )
}

/// The public surface of a TypeScript module: its top-level exports.
pub(super) fn typescript(text: &str) -> Surface {
    let mut out = Surface::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(rest) = line.strip_prefix("export ") else {
            continue;
        };
        let mut words = rest
            .split(|c: char| {
                c.is_whitespace() || c == '(' || c == '<' || c == ':' || c == '=' || c == '{'
            })
            .filter(|w| !w.is_empty())
            .skip_while(|w| matches!(*w, "default" | "declare" | "async" | "abstract"));
        let (Some(kind), Some(name)) = (words.next(), words.next()) else {
            continue;
        };
        let kind = kind.trim_end_matches('*');
        let key = format!("export {kind} {name}");
        let line_no = line_at(text, start);
        match kind {
            "function" => {
                let Some(open) = line.find('(').map(|i| start + i) else {
                    continue;
                };
                let Some((parts, _)) = params_text(text, open) else {
                    continue;
                };
                let params = parts
                    .iter()
                    .map(|p| {
                        let head = p.split([':', '=']).next().unwrap_or(p).trim();
                        ScriptParam {
                            name: head.trim_end_matches('?').to_string(),
                            required: !head.ends_with('?')
                                && !p.contains('=')
                                && !head.starts_with("..."),
                        }
                    })
                    .collect();
                out.insert(
                    key,
                    (
                        Api::Callable {
                            params,
                            by_name: false,
                        },
                        line_no,
                    ),
                );
            }
            "class" | "const" | "let" | "var" | "interface" | "type" | "enum" => {
                out.insert(key, (Api::Present, line_no));
            }
            _ => {}
        }
    }
    out
}

/// The public surface of a Go file: its exported top-level declarations (grouped `const (`,
/// `var (` and `type (` blocks included), keyed `go:func Name`, `go:func (T) Name`, `go:type
/// Name` so that they never meet a Rust item's key.
pub(super) fn go(text: &str) -> Surface {
    let exported = |name: &str| name.chars().next().is_some_and(char::is_uppercase);
    let mut out = Surface::new();
    let mut offset = 0;
    let mut group: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let line_no = line_at(text, start);
        if let Some(kind) = group {
            if line.starts_with(')') {
                group = None;
            } else if line.starts_with(['\t', ' ']) {
                let name = ident(line.trim_start());
                if exported(&name) {
                    out.insert(format!("go:{kind} {name}"), (Api::Present, line_no));
                }
            }
            continue;
        }
        let Some((kind, rest)) = line.split_once(' ') else {
            continue;
        };
        match kind {
            "func" => {
                if let Some((key, api)) = go_func(text, start, rest) {
                    if exported(key.rsplit(' ').next().unwrap_or_default()) {
                        out.insert(key, (api, line_no));
                    }
                }
            }
            "const" | "var" | "type" if rest.trim_start().starts_with('(') => group = Some(kind),
            "const" | "var" | "type" => {
                let name = ident(rest);
                if exported(&name) {
                    out.insert(format!("go:{kind} {name}"), (Api::Present, line_no));
                }
            }
            _ => {}
        }
    }
    out
}

/// A Go `func` declaration starting at byte `start` (`rest` after `func `): its key (`func
/// Name`, `func (T) Name` for a method of an exported type) and its signature.
fn go_func(text: &str, start: usize, rest: &str) -> Option<(String, Api)> {
    let mut at = start + "func ".len();
    let mut receiver = None;
    if rest.starts_with('(') {
        let (parts, close) = params_text(text, at)?;
        let ty = go_types(&parts).into_iter().next()?;
        let ty = ty.trim_start_matches('*');
        let ty = ty.split('[').next().unwrap_or(ty).to_string();
        if !ty.chars().next().is_some_and(char::is_uppercase) {
            return None;
        }
        receiver = Some(ty);
        at = close + 1;
    }
    let tail = &text[at..];
    let name = ident(tail.trim_start());
    let mut open = at + tail.find(['(', '['])?;
    let mut generics = String::new();
    if text[open..].starts_with('[') {
        let close = open + text[open..].find(']')?;
        generics = text[open + 1..close]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        open = close + 1 + text[close + 1..].find('(')?;
    }
    let (parts, close) = params_text(text, open)?;
    let end = text[close + 1..]
        .find(['{', '\n'])
        .map_or(text.len(), |i| close + 1 + i);
    // Written as the Rust comparison writes types: no space after a comma.
    let ret = text[close + 1..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(", ", ",");
    let key = match &receiver {
        Some(ty) => format!("go:func ({ty}) {name}"),
        None => format!("go:func {name}"),
    };
    let api = Api::Fn {
        params: go_types(&parts)
            .into_iter()
            .map(|t| t.replace(", ", ","))
            .collect(),
        ret,
        generics,
        receiver,
    };
    Some((key, api))
}

/// The types of a Go parameter list's parts: named (`a, b int` — a name without a type takes
/// the next one's) or unnamed (`int, string`).
fn go_types(parts: &[String]) -> Vec<String> {
    let named = parts.iter().any(|p| p.trim().contains(char::is_whitespace));
    if !named {
        return parts.iter().map(|p| p.trim().to_string()).collect();
    }
    let mut types = Vec::with_capacity(parts.len());
    let mut next = String::new();
    for p in parts.iter().rev() {
        if let Some((_, ty)) = p.trim().split_once(char::is_whitespace) {
            next = ty.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        types.push(next.clone());
    }
    types.reverse();
    types
}

/// The identifier `text` starts with.
fn ident(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// What breaks between two parameter lists of a Python function (`by_name`) or a TypeScript
/// one (arity only).
pub(super) fn params_break(was: &[ScriptParam], now: &[ScriptParam], by_name: bool) -> Vec<String> {
    let mut out = Vec::new();
    let names = |ps: &[ScriptParam]| {
        ps.iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if by_name {
        let open_kwargs = now.iter().any(|p| p.name.starts_with("**"));
        for p in was.iter().filter(|p| !p.name.starts_with('*')) {
            match now.iter().find(|q| q.name == p.name) {
                None if !open_kwargs => out.push(format!("its parameter `{}` is gone", p.name)),
                Some(q) if q.required && !p.required => {
                    out.push(format!("its parameter `{}` lost its default", p.name))
                }
                _ => {}
            }
        }
        for q in now
            .iter()
            .filter(|q| q.required && !was.iter().any(|p| p.name == q.name))
        {
            out.push(format!("it takes a new required parameter `{}`", q.name));
        }
        let positional = |ps: &[ScriptParam]| -> Vec<String> {
            ps.iter()
                .filter(|p| !p.name.starts_with('*'))
                .map(|p| p.name.clone())
                .collect()
        };
        let (a, b) = (positional(was), positional(now));
        let kept: Vec<&String> = b.iter().filter(|n| a.contains(n)).collect();
        let before: Vec<&String> = a.iter().filter(|n| b.contains(n)).collect();
        if kept != before {
            out.push(format!(
                "its parameters were reordered from ({}) to ({})",
                names(was),
                names(now)
            ));
        }
    } else {
        let required = |ps: &[ScriptParam]| ps.iter().filter(|p| p.required).count();
        let variadic = now.iter().any(|p| p.name.starts_with("..."));
        if required(now) > required(was) {
            out.push(format!(
                "it requires {} argument(s) where it required {}: ({}) → ({})",
                required(now),
                required(was),
                names(was),
                names(now)
            ));
        }
        if now.len() < was.len() && !variadic {
            out.push(format!(
                "it takes {} parameter(s) where it took {}: a call passing {} no longer compiles",
                now.len(),
                was.len(),
                was.len()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
