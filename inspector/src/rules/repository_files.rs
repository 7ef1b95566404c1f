//! The repository's source files beyond the review scope: the rules that judge tests against
//! code (is there a test file for this module? which ACs do the tests mark?) must see the tests
//! even when the scope is one feature's files or a session's changes.
//!
//! A whole-repository review already walked everything, so its files are used as they are; any
//! narrower scope lists the repository's paths once more (names only, `.gitignore` respected,
//! as the engine walks) and reads a file's text only when a rule asks for it.

use crate::engine::{Context, Language, SourceFile};
use ignore::WalkBuilder;
use protocol::Scope;
use std::borrow::Cow;
use std::path::Path;

/// Every source file of the repository (paths sorted), with access to each one's text.
#[derive(Debug)]
pub(crate) struct RepositoryFiles<'c> {
    ctx: &'c Context,
    paths: Vec<String>,
}

impl<'c> RepositoryFiles<'c> {
    /// The source files of the repository `ctx` reviews.
    pub(crate) fn of(ctx: &'c Context) -> RepositoryFiles<'c> {
        let whole_repository = matches!(&ctx.scope, Scope::Module { globs } if globs.is_empty());
        let paths = if whole_repository || !ctx.root.is_dir() {
            ctx.files.iter().map(|f| f.rel_path.clone()).collect()
        } else {
            source_paths(&ctx.root)
        };
        RepositoryFiles { ctx, paths }
    }

    /// Every source path, sorted.
    pub(crate) fn paths(&self) -> &[String] {
        &self.paths
    }

    /// Whether the repository has a source file at `path`.
    pub(crate) fn contains(&self, path: &str) -> bool {
        self.paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }

    /// The paths that are test code by their name (`tests/`, `test_*.py`, `*_test.go`, …).
    pub(crate) fn test_paths(&self) -> impl Iterator<Item = &str> + '_ {
        self.paths
            .iter()
            .map(String::as_str)
            .filter(|p| crate::engine::is_test_path(p))
    }

    /// The text of `path`: the reviewed file's when it is in scope, else read from disk (files
    /// larger than the review's size limit, or unreadable, give `None`).
    pub(crate) fn text(&self, path: &str) -> Option<Cow<'c, str>> {
        if let Some(file) = self.ctx.file(path) {
            return Some(Cow::Borrowed(file.text.as_str()));
        }
        let full = protocol::Location::file(path)
            .resolve(&self.ctx.root)
            .ok()?;
        let size = std::fs::metadata(&full).ok()?.len();
        if size > self.ctx.options.max_file_bytes {
            return None;
        }
        std::fs::read_to_string(full).ok().map(Cow::Owned)
    }

    /// The file at `path` (in scope: the reviewed one, whose syntax tree may be built already;
    /// else read from disk).
    pub(crate) fn source(&self, path: &str) -> Option<FileRef<'c>> {
        match self.ctx.file(path) {
            Some(file) => Some(FileRef::Reviewed(file)),
            None => self
                .text(path)
                .map(|text| FileRef::Read(SourceFile::new(path, text.into_owned()))),
        }
    }
}

/// A file of the repository: one of the review's, or one read for the occasion.
#[derive(Debug)]
pub(crate) enum FileRef<'c> {
    /// In the review's scope.
    Reviewed(&'c SourceFile),
    /// Read from disk.
    Read(SourceFile),
}

impl std::ops::Deref for FileRef<'_> {
    type Target = SourceFile;

    fn deref(&self) -> &SourceFile {
        match self {
            FileRef::Reviewed(file) => file,
            FileRef::Read(file) => file,
        }
    }
}

/// The repository-relative paths of every source file under `root` (not configuration files),
/// sorted; `.git/`, `.retake/` and ignored files left out.
fn source_paths(root: &Path) -> Vec<String> {
    let walker = WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .filter_entry(|e| !matches!(e.file_name().to_str(), Some(".git" | ".retake")))
        .build();
    let mut paths: Vec<String> = walker
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            let rel = rel.to_string_lossy().replace('\\', "/");
            matches!(Language::of(&rel), Some(l) if l != Language::Config).then_some(rel)
        })
        .collect();
    paths.sort();
    paths
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context_with, repo};
    use protocol::message::InspectOptions;

    #[test]
    fn a_narrow_scope_still_sees_the_repositorys_tests() {
        let dir = repo(&[
            ("src/a.rs", "pub fn a() {}\n"),
            ("tests/a.rs", "#[test]\nfn t() { assert!(x::a()); }\n"),
            ("Cargo.toml", "[package]\n"),
            (".gitignore", "/target\n"),
            ("target/debug/x.rs", "fn gen() {}\n"),
        ]);
        let scope = Scope::Module {
            globs: vec!["src/**".into()],
        };
        let ctx = context_with(&dir, scope, InspectOptions::default());
        assert_eq!(ctx.files.len(), 1);
        let files = RepositoryFiles::of(&ctx);
        assert_eq!(files.paths(), ["src/a.rs", "tests/a.rs"]);
        assert_eq!(files.test_paths().collect::<Vec<_>>(), vec!["tests/a.rs"]);
        assert!(files.contains("tests/a.rs") && !files.contains("tests/b.rs"));
        assert_eq!(
            files.text("tests/a.rs").as_deref(),
            Some("#[test]\nfn t() { assert!(x::a()); }\n")
        );
        assert_eq!(
            files.source("src/a.rs").map(|f| f.text.clone()).as_deref(),
            Some("pub fn a() {}\n")
        );
        assert!(files.text("../etc/passwd").is_none());
    }
}
