//! Phase C's integration verification: which commands run, in which order (stopping at the
//! first failure): the configured validation scripts, `cargo test` (Cargo.toml), `pytest`
//! (pytest configured), the package.json `test` then `lint` scripts (with the package manager
//! its lockfile names), `go test ./...` (go.mod) — the suites found by the same detector the
//! test Inspector uses.

use std::path::Path;

/// What the repository has, as far as verification cares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectFacts {
    /// Configured validation scripts, each an argv, in order.
    pub validation_scripts: Vec<Vec<String>>,
    /// Cargo.toml at the root.
    pub cargo: bool,
    /// pytest configured at the root (pytest.ini, or a pytest section / `tests/` beside
    /// pyproject.toml or setup.cfg).
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

/// Reads the facts from the repository root: the suites the Inspectors' one detector finds
/// (`inspector::project::test_suites`).
pub fn project_facts(root: &Path, validation_scripts: Vec<Vec<String>>) -> ProjectFacts {
    let suites = inspector::project::test_suites::test_suites(root);
    ProjectFacts {
        validation_scripts,
        cargo: suites.cargo,
        pytest: suites.pytest.is_some(),
        npm_test: suites.npm_test,
        npm_lint: suites.npm_lint,
        package_manager: suites.package_manager,
        go: suites.go,
    }
}

/// The test command of a repository: the configured one (`[test] command`), else
/// steering/tech.md's, else the first detected one (`cargo test`, `pytest`, the package.json test script, `go test ./...`).
pub fn test_command(root: &Path, configured: Option<&[String]>) -> Option<Vec<String>> {
    if let Some(cmd) = configured.filter(|c| !c.is_empty()) {
        return Some(cmd.to_vec());
    }
    let steering = std::fs::read_to_string(root.join("steering/tech.md"))
        .ok()
        .and_then(|t| inspector::spec::test_command_in(&t));
    if let Some(cmd) = steering.filter(|c| !c.is_empty()) {
        return Some(cmd);
    }
    verification_steps(&project_facts(root, Vec::new()))
        .into_iter()
        .next()
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
