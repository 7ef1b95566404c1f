//! `quality/large-file`: source files with more than [`MAX_LINES`] lines of code (blank lines,
//! comments and Rust test code not counted). A file that large holds several concepts; each
//! deserves a file named after it.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};

/// The most lines of code a file may have.
pub(crate) const MAX_LINES: usize = 1000;

static META: RuleMeta = RuleMeta {
    id: "quality/large-file",
    category: Category::Complexity,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability],
    explanation: "Source files over 1000 lines of code: split them by concept",
};

/// Flags very large source files.
pub(crate) struct LargeFile;

impl Rule for LargeFile {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && !file.is_test_file()
            && file.text.lines().count() > MAX_LINES
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let tests = TestCode::of(file);
        let code = file
            .lexed(lang)
            .iter()
            .filter(|l| l.has_code() && !tests.contains(l.number))
            .count();
        if code > MAX_LINES {
            out.hit(
                Hit::new(
                    Location::file(&file.rel_path),
                    format!("{code} lines of code in one file (more than {MAX_LINES})"),
                    "large file",
                )
                .suggest("split it into files by concept, each named after what it holds"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::check;

    #[test]
    fn fires_over_the_limit() {
        let text: String = (0..1001)
            .map(|i| format!("const C{i}: u32 = {i};\n"))
            .collect();
        let sink = check(&LargeFile, "src/big.rs", &text);
        let found: Vec<(Option<u32>, String)> = sink
            .hits
            .into_iter()
            .map(|h| (h.location.line, h.description))
            .collect();
        assert_eq!(
            found,
            vec![(
                None,
                "1001 lines of code in one file (more than 1000)".to_string()
            )]
        );
    }

    #[test]
    fn quiet_when_tests_comments_and_blanks_make_it_long() {
        let mut text: String = (0..600)
            .map(|i| format!("const C{i}: u32 = {i};\n// note\n\n"))
            .collect();
        text.push_str("#[cfg(test)]\nmod tests {\n");
        text.extend((0..500).map(|i| format!("    const T{i}: u32 = {i};\n")));
        text.push_str("}\n");
        assert!(check(&LargeFile, "src/big.rs", &text).hits.is_empty());
        let tests: String = (0..1500).map(|i| format!("x{i} = {i}\n")).collect();
        assert!(check(&LargeFile, "tests/test_big.py", &tests)
            .hits
            .is_empty());
    }
}
