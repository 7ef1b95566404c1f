//! Which lines of a file are test code: the whole file when the project model calls it a test
//! or test support, or, in Rust, the spans of `#[cfg(test)]` items and `#[test]`-style
//! functions found in the syntax tree.
//!
//! Rules that exempt test code compute this only after their own pre-filter found a candidate,
//! so files without one are never parsed for it.

use crate::engine::SourceFile;
use syn::spanned::Spanned;

/// The test-code lines of one file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct TestCode {
    whole_file: bool,
    /// Inclusive 1-based line ranges of test items.
    ranges: Vec<(u32, u32)>,
}

impl TestCode {
    /// The test code of `file`: everything when the project model says the file is a test or
    /// test support (a test target or layout, a `#[cfg(test)] mod` declared in its parent), its
    /// name is an out-of-line test module's ([`is_test_module_name`]), or the file opens with
    /// `#![cfg(test)]`, else the Rust test items; nothing for other languages or for Rust that
    /// does not parse.
    pub(crate) fn of(file: &SourceFile) -> TestCode {
        let whole = TestCode {
            whole_file: true,
            ranges: Vec::new(),
        };
        if file.is_test_file() || is_test_module_name(&file.rel_path) {
            return whole;
        }
        let mut ranges = Vec::new();
        // Every test attribute names `test` or `bench` (see `is_test_attr`): a file without
        // either word has no test items, and is not parsed to learn that.
        let may_have_tests = file.text.contains("test") || file.text.contains("bench");
        // Test items are items: the item-level tree is enough (and is the full one when a
        // rule of the file builds that anyway).
        let ast = if may_have_tests {
            file.rust_items()
        } else {
            None
        };
        if let Some(Ok(ast)) = ast {
            if is_test_attr(&ast.attrs) {
                return whole;
            }
            collect_items(&ast.items, &mut ranges);
        }
        TestCode {
            whole_file: false,
            ranges,
        }
    }

    /// Whether 1-based `line` is test code.
    pub(crate) fn contains(&self, line: u32) -> bool {
        self.whole_file || self.ranges.iter().any(|&(a, b)| a <= line && line <= b)
    }

    /// Whether the whole file is test code.
    pub(crate) fn is_whole_file(&self) -> bool {
        self.whole_file
    }
}

/// Whether a Rust file's name marks it as an out-of-line test module (`#[cfg(test)] mod tests;`
/// lives in another file, which a file-level rule cannot see): `tests.rs`, `testing.rs`,
/// `*_tests.rs`, `test_*.rs` (helpers such as `test_util.rs`, `test_support.rs`).
pub(crate) fn is_test_module_name(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let Some(stem) = name.strip_suffix(".rs") else {
        return false;
    };
    matches!(stem, "tests" | "testing") || stem.ends_with("_tests") || stem.starts_with("test_")
}

/// Whether attributes mark an item as test code: `#[cfg(test)]` (also as a top-level condition
/// of `all(..)`, never under `not(..)`), or a test-harness attribute whose last path segment is `test` (`#[test]`,
/// `#[tokio::test]`), `bench`, `rstest` or `test_case`.
pub(crate) fn is_test_attr(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let path = attr.path();
        if path.is_ident("cfg") {
            return attr
                .meta
                .require_list()
                .is_ok_and(|list| cfg_means_test(&list.tokens.to_string()));
        }
        path.segments.last().is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "test" | "bench" | "rstest" | "test_case"
            )
        })
    })
}

/// `test`, or `all(.., test, ..)` with `test` as one of the top-level conditions.
pub(crate) fn cfg_means_test(tokens: &str) -> bool {
    let compact: String = tokens.chars().filter(|c| !c.is_whitespace()).collect();
    if compact == "test" {
        return true;
    }
    let Some(inner) = compact
        .strip_prefix("all(")
        .and_then(|r| r.strip_suffix(')'))
    else {
        return false;
    };
    let mut depth = 0u32;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                if &inner[start..i] == "test" {
                    return true;
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    &inner[start..] == "test"
}

fn lines_of<T: Spanned>(node: &T) -> (u32, u32) {
    let span = node.span();
    (span.start().line as u32, span.end().line as u32)
}

fn collect_items(items: &[syn::Item], out: &mut Vec<(u32, u32)>) {
    for item in items {
        match item {
            syn::Item::Fn(f) if is_test_attr(&f.attrs) => out.push(lines_of(f)),
            syn::Item::Mod(m) if is_test_attr(&m.attrs) => out.push(lines_of(m)),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_items(inner, out);
                }
            }
            syn::Item::Impl(i) if is_test_attr(&i.attrs) => out.push(lines_of(i)),
            syn::Item::Impl(i) => {
                for it in &i.items {
                    if let syn::ImplItem::Fn(f) = it {
                        if is_test_attr(&f.attrs) {
                            out.push(lines_of(f));
                        }
                    }
                }
            }
            syn::Item::Const(c) if is_test_attr(&c.attrs) => out.push(lines_of(c)),
            syn::Item::Static(s) if is_test_attr(&s.attrs) => out.push(lines_of(s)),
            syn::Item::Struct(s) if is_test_attr(&s.attrs) => out.push(lines_of(s)),
            syn::Item::Enum(e) if is_test_attr(&e.attrs) => out.push(lines_of(e)),
            syn::Item::Use(u) if is_test_attr(&u.attrs) => out.push(lines_of(u)),
            syn::Item::Trait(t) if is_test_attr(&t.attrs) => out.push(lines_of(t)),
            syn::Item::Macro(m) if is_test_attr(&m.attrs) => out.push(lines_of(m)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cfg_test_modules_and_test_fns_are_test_code() {
        let text = "fn lib() {}\n#[cfg(test)]\nmod tests {\n    fn helper() {}\n}\n#[tokio::test]\nasync fn t() {\n}\n#[cfg(not(test))]\nfn real() {}\n#[cfg(all(test, unix))]\nfn unix_helper() {}\n#[cfg(all(test, not(loom)))]\nmod t {}\n#[cfg(all(unix, not(test)))]\nfn u() {}\n";
        let tc = TestCode::of(&SourceFile::new("src/a.rs", text));
        let test_lines: Vec<u32> = (1..=16).filter(|&l| tc.contains(l)).collect();
        assert_eq!(test_lines, vec![2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14]);
        assert!(!tc.is_whole_file());
    }

    #[test]
    fn test_paths_are_wholly_test_code() {
        assert!(TestCode::of(&SourceFile::new("tests/it.rs", "fn a() {}")).contains(1));
        assert!(TestCode::of(&SourceFile::new("src/x/tests.rs", "fn a() {}")).is_whole_file());
        assert!(TestCode::of(&SourceFile::new("src/wire/handshake_tests.rs", "")).contains(1));
        assert!(TestCode::of(&SourceFile::new("src/testing.rs", "")).contains(1));
        assert!(
            TestCode::of(&SourceFile::new("src/a.rs", "#![cfg(test)]\nfn a() {}\n")).contains(2)
        );
        assert!(!TestCode::of(&SourceFile::new("src/contest.rs", "fn a() {}\n")).contains(1));
        assert!(!TestCode::of(&SourceFile::new("src/x.py", "def a(): pass")).contains(1));
    }
}
