//! Test kits: the helpers a library publishes for its users' tests — a package named for
//! testing (`actix-http-test`, `tokio-test`), a module named so (`actix_web::test`,
//! `pyramid.testing`, `alembic.testing`, `internal/testutil`), Go's `<package>test` packages
//! (`httptest` beside `http`, `zaptest` in `zap`). Their code runs inside tests: a panic is how
//! a test helper fails, and a test server's client trusts the certificate it made itself. The
//! model places them as test support; a library file elsewhere keeps its role.

use protocol::project::{Ecosystem, FileFacts, FileRole, Package};

/// The names a module, folder or package word takes when it holds test helpers.
const KIT_NAMES: [&str; 17] = [
    "test",
    "testing",
    "testkit",
    "testutil",
    "testutils",
    "test_util",
    "test_utils",
    "test-util",
    "test-utils",
    "testUtils",
    "testhelper",
    "testhelpers",
    "test_helper",
    "test_helpers",
    "test-helpers",
    "test_support",
    "test-support",
];

/// Why a file the model placed as library code is a test kit's, if it is.
pub(crate) fn test_kit(path: &str, packages: &[Package]) -> Option<String> {
    let owner = packages
        .iter()
        .filter(|p| path.starts_with(&p.root))
        .max_by_key(|p| p.root.len());
    if let Some(p) = owner.filter(|p| p.ecosystem != Ecosystem::Go && named_for_tests(&p.name)) {
        return Some(format!(
            "the package `{}` is named for testing: helpers for its users' tests",
            p.name
        ));
    }
    let inner = owner.map_or(path, |p| &path[p.root.len()..]);
    let parts: Vec<&str> = inner.split('/').collect();
    let (file, dirs) = parts.split_last()?;
    // A Go package is its folder: a file's own name (`test.go`) says nothing of it.
    let stem = Some(file.split('.').next().unwrap_or(file)).filter(|_| !file.ends_with(".go"));
    if let Some(name) = dirs
        .iter()
        .chain(stem.as_ref())
        .find(|d| KIT_NAMES.contains(d))
    {
        return Some(format!("the module `{name}`: helpers for tests"));
    }
    // Go: a `<name>test` folder beside the package it helps test (`net/http/httptest`), or
    // named after the module (`zaptest` in `go.uber.org/zap`).
    let module = owner
        .filter(|p| p.ecosystem == Ecosystem::Go)
        .and_then(|p| p.name.rsplit('/').next());
    dirs.iter().enumerate().find_map(|(i, dir)| {
        let helped = dir.strip_suffix("test").filter(|h| !h.is_empty())?;
        let parent = i.checked_sub(1).map(|j| dirs[j]);
        (parent == Some(helped) || module == Some(helped))
            .then(|| format!("the Go package `{dir}`: test helpers for `{helped}`"))
    })
}

/// Whether the model placed `facts` as test support by a test kit's name alone (its reason is
/// the one [`test_kit`] gives). A name is what a file says of itself: the engine trusts it only
/// for files the change under review did not touch (`engine::context`).
pub(crate) fn placed_as_kit(facts: &FileFacts, packages: &[Package]) -> bool {
    facts.role == FileRole::TestSupport
        && test_kit(&facts.path, packages).as_deref() == Some(facts.reason.as_str())
}

/// Whether a package's name ends in a word for testing (`actix-http-test`, `tokio-test`,
/// `foo_test_utils`): `pytest-xdist` or `attest` does not.
fn named_for_tests(name: &str) -> bool {
    let words: Vec<&str> = name.split(['-', '_']).collect();
    match words.as_slice() {
        [.., "test" | "testing" | "testkit" | "testutil" | "testutils"] => words.len() > 1,
        [.., "test", "util" | "utils" | "support" | "helpers" | "helper" | "kit"] => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(ecosystem: Ecosystem, name: &str, root: &str) -> Package {
        Package {
            ecosystem,
            manifest: format!("{root}manifest"),
            name: name.to_string(),
            root: root.to_string(),
            targets: Vec::new(),
            publish: true,
            members: Vec::new(),
            edition: None,
            proc_macro: false,
        }
    }

    #[test]
    fn kits_by_package_module_and_go_convention() {
        let packages = [
            package(Ecosystem::Cargo, "actix-http-test", "actix-http-test/"),
            package(Ecosystem::Cargo, "actix-web", "actix-web/"),
            package(Ecosystem::Go, "go.uber.org/zap", ""),
        ];
        for kit in [
            "actix-http-test/src/lib.rs",
            "actix-web/src/test/test_request.rs",
            "actix-web/src/testing.rs",
            "zaptest/observer/logged_entry.go",
            "internal/testutil/files.go",
            "net/http/httptest/server.go",
        ] {
            assert!(test_kit(kit, &packages).is_some(), "{kit}");
        }
        for library in [
            "actix-web/src/latest.rs",
            "actix-web/src/attest/mod.rs",
            "contest/entry.go",
            "zap/latest/entry.go",
            "test.go",
            "actix-web/src/lib.rs",
        ] {
            assert_eq!(test_kit(library, &packages), None, "{library}");
        }
        let python = [package(Ecosystem::Python, "pytest-xdist", "")];
        assert_eq!(test_kit("src/xdist/plugin.py", &python), None);
        assert!(test_kit("src/pyramid/testing.py", &python).is_some());
    }
}
