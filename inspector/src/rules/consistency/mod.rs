//! The consistency Inspector's rules: the same thing done the same way across modules.

mod error_type_pattern;
mod logging_pattern;
pub(crate) mod module;

use crate::engine::Rule;

/// Every consistency rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(logging_pattern::LoggingPattern),
        Box::new(error_type_pattern::ErrorTypePattern),
    ]
}
