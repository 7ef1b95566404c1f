//! `holistic/todo-macro`: `todo!()` and `unimplemented!()` outside test code — a code path that
//! panics the moment it is reached, shipped as if it were done.

use crate::engine::{Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::line_hits::line_hit;
use crate::rules::macro_calls::macro_calls_outside_tests;
use protocol::{Dimension, Severity};

/// The macros flagged.
const NAMES: [&str; 2] = ["todo", "unimplemented"];

static META: RuleMeta = RuleMeta {
    id: "holistic/todo-macro",
    category: "operational-risk",
    severity: Severity::Critical,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation: "`todo!()`/`unimplemented!()` in non-test code: the path panics when reached",
};

/// Flags `todo!()` and `unimplemented!()` in non-test code.
pub(crate) struct TodoMacro;

impl Rule for TodoMacro {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A non-test file invoking one of [`NAMES`] in code.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && !file.is_test_file()
            && code_has(file, &[Needle::Macro(&NAMES)])
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        for call in macro_calls_outside_tests(file, &NAMES) {
            out.hit(
                line_hit(
                    file,
                    call.line,
                    format!(
                        "`{}!()` in non-test code panics when this path runs",
                        call.name
                    ),
                    &format!("{}!", call.name),
                )
                .suggest("implement the path, or return an error the caller can handle"),
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
    fn fires_on_todo_and_unimplemented() {
        let text = "pub fn a() -> u8 {\n    todo!()\n}\npub fn b() -> u8 {\n    match 1 { 1 => 2, _ => unimplemented!(\"later\") }\n}\n";
        assert_eq!(
            hits(&TodoMacro, "src/main.rs", text),
            vec![
                (
                    2,
                    "`todo!()` in non-test code panics when this path runs".to_string()
                ),
                (
                    5,
                    "`unimplemented!()` in non-test code panics when this path runs".to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_in_test_code_and_comments() {
        let text = "// todo!() would panic\npub fn a() -> u8 { 1 }\n#[cfg(test)]\nmod tests {\n    fn stub() -> u8 { todo!() }\n}\n";
        assert!(hits(&TodoMacro, "src/lib.rs", text).is_empty());
        assert!(hits(&TodoMacro, "tests/it.rs", "fn s() { todo!() }\n").is_empty());
    }

    #[test]
    fn wants_the_macros_invoked_in_code() {
        assert!(wanted(&TodoMacro, "fn f() {\n    todo!()\n}\n"));
        let mentioned = "/// Not `unimplemented!()`.\nfn f() {\n    // todo!()\n    let todo = \"todo!()\";\n}\n";
        assert!(!wanted(&TodoMacro, mentioned));
    }
}
