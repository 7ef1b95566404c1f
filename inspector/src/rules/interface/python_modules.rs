//! Resolving a Python import the design names (`app.users.create_user`) against the repository's
//! modules: `app/users.py` or `app/users/__init__.py` (also under `src/`), then the name among
//! the module's top-level definitions. A first package that is not in the repository is a
//! third-party or standard module and is never reported.

use super::rust_modules::Resolution;
use crate::rules::repository_files::RepositoryFiles;

/// Resolves the dotted path `segments`.
pub(super) fn resolve(files: &RepositoryFiles<'_>, segments: &[String]) -> Resolution {
    let Some(first) = segments.first() else {
        return Resolution::Unchecked;
    };
    let Some(base) = ["", "src/"].into_iter().find(|base| {
        let package = format!("{base}{first}/");
        files.contains(&format!("{base}{first}.py"))
            || files.paths().iter().any(|p| p.starts_with(&package))
    }) else {
        return Resolution::Unchecked;
    };
    // The longest prefix that is a module file; the rest are names inside it.
    for k in (1..=segments.len()).rev() {
        let module = segments[..k].join("/");
        let Some(file) = [
            format!("{base}{module}.py"),
            format!("{base}{module}/__init__.py"),
        ]
        .into_iter()
        .find(|f| files.contains(f)) else {
            continue;
        };
        let Some(name) = segments.get(k) else {
            return Resolution::Resolved;
        };
        if name == "*" {
            return Resolution::Resolved;
        }
        let Some(text) = files.text(&file) else {
            return Resolution::Unchecked;
        };
        return if defines(&text, name) {
            Resolution::Resolved
        } else {
            Resolution::Missing(format!("no `{name}` in {file}"))
        };
    }
    let package = format!("{base}{first}");
    Resolution::Missing(format!(
        "no module `{}` in {package}/",
        segments[1..].join(".")
    ))
}

/// Whether a module's top level defines or imports `name` (a package may re-export it).
fn defines(text: &str, name: &str) -> bool {
    text.lines().any(|line| {
        if line.starts_with([' ', '\t']) {
            return false;
        }
        let t = line.trim_end();
        let after = |prefix: &str| {
            t.strip_prefix(prefix)
                .and_then(|r| r.strip_prefix(name))
                .is_some_and(|r| r.starts_with(['(', ':', ' ', '=', '[']) || r.is_empty())
        };
        after("def ")
            || after("async def ")
            || after("class ")
            || after("")
            || ((t.starts_with("from ") || t.starts_with("import "))
                && t.split([' ', ',', '(', ')']).any(|w| w == name))
            || (t.starts_with("__all__") && t.contains(&format!("\"{name}\"")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Context, SourceFile};
    use crate::spec::Specs;
    use std::path::Path;

    fn segments(dotted: &str) -> Vec<String> {
        dotted.split('.').map(str::to_string).collect()
    }

    #[test]
    fn resolves_modules_and_their_names() {
        let ctx = Context::from_files(
            Path::new("/nonexistent"),
            vec![
                SourceFile::new("app/__init__.py", "from app.users import User\n"),
                SourceFile::new(
                    "app/users.py",
                    "import os\n\nclass User:\n    def save(self): pass\n\nasync def create_user(name):\n    pass\nMAX_USERS: int = 10\n",
                ),
            ],
            Specs::default(),
        );
        let files = RepositoryFiles::of(&ctx);
        let r = |d: &str| resolve(&files, &segments(d));
        assert_eq!(r("app.users.create_user"), Resolution::Resolved);
        assert_eq!(r("app.users.MAX_USERS"), Resolution::Resolved);
        assert_eq!(r("app.User"), Resolution::Resolved);
        assert_eq!(r("app.users"), Resolution::Resolved);
        assert_eq!(r("requests.Session"), Resolution::Unchecked);
        assert_eq!(
            r("app.users.save"),
            Resolution::Missing("no `save` in app/users.py".to_string())
        );
        assert_eq!(
            r("app.billing.charge"),
            Resolution::Missing("no `billing` in app/__init__.py".to_string())
        );
    }
}
