//! The holistic Inspector's rules: operations, concurrency and security across the code.

mod hardcoded_credential;
mod lock_across_await;
mod panic_in_library;
mod static_mut;
mod todo_macro;
mod unsafe_without_safety;

use crate::engine::Rule;

/// Every holistic rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(todo_macro::TodoMacro),
        Box::new(panic_in_library::PanicInLibrary),
        Box::new(lock_across_await::LockAcrossAwait),
        Box::new(hardcoded_credential::HardcodedCredential),
        Box::new(unsafe_without_safety::UnsafeWithoutSafety),
        Box::new(static_mut::StaticMut),
    ]
}
