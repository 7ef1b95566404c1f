//! The quality Inspector's rules: completeness, error handling, dead code, naming, logging,
//! linters, and maintainability (long functions, deep nesting, large files, duplicated blocks).

mod caller_input;
mod commented_out_code;
mod deep_nesting;
mod duplicated_block;
mod incomplete_syntax;
mod large_file;
pub(crate) mod linters;
mod logging_violation;
mod long_function;
mod naming_violation;
mod omission_marker;
mod swallowed_error;
mod todo_marker;
mod unreviewed_file;
mod unwrap_context;
mod unwrap_in_library;

use crate::engine::Rule;

/// Every quality rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(todo_marker::TodoMarker),
        Box::new(omission_marker::OmissionMarker),
        Box::new(incomplete_syntax::IncompleteSyntax),
        Box::new(unreviewed_file::UnreviewedFile),
        Box::new(swallowed_error::SwallowedError),
        Box::new(unwrap_in_library::UnwrapInLibrary::ON_INPUT),
        Box::new(unwrap_in_library::UnwrapInLibrary::ASSUMED),
        Box::new(commented_out_code::CommentedOutCode),
        Box::new(naming_violation::NamingViolation),
        Box::new(logging_violation::LoggingViolation),
        Box::new(long_function::LongFunction),
        Box::new(deep_nesting::DeepNesting),
        Box::new(large_file::LargeFile),
        Box::new(duplicated_block::DuplicatedBlock),
        Box::new(linters::compiler_dead_code::CompilerDeadCode),
        Box::new(linters::linter_finding::LinterFinding),
    ]
}
