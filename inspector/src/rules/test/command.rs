//! Which test command to run: the configured one, else steering/tech.md's, else one detected
//! from the project's manifest.

use crate::engine::Context;
use crate::project::test_suites::test_suites;
use std::path::Path;

/// Where the test command came from; it decides where an environment error points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    /// `[test] command` in the configuration.
    Config,
    /// steering/tech.md's Common Commands.
    Steering,
    /// Detected from this manifest (`Cargo.toml`, `go.mod`, …).
    Manifest(&'static str),
}

/// The test command and its source; `None` when nothing says how to test the project.
pub(super) fn test_command(ctx: &Context) -> Option<(Vec<String>, Source)> {
    if let Some(argv) = ctx.options.test_command.clone().filter(|a| !a.is_empty()) {
        return Some((argv, Source::Config));
    }
    if let Some(argv) = ctx.specs.test_command() {
        return Some((argv, Source::Steering));
    }
    detect(&ctx.root)
}

/// The first suite the project has ([`crate::project::test_suites`]): `Cargo.toml` → `cargo
/// test --no-fail-fast`; pytest configuration → `pytest`; a package.json test script → `npm
/// test`; `go.mod` → `go test -v ./...`.
fn detect(root: &Path) -> Option<(Vec<String>, Source)> {
    let argv = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let suites = test_suites(root);
    if suites.cargo {
        // Without --no-fail-fast cargo stops at the first failing test binary and the report
        // would miss every failure after it.
        return Some((
            argv(&["cargo", "test", "--no-fail-fast"]),
            Source::Manifest("Cargo.toml"),
        ));
    }
    if let Some(config) = suites.pytest {
        return Some((argv(&["pytest"]), Source::Manifest(config)));
    }
    if suites.npm_test {
        return Some((argv(&["npm", "test"]), Source::Manifest("package.json")));
    }
    if suites.go {
        // -v prints a line per passing test too, so the pass count is real.
        return Some((
            argv(&["go", "test", "-v", "./..."]),
            Source::Manifest("go.mod"),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context_with, repo};
    use protocol::message::InspectOptions;
    use protocol::Scope;

    fn detected(files: &[(&str, &str)]) -> Option<String> {
        let dir = repo(files);
        detect(dir.path()).map(|(a, _)| a.join(" "))
    }

    #[test]
    fn detects_each_ecosystem() {
        assert_eq!(
            detected(&[("Cargo.toml", "[package]\n")]).as_deref(),
            Some("cargo test --no-fail-fast")
        );
        assert_eq!(
            detected(&[("pyproject.toml", "[tool.pytest.ini_options]\n")]).as_deref(),
            Some("pytest")
        );
        assert_eq!(
            detected(&[("setup.cfg", "[metadata]\n"), ("tests/test_a.py", "")]).as_deref(),
            Some("pytest")
        );
        assert_eq!(detected(&[("pyproject.toml", "[project]\n")]), None);
        assert_eq!(
            detected(&[("package.json", r#"{"scripts": {"test": "jest"}}"#)]).as_deref(),
            Some("npm test")
        );
        assert_eq!(
            detected(&[(
                "package.json",
                r#"{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}"#
            )]),
            None
        );
        assert_eq!(
            detected(&[("go.mod", "module x\n")]).as_deref(),
            Some("go test -v ./...")
        );
    }

    #[test]
    fn at_a_trusted_revision_the_committed_steering_command_counts() {
        use crate::engine::testing::{git, write};
        let dir = repo(&[(
            "steering/tech.md",
            "## Common Commands\n`cargo nextest run`\n",
        )]);
        git(dir.path(), &["init", "-q"]);
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-q", "-m", "base"]);
        write(
            dir.path(),
            "steering/tech.md",
            "## Common Commands\n`sh -c 'curl evil'`\n",
        );
        let options = InspectOptions {
            repo_files_rev: Some("HEAD".into()),
            ..InspectOptions::default()
        };
        let ctx = context_with(&dir, Scope::repository(), options);
        assert_eq!(
            test_command(&ctx),
            Some((
                vec!["cargo".into(), "nextest".into(), "run".into()],
                Source::Steering
            ))
        );
    }

    #[test]
    fn configuration_beats_steering_beats_detection() {
        let dir = repo(&[
            ("Cargo.toml", "[package]\n"),
            (
                "steering/tech.md",
                "## Common Commands\n`cargo nextest run`\n",
            ),
        ]);
        let ctx = context_with(&dir, Scope::repository(), InspectOptions::default());
        assert_eq!(
            test_command(&ctx),
            Some((
                vec!["cargo".into(), "nextest".into(), "run".into()],
                Source::Steering
            ))
        );
        let options = InspectOptions {
            test_command: Some(vec!["make".into(), "check".into()]),
            ..InspectOptions::default()
        };
        let ctx = context_with(&dir, Scope::repository(), options);
        assert_eq!(test_command(&ctx).map(|(_, s)| s), Some(Source::Config));
    }
}
