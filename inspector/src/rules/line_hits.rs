//! The usual life of a line-level finding in the holistic and quality rules: found in the Rust
//! syntax tree or in the text of the other languages, dropped when it is in test code, and
//! reported at its line with that line as evidence.

use crate::engine::{Hit, Language, SourceFile};
use crate::rules::test_code::TestCode;
use protocol::Location;
use syn::visit::Visit;

/// What a rule finds in `file`: in Rust, what `visitor` gathers walking the syntax tree (read
/// back by `found`); in other languages, what `scan` finds in the text. `None` when the file
/// has no language or is Rust that does not parse: there is nothing to report then.
pub(crate) fn find_in_syntax_or_text<'f, V, T>(
    file: &'f SourceFile,
    mut visitor: V,
    found: impl FnOnce(V) -> T,
    scan: impl FnOnce(&str, Language) -> T,
) -> Option<T>
where
    V: Visit<'f>,
{
    let lang = file.language?;
    if lang != Language::Rust {
        return Some(scan(&file.text, lang));
    }
    let Some(Ok(ast)) = file.rust_ast() else {
        return None;
    };
    visitor.visit_file(ast);
    Some(found(visitor))
}

/// The test code of a file, worked out on the first question: most files have no finding to
/// ask about, and are then never parsed for it.
pub(crate) struct LazyTestCode<'f> {
    file: &'f SourceFile,
    tests: Option<TestCode>,
}

impl<'f> LazyTestCode<'f> {
    /// Nothing worked out yet for `file`.
    pub(crate) fn new(file: &'f SourceFile) -> LazyTestCode<'f> {
        LazyTestCode { file, tests: None }
    }

    /// Whether 1-based `line` is test code.
    pub(crate) fn contains(&mut self, line: u32) -> bool {
        let file = self.file;
        self.tests
            .get_or_insert_with(|| TestCode::of(file))
            .contains(line)
    }
}

/// The findings whose line (by `line_of`) is not test code, in their order.
pub(crate) fn outside_tests<T>(
    file: &SourceFile,
    found: impl IntoIterator<Item = T>,
    line_of: impl Fn(&T) -> u32,
) -> Vec<T> {
    let mut tests = LazyTestCode::new(file);
    found
        .into_iter()
        .filter(|f| !tests.contains(line_of(f)))
        .collect()
}

/// The trimmed text of 1-based `line` of `file` (empty past its end).
pub(crate) fn line_text(file: &SourceFile, line: u32) -> &str {
    (line as usize)
        .checked_sub(1)
        .and_then(|i| file.lines().nth(i))
        .map_or("", str::trim)
}

/// A hit at `line` whose key is `what` followed by the line's text.
pub(crate) fn line_hit(
    file: &SourceFile,
    line: u32,
    description: impl Into<String>,
    what: &str,
) -> Hit {
    Hit::new(
        Location::at(&file.rel_path, line),
        description,
        format!("{what} {}", line_text(file, line)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_in_test_code_are_dropped_in_order() {
        let file = SourceFile::new(
            "src/a.rs",
            "fn a() {}\nfn b() {}\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n",
        );
        assert_eq!(outside_tests(&file, [2, 5, 1], |l| *l), vec![2, 1]);
        assert_eq!(line_text(&file, 5), "fn t() {}");
        assert_eq!(line_text(&file, 0), "");
        let hit = line_hit(&file, 2, "b", "fn");
        assert_eq!(
            (hit.location.line, hit.key.as_str()),
            (Some(2), "fn fn b() {}")
        );
    }
}
