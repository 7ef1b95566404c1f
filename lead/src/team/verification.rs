//! Phase C's integration verification: which commands run, in which order (stopping at the
//! first failure): the configured validation scripts, `cargo test` (Cargo.toml), `pytest`
//! (pytest.ini or pyproject.toml), the package.json `test` then `lint` scripts (with the
//! package manager its lockfile names), `go test ./...` (go.mod).

use std::path::Path;

/// What the repository has, as far as verification cares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectFacts {
    /// Configured validation scripts, each an argv, in order.
    pub validation_scripts: Vec<Vec<String>>,
    /// Cargo.toml at the root.
    pub cargo: bool,
    /// pytest.ini or pyproject.toml at the root.
    pub pytest: bool,
    /// package.json's `test` script exists.
    pub npm_test: bool,
    /// package.json's `lint` script exists.
    pub npm_lint: bool,
    /// `npm`, `pnpm`, `yarn` or `bun`.
    pub package_manager: &'static str,
    /// go.mod at the root.
    pub go: bool,
}

/// The verification commands, in order.
pub fn verification_steps(facts: &ProjectFacts) -> Vec<Vec<String>> {
    let argv = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let mut steps = facts.validation_scripts.clone();
    if facts.cargo {
        steps.push(argv(&["cargo", "test"]));
    }
    if facts.pytest {
        steps.push(argv(&["pytest"]));
    }
    if facts.npm_test {
        steps.push(argv(&[facts.package_manager, "test"]));
    }
    if facts.npm_lint {
        steps.push(argv(&[facts.package_manager, "run", "lint"]));
    }
    if facts.go {
        steps.push(argv(&["go", "test", "./..."]));
    }
    steps
}

/// Reads the facts from the repository root (file existence and package.json's scripts).
pub fn project_facts(root: &Path, validation_scripts: Vec<Vec<String>>) -> ProjectFacts {
    let scripts = std::fs::read_to_string(root.join("package.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
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
    ProjectFacts {
        validation_scripts,
        cargo: root.join("Cargo.toml").is_file(),
        pytest: root.join("pytest.ini").is_file() || root.join("pyproject.toml").is_file(),
        npm_test: has("test"),
        npm_lint: has("lint"),
        package_manager,
        go: root.join("go.mod").is_file(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_order_of_the_spec() {
        let facts = ProjectFacts {
            validation_scripts: vec![vec!["bash".into(), "./tests/validate.sh".into()]],
            cargo: true,
            pytest: true,
            npm_test: true,
            npm_lint: true,
            package_manager: "pnpm",
            go: true,
        };
        let steps: Vec<String> = verification_steps(&facts)
            .iter()
            .map(|s| s.join(" "))
            .collect();
        assert_eq!(
            steps,
            vec![
                "bash ./tests/validate.sh",
                "cargo test",
                "pytest",
                "pnpm test",
                "pnpm run lint",
                "go test ./..."
            ]
        );
        assert!(verification_steps(&ProjectFacts::default()).is_empty());
    }

    #[test]
    fn facts_come_from_the_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("package.json"), r#"{"scripts":{"test":"echo \"Error: no test specified\" && exit 1","lint":"eslint ."}}"#).unwrap();
        std::fs::write(dir.path().join("yarn.lock"), "").unwrap();
        std::fs::write(dir.path().join("go.mod"), "module x\n").unwrap();
        let facts = project_facts(dir.path(), Vec::new());
        let steps: Vec<String> = verification_steps(&facts)
            .iter()
            .map(|s| s.join(" "))
            .collect();
        assert_eq!(steps, vec!["yarn run lint", "go test ./..."]);
    }
}
