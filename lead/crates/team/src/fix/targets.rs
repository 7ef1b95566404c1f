//! Which files a finding's fix owns. Most findings are fixed where they are; a missing-test
//! finding is fixed by writing a test, so its task owns the test file the language's
//! convention names (the one `test/missing-test-file` looks for) rather than the untested
//! file, whose change would neither be needed nor clear the finding; and a finding with no
//! file (repository-wide) owns nothing, so it is no task at all but a note in the report.

use protocol::Finding;

/// The catalog's rules whose findings are fixed by writing tests (`retake rules`: a file
/// without tests, a project without integration tests, acceptance criteria no test covers,
/// test categories the design promises that the tests lack).
pub const MISSING_TEST_RULES: [&str; 4] = [
    "test/missing-test-file",
    "test/missing-integration-tests",
    "test/ac-coverage",
    "test/strategy-gap",
];

/// Whether a finding has no file to fix (it becomes a note, not a task).
pub fn is_repository_wide(f: &Finding) -> bool {
    f.location.path.trim().is_empty()
}

/// Whether the finding is fixed by writing tests.
pub fn writes_tests(f: &Finding) -> bool {
    MISSING_TEST_RULES.contains(&f.rule.as_str())
}

/// The files (or folders, ending in `/`) a fix of `f` owns; empty for a repository-wide one.
pub fn fix_files(f: &Finding) -> Vec<String> {
    let path = f.location.path.trim_start_matches("./");
    if is_repository_wide(f) {
        return Vec::new();
    }
    match f.rule.as_str() {
        "test/missing-test-file" => test_files_for(path),
        // Reported at a manifest (`Cargo.toml`, `package.json`): its project's `tests/` folder
        // is where integration tests go in every language the rule knows.
        "test/missing-integration-tests" => vec![format!("{}tests/", dir_of(path))],
        // Reported at the spec's design.md: the tests it asks for go to the repository's
        // `tests/`; editing the design away is not the fix.
        "test/ac-coverage" | "test/strategy-gap" => vec!["tests/".to_string()],
        _ => vec![path.to_string()],
    }
}

/// `a/b/` for `a/b/c.rs`, empty for a top-level file.
fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..=i])
}

/// The test file by the convention of `path`'s language: Rust `src/x.rs` → the file itself
/// (a `#[cfg(test)]` module) and `tests/x.rs` of its crate; Python `x.py` → `test_x.py`
/// beside it; Go `x.go` → `x_test.go`; TypeScript/JavaScript `x.ts` → `x.test.ts`.
pub fn test_files_for(path: &str) -> Vec<String> {
    let dir = dir_of(path);
    let name = &path[dir.len()..];
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return vec![path.to_string()];
    };
    match ext {
        "rs" => {
            let krate = path.rfind("src/").map_or("", |i| &path[..i]);
            vec![path.to_string(), format!("{krate}tests/{stem}.rs")]
        }
        "py" => vec![format!("{dir}test_{stem}.py")],
        "go" => vec![format!("{dir}{stem}_test.go")],
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" => vec![format!("{dir}{stem}.test.{ext}")],
        _ => vec![path.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::finding;
    use protocol::{Location, Severity};

    fn rule(rule: &str, path: &str) -> Finding {
        let mut f = finding(
            path,
            1,
            Severity::Low,
            "missing-test-file",
            "no tests",
            false,
        );
        f.rule = rule.to_string();
        f.location = Location::file(path);
        f
    }

    #[test]
    fn missing_tests_own_the_conventional_test_file() {
        let own = |path: &str| fix_files(&rule("test/missing-test-file", path));
        assert_eq!(own("pkg/prices.py"), ["pkg/test_prices.py"]);
        assert_eq!(own("cmd/serve.go"), ["cmd/serve_test.go"]);
        assert_eq!(own("web/src/cart.tsx"), ["web/src/cart.test.tsx"]);
        assert_eq!(
            own("crates/core/src/engine/run.rs"),
            ["crates/core/src/engine/run.rs", "crates/core/tests/run.rs"]
        );
        assert_eq!(
            fix_files(&rule(
                "test/missing-integration-tests",
                "crates/x/Cargo.toml"
            )),
            ["crates/x/tests/"]
        );
        assert!(writes_tests(&rule("test/missing-test-file", "a.py")));
        let gap = rule("test/strategy-gap", "specs/auth/design.md");
        assert_eq!(fix_files(&gap), ["tests/"]);
        assert!(writes_tests(&gap));
    }

    #[test]
    fn other_findings_own_their_file_and_repository_wide_ones_nothing() {
        let f = rule("quality/todo-marker", "src/a.rs");
        assert_eq!(fix_files(&f), ["src/a.rs"]);
        assert!(!writes_tests(&f));
        let wide = rule("test/missing-integration-tests", "");
        assert!(is_repository_wide(&wide));
        assert!(fix_files(&wide).is_empty());
    }
}
