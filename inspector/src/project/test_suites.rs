//! Which test suites a repository has at its root, read once for both users: the test
//! Inspector runs the first of them (`rules/test/command.rs`), the Lead's integration
//! verification runs each in turn (`lead/src/team/verification.rs`). Detection only — no
//! command runs here.

use std::path::Path;

/// The suites a repository root declares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestSuites {
    /// `Cargo.toml`.
    pub cargo: bool,
    /// The file that configures pytest: `pytest.ini`, or `pyproject.toml` / `setup.cfg` with a
    /// pytest section or beside a `tests/` folder.
    pub pytest: Option<&'static str>,
    /// package.json's `test` script, unless it is npm init's "no test specified" stub.
    pub npm_test: bool,
    /// package.json's `lint` script.
    pub npm_lint: bool,
    /// The package manager the lockfile names: `pnpm`, `yarn`, `bun`, else `npm`.
    pub package_manager: &'static str,
    /// `go.mod`.
    pub go: bool,
}

/// Reads the suites of the repository at `root` (file existence, pytest sections, and
/// package.json's scripts).
pub fn test_suites(root: &Path) -> TestSuites {
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap_or_default();
    let has_tests_dir = root.join("tests").is_dir();
    let pytest = [
        ("pytest.ini", ""),
        ("pyproject.toml", "[tool.pytest"),
        ("setup.cfg", "[tool:pytest]"),
    ]
    .into_iter()
    .find(|(name, marker)| {
        root.join(name).is_file()
            && (marker.is_empty() || has_tests_dir || read(name).contains(marker))
    })
    .map(|(name, _)| name);
    let scripts = serde_json::from_str::<serde_json::Value>(&read("package.json"))
        .ok()
        .and_then(|v| v.get("scripts").cloned());
    let has = |name: &str| {
        scripts
            .as_ref()
            .and_then(|s| s.get(name))
            .and_then(|s| s.as_str())
            // npm init's placeholder test script fails on purpose; it is not a test suite.
            .is_some_and(|s| !s.contains("no test specified"))
    };
    let package_manager = [
        ("pnpm-lock.yaml", "pnpm"),
        ("yarn.lock", "yarn"),
        ("bun.lockb", "bun"),
    ]
    .into_iter()
    .find(|(lock, _)| root.join(lock).is_file())
    .map_or("npm", |(_, pm)| pm);
    TestSuites {
        cargo: root.join("Cargo.toml").is_file(),
        pytest,
        npm_test: root.join("package.json").is_file() && has("test"),
        npm_lint: root.join("package.json").is_file() && has("lint"),
        package_manager,
        go: root.join("go.mod").is_file(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suites(files: &[(&str, &str)]) -> TestSuites {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let at = dir.path().join(path);
            std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
            std::fs::write(at, text).expect("write");
        }
        test_suites(dir.path())
    }

    #[test]
    fn pytest_needs_its_configuration_or_a_tests_folder() {
        assert_eq!(suites(&[("pytest.ini", "")]).pytest, Some("pytest.ini"));
        assert_eq!(
            suites(&[("pyproject.toml", "[tool.pytest.ini_options]\n")]).pytest,
            Some("pyproject.toml")
        );
        assert_eq!(suites(&[("pyproject.toml", "[project]\n")]).pytest, None);
        assert_eq!(
            suites(&[("setup.cfg", "[metadata]\n"), ("tests/test_a.py", "")]).pytest,
            Some("setup.cfg")
        );
    }

    #[test]
    fn package_scripts_and_the_lockfiles_manager() {
        let s = suites(&[
            (
                "package.json",
                r#"{"scripts":{"test":"echo \"Error: no test specified\" && exit 1","lint":"eslint ."}}"#,
            ),
            ("yarn.lock", ""),
            ("go.mod", "module x\n"),
        ]);
        assert_eq!(
            (s.npm_test, s.npm_lint, s.package_manager, s.go, s.cargo),
            (false, true, "yarn", true, false)
        );
    }
}
