//! What a "module" is when the consistency rules compare modules.
//!
//! A module is the first path component under a top-level source directory:
//! - a package with its own `src/` (a workspace crate `inspector/src/..`, a JS package
//!   `packages/web/src/..`) is one module, named by the path before `src/` (`inspector`);
//! - under a top-level `src/`, each top-level module file or folder is one (`src/engine/run.rs`
//!   and `src/engine.rs` are both `src/engine`);
//! - elsewhere, the first folder (`app/views.py` is `app`), or the file itself at the root.
//!
//! When every file falls in the same module (a single crate, a single Python package), the
//! comparison goes one level deeper: that module's own top-level files and folders.
//! Only library code is compared (no tests, binaries, examples, scripts).

use crate::engine::{Context, Language, SourceFile};
use crate::rules::library_code::is_library_file;

/// The note both consistency rules give when there is nothing to compare.
pub(super) const NOTHING_TO_COMPARE: &str = "consistency: nothing to compare (one module)";

/// The library source files of the scope (Rust, Python, TypeScript, JavaScript, Go) with the
/// module each belongs to, or `None` when they span fewer than two modules.
pub(crate) fn library_modules(ctx: &Context) -> Option<Vec<(&SourceFile, String)>> {
    let files: Vec<&SourceFile> = ctx
        .files
        .iter()
        .filter(|f| {
            matches!(
                f.language,
                Some(
                    Language::Rust
                        | Language::Python
                        | Language::TypeScript
                        | Language::JavaScript
                        | Language::Go
                )
            ) && is_library_file(f)
        })
        .collect();
    let mut modules: Vec<String> = files.iter().map(|f| module_of(&f.rel_path)).collect();
    if let Some(first) = modules.first().cloned() {
        if modules.iter().all(|m| *m == first) {
            modules = files
                .iter()
                .map(|f| submodule_of(&f.rel_path, &first))
                .collect();
        }
    }
    let mut distinct = modules.clone();
    distinct.sort();
    distinct.dedup();
    (distinct.len() >= 2).then(|| files.into_iter().zip(modules).collect())
}

/// The module of a repository-relative path (see the module documentation).
pub(crate) fn module_of(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.iter().position(|p| *p == "src") {
        Some(0) if parts.len() > 1 => format!("src/{}", stem(parts[1])),
        Some(i) if i > 0 && i + 1 < parts.len() => parts[..i].join("/"),
        _ if parts.len() == 1 => stem(parts[0]).to_string(),
        _ => parts[0].to_string(),
    }
}

/// Whether a path is a configuration module: a file whose name is `config`, `settings`,
/// `conf` or `configuration` (any extension), or a file inside a folder of that name.
pub(crate) fn is_config_path(path: &str) -> bool {
    let names = ["config", "settings", "conf", "configuration"];
    let mut parts = path.rsplit('/');
    let file = parts.next().map(stem).unwrap_or_default();
    names.contains(&file) || parts.any(|dir| names.contains(&dir))
}

/// The module one level below `module` that `path` belongs to.
fn submodule_of(path: &str, module: &str) -> String {
    let rest = path
        .strip_prefix(module)
        .map(|r| r.trim_start_matches('/'))
        .unwrap_or(path);
    let rest = rest.strip_prefix("src/").unwrap_or(rest);
    match rest.split('/').next().map(stem) {
        Some(first) if !first.is_empty() && rest != path => format!("{module}/{first}"),
        _ => module.to_string(),
    }
}

/// A file name without its extension.
fn stem(name: &str) -> &str {
    name.split_once('.').map_or(name, |(s, _)| s)
}

/// "`a`, `b` and `c`" for a description.
pub(crate) fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn modules_by_layout() {
        assert_eq!(module_of("inspector/src/engine/run.rs"), "inspector");
        assert_eq!(module_of("src/engine/run.rs"), "src/engine");
        assert_eq!(module_of("src/engine.rs"), "src/engine");
        assert_eq!(module_of("app/views.py"), "app");
        assert_eq!(module_of("setup_utils.py"), "setup_utils");
        assert_eq!(list(&["a", "b", "c"]), "`a`, `b` and `c`");
        assert!(is_config_path("lead/src/config.rs") && is_config_path("app/settings/base.py"));
        assert!(!is_config_path("src/configure_logging.rs"));
    }

    #[test]
    fn one_package_is_compared_one_level_deeper_and_one_file_is_nothing() {
        let ctx = |paths: &[&str]| {
            Context::from_files(
                Path::new("/r"),
                paths.iter().map(|p| SourceFile::new(*p, "")).collect(),
                crate::spec::Specs::default(),
            )
        };
        let c = ctx(&["core/src/a.rs", "core/src/b/x.rs", "core/tests/it.rs"]);
        let mods: Vec<String> = library_modules(&c)
            .unwrap_or_default()
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        assert_eq!(mods, vec!["core/a", "core/b"]);
        assert!(library_modules(&ctx(&["src/lib.rs", "src/main.rs"])).is_none());
    }
}
