//! `consistency/import-pattern`: modules that import differently from the rest of the project.
//!
//! Four styles are compared, each between the modules that make the choice at all:
//! - Rust glob imports (`use crate::store::*;`) against imports by name. Preludes
//!   (`..::prelude::*`) and `super::*` (the test-module idiom) are not globs here.
//! - Rust `super::super::` paths against `crate::` paths to reach other parts of the crate.
//! - Python relative imports (`from .models import User`) against absolute ones of the same
//!   package (`from app.models import User`).
//! - JavaScript/TypeScript `require()` against `import`.
//!
//! Re-exports (`pub use`) are API, not imports, and are not compared. The minority style is flagged, one finding per module at its first such import, when the
//! majority has at least two modules; a tie is no convention and is not flagged. Modules as in
//! `module.rs`; test code is not compared.

use super::module::{library_modules, list, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use crate::rules::library_code::is_library_file;
use crate::rules::test_code::is_test_attr;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::BTreeMap;

static META: RuleMeta = RuleMeta {
    id: "consistency/import-pattern",
    category: Category::ImportPattern,
    severity: Severity::Low,
    languages: &[Language::Rust, Language::Python, Language::TypeScript, Language::JavaScript],
    dimensions: &[Dimension::Maintainability, Dimension::BestPractices],
    explanation: "Modules importing differently from the rest (glob vs named, super::super vs crate::, relative vs absolute, require vs import)",
};

/// Flags modules whose import style differs from the project's.
pub(crate) struct ImportPattern;

/// One import-style question: (minority wording, majority wording).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
enum Style {
    Glob,
    Named,
    SuperSuper,
    CratePath,
    Relative,
    Absolute,
    Require,
    Import,
}

/// The pairs of competing styles.
const PAIRS: [(Style, Style); 4] = [
    (Style::Glob, Style::Named),
    (Style::SuperSuper, Style::CratePath),
    (Style::Relative, Style::Absolute),
    (Style::Require, Style::Import),
];

fn describe(style: Style) -> &'static str {
    match style {
        Style::Glob => "glob-imports",
        Style::Named => "import items by name",
        Style::SuperSuper => "reaches other modules through `super::super::` paths",
        Style::CratePath => "use `crate::` paths",
        Style::Relative => "uses relative imports",
        Style::Absolute => "import absolutely",
        Style::Require => "loads modules with `require()`",
        Style::Import => "use `import`",
    }
}

/// First evidence of each style in a module: (path, line, snippet).
type Evidence = BTreeMap<Style, (String, u32, String)>;

impl Rule for ImportPattern {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && is_library_file(file)
    }

    /// Reads one file's imports in the (parallel) file pass, where its tree is at hand; the
    /// modules are compared in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let found = match file.language {
            Some(Language::Rust) => rust_styles(file),
            Some(Language::Python) => python_styles(file),
            Some(Language::TypeScript | Language::JavaScript) => js_styles(file),
            _ => return,
        };
        out.keep((file.rel_path.clone(), found));
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut styles = out.kept_by_path::<Vec<(Style, u32, String)>>(ctx, self);
        let Some(files) = library_modules(ctx) else {
            out.note(NOTHING_TO_COMPARE);
            return;
        };
        let mut modules: BTreeMap<String, Evidence> = BTreeMap::new();
        for (file, module) in files {
            let Some(found) = styles.remove(&file.rel_path) else {
                continue;
            };
            let evidence = modules.entry(module).or_default();
            for (style, line, snippet) in found {
                evidence
                    .entry(style)
                    .or_insert_with(|| (file.rel_path.clone(), line, snippet));
            }
        }
        for (minority, majority) in PAIRS {
            let with = |s: Style| -> Vec<&str> {
                modules
                    .iter()
                    .filter(|(_, e)| e.contains_key(&s))
                    .map(|(m, _)| m.as_str())
                    .collect()
            };
            let (few, many) = (with(minority), with(majority));
            let (flagged, others, style) = if few.len() < many.len() && many.len() >= 2 {
                (few, many, minority)
            } else if many.len() < few.len()
                && few.len() >= 2
                && minority != Style::Glob
                && minority != Style::SuperSuper
            {
                (many, few, majority)
            } else {
                continue;
            };
            for module in flagged {
                let Some((path, line, snippet)) = modules[module].get(&style) else {
                    continue;
                };
                let rest: Vec<&str> = others.iter().copied().filter(|m| *m != module).collect();
                let other_style = if style == minority {
                    majority
                } else {
                    minority
                };
                out.hit(
                    Hit::new(
                        Location::at(path, *line),
                        format!(
                            "module `{module}` {} (`{snippet}`) while {} {}",
                            describe(style),
                            list(&rest),
                            describe(other_style)
                        ),
                        format!("{} in {module}", describe(style)),
                    )
                    .suggest(format!(
                        "follow the project's convention: {}",
                        describe(other_style)
                    )),
                );
            }
        }
    }
}

/// Rust: (style, line, snippet) of each top-level `use` outside test code.
fn rust_styles(file: &SourceFile) -> Vec<(Style, u32, String)> {
    let Some(Ok(ast)) = file.rust_items() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in &ast.items {
        let syn::Item::Use(u) = item else {
            continue;
        };
        // `pub use x::*` shapes the public API (a re-export), not how the module imports.
        if is_test_attr(&u.attrs) || !matches!(u.vis, syn::Visibility::Inherited) {
            continue;
        }
        let line = u.use_token.span.start().line as u32;
        let mut paths = Vec::new();
        flatten(&u.tree, String::new(), &mut paths);
        for path in paths {
            let style = if path.ends_with("::*") {
                let prelude = path.trim_end_matches("::*").ends_with("prelude");
                if prelude || path == "super::*" {
                    continue;
                }
                Style::Glob
            } else {
                Style::Named
            };
            out.push((style, line, format!("use {path}")));
            if path.starts_with("super::super::") {
                out.push((Style::SuperSuper, line, format!("use {path}")));
            } else if path.starts_with("crate::") {
                out.push((Style::CratePath, line, format!("use {path}")));
            }
        }
    }
    out
}

/// Every path a use tree imports (`a::{b, c::*}` → `a::b`, `a::c::*`).
fn flatten(tree: &syn::UseTree, prefix: String, out: &mut Vec<String>) {
    let join = |p: &str, s: &str| {
        if p.is_empty() {
            s.to_string()
        } else {
            format!("{p}::{s}")
        }
    };
    match tree {
        syn::UseTree::Path(p) => flatten(&p.tree, join(&prefix, &p.ident.to_string()), out),
        syn::UseTree::Name(n) => out.push(join(&prefix, &n.ident.to_string())),
        syn::UseTree::Rename(r) => out.push(join(&prefix, &r.ident.to_string())),
        syn::UseTree::Glob(_) => out.push(join(&prefix, "*")),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix.clone(), out);
            }
        }
    }
}

/// Python: relative or absolute imports of the file's own package, and star imports.
fn python_styles(file: &SourceFile) -> Vec<(Style, u32, String)> {
    let package = file
        .rel_path
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let mut out = Vec::new();
    for line in file.lexed(Language::Python).iter() {
        let code = line.code();
        let t = code.trim();
        let Some(rest) = t.strip_prefix("from ") else {
            continue;
        };
        let source = rest.split_whitespace().next().unwrap_or_default();
        if source.starts_with('.') {
            out.push((Style::Relative, line.number, t.to_string()));
        } else if source.split('.').next() == Some(package.as_str()) && file.rel_path.contains('/')
        {
            out.push((Style::Absolute, line.number, t.to_string()));
        }
        if t.ends_with("import *") {
            out.push((Style::Glob, line.number, t.to_string()));
        }
    }
    out
}

/// TypeScript/JavaScript: `require(` calls and `import` statements.
fn js_styles(file: &SourceFile) -> Vec<(Style, u32, String)> {
    let lang = file.language.unwrap_or(Language::JavaScript);
    let mut out = Vec::new();
    for line in file.lexed(lang).iter() {
        let code = line.code();
        let t = code.trim();
        if t.contains("require(") && !t.contains(".require(") {
            out.push((Style::Require, line.number, line.text.trim().to_string()));
        } else if t.starts_with("import ") || t.starts_with("export ") && t.contains(" from ") {
            out.push((Style::Import, line.number, line.text.trim().to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_hits;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
        project_hits(&ImportPattern, files)
    }

    #[test]
    fn fires_on_the_minority_import_style() {
        let found = run(&[
            ("src/api.rs", "use crate::store::Store;\nuse std::fmt;\n"),
            ("src/billing.rs", "use crate::store::{Order, Store};\n"),
            ("src/mail.rs", "use crate::store::*;\nuse std::io;\n"),
            ("src/store.rs", "pub struct Store;\n"),
        ]);
        assert_eq!(
            found,
            vec![(
                "src/mail.rs".to_string(),
                1,
                "module `src/mail` glob-imports (`use crate::store::*`) while `src/api` and `src/billing` import items by name".to_string()
            )]
        );
        let py = run(&[
            ("shop/orders/views.py", "from shop.models import Order\n"),
            ("shop/billing/views.py", "from shop.models import Invoice\n"),
            ("shop/mail/send.py", "from ..models import User\n"),
        ]);
        assert_eq!(py.len(), 1);
        assert_eq!(py[0].0, "shop/mail/send.py");
        let js = run(&[
            ("web/a/x.js", "import { a } from './a';\n"),
            ("web/b/x.js", "import b from 'b';\n"),
            ("web/c/x.js", "const c = require('c');\n"),
        ]);
        assert_eq!(js.len(), 1);
        assert_eq!(js[0].0, "web/c/x.js");
    }

    #[test]
    fn quiet_on_preludes_test_globs_ties_and_one_module() {
        let found = run(&[
            (
                "src/api.rs",
                "use crate::store::Store;\n#[cfg(test)]\nuse crate::testing::*;\n",
            ),
            (
                "src/billing.rs",
                "use tokio::prelude::*;\nuse super::*;\npub use crate::store::*;\n",
            ),
            ("src/mail.rs", "use crate::store::Store;\n"),
        ]);
        assert!(found.is_empty());
        let tie = run(&[
            ("web/a/x.js", "import a from 'a';\n"),
            ("web/b/x.js", "const b = require('b');\n"),
        ]);
        assert!(tie.is_empty());
    }
}
