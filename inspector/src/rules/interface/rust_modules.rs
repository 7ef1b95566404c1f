//! Resolving a Rust path the design names (`crate::store::Db`, `billing::Invoice`, `serde::Serialize`)
//! against the repository: local paths module by module through the real source files (the
//! reviewed ones, or read from disk when outside the scope), external crates against the
//! dependencies the manifests declare. What cannot be checked (std, `self`/`super`, a glob
//! re-export on the way) is never reported.

use crate::rules::library_code::crate_root;
use crate::rules::repository_files::RepositoryFiles;
use std::collections::BTreeSet;

/// What a path comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Resolution {
    /// It names a real module or item (or an item of a declared dependency).
    Resolved,
    /// It cannot be checked from the sources.
    Unchecked,
    /// It names nothing: why.
    Missing(String),
}

/// One crate of the repository.
#[derive(Debug, Clone)]
struct Crate {
    /// Its name as code writes it (`-` → `_`; `[lib] name` when set).
    name: String,
    /// The path prefix of its folder (`""` at the root, `cli/`).
    prefix: String,
    /// Its root module file (`src/lib.rs`, else `src/main.rs`).
    root_file: String,
}

/// The crates of a repository and every dependency their manifests declare.
#[derive(Debug)]
pub(super) struct Crates {
    crates: Vec<Crate>,
    dependencies: BTreeSet<String>,
    manifests: usize,
}

/// Roots that need no checking: the standard library and relative paths without a module of
/// their own in the design.
const UNCHECKED_ROOTS: [&str; 7] = [
    "std",
    "core",
    "alloc",
    "proc_macro",
    "test",
    "self",
    "super",
];

impl Crates {
    /// Every crate with a `src/lib.rs` or `src/main.rs`, and the dependencies of every manifest.
    pub(super) fn of(files: &RepositoryFiles<'_>) -> Crates {
        let mut prefixes: BTreeSet<String> = files
            .paths()
            .iter()
            .filter(|p| p.ends_with(".rs"))
            .filter_map(|p| crate_root(p).map(str::to_string))
            .collect();
        prefixes.insert(String::new());
        let mut out = Crates {
            crates: Vec::new(),
            dependencies: BTreeSet::new(),
            manifests: 0,
        };
        for prefix in prefixes {
            let Some(manifest) = files.text(&format!("{prefix}Cargo.toml")) else {
                continue;
            };
            out.manifests += 1;
            let facts = manifest_facts(&manifest);
            out.dependencies.extend(facts.dependencies);
            let root_file = ["src/lib.rs", "src/main.rs"]
                .iter()
                .map(|f| format!("{prefix}{f}"))
                .find(|f| files.contains(f));
            if let (Some(name), Some(root_file)) = (facts.name, root_file) {
                out.crates.push(Crate {
                    name,
                    prefix,
                    root_file,
                });
            }
        }
        out
    }

    /// Resolves `segments`; `home` are the paths whose crates `crate::` may mean (the feature's
    /// declared files), every crate when none of them is in one.
    pub(super) fn resolve(
        &self,
        files: &RepositoryFiles<'_>,
        segments: &[String],
        home: &[String],
    ) -> Resolution {
        let Some(first) = segments.first() else {
            return Resolution::Unchecked;
        };
        if UNCHECKED_ROOTS.contains(&first.as_str()) {
            return Resolution::Unchecked;
        }
        let candidates: Vec<&Crate> = if first == "crate" {
            let homes: Vec<&Crate> = self
                .crates
                .iter()
                .filter(|c| {
                    home.iter()
                        .any(|p| crate_root(p) == Some(c.prefix.as_str()))
                })
                .collect();
            if homes.is_empty() {
                self.crates.iter().collect()
            } else {
                homes
            }
        } else {
            self.crates.iter().filter(|c| &c.name == first).collect()
        };
        if candidates.is_empty() {
            if first == "crate" || self.manifests == 0 || self.dependencies.contains(first) {
                return Resolution::Unchecked;
            }
            return Resolution::Missing(format!(
                "`{first}` is neither a crate of this repository nor a dependency in Cargo.toml"
            ));
        }
        let mut first_miss = None;
        for krate in candidates {
            match resolve_in(files, krate, &segments[1..]) {
                Resolution::Missing(why) => {
                    first_miss.get_or_insert(why);
                }
                other => return other,
            }
        }
        first_miss.map_or(Resolution::Unchecked, Resolution::Missing)
    }
}

/// A module: the file it is in and the inline `mod` path inside that file.
#[derive(Debug, Clone)]
struct Module {
    file: String,
    inline: Vec<String>,
}

/// What a name in a module is.
enum Entry {
    Module(Module),
    Item,
}

fn resolve_in(files: &RepositoryFiles<'_>, krate: &Crate, rest: &[String]) -> Resolution {
    let mut module = Module {
        file: krate.root_file.clone(),
        inline: Vec::new(),
    };
    let mut shown = krate.name.clone();
    for seg in rest {
        if seg == "*" {
            return Resolution::Resolved;
        }
        let Some((entries, glob)) = entries_of(files, &module) else {
            return Resolution::Unchecked;
        };
        match entries.into_iter().find(|(n, _)| n == seg) {
            Some((_, Entry::Module(m))) => module = m,
            Some((_, Entry::Item)) => return Resolution::Resolved,
            None if glob => return Resolution::Unchecked,
            None => {
                return Resolution::Missing(format!(
                    "no `{seg}` in module `{shown}` ({})",
                    module.file
                ))
            }
        }
        shown = format!("{shown}::{seg}");
    }
    Resolution::Resolved
}

/// The names a module defines or re-exports, and whether it has a glob re-export (then a name
/// it seems to lack may still be there). `None` when its file is missing or does not parse.
fn entries_of(
    files: &RepositoryFiles<'_>,
    module: &Module,
) -> Option<(Vec<(String, Entry)>, bool)> {
    let file = files.source(&module.file)?;
    // Names of items are all it reads: the item-level tree is enough.
    let ast = file.rust_items()?.ok()?;
    let mut items: &[syn::Item] = &ast.items;
    for name in &module.inline {
        items = items.iter().find_map(|i| match i {
            syn::Item::Mod(m) if m.ident == name => m.content.as_ref().map(|(_, c)| c.as_slice()),
            _ => None,
        })?;
    }
    let mut out = Vec::new();
    let mut glob = false;
    for item in items {
        let name = match item {
            syn::Item::Mod(m) => {
                let name = m.ident.to_string();
                let entry = if m.content.is_some() {
                    let mut inline = module.inline.clone();
                    inline.push(name.clone());
                    Entry::Module(Module {
                        file: module.file.clone(),
                        inline,
                    })
                } else {
                    child_file(files, module, &name).map_or(Entry::Item, |file| {
                        Entry::Module(Module {
                            file,
                            inline: Vec::new(),
                        })
                    })
                };
                out.push((name, entry));
                continue;
            }
            syn::Item::Use(u) => {
                let mut names = Vec::new();
                glob |= use_names(&u.tree, &mut names);
                out.extend(names.into_iter().map(|n| (n, Entry::Item)));
                continue;
            }
            syn::Item::Fn(f) => f.sig.ident.to_string(),
            syn::Item::Struct(s) => s.ident.to_string(),
            syn::Item::Enum(e) => e.ident.to_string(),
            syn::Item::Union(u) => u.ident.to_string(),
            syn::Item::Trait(t) => t.ident.to_string(),
            syn::Item::TraitAlias(t) => t.ident.to_string(),
            syn::Item::Type(t) => t.ident.to_string(),
            syn::Item::Const(c) => c.ident.to_string(),
            syn::Item::Static(s) => s.ident.to_string(),
            syn::Item::ExternCrate(e) => e.ident.to_string(),
            syn::Item::Macro(m) => match &m.ident {
                Some(ident) => ident.to_string(),
                None => continue,
            },
            _ => continue,
        };
        out.push((name, Entry::Item));
    }
    Some((out, glob))
}

/// The names a `use` brings in; true when it has a glob.
fn use_names(tree: &syn::UseTree, out: &mut Vec<String>) -> bool {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree, out),
        syn::UseTree::Name(n) => {
            out.push(n.ident.to_string());
            false
        }
        syn::UseTree::Rename(r) => {
            out.push(r.rename.to_string());
            false
        }
        syn::UseTree::Glob(_) => true,
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .fold(false, |glob, t| use_names(t, out) | glob),
    }
}

/// The file of `mod name;` declared in `module`: `<dir>/name.rs` or `<dir>/name/mod.rs`, where
/// `<dir>` is the folder of a `lib.rs`/`main.rs`/`mod.rs`, or the folder named after any other
/// file (`src/store.rs` → `src/store/`), plus the inline modules' names.
fn child_file(files: &RepositoryFiles<'_>, module: &Module, name: &str) -> Option<String> {
    let (dir, file_name) = module.file.rsplit_once('/').unwrap_or(("", &module.file));
    let mut base = if matches!(file_name, "lib.rs" | "main.rs" | "mod.rs") {
        dir.to_string()
    } else {
        let stem = file_name.trim_end_matches(".rs");
        if dir.is_empty() {
            stem.to_string()
        } else {
            format!("{dir}/{stem}")
        }
    };
    for inline in &module.inline {
        base = format!("{base}/{inline}");
    }
    [format!("{base}/{name}.rs"), format!("{base}/{name}/mod.rs")]
        .into_iter()
        .map(|p| p.trim_start_matches('/').to_string())
        .find(|p| files.contains(p))
}

/// What a Cargo.toml says that matters here.
#[derive(Debug, Default, PartialEq, Eq)]
struct ManifestFacts {
    name: Option<String>,
    dependencies: BTreeSet<String>,
}

/// The crate's name (`[lib] name`, else `[package] name`, `-` → `_`) and the keys of every
/// dependency table (`[dependencies]`, `[dev-dependencies]`, `[target.'..'.dependencies]`,
/// `[workspace.dependencies]`, `[dependencies.x]`). A few lines of TOML reading, no TOML crate.
fn manifest_facts(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::default();
    let (mut package, mut lib) = (None, None);
    let mut section = String::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or_default().trim();
        if let Some(header) = line.strip_prefix('[') {
            section = header.trim_end_matches(']').trim().to_string();
            if let Some((table, key)) = section.rsplit_once('.') {
                if table.ends_with("dependencies") {
                    facts
                        .dependencies
                        .insert(key.trim_matches('"').replace('-', "_"));
                }
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches('"');
        let value = value.trim().trim_matches('"').replace('-', "_");
        match section.as_str() {
            "package" if key == "name" => package = Some(value),
            "lib" if key == "name" => lib = Some(value),
            s if s.ends_with("dependencies") && !key.contains('.') => {
                facts.dependencies.insert(key.replace('-', "_"));
            }
            _ => {}
        }
    }
    facts.name = lib.or(package);
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_and_dependencies_from_manifests() {
        let text = "[package]\nname = \"my-app\"\n\n[lib]\nname = \"app_core\"\n\n[dependencies]\nserde = { version = \"1\" }\nlog = \"0.4\" # logging\n\n[dependencies.tokio-util]\nversion = \"0.7\"\n\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n\n[features]\nfast = []\n";
        let facts = manifest_facts(text);
        assert_eq!(facts.name.as_deref(), Some("app_core"));
        assert_eq!(
            facts.dependencies.into_iter().collect::<Vec<_>>(),
            vec!["libc", "log", "serde", "tokio_util"]
        );
    }
}
