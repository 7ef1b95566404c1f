//! Whether a file is library code: what the project model (`crate::project`) says of it —
//! not a program, build script, example, benchmark, script or test. Panicking, printing and
//! `anyhow` are normal in those; in a library they are decisions the caller should get to make.

use crate::engine::{Context, Sink, SourceFile};
use protocol::project::{Ecosystem, FileRole, Package, TargetKind};

/// Whether the repository-relative `path` is library code by the model's path convention alone
/// (for a path no file or model is at hand for).
pub(crate) fn is_library_path(path: &str) -> bool {
    crate::project::role_without_model(path, "") == FileRole::Library
}

/// Whether a file is library code: the project model gives it the library role (its
/// manifests, module trees and entry points first; path and text conventions for the rest).
pub(crate) fn is_library_file(file: &SourceFile) -> bool {
    file.role == FileRole::Library
}

/// The crate a path belongs to, as the prefix before its `src/` (`cli/`, or `""` at the root).
pub(crate) fn crate_root(path: &str) -> Option<&str> {
    if path.starts_with("src/") {
        return Some("");
    }
    path.find("/src/").map(|at| &path[..at + 1])
}

/// Folders (`cli/`, or `""` for the root) of the Rust packages that build a binary: their
/// library is the program, and printing is its output.
pub(crate) fn binary_crates(ctx: &Context) -> Vec<String> {
    let mut roots: Vec<String> = cargo_packages(ctx)
        .filter(|p| p.targets.iter().any(|t| t.kind == TargetKind::Bin))
        .map(|p| p.root.clone())
        .collect();
    roots.sort();
    roots.dedup();
    roots
}

fn cargo_packages(ctx: &Context) -> impl Iterator<Item = &Package> {
    ctx.project
        .packages
        .iter()
        .filter(|p| p.ecosystem == Ecosystem::Cargo && !p.name.is_empty())
}

/// Drops the hits that lie in Rust packages which build only programs: a package (`xtask/`)
/// with a binary target and no library target. Every module of such a package is the
/// program's own code, where failing loudly is the program's decision, not a library's imposed
/// on its callers. The model covers the whole repository, so a session review of one changed
/// module judges its package the same way.
pub(crate) fn drop_hits_in_program_crates(ctx: &Context, out: &mut Sink) {
    out.hits.retain(|hit| {
        !ctx.project
            .package_of(&hit.location.path, Ecosystem::Cargo)
            .is_some_and(builds_only_programs)
    });
}

/// Drops the hits that lie in procedural-macro crates: they run inside the compiler, where a
/// panic is the user's compile error with its message, and they export only their macros — no
/// function of theirs is an API anyone calls.
pub(crate) fn drop_hits_in_proc_macro_crates(ctx: &Context, out: &mut Sink) {
    out.hits
        .retain(|hit| !in_proc_macro_crate(ctx, &hit.location.path));
}

/// Whether `path` lies in a procedural-macro crate.
pub(crate) fn in_proc_macro_crate(ctx: &Context, path: &str) -> bool {
    ctx.project
        .package_of(path, Ecosystem::Cargo)
        .is_some_and(|p| p.proc_macro)
}

/// Whether a package builds a binary and no library.
fn builds_only_programs(p: &Package) -> bool {
    p.targets.iter().any(|t| t.kind == TargetKind::Bin)
        && !p.targets.iter().any(|t| t.kind == TargetKind::Lib)
}

/// Excuses the hits in the maintainers' own tools: a Rust package that is never published and
/// builds only programs (`xtask/`, a code generator such as `syn-internal-codegen`). Nobody but
/// the maintainers runs them, on inputs they choose; what the package's manifest says of itself
/// is the excuse, so a change that writes such a hit still gates.
pub(crate) fn excuse_in_maintainer_tools(ctx: &Context, out: &mut Sink) {
    for hit in out.hits.iter_mut().filter(|h| h.excuse.is_none()) {
        let tool = ctx
            .project
            .package_of(&hit.location.path, Ecosystem::Cargo)
            .is_some_and(|p| !p.publish && builds_only_programs(p));
        if tool {
            hit.excuse = Some(
                "a tool only the maintainers run: an unpublished package that builds only programs"
                    .to_string(),
            );
        }
    }
}

/// Whether `path` lies in one of the `binary_crates`.
pub(crate) fn in_binary_crate(path: &str, binary_crates: &[String]) -> bool {
    crate_root(path).is_some_and(|root| binary_crates.iter().any(|c| c == root))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::hits_on_disk;
    use protocol::InspectorKind;

    #[test]
    fn library_rules_are_quiet_in_crates_that_build_only_a_program() {
        let unwrap =
            "pub fn load(path: &str) -> String {\n    std::fs::read_to_string(path).unwrap()\n}\n";
        let panic = "pub fn load() {\n    panic!(\"no config\");\n}\n";
        let cases = [
            (InspectorKind::Quality, "quality/unwrap-in-library", unwrap),
            (InspectorKind::Holistic, "holistic/panic-in-library", panic),
        ];
        for (kind, id, body) in cases {
            let rules = crate::rules::for_kind(kind);
            let rule = rules
                .iter()
                .find(|r| r.meta().id == id)
                .expect("in the catalog");
            let found = hits_on_disk(
                rule.as_ref(),
                &[
                    ("xtask/src/main.rs", "mod dist;\nfn main() {}\n"),
                    ("xtask/src/dist.rs", body),
                    ("tool/src/main.rs", "fn main() {}\n"),
                    ("tool/src/lib.rs", ""),
                    ("tool/src/load.rs", body),
                    ("src/load.rs", body),
                ],
            );
            assert_eq!(
                found,
                vec![("src/load.rs".to_string(), 2), ("tool/src/load.rs".to_string(), 2)],
                "{}: a program-only crate is quiet; a crate with a library, or the root library, is not",
                id
            );
        }
    }

    #[test]
    fn library_code_is_what_the_model_says() {
        assert!(!is_library_path("src/main.rs"));
        assert!(is_library_path("src/lib.rs"));
        let mut file = SourceFile::new("src/cli.rs", "pub fn run() {}\n");
        assert!(is_library_file(&file));
        file.role = FileRole::Program;
        assert!(
            !is_library_file(&file),
            "the model's role decides, not the path"
        );
        assert_eq!(crate_root("cli/src/a.rs"), Some("cli/"));
    }
}
