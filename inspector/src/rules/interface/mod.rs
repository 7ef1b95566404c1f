//! The interface Inspector's rules.

use crate::engine::Rule;

/// Every interface rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![]
}
