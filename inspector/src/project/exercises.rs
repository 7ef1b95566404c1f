//! Which modules each test exercises, from what it imports or uses — never from file names.
//! Lexical and cheap: Rust paths that start with a workspace library's name
//! (`use my_crate::parser::x`, `my_crate::parser::parse(…)`), Python `import a.b` and
//! `from a.b import c` (relative ones too), JavaScript/TypeScript relative imports and
//! `require`s, and for Go the package's own files in the test's folder.

use super::python::module_file;
use super::{dir_of, join, script_imports, Sources};
use protocol::project::{Ecosystem, FileFacts, FileRole, Package, TargetKind};
use std::collections::{BTreeSet, HashMap};

/// Fills `exercises` of every test in `files`.
pub(crate) fn link(src: &Sources<'_>, packages: &[Package], files: &mut [FileFacts]) {
    let libs: HashMap<String, String> = packages
        .iter()
        .filter(|p| p.ecosystem == Ecosystem::Cargo)
        .flat_map(|p| {
            p.targets
                .iter()
                .filter(|t| t.kind == TargetKind::Lib && !t.path.is_empty())
                .map(move |t| (p.name.replace('-', "_"), t.path.clone()))
        })
        .collect();
    let py_roots: Vec<&str> = packages
        .iter()
        .filter(|p| p.ecosystem == Ecosystem::Python)
        .map(|p| p.root.as_str())
        .chain(std::iter::once(""))
        .collect();
    // Test data is read by tests, it does not import what they test.
    let tests = files
        .iter_mut()
        .filter(|f| f.role == FileRole::Test && !crate::engine::is_test_data_path(&f.path));
    for facts in tests {
        let path = facts.path.as_str();
        let mut found = BTreeSet::new();
        if path.ends_with("_test.go") {
            let dir = dir_of(path);
            found.extend(
                src.under(dir)
                    .filter(|p| {
                        !p[dir.len()..].contains('/')
                            && p.ends_with(".go")
                            && !p.ends_with("_test.go")
                    })
                    .map(str::to_string),
            );
        } else if let Some(text) = src.text(path) {
            match path.rsplit('.').next() {
                Some("rs") => rust(src, &libs, &text, &mut found),
                Some("py") => python(src, &py_roots, path, &text, &mut found),
                Some("js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx") => {
                    script(src, path, &text, &mut found)
                }
                _ => {}
            }
        }
        found.remove(path);
        facts.exercises = found.into_iter().collect();
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Rust: every `lib::a::b` path whose first segment names a workspace library, resolved to the
/// deepest module file that exists (the library's root when the item sits there).
fn rust(src: &Sources<'_>, libs: &HashMap<String, String>, text: &str, out: &mut BTreeSet<String>) {
    for (at, _) in text.match_indices("::") {
        let before = &text[..at];
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !is_ident(*c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let Some(root) = libs.get(&before[start..]) else {
            continue;
        };
        if start > 0 && text[..start].ends_with("::") {
            continue;
        }
        let rest = &text[at + 2..];
        let mut segments: Vec<&str> = Vec::new();
        let mut tail = rest;
        loop {
            let end = tail.find(|c: char| !is_ident(c)).unwrap_or(tail.len());
            if end == 0 {
                break;
            }
            segments.push(&tail[..end]);
            match tail[end..].strip_prefix("::") {
                Some(more) => tail = more,
                None => break,
            }
        }
        out.insert(rust_module(src, root, &segments));
    }
}

/// The deepest module file of `segments` under a library root file.
fn rust_module(src: &Sources<'_>, root: &str, segments: &[&str]) -> String {
    let mut best = root.to_string();
    let mut base = dir_of(root).to_string();
    for seg in segments {
        let hit = [format!("{base}{seg}.rs"), format!("{base}{seg}/mod.rs")]
            .into_iter()
            .find(|f| src.exists(f));
        match hit {
            Some(f) => {
                best = f;
                base = format!("{base}{seg}/");
            }
            None => break,
        }
    }
    best
}

/// Python: `import a.b` and `from a.b import c, d` (a submodule `a.b.c` when it is a file),
/// relative imports against the test's own folder.
fn python(src: &Sources<'_>, roots: &[&str], path: &str, text: &str, out: &mut BTreeSet<String>) {
    let resolve = |module: &str| -> Option<String> {
        if let Some(rel) = module.strip_prefix('.') {
            let ups = rel.chars().take_while(|c| *c == '.').count();
            let mut dir = dir_of(path).to_string();
            for _ in 0..ups {
                dir = join(&dir, "..").map(|d| if d.is_empty() { d } else { d + "/" })?;
            }
            return module_file(src, &dir, rel.trim_start_matches('.'))
                .or_else(|| Some(format!("{dir}__init__.py")).filter(|f| src.exists(f)));
        }
        roots.iter().find_map(|r| module_file(src, r, module))
    };
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("from ") {
            let Some((module, names)) = rest.split_once(" import ") else {
                continue;
            };
            let module = module.trim();
            let sep = if module.ends_with('.') { "" } else { "." };
            let mut any = false;
            for name in names.trim_matches(['(', ')', ' ']).split(',') {
                let name = name.split_whitespace().next().unwrap_or_default();
                if name.is_empty() || name == "*" {
                    continue;
                }
                if let Some(f) = resolve(&format!("{module}{sep}{name}")) {
                    out.insert(f);
                    any = true;
                }
            }
            if !any {
                out.extend(resolve(module));
            }
        } else if let Some(rest) = line.strip_prefix("import ") {
            for module in rest.split(',') {
                let module = module.split_whitespace().next().unwrap_or_default();
                out.extend(resolve(module));
            }
        }
    }
}

/// JavaScript/TypeScript: the relative module paths the file imports
/// ([`script_imports::specifiers`]), each resolved to the repository file it names.
fn script(src: &Sources<'_>, path: &str, text: &str, out: &mut BTreeSet<String>) {
    let dir = dir_of(path);
    for spec in script_imports::specifiers(text) {
        if !spec.starts_with('.') {
            continue;
        }
        let Some(base) = join(dir, &spec) else {
            continue;
        };
        if let Some(hit) = script_imports::resolve(&base, |f| src.exists(f)) {
            out.insert(hit);
        }
    }
}
