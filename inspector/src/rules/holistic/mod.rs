//! The holistic Inspector's rules.

use crate::engine::Rule;

/// Every holistic rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![]
}
