//! Where a failing test is: its function in the reviewed files when a cheap text search finds
//! it, then in the repository's other files (a session reviews only the changed ones, and a
//! regression is precisely a failure elsewhere), else the project's manifest (or, for pytest,
//! the test file the node id names).

use super::test_run::{Failure, Format};
use crate::engine::{Context, Language, SourceFile};
use crate::rules::repository_files::RepositoryFiles;
use protocol::Location;
use std::cell::OnceCell;

/// The repository's files, listed on the first failure not found in scope.
pub(super) type Others<'c> = OnceCell<RepositoryFiles<'c>>;

/// The location of `failure` in a run printed in `format`.
pub(super) fn locate<'c>(
    ctx: &'c Context,
    others: &Others<'c>,
    format: Option<Format>,
    failure: &Failure,
) -> Location {
    let find_def = |language: Language, needle: &str| {
        find_def(ctx.files.iter(), language, needle).or_else(|| {
            let files = others.get_or_init(|| RepositoryFiles::of(ctx));
            let outside = files
                .paths()
                .iter()
                .filter(|p| Language::of(p) == Some(language) && ctx.file(p).is_none())
                .filter_map(|p| files.source(p));
            let read: Vec<_> = outside.collect();
            find_def(read.iter().map(|f| &**f), language, needle)
        })
    };
    let name = failure.name.as_str();
    match format {
        Some(Format::Libtest) => {
            let last = name.rsplit("::").next().unwrap_or(name);
            find_def(Language::Rust, &format!("fn {last}("))
                .unwrap_or_else(|| Location::file("Cargo.toml"))
        }
        Some(Format::Pytest) => {
            let (path, rest) = name.split_once("::").unwrap_or((name, ""));
            let test = rest.rsplit("::").next().unwrap_or(rest);
            let test = test.split('[').next().unwrap_or(test);
            let text = match ctx.file(path) {
                Some(f) => Some(f.text.clone()),
                None => Location::file(path)
                    .resolve(&ctx.root)
                    .ok()
                    .and_then(|full| std::fs::read_to_string(full).ok()),
            };
            let needle = format!("def {test}(");
            match text.and_then(|t| line_of(&t, &needle)) {
                Some(line) if !test.is_empty() => Location::at(path, line),
                _ => Location::file(path),
            }
        }
        Some(Format::GoTest) => {
            let top = name.split('/').next().unwrap_or(name);
            find_def(Language::Go, &format!("func {top}("))
                .unwrap_or_else(|| Location::file("go.mod"))
        }
        Some(Format::Jest) => Location::file("package.json"),
        None => Location::file(""),
    }
}

/// The first definition line containing `needle` in one of `files` of `language`, preferring
/// one right under a test attribute (`#[test]`, `#[tokio::test]`).
fn find_def<'f>(
    files: impl Iterator<Item = &'f SourceFile>,
    language: Language,
    needle: &str,
) -> Option<Location> {
    let mut first: Option<Location> = None;
    for file in files.filter(|f| f.language == Some(language)) {
        if !file.text.contains(needle) {
            continue;
        }
        let lines: Vec<&str> = file.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.contains(needle) {
                continue;
            }
            let location = Location::at(&file.rel_path, i as u32 + 1);
            let attributed = lines[i.saturating_sub(3)..i]
                .iter()
                .any(|l| l.trim_start().starts_with("#[") && l.contains("test"));
            if attributed || language != Language::Rust {
                return Some(location);
            }
            first.get_or_insert(location);
        }
    }
    first
}

fn line_of(text: &str, needle: &str) -> Option<u32> {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SourceFile;
    use crate::spec::Specs;
    use std::path::Path;

    fn failure(name: &str) -> Failure {
        Failure {
            name: name.into(),
            message: None,
        }
    }

    #[test]
    fn finds_test_functions_or_falls_back_to_the_manifest() {
        let ctx = Context::from_files(
            Path::new("/nonexistent-root"),
            vec![
                SourceFile::new("src/a.rs", "pub fn creates() {}\n"),
                SourceFile::new(
                    "src/b.rs",
                    "mod tests {\n    #[test]\n    fn creates() {}\n}\n",
                ),
                SourceFile::new(
                    "calc/add_test.go",
                    "package calc\nfunc TestAdd(t *testing.T) {}\n",
                ),
                SourceFile::new("tests/test_u.py", "import x\n\ndef test_dup():\n    pass\n"),
            ],
            Specs::default(),
        );
        let others = Others::new();
        let at = |f: Option<Format>, n: &str| locate(&ctx, &others, f, &failure(n)).to_string();
        assert_eq!(
            at(Some(Format::Libtest), "users::tests::creates"),
            "src/b.rs:3"
        );
        assert_eq!(at(Some(Format::Libtest), "nowhere"), "Cargo.toml");
        assert_eq!(
            at(Some(Format::GoTest), "TestAdd/sub"),
            "calc/add_test.go:2"
        );
        assert_eq!(
            at(Some(Format::Pytest), "tests/test_u.py::test_dup[1]"),
            "tests/test_u.py:3"
        );
        assert_eq!(
            at(Some(Format::Pytest), "tests/gone.py::test_x"),
            "tests/gone.py"
        );
        assert_eq!(at(Some(Format::Jest), "a › b"), "package.json");
    }
}
