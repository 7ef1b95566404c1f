//! Which workspace crates are test suites: code only tests run, whatever target kind it builds.

use protocol::project::{Package, TargetKind};
use std::collections::HashSet;

/// Why a crate is a test suite, if it is: its only targets are tests, or its name or folder
/// says tests or test support (or it lies in a test folder), no package depends on it outside `[dev-dependencies]`, and it
/// is unpublished or some package of the workspace has it as a dev-dependency (a published
/// mock crate such as `tracing-mock` is code that runs only under tests, its siblings' and its
/// users').
pub(super) fn test_suite(
    pkg: &Package,
    normal_deps: &HashSet<String>,
    dev_deps: &HashSet<String>,
) -> Option<String> {
    let has_package = !pkg.name.is_empty();
    let tests = pkg.targets.iter().any(|t| t.kind == TargetKind::Test);
    let only_tests = pkg.targets.iter().all(|t| t.kind == TargetKind::Test);
    if has_package && tests && only_tests {
        return Some(format!(
            "crate `{}` has only test targets ({})",
            pkg.name, pkg.manifest
        ));
    }
    let folder = pkg
        .root
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let named = |s: &str| {
        s.split(['-', '_']).any(|w| {
            matches!(
                w,
                "test"
                    | "tests"
                    | "testing"
                    | "testsuite"
                    | "testkit"
                    | "mock"
                    | "mocks"
                    | "fixture"
                    | "fixtures"
                    | "harness"
            )
        })
    };
    // A crate kept inside a test folder (`tests/h2-support/`) is the tests' own, whatever its name.
    let under_tests = pkg.root.split('/').any(|d| matches!(d, "tests" | "test"));
    if has_package && under_tests && !pkg.publish {
        return Some(format!(
            "crate `{}` is an unpublished crate kept in a test folder ({})",
            pkg.name, pkg.manifest
        ));
    }
    if !has_package
        || !(named(&pkg.name) || named(folder) || under_tests)
        || normal_deps.contains(&pkg.name)
    {
        return None;
    }
    if !pkg.publish {
        return Some(format!(
            "crate `{}` is an unpublished test suite used only as a dev-dependency ({})",
            pkg.name, pkg.manifest
        ));
    }
    dev_deps.contains(&pkg.name).then(|| {
        format!(
            "crate `{}` is test support: the workspace uses it only as a dev-dependency ({})",
            pkg.name, pkg.manifest
        )
    })
}
