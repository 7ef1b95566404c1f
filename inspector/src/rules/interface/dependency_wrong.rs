//! `interface/dependency-wrong`: the outbound dependencies design.md's code blocks name — Rust
//! `use` paths, Python imports — that do not resolve to a real module or item of the code (or,
//! for another crate, to a dependency a Cargo.toml declares).

use super::design_imports::{python_imports, rust_imports};
use super::rust_modules::{Crates, Resolution};
use super::{python_modules, rust_modules};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::repository_files::RepositoryFiles;
use crate::spec::features_for;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "interface/dependency-wrong",
    category: Category::DependencyWrong,
    severity: Severity::High,
    languages: &[Language::Rust, Language::Python],
    dimensions: &[Dimension::Architecture],
    explanation: "An import design.md names (a `use` path, a Python import) does not resolve to a real module or item.",
};

/// Each designed import that names nothing → one finding at its design.md line.
pub(crate) struct DependencyWrong;

impl Rule for DependencyWrong {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A whole-project check: no file is handed to it one by one.
    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut files: Option<RepositoryFiles<'_>> = None;
        let mut crates: Option<Crates> = None;
        for feature in features_for(ctx) {
            let Some(design) = &feature.design else {
                continue;
            };
            let design_path = feature.path_of("design.md");
            let home = feature.declared_paths();
            for block in &design.code_blocks {
                let (imports, python) = match block.lang.as_str() {
                    "rust" | "rs" => (rust_imports(block), false),
                    "python" | "py" => (python_imports(block), true),
                    _ => continue,
                };
                if imports.is_empty() {
                    continue;
                }
                // The repository is listed only when a design imports something.
                let files = files.get_or_insert_with(|| RepositoryFiles::of(ctx));
                for import in imports {
                    let (shown, resolution) = if python {
                        let dotted = import.segments.join(".");
                        (dotted, python_modules::resolve(files, &import.segments))
                    } else {
                        let krate = crates.get_or_insert_with(|| rust_modules::Crates::of(files));
                        let resolution = krate.resolve(files, &import.segments, &home);
                        (import.rust_path(), resolution)
                    };
                    let Resolution::Missing(why) = resolution else {
                        continue;
                    };
                    out.hit(
                        Hit::new(
                            Location::at(&design_path, import.line),
                            format!("design.md imports `{shown}`, which does not resolve: {why}"),
                            shown.clone(),
                        )
                        .suggest("create the item the design depends on, or correct the import in the design"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const DESIGN: &str = "\
# Design
```rust
use crate::store::{Db, Row};
use crate::store::cache::Lru;
use billing::invoice::Invoice;
use serde::Serialize;
use reqwest::Client;
use std::collections::HashMap;
```
```python
from app.users import create_user, delete_user
import app.mailer
import requests
```
";

    fn files(lib: &str) -> Vec<(&'static str, String)> {
        vec![
            ("specs/shop/design.md", DESIGN.to_string()),
            (
                "specs/shop/spec.yaml",
                "files: [src/store.rs]\n".to_string(),
            ),
            (
                "Cargo.toml",
                "[package]\nname = \"billing\"\n[dependencies]\nserde = \"1\"\n".to_string(),
            ),
            ("src/lib.rs", lib.to_string()),
            (
                "src/store.rs",
                "pub struct Db;\npub use crate::rows::Row;\npub mod cache;\n".to_string(),
            ),
            ("src/store/cache.rs", "pub struct Lru;\n".to_string()),
            ("app/__init__.py", String::new()),
            (
                "app/users.py",
                "def create_user(name):\n    pass\n".to_string(),
            ),
        ]
    }

    fn sink_for(files: &[(&str, String)]) -> Sink {
        let texts: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let dir = repo(&texts);
        project(&DependencyWrong, &context(&dir))
    }

    #[test]
    fn fires_on_imports_that_resolve_to_nothing() {
        let sink = sink_for(&files("pub mod store;\npub mod rows;\n"));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "specs/shop/design.md:5".to_string(),
                    "design.md imports `billing::invoice::Invoice`, which does not resolve: no `invoice` in module `billing` (src/lib.rs)".to_string()
                ),
                (
                    "specs/shop/design.md:7".to_string(),
                    "design.md imports `reqwest::Client`, which does not resolve: `reqwest` is neither a crate of this repository nor a dependency in Cargo.toml".to_string()
                ),
                (
                    "specs/shop/design.md:11".to_string(),
                    "design.md imports `app.users.delete_user`, which does not resolve: no `delete_user` in app/users.py".to_string()
                ),
                (
                    "specs/shop/design.md:12".to_string(),
                    "design.md imports `app.mailer`, which does not resolve: no `mailer` in app/__init__.py".to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_when_every_import_resolves() {
        let mut all =
            files("pub mod store;\npub mod rows;\npub mod invoice {\n    pub struct Invoice;\n}\n");
        all[2].1.push_str("reqwest = { version = \"0.12\" }\n");
        all[7].1.push_str("def delete_user(name):\n    pass\n");
        all.push(("app/mailer.py", "def send(): pass\n".to_string()));
        let sink = sink_for(&all);
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }
}
