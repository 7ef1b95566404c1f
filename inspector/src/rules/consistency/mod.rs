//! The consistency Inspector's rules.

use crate::engine::Rule;

/// Every consistency rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![]
}
