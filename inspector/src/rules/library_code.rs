//! Whether a file is library code by its path: not a binary entry point, build script,
//! example, benchmark, script or test. Panicking, printing and `anyhow` are normal in those;
//! in a library they are decisions the caller should get to make.

use crate::engine::{is_test_path, Context, Language, Sink, SourceFile};
use std::collections::HashMap;

/// Whether the repository-relative `path` is library code. Binaries are `src/main.rs`,
/// `src/bin/**`, `__main__.py`; tooling is `build.rs`, `setup.py`, `conftest.py` and anything under
/// `examples/`, `benches/` (`bench/`, `benchmarks/`), `scripts/`, `bin/`, `docs/` or a hidden
/// folder (`.github/`); tests are what [`is_test_path`] says.
pub(crate) fn is_library_path(path: &str) -> bool {
    if is_test_path(path) {
        return false;
    }
    let parts: Vec<&str> = path.split('/').collect();
    let Some((name, dirs)) = parts.split_last() else {
        return false;
    };
    // Hidden folders (`.github/`, `.cargo/`, `.devcontainer/`) hold CI and editor tooling;
    // `docs/` a documentation site and its build configuration (Sphinx's `conf.py`).
    let tooling_dir = dirs.iter().any(|d| {
        d.starts_with('.')
            || matches!(
                *d,
                "examples" | "benches" | "bench" | "benchmarks" | "scripts" | "bin" | "docs"
            )
    });
    let in_src = dirs.contains(&"src");
    let binary = (*name == "main.rs" && dirs.last() == Some(&"src"))
        || matches!(*name, "__main__.py" | "setup.py" | "conftest.py")
        || (*name == "build.rs" && !in_src);
    !(tooling_dir || binary)
}

/// Whether a file is library code: by its path ([`is_library_path`]), and not a Go file of
/// `package main` nor a Python script (a shebang line or an `if __name__ == "__main__":` guard):
/// both are programs, wherever they sit.
pub(crate) fn is_library_file(file: &SourceFile) -> bool {
    let program = match file.language {
        Some(Language::Go) => is_go_main(&file.text),
        Some(Language::Python) => is_python_script(&file.text),
        _ => false,
    };
    is_library_path(&file.rel_path) && !program
}

/// Whether Python source is a script: it starts with `#!` or has a `__main__` guard.
pub(crate) fn is_python_script(text: &str) -> bool {
    text.starts_with("#!")
        || text
            .lines()
            .any(|l| l.starts_with("if __name__") && l.contains("__main__"))
}

/// Whether Go source declares `package main`.
pub(crate) fn is_go_main(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("package "))
        .is_some_and(|l| l.split_whitespace().nth(1) == Some("main"))
}

/// The crate a path belongs to, as the prefix before its `src/` (`cli/`, or `""` at the root).
pub(crate) fn crate_root(path: &str) -> Option<&str> {
    if path.starts_with("src/") {
        return Some("");
    }
    path.find("/src/").map(|at| &path[..at + 1])
}

/// Path prefixes (`cli/`, or `""` for the root) of Rust crates that build a binary
/// (`src/main.rs` or `src/bin/`): their library is the program, and printing is its output.
pub(crate) fn binary_crates(ctx: &Context) -> Vec<String> {
    let mut roots: Vec<String> = ctx
        .files
        .iter()
        .filter_map(|f| {
            let path = f.rel_path.as_str();
            path.strip_suffix("src/main.rs")
                .or_else(|| path.find("src/bin/").map(|at| &path[..at]))
        })
        .filter(|root| root.is_empty() || root.ends_with('/'))
        .map(str::to_string)
        .collect();
    roots.sort();
    roots.dedup();
    roots
}

/// Drops the hits that lie in Rust crates which build only programs: a crate root (`xtask/`)
/// whose `src/main.rs` or `src/bin/` exists on disk and whose `src/lib.rs` does not. Every module
/// of such a crate is the program's own code, where failing loudly is the program's decision,
/// not a library's imposed on its callers. Read from disk, not from the scope, so that a session
/// review of one changed module judges its crate the same way.
pub(crate) fn drop_hits_in_program_crates(ctx: &Context, out: &mut Sink) {
    let mut program_only: HashMap<String, bool> = HashMap::new();
    out.hits.retain(|hit| {
        let Some(root) = crate_root(&hit.location.path) else {
            return true;
        };
        let program = program_only.entry(root.to_string()).or_insert_with(|| {
            let src = ctx.root.join(root).join("src");
            (src.join("main.rs").is_file() || src.join("bin").is_dir())
                && !src.join("lib.rs").is_file()
        });
        !*program
    });
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
        let unwrap = "pub fn load() -> String {\n    std::fs::read_to_string(\"x\").unwrap()\n}\n";
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
    fn binaries_tooling_and_tests_are_not_library_code() {
        for path in [
            "src/main.rs",
            "cli/src/main.rs",
            "src/bin/tool.rs",
            "build.rs",
            "core/build.rs",
            "examples/demo.rs",
            "benches/b.rs",
            "tests/it.rs",
            "pkg/__main__.py",
            "scripts/release.py",
            ".github/actions/github-release/main.js",
            "docs/conf.py",
            "packages/zod/src/v3/benchmarks/index.ts",
        ] {
            assert!(!is_library_path(path), "{path}");
        }
        for path in [
            "src/lib.rs",
            "src/engine/main.rs",
            "src/build.rs",
            "app/views.py",
            "doc/util.go",
        ] {
            assert!(is_library_path(path), "{path}");
        }
        assert!(is_go_main("// x\npackage main\n"));
        assert!(!is_library_file(&SourceFile::new(
            "cmd/api/serve.go",
            "package main\n"
        )));
        assert!(is_library_file(&SourceFile::new(
            "pkg/api/serve.go",
            "package api\n"
        )));
        assert!(!is_library_file(&SourceFile::new(
            "tools/bench.py",
            "#!/usr/bin/env python3\n"
        )));
        assert!(!is_library_file(&SourceFile::new(
            "app/cli.py",
            "def main(): pass\nif __name__ == \"__main__\":\n    main()\n"
        )));
        assert_eq!(crate_root("cli/src/a.rs"), Some("cli/"));
    }
}
