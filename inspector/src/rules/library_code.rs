//! Whether a file is library code by its path: not a binary entry point, build script,
//! example, benchmark, script or test. Panicking, printing and `anyhow` are normal in those;
//! in a library they are decisions the caller should get to make.

use crate::engine::is_test_path;

/// Whether the repository-relative `path` is library code. Binaries are `src/main.rs`,
/// `src/bin/**`, `__main__.py`; tooling is `build.rs`, `setup.py`, `conftest.py` and anything under
/// `examples/`, `benches/`, `scripts/` or `bin/`; tests are what [`is_test_path`] says.
pub(crate) fn is_library_path(path: &str) -> bool {
    if is_test_path(path) {
        return false;
    }
    let parts: Vec<&str> = path.split('/').collect();
    let Some((name, dirs)) = parts.split_last() else {
        return false;
    };
    let tooling_dir = dirs
        .iter()
        .any(|d| matches!(*d, "examples" | "benches" | "scripts" | "bin"));
    let in_src = dirs.contains(&"src");
    let binary = (*name == "main.rs" && dirs.last() == Some(&"src"))
        || matches!(*name, "__main__.py" | "setup.py" | "conftest.py")
        || (*name == "build.rs" && !in_src);
    !(tooling_dir || binary)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(!is_library_path(path), "{path}");
        }
        for path in [
            "src/lib.rs",
            "src/engine/main.rs",
            "src/build.rs",
            "app/views.py",
        ] {
            assert!(is_library_path(path), "{path}");
        }
    }
}
