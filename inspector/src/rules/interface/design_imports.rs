//! The outbound dependencies design.md's code blocks name: `use` items of ```rust blocks and
//! `import`/`from … import` lines of ```python blocks, each flattened to one path per imported
//! name, with its design.md line.

use crate::spec::CodeBlock;
use syn::spanned::Spanned;

/// One imported path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DesignImport {
    /// The path's segments (`["crate", "store", "Db"]`); a glob import ends with `*`.
    pub(super) segments: Vec<String>,
    /// design.md line.
    pub(super) line: u32,
}

impl DesignImport {
    /// The path as Rust writes it (`crate::store::Db`); Python paths are joined the same way
    /// and shown with dots by the caller.
    pub(super) fn rust_path(&self) -> String {
        self.segments.join("::")
    }
}

/// The `use` items of a Rust block, one import per leaf (groups expanded, renames by original).
pub(super) fn rust_imports(block: &CodeBlock) -> Vec<DesignImport> {
    let offset = block.first_line.saturating_sub(1);
    let mut out = Vec::new();
    // As in `designed_fns`: a block beyond the limits is not handed to syn.
    if crate::engine::limits::check(&block.text, crate::engine::Language::Rust).is_some() {
        return out;
    }
    match syn::parse_file(&block.text) {
        Ok(file) => {
            for item in &file.items {
                if let syn::Item::Use(u) = item {
                    flatten(&u.tree, &mut Vec::new(), offset, &mut out);
                }
            }
        }
        // An interface sketch that is not a file (`struct X { ... }`): its `use` lines alone.
        Err(_) => {
            for (i, line) in block.text.lines().enumerate() {
                let t = line.trim();
                let is_use = t.starts_with("use ") || t.starts_with("pub use ");
                if let (true, Ok(u)) = (is_use, syn::parse_str::<syn::ItemUse>(t)) {
                    let mut found = Vec::new();
                    flatten(&u.tree, &mut Vec::new(), 0, &mut found);
                    for mut imp in found {
                        imp.line = offset + i as u32 + 1;
                        out.push(imp);
                    }
                }
            }
        }
    }
    out
}

fn flatten(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    offset: u32,
    out: &mut Vec<DesignImport>,
) {
    let line = offset + tree.span().start().line as u32;
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, offset, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => push(prefix, n.ident.to_string(), line, out),
        syn::UseTree::Rename(r) => push(prefix, r.ident.to_string(), line, out),
        syn::UseTree::Glob(_) => push(prefix, "*".to_string(), line, out),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix, offset, out);
            }
        }
    }
}

fn push(prefix: &[String], last: String, line: u32, out: &mut Vec<DesignImport>) {
    let mut segments = prefix.to_vec();
    // `use crate::store::{self, Db}` imports the module `store` itself.
    if last != "self" {
        segments.push(last);
    }
    out.push(DesignImport { segments, line });
}

/// The imports of a Python block: `import a.b` → `a.b`; `from a.b import c, d` → `a.b.c`,
/// `a.b.d`; relative imports (`from . import x`) name no checkable module and are left out.
pub(super) fn python_imports(block: &CodeBlock) -> Vec<DesignImport> {
    let offset = block.first_line.saturating_sub(1);
    let mut out = Vec::new();
    for (i, line) in block.text.lines().enumerate() {
        let t = line.split('#').next().unwrap_or_default().trim();
        let line = offset + i as u32 + 1;
        let dotted = |s: &str| -> Vec<String> { s.split('.').map(str::to_string).collect() };
        if let Some(rest) = t.strip_prefix("import ") {
            for module in rest.split(',') {
                let name = module.split(" as ").next().unwrap_or_default().trim();
                if !name.is_empty() {
                    out.push(DesignImport {
                        segments: dotted(name),
                        line,
                    });
                }
            }
        } else if let Some(rest) = t.strip_prefix("from ") {
            let Some((module, names)) = rest.split_once(" import ") else {
                continue;
            };
            let module = module.trim();
            if module.starts_with('.') {
                continue;
            }
            let names = names.trim().trim_start_matches('(').trim_end_matches(')');
            for name in names.split(',') {
                let name = name.split(" as ").next().unwrap_or_default().trim();
                if name.is_empty() {
                    continue;
                }
                let mut segments = dotted(module);
                segments.push(name.to_string());
                out.push(DesignImport { segments, line });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(lang: &str, text: &str) -> CodeBlock {
        CodeBlock {
            lang: lang.into(),
            first_line: 20,
            text: text.into(),
        }
    }

    fn paths(imports: &[DesignImport]) -> Vec<(String, u32)> {
        imports.iter().map(|i| (i.rust_path(), i.line)).collect()
    }

    #[test]
    fn flattens_rust_use_trees() {
        let text =
            "use crate::store::{self, Db, query::Row as R};\nuse serde::*;\n\npub fn f(db: &Db);\n";
        assert_eq!(
            paths(&rust_imports(&block("rust", text))),
            vec![
                ("crate::store".to_string(), 20),
                ("crate::store::Db".to_string(), 20),
                ("crate::store::query::Row".to_string(), 20),
                ("serde::*".to_string(), 21),
            ]
        );
        let sketch = "use crate::a::B;\nstruct X { ... }\n";
        assert_eq!(
            paths(&rust_imports(&block("rust", sketch))),
            vec![("crate::a::B".to_string(), 20)]
        );
    }

    #[test]
    fn reads_python_imports() {
        let text = "import app.db, os.path as p\nfrom app.users import (create_user, User as U)  # the model\nfrom . import x\n";
        assert_eq!(
            paths(&python_imports(&block("python", text))),
            vec![
                ("app::db".to_string(), 20),
                ("os::path".to_string(), 20),
                ("app::users::create_user".to_string(), 21),
                ("app::users::User".to_string(), 21),
            ]
        );
    }
}
