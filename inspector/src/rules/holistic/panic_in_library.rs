//! `holistic/panic-in-library`: `panic!` in library code outside tests. A library that panics
//! takes the decision to abort away from the program that uses it.

use crate::engine::{Context, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::library_code::{drop_hits_in_program_crates, is_library_file};
use crate::rules::line_hits::line_hit;
use crate::rules::macro_calls::macro_calls_outside_tests;
use protocol::{Dimension, Severity};

static META: RuleMeta = RuleMeta {
    id: "holistic/panic-in-library",
    category: "operational-risk",
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
        for call in macro_calls_outside_tests(file, &["panic"]) {
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
