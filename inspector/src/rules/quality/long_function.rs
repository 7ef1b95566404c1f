//! `quality/long-function`: functions longer than [`MAX_LINES`] lines of code (blank and
//! comment-only lines not counted). A function that long does several things; its parts deserve
//! names. Test code is exempt (table-driven tests are long by design).

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::lexical::functions::functions;
use crate::rules::lexical::{lex, LexLine};
use crate::rules::test_code::TestCode;
use protocol::{Dimension, Location, Severity};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// The most lines of code a function may have.
pub(crate) const MAX_LINES: usize = 80;

static META: RuleMeta = RuleMeta {
    id: "quality/long-function",
    category: "complexity",
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability],
    explanation: "Functions longer than 80 lines of code: split them into named steps",
};

/// Flags very long functions.
pub(crate) struct LongFunction;

impl Rule for LongFunction {
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
        let lines = lex(&file.text, lang);
        let spans: Vec<(String, u32, u32)> = if lang == Language::Rust {
            let Some(Ok(ast)) = file.rust_ast() else {
                return;
            };
            let mut finder = RustFns(Vec::new());
            finder.visit_file(ast);
            finder.0
        } else {
            functions(&lines, lang)
                .into_iter()
                .map(|f| (f.name, f.start, f.end))
                .collect()
        };
        let tests = (lang == Language::Rust).then(|| TestCode::of(file));
        for (name, start, end) in spans {
            if tests.as_ref().is_some_and(|t| t.contains(start)) {
                continue;
            }
            let length = code_lines(&lines, start, end);
            if length > MAX_LINES {
                let mut location = Location::at(&file.rel_path, start);
                location.end_line = Some(end);
                out.hit(
                    Hit::new(
                        location,
                        format!(
                            "function `{name}` has {length} lines of code (more than {MAX_LINES})"
                        ),
                        format!("long function {name}"),
                    )
                    .suggest("extract its steps into functions with names that say what they do"),
                );
            }
        }
    }
}

/// Lines from `start` to `end` (1-based, inclusive) that hold code.
pub(crate) fn code_lines(lines: &[LexLine<'_>], start: u32, end: u32) -> usize {
    lines
        .iter()
        .skip(start.saturating_sub(1) as usize)
        .take((end + 1).saturating_sub(start) as usize)
        .filter(|l| !l.code().trim().is_empty())
        .count()
}

/// (name, first line, last line) of every Rust function with a body.
struct RustFns(Vec<(String, u32, u32)>);

impl RustFns {
    fn push(&mut self, name: &syn::Ident, node: &impl Spanned) {
        let span = node.span();
        self.0.push((
            name.to_string(),
            span.start().line as u32,
            span.end().line as u32,
        ));
    }
}

impl<'ast> Visit<'ast> for RustFns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.push(&f.sig.ident, f);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.push(&f.sig.ident, f);
        visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if f.default.is_some() {
            self.push(&f.sig.ident, f);
        }
        visit::visit_trait_item_fn(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    fn body(n: usize, stmt: &str) -> String {
        (0..n).map(|i| stmt.replace('N', &i.to_string())).collect()
    }

    #[test]
    fn fires_on_functions_over_the_limit() {
        let rust = format!(
            "fn short() {{}}\npub fn long() {{\n{}\n    // a comment\n\n}}\n",
            body(81, "    let xN = N;\n")
        );
        assert_eq!(
            hits(&LongFunction, "src/a.rs", &rust),
            vec![(
                2,
                "function `long` has 83 lines of code (more than 80)".to_string()
            )]
        );
        let py = format!("def load(x):\n{}\n", body(90, "    x += N\n"));
        assert_eq!(hits(&LongFunction, "app/a.py", &py).len(), 1);
        let go = format!(
            "package a\n\nfunc Load() {{\n{}}}\n",
            body(85, "\tx := N\n")
        );
        assert_eq!(hits(&LongFunction, "a/a.go", &go).len(), 1);
    }

    #[test]
    fn quiet_at_the_limit_with_blank_lines_and_in_tests() {
        let rust = format!(
            "pub fn ok() {{\n{}\n\n\n\n{}}}\n",
            body(40, "    let xN = N;\n"),
            body(38, "    // note N\n    let yN = N;\n")
        );
        assert!(hits(&LongFunction, "src/a.rs", &rust).is_empty());
        let test = format!(
            "#[cfg(test)]\nmod tests {{\n    #[test]\n    fn t() {{\n{}    }}\n}}\n",
            body(100, "        let xN = N;\n")
        );
        assert!(hits(&LongFunction, "src/a.rs", &test).is_empty());
    }
}
