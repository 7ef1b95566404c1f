//! Trust code, not mocks: test doubles that live outside test code — a `mocks/` folder, a
//! `fake_clock.rs`, a `MockUserRepo` or `FakeGateway` type, items behind
//! `#[cfg(feature = "mocks")]` — are never taken for the real definitions a design is compared
//! with, nor their calls for real call sites. (Test files and `#[cfg(test)]` items are left out
//! already by the test-code rules.)

/// Words that name a double as a whole path component, module or file stem.
const DOUBLE_WORDS: [&str; 12] = [
    "mock",
    "mocks",
    "fake",
    "fakes",
    "stub",
    "stubs",
    "doubles",
    "test_utils",
    "testutils",
    "test_support",
    "test_helpers",
    "dummy",
];

/// Type-name prefixes and suffixes of doubles (`MockRepo`, `RepoFake`).
const DOUBLE_AFFIXES: [&str; 5] = ["Mock", "Fake", "Stub", "Spy", "Dummy"];

/// Whether a repository-relative path holds doubles: a folder or file stem that is, starts with
/// or ends with a double word (`src/mocks/repo.rs`, `src/fake_clock.rs`, `src/repo_mock.rs`).
pub(super) fn is_double_path(path: &str) -> bool {
    path.split('/').any(|part| {
        let stem = part.strip_suffix(".rs").unwrap_or(part);
        is_double_module(stem)
            || DOUBLE_WORDS.iter().any(|w| {
                stem.strip_prefix(w).is_some_and(|r| r.starts_with('_'))
                    || stem.strip_suffix(w).is_some_and(|r| r.ends_with('_'))
            })
    })
}

/// Whether a module name is a module of doubles (`mod mocks`).
pub(super) fn is_double_module(name: &str) -> bool {
    DOUBLE_WORDS.contains(&name)
}

/// Whether a type name is a double's: an affix followed (or preceded) by a capitalised word.
pub(super) fn is_double_type(name: &str) -> bool {
    DOUBLE_AFFIXES.iter().any(|a| {
        name.strip_prefix(a)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
            || name.strip_suffix(a).is_some_and(|r| {
                r.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
    })
}

/// Whether attributes gate an item on a doubles feature (`#[cfg(feature = "mocks")]`, also in
/// `any(test, feature = "test-utils")`).
pub(super) fn is_double_attr(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        if !attr.path().is_ident("cfg") {
            return false;
        }
        let Ok(list) = attr.meta.require_list() else {
            return false;
        };
        let tokens = list.tokens.to_string();
        tokens.match_indices("feature").any(|(at, _)| {
            let value = tokens[at..]
                .split('"')
                .nth(1)
                .unwrap_or_default()
                .replace('-', "_");
            is_double_module(&value) || value.starts_with("mock") || value.starts_with("test")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::signature_mismatch::SignatureMismatch;
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    #[test]
    fn tells_doubles_by_path_type_and_feature() {
        for path in [
            "src/mocks/repo.rs",
            "src/fake_clock.rs",
            "src/repo_mock.rs",
            "crates/x/src/test_utils.rs",
        ] {
            assert!(is_double_path(path), "{path}");
        }
        for path in ["src/mockingbird.rs", "src/stubborn/x.rs", "src/user.rs"] {
            assert!(!is_double_path(path), "{path}");
        }
        assert!(is_double_type("MockUserRepo") && is_double_type("RepoFake"));
        assert!(!is_double_type("Mockery") && !is_double_type("Stubble"));
        let item: syn::ItemFn =
            syn::parse_str("#[cfg(any(test, feature = \"test-utils\"))] fn f() {}")
                .expect("fn parses");
        assert!(is_double_attr(&item.attrs));
        let item: syn::ItemFn =
            syn::parse_str("#[cfg(feature = \"postgres\")] fn f() {}").expect("fn parses");
        assert!(!is_double_attr(&item.attrs));
    }

    const DESIGN: &str = "```rust\npub fn create_user(name: &str, email: &str) -> u64;\npub trait UserRepo {\n    fn lookup(&self, id: u64) -> Option<String>;\n}\n```\n";

    /// Doubles that match the design exactly, beside real code that may not.
    fn repo_with_doubles(real: &str) -> tempfile::TempDir {
        repo(&[
            ("specs/users/design.md", DESIGN),
            ("src/user.rs", real),
            (
                "src/mocks.rs",
                "pub fn create_user(name: &str, email: &str) -> u64 { 1 }\n",
            ),
            (
                "src/repo.rs",
                "pub struct MockUserRepo;\nimpl UserRepo for MockUserRepo {\n    fn lookup(&self, id: u64) -> Option<String> { None }\n}\n#[cfg(feature = \"mocks\")]\npub fn create_user(name: &str, email: &str) -> u64 { 2 }\n",
            ),
        ])
    }

    #[test]
    fn the_real_code_is_compared_even_when_a_double_matches_the_design() {
        let dir = repo_with_doubles(
            "pub fn create_user(name: &str) -> u64 { 0 }\npub trait UserRepo {\n    fn lookup(&self, id: u32) -> Option<String>;\n}\n",
        );
        let sink = project(&SignatureMismatch, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "src/user.rs:1".to_string(),
                    "signature of `create_user` differs from design.md: it takes 2 parameters in the design `(name: &str, email: &str)`, 1 in the code `(name: &str)`".to_string()
                ),
                (
                    "src/user.rs:3".to_string(),
                    "signature of `UserRepo::lookup` differs from design.md: parameter 1 is `id: u64` in the design, `id: u32` in the code".to_string()
                ),
            ]
        );
    }

    #[test]
    fn doubles_that_differ_from_the_design_are_not_reported() {
        let dir = repo_with_doubles(
            "pub fn create_user(name: &str, email: &str) -> u64 { 0 }\npub trait UserRepo {\n    fn lookup(&self, id: u64) -> Option<String>;\n}\npub struct FakeRepo;\nimpl UserRepo for FakeRepo {\n    fn lookup(&self) -> Option<String> { None }\n}\n",
        );
        let sink = project(&SignatureMismatch, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }
}
