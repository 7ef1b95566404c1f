//! `holistic/todo-macro`: `todo!()` and `unimplemented!()` outside test code — a code path that
//! panics the moment it is reached, shipped as if it were done.

use crate::engine::{Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::line_hits::line_hit;
use crate::rules::macro_calls::macro_calls_outside_tests;
use protocol::{Dimension, Severity};

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

    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && (file.text.contains("todo!") || file.text.contains("unimplemented!"))
            && !file.is_test_file()
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        for call in macro_calls_outside_tests(file, &["todo", "unimplemented"]) {
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
}
