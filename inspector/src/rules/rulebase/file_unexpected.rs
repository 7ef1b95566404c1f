//! `rulebase/file-unexpected`: source files in a feature's folders that no spec declares.
//!
//! A feature's folders are the folders its declared files sit in (and the folders it declares
//! itself, whose files are all declared). Only their direct children are looked at, on disk, so
//! a feature review sees them although its scope is the declared files alone. Declarations of
//! every feature count (another feature's file is not unexpected), and so do globs. Entry files
//! (`lib.rs`, `mod.rs`, `__init__.py`, `index.ts`, …) and tests are structure, not features.

use super::features_or_note;
use crate::engine::{is_test_path, Context, Hit, Language, Rule, RuleMeta, Sink};
use crate::rules::test_code::is_test_module_name;
use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::WalkBuilder;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::BTreeSet;

static META: RuleMeta = RuleMeta {
    id: "rulebase/file-unexpected",
    category: Category::FileUnexpected,
    severity: Severity::Low,
    languages: &[],
    dimensions: &[Dimension::Architecture],
    explanation:
        "A source file in a feature's folders that no spec.yaml, tasks.yaml or design.md declares.",
};

/// File names that structure a package rather than implement a feature.
const ENTRY_FILES: [&str; 14] = [
    "lib.rs",
    "main.rs",
    "mod.rs",
    "build.rs",
    "__init__.py",
    "__main__.py",
    "conftest.py",
    "setup.py",
    "index.ts",
    "index.tsx",
    "index.js",
    "index.mjs",
    "doc.go",
    "main.go",
];

/// Each undeclared source file in a feature's folders → one finding at the file.
pub(crate) struct FileUnexpected;

impl Rule for FileUnexpected {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let features = features_or_note(ctx, out);
        if features.is_empty() {
            return;
        }
        let declared = Declared::of(ctx);
        let mut reported = BTreeSet::new();
        for feature in features {
            let mut folders: BTreeSet<String> = BTreeSet::new();
            for path in feature.declared_paths() {
                if is_glob(&path) {
                    continue;
                }
                let trimmed = path.trim_end_matches('/');
                let is_dir = path.ends_with('/') || ctx.root.join(trimmed).is_dir();
                let folder = if is_dir {
                    trimmed
                } else {
                    trimmed.rsplit_once('/').map_or("", |(dir, _)| dir)
                };
                // The repository root holds tooling and manifests, not a feature's modules.
                if !folder.is_empty() && !folder.starts_with("..") {
                    folders.insert(folder.to_string());
                }
            }
            for folder in folders {
                for file in children(ctx, &folder) {
                    if declared.covers(&file) || !reported.insert(file.clone()) {
                        continue;
                    }
                    out.hit(
                        Hit::new(
                            Location::file(&file),
                            format!(
                                "`{file}` is in {folder}/, a folder of feature {}, but no spec declares it",
                                feature.name
                            ),
                            file.clone(),
                        )
                        .suggest("declare it in the feature's spec (Components, files), or move or remove it"),
                    );
                }
            }
        }
    }
}

/// Every path any feature declares: exact files, folders, and globs.
struct Declared {
    paths: Vec<String>,
    globs: GlobSet,
}

impl Declared {
    fn of(ctx: &Context) -> Declared {
        let mut paths = Vec::new();
        let mut globs = GlobSetBuilder::new();
        for path in ctx.specs.features().iter().flat_map(|f| f.declared_paths()) {
            if is_glob(&path) {
                if let Ok(glob) = Glob::new(&path) {
                    globs.add(glob);
                }
            } else {
                paths.push(path.trim_end_matches('/').to_string());
            }
        }
        Declared {
            paths,
            globs: globs.build().unwrap_or_else(|_| GlobSet::empty()),
        }
    }

    fn covers(&self, file: &str) -> bool {
        self.globs.is_match(file)
            || self.paths.iter().any(|p| {
                file == p
                    || file
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
    }
}

fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '[', '{'])
}

/// The source files directly in `folder` (repository-relative), `.gitignore` respected, that
/// implement something: no tests, entry files or configuration.
fn children(ctx: &Context, folder: &str) -> Vec<String> {
    let Ok(dir) = Location::file(folder).resolve(&ctx.root) else {
        return Vec::new();
    };
    if !dir.is_dir() {
        return Vec::new();
    }
    let mut out: Vec<String> = WalkBuilder::new(&dir)
        .hidden(false)
        .require_git(false)
        .max_depth(Some(1))
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let rel = format!("{folder}/{name}");
            let source = matches!(Language::of(&rel), Some(l) if l != Language::Config);
            let implementation = source
                && !is_test_path(&rel)
                && !is_test_module_name(&rel)
                && !ENTRY_FILES.contains(&name.as_str())
                && !name.ends_with(".d.ts");
            implementation.then_some(rel)
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    #[test]
    fn fires_on_undeclared_source_files_in_a_features_folders() {
        let dir = repo(&[
            (
                "specs/users/spec.yaml",
                "files: [src/users/model.rs, src/api.rs]\n",
            ),
            (
                "specs/billing/tasks.yaml",
                "tasks:\n  - id: 1\n    files: [src/billing.rs]\n",
            ),
            ("src/users/model.rs", "pub struct User;\n"),
            ("src/users/cache.rs", "pub struct Cache;\n"),
            ("src/users/mod.rs", "pub mod model;\n"),
            ("src/users/model_tests.rs", "#[test]\nfn t() {}\n"),
            ("src/api.rs", "pub fn api() {}\n"),
            ("src/billing.rs", "pub fn bill() {}\n"),
            ("src/lib.rs", "pub mod api;\n"),
            ("src/legacy.py", "def old(): pass\n"),
            ("src/notes.toml", "x = 1\n"),
            ("tools/gen.rs", "fn main() {}\n"),
        ]);
        let sink = project(&FileUnexpected, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "src/legacy.py".to_string(),
                    "`src/legacy.py` is in src/, a folder of feature billing, but no spec declares it"
                        .to_string()
                ),
                (
                    "src/users/cache.rs".to_string(),
                    "`src/users/cache.rs` is in src/users/, a folder of feature users, but no spec declares it"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_when_folders_and_globs_declare_everything() {
        let dir = repo(&[
            (
                "specs/users/spec.yaml",
                "files: [src/users/, \"src/*.rs\"]\n",
            ),
            ("src/users/cache.rs", "pub struct Cache;\n"),
            ("src/users/deep/x.rs", "pub struct X;\n"),
            ("src/api.rs", "pub fn api() {}\n"),
        ]);
        let sink = project(&FileUnexpected, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }
}
