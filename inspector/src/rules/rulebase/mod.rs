//! The rulebase Inspector's rules.

use crate::engine::Rule;

/// Every rulebase rule.
pub(crate) fn rules() -> Vec<Box<dyn Rule>> {
    vec![]
}
