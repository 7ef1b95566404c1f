//! `holistic/panic-in-library`: `panic!` in library code outside tests. A library that panics
//! takes the decision to abort away from the program that uses it.
//!
//! A panic that guards an invariant and says so is the documented Rust convention and stays
//! quiet: one with a comment on its line or just above, one whose message names a bug or a
//! misuse ([`INVARIANT_WORDS`]: `"BUG: impossible"`, `"called on a non-root matcher"`), and one
//! in a function whose doc has a `# Panics` section.

use crate::engine::{Context, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::comments_at;
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::library_code::{drop_hits_in_program_crates, is_library_file};
use crate::rules::line_hits::line_hit;
use crate::rules::macro_calls::macro_calls_outside_tests;
use crate::rules::rust_docs::doc_text;
use protocol::{Category, Dimension, Severity};

/// Words of a panic message that make it an invariant check, not an error path.
const INVARIANT_WORDS: [&str; 10] = [
    "bug",
    "impossible",
    "unreachable",
    "invariant",
    "called on",
    "called with",
    "forgot",
    "must ",
    "should never",
    "expected",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/panic-in-library",
    category: Category::OperationalRisk,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "`panic!` in non-test library code: the caller cannot recover from it",
};

/// Flags `panic!` in non-test library code.
pub(crate) struct PanicInLibrary;

impl Rule for PanicInLibrary {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A library file invoking `panic!` in code.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && is_library_file(file)
            && code_has(file, &[Needle::Macro(&["panic"])])
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        drop_hits_in_program_crates(ctx, out);
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let lexed = file.lexed(Language::Rust);
        let documented = match file.rust_ast() {
            Some(Ok(ast)) => documented_panics(ast),
            _ => Vec::new(),
        };
        let lines: Vec<&str> = file.lines().collect();
        for call in macro_calls_outside_tests(file, &["panic"]) {
            let message = (call.line as usize)
                .checked_sub(1)
                .and_then(|i| lines.get(i))
                .and_then(|l| l.split_once("panic!").map(|(_, m)| m.to_lowercase()))
                .unwrap_or_default();
            let states_invariant = INVARIANT_WORDS.iter().any(|w| message.contains(w));
            if states_invariant
                || !comments_at(&lexed, call.line).is_empty()
                || documented
                    .iter()
                    .any(|(a, b)| (*a..=*b).contains(&call.line))
            {
                continue;
            }
            out.hit(
                line_hit(
                    file,
                    call.line,
                    "`panic!` in library code aborts the caller's program instead of returning an error",
                    "panic!",
                )
                .suggest("return an error; keep panics for broken invariants and say so in a comment"),
            );
        }
    }
}

/// The line ranges of functions whose doc has a `# Panics` section.
fn documented_panics(ast: &syn::File) -> Vec<(u32, u32)> {
    use syn::spanned::Spanned;
    use syn::visit::Visit;
    #[derive(Default)]
    struct Finder(Vec<(u32, u32)>);
    fn panics_section(attrs: &[syn::Attribute]) -> bool {
        doc_text(attrs)
            .lines()
            .any(|l| l.trim_start().starts_with("# Panics"))
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            if panics_section(&f.attrs) {
                let span = f.span();
                self.0
                    .push((span.start().line as u32, span.end().line as u32));
            }
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            if panics_section(&f.attrs) {
                let span = f.span();
                self.0
                    .push((span.start().line as u32, span.end().line as u32));
            }
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    let mut finder = Finder::default();
    finder.visit_file(ast);
    finder.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_panic_in_library_code() {
        let text = "pub fn get(i: usize) -> u8 {\n    if i > 3 {\n        panic!(\"index {i} out of range\");\n    }\n    0\n}\n";
        assert_eq!(
            hits(&PanicInLibrary, "core/src/table.rs", text),
            vec![(
                3,
                "`panic!` in library code aborts the caller's program instead of returning an error"
                    .to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_stated_invariants_comments_and_documented_panics() {
        let text = "pub fn add(&self) {\n    if !self.is_root() {\n        panic!(\"add called on non-root matcher\");\n    }\n    match n {\n        0 => panic!(), // special case elsewhere\n        _ => panic!(\"BUG: an impossible error occurred\"),\n    }\n}\n/// Returns the byte.\n///\n/// # Panics\n///\n/// When `i` is out of range.\npub fn byte(i: usize) -> u8 {\n    if i > 3 {\n        panic!(\"index {i} out of range\");\n    }\n    0\n}\npub fn load() {\n    panic!(\"no config\");\n}\n";
        let lines: Vec<u32> = hits(&PanicInLibrary, "core/src/table.rs", text)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![22]);
    }

    #[test]
    fn quiet_in_binaries_and_tests() {
        let text = "fn main() { panic!(\"usage\"); }\n";
        assert!(hits(&PanicInLibrary, "src/main.rs", text).is_empty());
        assert!(hits(&PanicInLibrary, "build.rs", text).is_empty());
        let lib = "pub fn a() {}\n#[test]\nfn t() { panic!(\"expected\"); }\nfn should_panic_not() { std::panic::catch_unwind(|| ()); }\n";
        assert!(hits(&PanicInLibrary, "src/lib.rs", lib).is_empty());
    }

    #[test]
    fn wants_panic_invoked_in_code() {
        assert!(wanted(
            &PanicInLibrary,
            "fn f() {\n    panic!(\"bad\");\n}\n"
        ));
        let mentioned = "/// Never panics (no `panic!`).\n#[should_panic]\nfn f() {\n    std::panic::catch_unwind(g);\n    log(\"panic!\");\n}\n";
        assert!(!wanted(&PanicInLibrary, mentioned));
    }
}
