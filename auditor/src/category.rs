//! The groups of categories the audit treats alike; every category it names is a
//! [`Category`] (re-exported here), and every category it does not name is opaque text to it.
//!
//! The categories are the Inspectors' own (the Inspectors spec), named once in
//! [`protocol::Category`] so that the rules and the steps of the audit cannot drift apart on
//! spelling. A finding's category stays text (agents and CPF files may report any); the audit
//! compares it with [`Finding::category_is`](protocol::Finding::category_is) and
//! [`Finding::category_in`](protocol::Finding::category_in).

pub use protocol::Category;

/// Categories that are failing tests, for the verdict table and the team-loop decision.
pub const FAILING_TESTS: [Category; 2] = [Category::TestFailure, Category::Regression];

/// The interface Inspector's mismatch categories: any of them makes the verdict at least CONDITIONAL.
pub const INTERFACE_MISMATCH: [Category; 3] = [
    Category::SignatureMismatch,
    Category::CallSiteError,
    Category::DependencyWrong,
];

/// Categories that stop the team loop (decision STOP): build, test and environment failures.
pub const STOPPING: [Category; 4] = [
    Category::BuildFailure,
    Category::TestFailure,
    Category::Regression,
    Category::EnvironmentError,
];

/// The consistency Inspector's cross-feature mismatches: a boundary type or a shared-module call
/// convention that differs between features.
pub const CROSS_FEATURE_MISMATCH: [Category; 2] =
    [Category::TypeMismatch, Category::InterfaceInconsistency];
