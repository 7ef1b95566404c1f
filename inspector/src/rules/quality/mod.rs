//! The quality Inspector's rules: completeness and error handling.

mod incomplete_syntax;
mod omission_marker;
mod swallowed_error;
mod todo_marker;
mod unwrap_in_library;

use crate::engine::Rule;

/// Every quality rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(todo_marker::TodoMarker),
        Box::new(omission_marker::OmissionMarker),
        Box::new(incomplete_syntax::IncompleteSyntax),
        Box::new(swallowed_error::SwallowedError),
        Box::new(unwrap_in_library::UnwrapInLibrary),
    ]
}
