//! Builds the project model (`protocol::project`): the repository's packages from their
//! manifests, every file's role with the reason, which tests exercise which modules, and the
//! test frameworks with their assertion vocabularies.
//!
//! [`build`] is a pure function of the repository's file list and a reader for the few files
//! it opens: manifests, and the source files that can declare modules or entry points or
//! import what they test (a lexical scan, no parse). Roles are placed by the strongest
//! evidence first — vendored code, manifest targets and the module trees they root, entry
//! points, a language's own test convention — and the path conventions ([`paths`]) answer
//! for the rest. The Lead builds the model once per review and ships it (`store`); an
//! Inspector loads it, or builds it itself with the same function when it is absent.

mod books;
mod cargo;
mod exercises;
mod frameworks;
pub mod functions;
mod go;
mod node;
mod paths;
mod python;
mod rust_mods;
pub(crate) mod script_imports;
mod store;
pub(crate) mod test_kits;
pub mod test_suites;

#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod tests;

use crate::engine::Language;
use protocol::project::{FileFacts, FileRole, Package, ProjectModel};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub use store::{build_at, load, store};

use paths::Placed;

/// The repository as the builder sees it: every path, and the texts it read (each file at
/// most once).
pub(crate) struct Sources<'a> {
    paths: Vec<String>,
    read: &'a dyn Fn(&str) -> Option<String>,
    texts: RefCell<HashMap<String, Option<Rc<str>>>>,
}

impl<'a> Sources<'a> {
    fn new(mut paths: Vec<String>, read: &'a dyn Fn(&str) -> Option<String>) -> Sources<'a> {
        paths.sort();
        paths.dedup();
        Sources {
            paths,
            read,
            texts: RefCell::new(HashMap::new()),
        }
    }

    /// Whether the repository holds `path`.
    pub(crate) fn exists(&self, path: &str) -> bool {
        self.paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }

    /// Every path, sorted.
    pub(crate) fn paths(&self) -> &[String] {
        &self.paths
    }

    /// The paths under folder `dir` (`"crates/x/"`, `""` for all), sorted.
    pub(crate) fn under<'s>(&'s self, dir: &'s str) -> impl Iterator<Item = &'s str> + 's {
        let start = self.paths.partition_point(|p| p.as_str() < dir);
        self.paths[start..]
            .iter()
            .take_while(move |p| p.starts_with(dir))
            .map(String::as_str)
    }

    /// The text of `path`, read once; `None` when it cannot be read.
    pub(crate) fn text(&self, path: &str) -> Option<Rc<str>> {
        if let Some(known) = self.texts.borrow().get(path) {
            return known.clone();
        }
        let text: Option<Rc<str>> = (self.read)(path).map(Rc::from);
        self.texts
            .borrow_mut()
            .insert(path.to_string(), text.clone());
        text
    }
}

/// The roles placed so far: the first placement of a file stands (evidence is placed
/// strongest first).
#[derive(Default)]
pub(crate) struct Roles {
    placed: HashMap<String, Placed>,
}

impl Roles {
    /// Places `path` as `role` for `reason`, unless it is placed already; whether it was.
    pub(crate) fn place(&mut self, path: &str, role: FileRole, reason: impl Into<String>) -> bool {
        if self.placed.contains_key(path) {
            return false;
        }
        self.placed.insert(path.to_string(), (role, reason.into()));
        true
    }

    /// The role placed for `path`, if any.
    pub(crate) fn get(&self, path: &str) -> Option<FileRole> {
        self.placed.get(path).map(|(r, _)| *r)
    }
}

/// Builds the model of a repository from its file list (repository-relative, `/`-separated
/// paths) and a reader for the files it needs to open.
pub fn build(paths: Vec<String>, read: &dyn Fn(&str) -> Option<String>) -> ProjectModel {
    let src = Sources::new(paths, read);
    let mut roles = Roles::default();
    for path in src.paths() {
        let (role, reason) = paths::role_by_path(path);
        // Vendored code, and an example project's own tests, whatever a framework's layout
        // would make of them.
        let example_test = role == FileRole::Example && crate::engine::is_test_path(path);
        if role == FileRole::Vendored || example_test {
            roles.place(path, role, reason);
        } else if crate::engine::is_test_data_path(path) {
            roles.place(path, FileRole::TestData, "test data folder");
        }
    }
    let mut packages: Vec<Package> = Vec::new();
    cargo::read(&src, &mut packages, &mut roles);
    python::read(&src, &mut packages, &mut roles);
    node::read(&src, &mut packages, &mut roles);
    go::read(&src, &mut packages, &mut roles);
    books::place(&src, &mut roles);
    let frameworks = frameworks::detect(&src, &packages, &mut roles);
    let mut files: Vec<FileFacts> = Vec::new();
    for path in src.paths() {
        let Some(lang) = Language::of(path) else {
            continue;
        };
        let (mut role, mut reason) = match roles.placed.remove(path) {
            Some(placed) => placed,
            None => by_convention(&src, path, lang),
        };
        if role == FileRole::Library {
            if let Some(kit) = test_kits::test_kit(path, &packages) {
                (role, reason) = (FileRole::TestSupport, kit);
            }
        }
        files.push(FileFacts {
            path: path.clone(),
            role,
            reason,
            exercises: Vec::new(),
        });
    }
    exercises::link(&src, &packages, &mut files);
    packages.sort_by(|a, b| a.manifest.cmp(&b.manifest));
    ProjectModel {
        packages,
        files,
        frameworks,
    }
}

/// The role of a file no manifest or layout placed: its path, then (for library-looking Go
/// and Python) its text.
pub(crate) fn by_convention(src: &Sources<'_>, path: &str, lang: Language) -> Placed {
    let by_path = paths::role_by_path(path);
    if by_path.0 != FileRole::Library || !matches!(lang, Language::Go | Language::Python) {
        return by_path;
    }
    src.text(path)
        .and_then(|text| paths::role_by_text(path, &text))
        .unwrap_or(by_path)
}

/// The role of a file no model lists (a file built in memory): its path's convention, then
/// its text for library-looking Go and Python — the model's own fallback.
pub(crate) fn role_without_model(path: &str, text: &str) -> FileRole {
    let (role, _) = paths::role_by_path(path);
    if role != FileRole::Library {
        return role;
    }
    paths::role_by_text(path, text).map_or(role, |(r, _)| r)
}

/// The folder of a repository-relative path, with its trailing `/` (`""` at the root).
pub(crate) fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..=i])
}

/// `rel` resolved against folder `dir` (`"a/b/"`): `.` and `..` segments folded; `None` when
/// it climbs above the repository.
pub(crate) fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The model of the files in memory (a context built from fixtures): their paths and texts.
pub(crate) fn build_in_memory(files: &[(&str, &str)]) -> ProjectModel {
    let texts: HashMap<&str, &str> = files.iter().copied().collect();
    let paths = files.iter().map(|(p, _)| p.to_string()).collect();
    build(paths, &|p| texts.get(p).map(|t| t.to_string()))
}
