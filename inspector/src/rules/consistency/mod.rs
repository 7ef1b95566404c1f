//! The consistency Inspector's rules: the same thing done the same way across modules.

mod config_access;
mod duplicated_logic;
pub(crate) mod env_access;
mod error_type_pattern;
mod import_pattern;
mod interface_inconsistency;
mod logging_pattern;
pub(crate) mod module;
mod type_mismatch;

use crate::engine::Rule;

/// Every consistency rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(logging_pattern::LoggingPattern),
        Box::new(error_type_pattern::ErrorTypePattern),
        Box::new(import_pattern::ImportPattern),
        Box::new(config_access::ConfigAccess),
        Box::new(type_mismatch::TypeMismatch),
        Box::new(interface_inconsistency::InterfaceInconsistency),
        Box::new(duplicated_logic::DuplicatedLogic),
    ]
}
