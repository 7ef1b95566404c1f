//! The quality Inspector's rules.

use crate::engine::Rule;

/// Every quality rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![]
}
