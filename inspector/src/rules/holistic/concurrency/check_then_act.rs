//! `holistic/file-check-then-act`: a path is tested (`exists()`, `is_file()`, `is_dir()`,
//! `os.path.exists`) and then created, removed, renamed or written in the branch that test
//! chose. Between the test and the act another process (or an attacker with a symlink) can
//! change the path: the classic TOCTOU race. Idempotent or atomic calls are the fix
//! (`create_dir_all`, `OpenOptions::create_new`, removing and ignoring `NotFound`), so
//! `create_dir_all`/`makedirs(exist_ok=True)` after a check are not flagged. Test code is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::syntax::{callee, line, path_ends_with, same_value_text};
use crate::rules::lexical::functions::{indent_of, python_block_end};
use crate::rules::lexical::lex;
use crate::rules::line_hits::{find_in_syntax_or_text, outside_tests};
use protocol::{Dimension, Location, Severity};
use syn::visit::{self, Visit};

static META: RuleMeta = RuleMeta {
    id: "holistic/file-check-then-act",
    category: "race-condition",
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::Python],
    dimensions: &[Dimension::Quality, Dimension::Security],
    explanation: "A path tested with exists()/is_file() and then created or removed: a TOCTOU race",
};

/// File-system calls that act on their first argument and fail or clobber if it changed.
const RUST_ACTS: [&str; 8] = [
    "fs::create_dir",
    "fs::remove_file",
    "fs::remove_dir",
    "fs::remove_dir_all",
    "fs::write",
    "fs::rename",
    "fs::copy",
    "File::create",
];

/// Python calls that act on their first argument.
const PY_ACTS: [&str; 7] = [
    "os.remove(",
    "os.unlink(",
    "os.mkdir(",
    "os.makedirs(",
    "os.rmdir(",
    "shutil.rmtree(",
    "os.rename(",
];

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

/// The path an existence test checks: `p.exists()`, `Path::new(x).is_file()`, ...
fn checked_path(cond: &syn::Expr) -> Option<(syn::Expr, u32)> {
    match cond {
        syn::Expr::Unary(u) => checked_path(&u.expr),
        syn::Expr::Paren(p) => checked_path(&p.expr),
        syn::Expr::Binary(b) => checked_path(&b.left).or_else(|| checked_path(&b.right)),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "exists" | "is_file" | "is_dir"
                ) =>
        {
            Some(((*m.receiver).clone(), line(m.method.span())))
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
        if let Some((path_expr, check_line)) = checked_path(&e.cond) {
            let path = same_value_text(&path_expr);
            let mut acts = Acts {
                path: &path,
                found: None,
            };
            acts.visit_block(&e.then_branch);
            if let Some((_, other)) = &e.else_branch {
                if acts.found.is_none() {
                    acts.visit_expr(other);
                }
            }
            if let Some((act_line, act)) = acts.found {
                self.0.push((check_line, act_line, path, act));
            }
        }
        visit::visit_expr_if(self, e);
    }
}

/// (check line, act line, path, act) found in Python: `if [not] os.path.exists(p):` and an act
/// on `p` in the block under it.
fn python(text: &str) -> Vec<(u32, u32, String, String)> {
    let lines = lex(text, Language::Python);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let t = code.trim();
        let Some(cond) = t.strip_prefix("if ").and_then(|c| c.strip_suffix(':')) else {
            continue;
        };
        let cond = cond.trim_start_matches("not ").trim();
        let path = ["os.path.exists(", "os.path.isfile(", "os.path.isdir("]
            .iter()
            .find_map(|f| cond.strip_prefix(f).and_then(|r| r.strip_suffix(')')))
            .or_else(|| {
                cond.strip_suffix(".exists()")
                    .or_else(|| cond.strip_suffix(".is_file()"))
                    .or_else(|| cond.strip_suffix(".is_dir()"))
            });
        let Some(path) = path.filter(|p| !p.is_empty() && !p.contains(['"', '('])) else {
            continue;
        };
        let end = python_block_end(&lines, i);
        let base = indent_of(line.text);
        for body in &lines[i + 1..=end] {
            let b = body.code();
            let b = b.trim();
            if indent_of(body.text) <= base {
                continue;
            }
            let act = PY_ACTS.iter().find(|a| {
                b.find(*a).is_some_and(|at| {
                    let args = &b[at + a.len()..];
                    let first = args.split([',', ')']).next().unwrap_or_default().trim();
                    let idempotent = args.contains("exist_ok=True");
                    let word_start = at == 0 || !b.as_bytes()[at - 1].is_ascii_alphanumeric();
                    first == path && !idempotent && word_start
                })
            });
            if let Some(act) = act {
                found.push((
                    line.number,
                    body.number,
                    path.to_string(),
                    act.trim_end_matches('(').to_string(),
                ));
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_check_then_create_or_remove() {
        let rust = "fn reset(path: &Path) -> io::Result<()> {\n    if path.exists() {\n        std::fs::remove_file(path)?;\n    }\n    if !Path::new(&lock).exists() {\n        fs::write(&lock, b\"1\")?;\n    }\n    Ok(())\n}\n";
        assert_eq!(
            hits(&CheckThenAct, "src/a.rs", rust),
            vec![
                (2, "`path` is checked, then `fs::remove_file` acts on it on line 3: the path can change in between".to_string()),
                (5, "`lock` is checked, then `fs::write` acts on it on line 6: the path can change in between".to_string()),
            ]
        );
        let py = "def prepare(d):\n    if not os.path.exists(d):\n        os.makedirs(d)\n";
        assert_eq!(
            hits(&CheckThenAct, "app/a.py", py),
            vec![(2, "`d` is checked, then `os.makedirs` acts on it on line 3: the path can change in between".to_string())]
        );
    }

    #[test]
    fn quiet_on_idempotent_acts_other_paths_and_tests() {
        let rust = "fn f(dir: &Path, other: &Path) -> io::Result<()> {\n    if !dir.exists() {\n        fs::create_dir_all(dir)?;\n    }\n    if dir.is_file() {\n        fs::remove_file(other)?;\n    }\n    let text = if dir.exists() { fs::read_to_string(dir)? } else { String::new() };\n    Ok(())\n}\n#[test]\nfn t() { if p.exists() { fs::remove_file(p).unwrap(); } }\n";
        assert!(hits(&CheckThenAct, "src/a.rs", rust).is_empty());
        let py = "def f(d):\n    if not os.path.exists(d):\n        os.makedirs(d, exist_ok=True)\n    if os.path.exists(d):\n        with open(d) as f:\n            return f.read()\n";
        assert!(hits(&CheckThenAct, "app/a.py", py).is_empty());
    }
}
