//! The holistic Inspector's rules: operations, concurrency and security across the code.

mod panic_in_library;
mod todo_macro;

use crate::engine::Rule;

/// Every holistic rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(todo_macro::TodoMacro),
        Box::new(panic_in_library::PanicInLibrary),
    ]
}
