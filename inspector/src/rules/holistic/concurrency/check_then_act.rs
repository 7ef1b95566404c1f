//! `holistic/file-check-then-act`: a path is found absent (`!p.exists()`, `not
//! os.path.exists(p)`) and then written in the branch that test chose, with a call that
//! creates or truncates whatever is there by then (`fs::write`, `File::create`, `open(p, "w")`).
//! Between the test and the write another process — or an attacker with a symlink — can put a
//! file there, and the write clobbers it (or writes through the link) without a word: the
//! TOCTOU race of CWE-367 that matters. An exclusive create is the fix
//! (`OpenOptions::create_new`, `open(p, "x")`). A check followed by an act that fails loudly
//! when the race is lost (`remove_file`, `mkdir`, `unlink`: NotFound / AlreadyExists) is not
//! flagged: the race costs an error message, not data (on the corpus every one was judged
//! harmless, PRECISION.md). Test code is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::{indent_of, python_block_end};
use crate::lexical::lex;
use crate::rules::holistic::syntax::{callee, line, path_ends_with, same_value_text};
use crate::rules::line_hits::{find_in_syntax_or_text, outside_tests};
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

static META: RuleMeta = RuleMeta {
    id: "holistic/file-check-then-act",
    category: Category::RaceCondition,
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::Python],
    dimensions: &[Dimension::Quality, Dimension::Security],
    explanation: "A path found absent and then written with a call that clobbers whatever appeared in between: a TOCTOU race",
};

/// Rust calls that create or truncate their first argument, whatever is there.
const RUST_ACTS: [&str; 2] = ["fs::write", "File::create"];

/// Python calls that write the path given as their first argument (with a writing mode), or,
/// for the copies, as their second.
const PY_OPEN: &str = "open(";
const PY_COPIES: [&str; 3] = ["shutil.copy(", "shutil.copy2(", "shutil.copyfile("];
const PY_PATH_WRITES: [&str; 2] = [".write_text(", ".write_bytes("];

/// Flags check-then-act sequences on paths.
pub(crate) struct CheckThenAct;

impl Rule for CheckThenAct {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        match file.language {
            Some(Language::Rust) => [".exists()", ".is_file()", ".is_dir()"]
                .iter()
                .any(|m| file.text.contains(m)),
            Some(Language::Python) => {
                ["exists(", "isfile(", "isdir("]
                    .iter()
                    .any(|m| file.text.contains(m))
                    && !file.is_test_file()
            }
            _ => false,
        }
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        // `wants` lets only Rust and Python through: every other language is Python here.
        let Some(found) =
            find_in_syntax_or_text(file, Finder(Vec::new()), |f| f.0, |t, _| python(t))
        else {
            return;
        };
        for (check_line, act_line, path, act) in outside_tests(file, found, |f| f.0) {
            let mut location = Location::at(&file.rel_path, check_line);
            location.end_line = Some(act_line);
            out.hit(
                Hit::new(
                    location,
                    format!("`{path}` is checked, then `{act}` acts on it on line {act_line}: the path can change in between"),
                    format!("check then {act} {path}"),
                )
                .suggest("act directly and handle the error (NotFound/AlreadyExists), or use create_dir_all / create_new(true)"),
            );
        }
    }
}

/// (check line, act line, path, act) found in Rust.
struct Finder(Vec<(u32, u32, String, String)>);

/// The path an existence test checks (`p.exists()`, `Path::new(x).is_file()`, ...), its line,
/// and whether the condition holds when the path is absent (`!p.exists()`).
fn checked_path(cond: &syn::Expr) -> Option<(syn::Expr, u32, bool)> {
    match cond {
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
            checked_path(&u.expr).map(|(p, l, absent)| (p, l, !absent))
        }
        syn::Expr::Paren(p) => checked_path(&p.expr),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "exists" | "is_file" | "is_dir"
                ) =>
        {
            Some(((*m.receiver).clone(), line(m.method.span()), false))
        }
        _ => None,
    }
}

/// Acts on `path` inside a branch: (line, act name).
struct Acts<'p> {
    path: &'p str,
    found: Option<(u32, String)>,
}

impl Acts<'_> {
    /// The act a call performs on the checked path: (line, act name).
    fn act(&self, call: &syn::ExprCall) -> Option<(u32, String)> {
        let name = callee(call)?;
        let act = RUST_ACTS.iter().find(|a| path_ends_with(&name, a))?;
        if same_value_text(call.args.first()?) != self.path {
            return None;
        }
        let syn::Expr::Path(p) = &*call.func else {
            return None;
        };
        let at = p.path.segments.last().map_or(0, |s| line(s.ident.span()));
        Some((at, act.to_string()))
    }
}

impl<'ast> Visit<'ast> for Acts<'_> {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if self.found.is_none() {
            self.found = self.act(call);
        }
        visit::visit_expr_call(self, call);
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        if let Some((path_expr, check_line, absent)) = checked_path(&e.cond) {
            let path = same_value_text(&path_expr);
            let mut acts = Acts {
                path: &path,
                found: None,
            };
            // The branch taken when the path is absent.
            if absent {
                acts.visit_block(&e.then_branch);
            } else if let Some((_, other)) = &e.else_branch {
                acts.visit_expr(other);
            }
            if let Some((act_line, act)) = acts.found {
                self.0.push((check_line, act_line, path, act));
            }
        }
        visit::visit_expr_if(self, e);
    }
}

/// (check line, act line, path, act) found in Python: `if not os.path.exists(p):` (or `not
/// p.exists()`) and a write of `p` in the block under it.
fn python(text: &str) -> Vec<(u32, u32, String, String)> {
    let lines = lex(text, Language::Python);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let t = code.trim();
        let Some(cond) = t
            .strip_prefix("if not ")
            .and_then(|c| c.strip_suffix(':'))
            .map(str::trim)
        else {
            continue;
        };
        let path = ["os.path.exists(", "os.path.isfile(", "os.path.isdir("]
            .iter()
            .find_map(|f| cond.strip_prefix(f).and_then(|r| r.strip_suffix(')')))
            .or_else(|| {
                cond.strip_suffix(".exists()")
                    .or_else(|| cond.strip_suffix(".is_file()"))
            });
        let Some(path) = path.filter(|p| !p.is_empty() && !p.contains(['"', '(', ' '])) else {
            continue;
        };
        let end = python_block_end(&lines, i);
        let base = indent_of(line.text);
        let act = lines[i + 1..=end]
            .iter()
            .filter(|body| indent_of(body.text) > base)
            // The raw text: the mode is a string literal, which the lexed code blanks out; a
            // line whose code holds no call is skipped first, so comments say nothing.
            .filter(|body| body.code().contains('('))
            .find_map(|body| python_write(body.text.trim(), path).map(|a| (body.number, a)));
        if let Some((at, act)) = act {
            found.push((line.number, at, path.to_string(), act));
        }
    }
    found
}

/// The call on this line of code that writes `path` whatever is there: `open(path, "w")` (or
/// `"a"`, `"wb"`, … — not the exclusive `"x"`), `path.write_text(…)`, `shutil.copy(src, path)`.
fn python_write(code: &str, path: &str) -> Option<String> {
    let args_after = |call: &str| {
        code.match_indices(call)
            .filter(|(at, _)| *at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric())
            .map(|(at, _)| args_of(&code[at + call.len()..]))
            .next()
    };
    if let Some(args) = args_after(PY_OPEN) {
        let mode = args.get(1).map(|m| m.trim_matches(['"', '\'']));
        let writes = mode.is_some_and(|m| (m.contains('w') || m.contains('a')) && !m.contains('x'));
        if args.first().map(String::as_str) == Some(path) && writes {
            return Some("open".to_string());
        }
    }
    for copy in PY_COPIES {
        if args_after(copy).is_some_and(|a| a.get(1).map(String::as_str) == Some(path)) {
            return Some(copy.trim_end_matches('(').to_string());
        }
    }
    PY_PATH_WRITES
        .iter()
        .find(|w| code.contains(&format!("{path}{w}")))
        .map(|w| format!("{path}{}", w.trim_end_matches('(')))
}

/// The top-level arguments of a call whose opening parenthesis precedes `rest`, trimmed.
fn args_of(rest: &str) -> Vec<String> {
    let (mut depth, mut args, mut current) = (0usize, Vec::new(), String::new());
    for c in rest.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    args.push(current.trim().to_string());
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_a_write_that_clobbers_what_appeared_since_the_check() {
        let rust = "fn reset(path: &Path) -> io::Result<()> {\n    if !Path::new(&lock).exists() {\n        fs::write(&lock, b\"1\")?;\n    }\n    if cfg.is_file() {\n        load(cfg)?;\n    } else {\n        File::create(cfg)?;\n    }\n    Ok(())\n}\n";
        assert_eq!(
            hits(&CheckThenAct, "src/a.rs", rust),
            vec![
                (2, "`lock` is checked, then `fs::write` acts on it on line 3: the path can change in between".to_string()),
                (5, "`cfg` is checked, then `File::create` acts on it on line 8: the path can change in between".to_string()),
            ]
        );
        let py = "def prepare(p, src):\n    if not os.path.exists(p):\n        with open(p, 'w') as f:\n            f.write('')\n    if not p.exists():\n        p.write_text('x')\n    if not os.path.isfile(p):\n        shutil.copy(src, p)\n";
        assert_eq!(
            hits(&CheckThenAct, "app/a.py", py)
                .into_iter()
                .map(|h| h.0)
                .collect::<Vec<_>>(),
            vec![2, 5, 7]
        );
    }

    #[test]
    fn quiet_when_losing_the_race_fails_loudly_and_in_tests() {
        // Removing, creating a directory, reading: the race ends in NotFound / AlreadyExists.
        let rust = "fn f(dir: &Path, other: &Path) -> io::Result<()> {\n    if path.exists() {\n        std::fs::remove_file(path)?;\n    }\n    if !dir.exists() {\n        fs::create_dir(dir)?;\n    }\n    if dir.exists() {\n        fs::write(dir, b\"overwrite\")?;\n    }\n    if !dir.is_file() {\n        fs::write(other, b\"x\")?;\n    }\n    Ok(())\n}\n#[test]\nfn t() { if !p.exists() { fs::write(p, b\"\").unwrap(); } }\n";
        assert!(hits(&CheckThenAct, "src/a.rs", rust).is_empty());
        let py = "def f(d, p):\n    if not os.path.exists(d):\n        os.makedirs(d)\n    if os.path.exists(p):\n        os.unlink(p)\n    if not os.path.exists(p):\n        with open(p) as f:\n            return f.read()\n    if not os.path.exists(p):\n        open(p, 'x').close()\n";
        assert!(hits(&CheckThenAct, "app/a.py", py).is_empty());
    }
}
