//! The import graph of a repository's Python and TypeScript/JavaScript files, read from their
//! import lines: which modules the tests reach (directly or through the modules they import —
//! `import flask` runs `flask/__init__.py`, which imports `app.py`), and which modules any file
//! imports at all (one nobody imports is a script, a configuration or an entry point).

use crate::engine::Language;
use crate::project::join;
use crate::project::script_imports::{resolve, specifiers};
use crate::rules::repository_files::RepositoryFiles;
use std::collections::{BTreeMap, BTreeSet};

/// Who imports whom, over the repository's Python and TypeScript/JavaScript files.
pub(super) struct ImportGraph {
    /// Modules reached from a test file through imports.
    reached: BTreeSet<String>,
    /// Modules some other file imports.
    imported: BTreeSet<String>,
}

impl ImportGraph {
    /// The graph of `files`: every Python and TypeScript/JavaScript file's imports resolved to
    /// repository paths, walked from the test files.
    pub(super) fn of(files: &RepositoryFiles<'_>) -> ImportGraph {
        let paths: BTreeSet<&str> = files
            .paths()
            .iter()
            .map(String::as_str)
            .filter(|p| is_graph_language(p))
            .collect();
        let python = PythonModules::of(&paths);
        let packages = workspace_packages(files);
        let mut edges: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for path in &paths {
            let Some(text) = files.text(path) else {
                continue;
            };
            let targets = match Language::of(path) {
                Some(Language::Python) => python.imports_of(path, &text),
                _ => script_imports(path, &text, &paths, &packages),
            };
            edges.insert(path, targets);
        }
        let imported = edges
            .iter()
            .flat_map(|(from, to)| to.iter().filter(move |t| t.as_str() != *from))
            .cloned()
            .collect();
        let mut reached = BTreeSet::new();
        let mut todo: Vec<String> = files
            .test_paths()
            .filter(|p| paths.contains(p))
            .map(str::to_string)
            .collect();
        while let Some(path) = todo.pop() {
            for next in edges.get(path.as_str()).into_iter().flatten() {
                if reached.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        ImportGraph { reached, imported }
    }

    /// Whether a test reaches `path` through imports.
    pub(super) fn tested(&self, path: &str) -> bool {
        self.reached.contains(path)
    }

    /// Whether any other file imports `path`.
    pub(super) fn imported(&self, path: &str) -> bool {
        self.imported.contains(path)
    }
}

/// Whether a path is of a language the graph reads.
pub(super) fn is_graph_language(path: &str) -> bool {
    matches!(
        Language::of(path),
        Some(Language::Python | Language::TypeScript | Language::JavaScript)
    )
}

/// The Python modules of the repository by dotted name (`flask.json.tag`), a package's name
/// starting at the highest folder with an `__init__.py`.
struct PythonModules {
    by_name: BTreeMap<String, String>,
    names: BTreeMap<String, String>,
}

impl PythonModules {
    fn of(paths: &BTreeSet<&str>) -> PythonModules {
        let mut by_name = BTreeMap::new();
        let mut names = BTreeMap::new();
        for path in paths.iter().filter(|p| p.ends_with(".py")) {
            let mut parts: Vec<&str> = path.trim_end_matches(".py").split('/').collect();
            if parts.last() == Some(&"__init__") {
                parts.pop();
            }
            // Drop the leading folders that are no package (no `__init__.py` in them).
            let mut first = parts.len().saturating_sub(1);
            while first > 0
                && paths.contains(format!("{}/__init__.py", parts[..first].join("/")).as_str())
            {
                first -= 1;
            }
            // A namespace package (a folder without `__init__.py`: `flask/sansio/`) hides the
            // package above it: the longer names are the module's too (`flask.sansio.app`).
            for from in 0..first.min(parts.len().saturating_sub(1)) {
                by_name
                    .entry(parts[from..].join("."))
                    .or_insert_with(|| path.to_string());
            }
            let dotted = parts[first..].join(".");
            if !dotted.is_empty() {
                by_name
                    .entry(dotted.clone())
                    .or_insert_with(|| path.to_string());
                names.insert(path.to_string(), dotted);
            }
        }
        PythonModules { by_name, names }
    }

    /// The repository modules a Python file imports (and the packages whose `__init__` that runs).
    fn imports_of(&self, path: &str, text: &str) -> Vec<String> {
        let own = self.names.get(path).map_or("", String::as_str);
        let package: Vec<&str> = if path.ends_with("__init__.py") {
            own.split('.').collect()
        } else {
            own.split('.')
                .collect::<Vec<_>>()
                .split_last()
                .map_or(Vec::new(), |(_, p)| p.to_vec())
        };
        let mut out = Vec::new();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("import ") {
                for module in rest.split(',') {
                    let name = module.split_whitespace().next().unwrap_or_default();
                    self.add_with_parents(name, &mut out);
                }
            } else if let Some(rest) = t.strip_prefix("from ") {
                let Some((module, names)) = rest.split_once(" import ") else {
                    continue;
                };
                let module = module.trim();
                let dots = module.len() - module.trim_start_matches('.').len();
                let base = if dots == 0 {
                    module.to_string()
                } else {
                    let keep = package.len().saturating_sub(dots - 1);
                    let mut parts: Vec<&str> = package[..keep].to_vec();
                    let tail = module.trim_start_matches('.');
                    if !tail.is_empty() {
                        parts.push(tail);
                    }
                    parts.join(".")
                };
                self.add_with_parents(&base, &mut out);
                // `from pkg import mod` may import a submodule; names may run on in brackets.
                let mut listed = names.to_string();
                if listed.contains('(') && !listed.contains(')') {
                    for next in lines.iter().skip(i + 1).take(50) {
                        listed.push_str(next);
                        if next.contains(')') {
                            break;
                        }
                    }
                }
                for name in listed
                    .split([',', '(', ')', ' ', '\n'])
                    .filter(|n| !n.is_empty())
                {
                    let full = if base.is_empty() {
                        name.to_string()
                    } else {
                        format!("{base}.{name}")
                    };
                    if let Some(p) = self.by_name.get(&full) {
                        out.push(p.clone());
                    }
                }
            }
        }
        out
    }

    /// `a.b.c` and the packages `a`, `a.b` it runs the `__init__` of, where they are the
    /// repository's.
    fn add_with_parents(&self, dotted: &str, out: &mut Vec<String>) {
        let parts: Vec<&str> = dotted.split('.').collect();
        for end in 1..=parts.len() {
            if let Some(p) = self.by_name.get(&parts[..end].join(".")) {
                out.push(p.clone());
            }
        }
    }
}

/// The repository's own JavaScript packages: `name` of each `package.json` → its folder.
fn workspace_packages(files: &RepositoryFiles<'_>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for path in files
        .paths()
        .iter()
        .filter(|p| *p == "package.json" || p.ends_with("/package.json"))
    {
        if path.contains("node_modules/") {
            continue;
        }
        let Some(text) = files.text(path) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        if let Some(name) = json.get("name").and_then(|n| n.as_str()) {
            let dir = path.trim_end_matches("package.json").trim_end_matches('/');
            out.insert(name.to_string(), dir.to_string());
        }
    }
    out
}

/// The repository files a TypeScript/JavaScript file imports (`import … from`, `export … from`,
/// `import '…'`, `require(…)`, `import(…)`): relative paths, and the repository's own packages
/// by name (`zod/v4` → `packages/zod/src/v4/index.ts`).
fn script_imports(
    path: &str,
    text: &str,
    paths: &BTreeSet<&str>,
    packages: &BTreeMap<String, String>,
) -> Vec<String> {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let mut out = Vec::new();
    for spec in specifiers(text) {
        let candidates: Vec<String> = if spec.starts_with("./") || spec.starts_with("../") {
            // A path climbing above the repository names no file of it.
            join(dir, &spec).into_iter().collect()
        } else {
            let (name, sub) = split_package(&spec);
            match packages.get(name) {
                Some(root) => {
                    let at = |base: &str| {
                        [root.as_str(), base, sub]
                            .iter()
                            .filter(|s| !s.is_empty())
                            .copied()
                            .collect::<Vec<_>>()
                            .join("/")
                    };
                    vec![at(""), at("src"), at("lib")]
                }
                None => continue,
            }
        };
        if let Some(found) = candidates
            .iter()
            .find_map(|c| resolve(c, |p| paths.contains(p)))
        {
            out.push(found);
        }
    }
    out
}

/// `@scope/name/sub` → (`@scope/name`, `sub`); `name/sub` → (`name`, `sub`).
fn split_package(spec: &str) -> (&str, &str) {
    let cut = if spec.starts_with('@') { 2 } else { 1 };
    match spec.match_indices('/').nth(cut - 1) {
        Some((at, _)) => (&spec[..at], &spec[at + 1..]),
        None => (spec, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, repo};

    #[test]
    fn tests_reach_modules_through_the_modules_they_import() {
        let dir = repo(&[
            (
                "src/flask/__init__.py",
                "from .app import Flask as Flask\nfrom .blueprints import Blueprint\n",
            ),
            (
                "src/flask/app.py",
                "from . import ctx\nfrom .json.tag import (\n    TaggedJSON,\n)\n",
            ),
            ("src/flask/ctx.py", "def push():\n    pass\n"),
            ("src/flask/json/__init__.py", ""),
            ("src/flask/json/tag.py", "def tag():\n    pass\n"),
            ("src/flask/lonely.py", "def alone():\n    pass\n"),
            // A namespace package: no `__init__.py` in `sansio/`.
            (
                "src/flask/sansio/scaffold.py",
                "def setupmethod():\n    pass\n",
            ),
            (
                "src/flask/blueprints.py",
                "from .sansio.scaffold import setupmethod\n",
            ),
            ("tests/test_basic.py", "import flask\n"),
            ("package.json", "{\"name\": \"kit\"}\n"),
            (
                "lib/core/Axios.js",
                "import dispatch from './dispatch.js';\n",
            ),
            (
                "lib/core/dispatch.js",
                "export default function dispatch() {}\n",
            ),
            (
                "lib/helpers/unused.js",
                "export default function unused() {}\n",
            ),
            ("src/v4/index.ts", "export * from './errors.js';\n"),
            ("src/v4/errors.ts", "export function issue() {}\n"),
            (
                "test/unit/axios.js",
                "const Axios = require('../../lib/core/Axios');\nimport * as z from 'kit/v4';\n",
            ),
        ]);
        let ctx = context(&dir);
        let graph = ImportGraph::of(&RepositoryFiles::of(&ctx));
        for tested in [
            "src/flask/__init__.py",
            "src/flask/app.py",
            "src/flask/ctx.py",
            "src/flask/json/tag.py",
            "src/flask/sansio/scaffold.py",
            "lib/core/dispatch.js",
            "src/v4/errors.ts",
        ] {
            assert!(graph.tested(tested), "{tested}");
        }
        assert!(!graph.tested("src/flask/lonely.py"));
        assert!(!graph.tested("lib/helpers/unused.js"));
        assert!(!graph.imported("lib/helpers/unused.js"));
        assert!(graph.imported("src/flask/ctx.py"));
    }
}
