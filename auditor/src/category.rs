//! The category names the audit treats specially; every other category is opaque text to it.
//!
//! They are the Inspectors' own categories (the Inspectors spec), written here once so that the steps
//! of the audit cannot drift apart on spelling.

/// An Inspector judges a spec item unimplementable (step 1).
pub const SPEC_DEFECT: &str = "spec-defect";
/// A designed signature differs from the code; always Critical (step 6).
pub const SIGNATURE_MISMATCH: &str = "signature-mismatch";
/// A call of a designed interface with the wrong number of arguments.
pub const CALL_SITE_ERROR: &str = "call-site-error";
/// An import the design names that does not resolve.
pub const DEPENDENCY_WRONG: &str = "dependency-wrong";
/// A failing test.
pub const TEST_FAILURE: &str = "test-failure";
/// A failing test outside the changed scope: a failing test all the same.
pub const REGRESSION: &str = "regression";
/// Categories that are failing tests, for the verdict table and the team-loop decision.
pub const FAILING_TESTS: [&str; 2] = [TEST_FAILURE, REGRESSION];
/// A command (test runner, compiler) that could not run at all.
pub const ENVIRONMENT_ERROR: &str = "environment-error";
/// The code does not build.
pub const BUILD_FAILURE: &str = "build-failure";

/// The interface Inspector's mismatch categories: any of them makes the verdict at least CONDITIONAL.
pub const INTERFACE_MISMATCH: [&str; 3] = [SIGNATURE_MISMATCH, CALL_SITE_ERROR, DEPENDENCY_WRONG];

/// Categories that stop the team loop (decision STOP): build, test and environment failures.
pub const STOPPING: [&str; 4] = [BUILD_FAILURE, TEST_FAILURE, REGRESSION, ENVIRONMENT_ERROR];

/// Test doubles may hide a real failure; raised by contradiction rule (b).
pub const FALSE_POSITIVE_RISK: &str = "false-positive-risk";
/// A task marked complete whose code does nothing; raised by contradiction rule (c).
pub const NOT_DELIVERED: &str = "functionality-not-delivered";
/// Code nothing uses.
pub const DEAD_CODE: &str = "dead-code";
/// A task in tasks.yaml not marked done.
pub const TASK_INCOMPLETE: &str = "task-incomplete";
/// Swallowed errors, `unwrap` in library code.
pub const ERROR_HANDLING_DRIFT: &str = "error-handling-drift";
/// Error handling done differently in different modules.
pub const ERROR_HANDLING_INCONSISTENCY: &str = "error-handling-inconsistency";
/// The consistency Inspector's cross-feature mismatches: a boundary type or a shared-module call
/// convention that differs between features.
pub const CROSS_FEATURE_MISMATCH: [&str; 2] = ["type-mismatch", "interface-inconsistency"];
/// A source file the design does not declare.
pub const FILE_UNEXPECTED: &str = "file-unexpected";
/// Code the design does not ask for (step 8).
pub const OVER_IMPLEMENTATION: &str = "over-implementation";
