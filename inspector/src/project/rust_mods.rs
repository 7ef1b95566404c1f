//! Rust module trees, lexically: the `mod name;` declarations of a file (with a preceding or
//! same-line `#[cfg(test)]` and `#[path = "…"]`), resolved to the files they load the way
//! rustc does, and the walk from a target's root file over every module it loads.

use super::{dir_of, join, Sources};

/// One out-of-line module declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModDecl {
    /// The module's name.
    pub(crate) name: String,
    /// Whether `#[cfg(test)]` (or `cfg(all(test, …))`) guards it.
    pub(crate) test_only: bool,
    /// Its `#[path = "…"]`, if any.
    pub(crate) path_attr: Option<String>,
    /// The inline modules it is declared in, outermost first.
    pub(crate) inline: Vec<String>,
}

/// The `mod name;` declarations of Rust source, read line by line: comments are skipped,
/// attributes on the lines before a declaration (or on its own line) apply to it, and a
/// declaration inside inline modules (`mod handlers { mod x; }`) carries their names, found by
/// counting the braces outside literals and comments.
pub(crate) fn declarations(text: &str) -> Vec<ModDecl> {
    let mut out = Vec::new();
    // Most files declare no module out of line: one search says so, without the line scan,
    // which stops after the last line that may be a declaration.
    let Some(last) = last_out_of_line_mod(text) else {
        return out;
    };
    let mut test_only = false;
    let mut path_attr: Option<String> = None;
    // Open inline modules: (name, brace depth inside it, test-only).
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        if offset > last {
            break;
        }
        offset += raw.len();
        let mut line = raw.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        // Outside inline modules only attributes and `mod` items matter.
        if inline.is_empty() && !line.starts_with('#') && !line.contains("mod ") {
            test_only = false;
            path_attr = None;
            continue;
        }
        // Attributes, possibly several, possibly before the item on the same line.
        while let Some(rest) = line.strip_prefix("#[") {
            let Some(end) = rest.find(']') else { break };
            let attr = &rest[..end];
            let compact: String = attr.chars().filter(|c| !c.is_whitespace()).collect();
            if let Some(cond) = compact
                .strip_prefix("cfg(")
                .and_then(|c| c.strip_suffix(')'))
            {
                test_only |= crate::rules::test_code::cfg_means_test(cond);
            } else if let Some(p) = compact.strip_prefix("path=") {
                path_attr = Some(p.trim_matches('"').to_string());
            }
            line = rest[end + 1..].trim_start();
        }
        if line.is_empty() {
            continue;
        }
        let inherited = inline.last().is_some_and(|(_, _, t)| *t);
        match mod_item(line) {
            Some((name, false)) => out.push(ModDecl {
                name: name.to_string(),
                test_only: test_only || inherited,
                path_attr: path_attr.take(),
                inline: inline.iter().map(|(n, _, _)| n.clone()).collect(),
            }),
            Some((name, true)) => {
                inline.push((name.to_string(), depth + 1, test_only || inherited))
            }
            None => {}
        }
        test_only = false;
        path_attr = None;
        // Braces are counted only inside inline modules: depth is relative to the outermost.
        if inline.is_empty() {
            depth = 0;
            continue;
        }
        for brace in braces(line) {
            if brace {
                depth += 1;
            } else {
                if inline.last().is_some_and(|(_, d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
        }
    }
    out
}

/// Where the last line of `text` that looks like `mod name;` starts, if any (a cheap necessary
/// condition for [`declarations`] to find anything there or before).
fn last_out_of_line_mod(text: &str) -> Option<usize> {
    text.match_indices("mod ")
        .filter_map(|(at, _)| {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            text.get(line_start..line_end)
                .and_then(|line| line.split("//").next())
                .is_some_and(|line| line.trim_end().ends_with(';'))
                .then_some(line_start)
        })
        .last()
}

/// The braces of a line outside string and character literals and a trailing comment, in
/// order: `true` opens, `false` closes.
fn braces(line: &str) -> impl Iterator<Item = bool> + '_ {
    let mut in_str = false;
    let mut escaped = false;
    let mut prev = ' ';
    let mut done = false;
    line.chars().filter_map(move |c| {
        if done {
            return None;
        }
        let last = std::mem::replace(&mut prev, c);
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            return None;
        }
        match c {
            '"' => in_str = true,
            '/' if last == '/' => done = true,
            '{' if last != '\'' => return Some(true),
            '}' if last != '\'' => return Some(false),
            _ => {}
        }
        None
    })
}

/// The name of `mod name;` or `mod name {` (after any visibility), with whether it is inline;
/// `None` for other lines.
fn mod_item(line: &str) -> Option<(&str, bool)> {
    let mut rest = line;
    if let Some(r) = rest.strip_prefix("pub") {
        rest = r.trim_start();
        if rest.starts_with('(') {
            rest = rest[rest.find(')')? + 1..].trim_start();
        }
    }
    let rest = rest.strip_prefix("mod ")?.trim_start();
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#'))?;
    let (name, after) = rest.split_at(end);
    let inline = match after.trim_start().chars().next() {
        Some(';') => false,
        Some('{') => true,
        _ => return None,
    };
    let name = name.strip_prefix("r#").unwrap_or(name);
    (!name.is_empty() && !name.contains('#')).then_some((name, inline))
}

/// The file a declaration in `parent` loads, when the repository holds it. A crate root or a
/// `mod.rs` keeps its modules beside it; any other file `a.rs` keeps them in `a/`.
pub(crate) fn resolve(
    src: &Sources<'_>,
    parent: &str,
    is_root: bool,
    decl: &ModDecl,
) -> Option<String> {
    let dir = dir_of(parent);
    if let Some(p) = &decl.path_attr {
        return join(dir, p).filter(|f| src.exists(f));
    }
    let name = parent.rsplit('/').next().unwrap_or(parent);
    let mut base = if is_root || name == "mod.rs" {
        dir.to_string()
    } else {
        format!("{dir}{}/", name.trim_end_matches(".rs"))
    };
    for module in &decl.inline {
        base = format!("{base}{module}/");
    }
    [
        format!("{base}{}.rs", decl.name),
        format!("{base}{}/mod.rs", decl.name),
    ]
    .into_iter()
    .find(|f| src.exists(f))
}

/// One file of a module tree: its path, the file that declared it, and whether a
/// `#[cfg(test)]` on the way from the root guards it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reached {
    /// The module's file.
    pub(crate) path: String,
    /// The file whose `mod` declaration loads it (`None` for the root).
    pub(crate) declared_in: Option<String>,
    /// The module's name in that declaration.
    pub(crate) name: String,
    /// Whether the module is test-only.
    pub(crate) test_only: bool,
}

/// Every file of the module tree rooted at `root` (the root first), each once.
pub(crate) fn tree(src: &Sources<'_>, root: &str) -> Vec<Reached> {
    let mut out = vec![Reached {
        path: root.to_string(),
        declared_in: None,
        name: String::new(),
        test_only: false,
    }];
    let mut next = 0;
    while let Some(current) = out.get(next).cloned() {
        next += 1;
        let Some(text) = src.text(&current.path) else {
            continue;
        };
        for decl in declarations(&text) {
            let Some(child) = resolve(src, &current.path, next == 1, &decl) else {
                continue;
            };
            if out.iter().any(|r| r.path == child) {
                continue;
            }
            out.push(Reached {
                path: child,
                declared_in: Some(current.path.clone()),
                name: decl.name.clone(),
                test_only: current.test_only || decl.test_only,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_carry_their_cfg_test_and_path_attributes() {
        let text = "//! doc\nmod a;\n#[cfg(test)]\nmod testutil;\n#[cfg(test)] pub(crate) mod helpers;\n#[path = \"x/y.rs\"]\npub mod z;\nmod handlers {\n    pub(crate) mod move_bounds;\n    fn f() { let s = \"}\"; }\n}\n// mod commented;\n#[cfg(all(test, unix))]\nmod u;\n#[cfg(test)]\nmod tests {\n    mod fixture;\n}\nmod last;\n";
        let got: Vec<(String, bool, Option<String>, Vec<String>)> = declarations(text)
            .into_iter()
            .map(|d| (d.name, d.test_only, d.path_attr, d.inline))
            .collect();
        let s = |x: &str| x.to_string();
        assert_eq!(
            got,
            vec![
                (s("a"), false, None, vec![]),
                (s("testutil"), true, None, vec![]),
                (s("helpers"), true, None, vec![]),
                (s("z"), false, Some(s("x/y.rs")), vec![]),
                (s("move_bounds"), false, None, vec![s("handlers")]),
                (s("u"), true, None, vec![]),
                (s("fixture"), true, None, vec![s("tests")]),
                (s("last"), false, None, vec![]),
            ]
        );
    }
}
