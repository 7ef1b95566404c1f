//! The test Inspector's rules.

use crate::engine::Rule;

/// Every test rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![]
}
