//! The category names the audit treats specially; every other category is opaque text to it.
//!
//! They are the Inspectors' own categories (chapter 02), written here once so that the steps
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
/// A command (test runner, compiler) that could not run at all.
pub const ENVIRONMENT_ERROR: &str = "environment-error";
/// The code does not build.
pub const BUILD_FAILURE: &str = "build-failure";

/// The interface Inspector's mismatch categories: any of them makes the verdict at least CONDITIONAL.
pub const INTERFACE_MISMATCH: [&str; 3] = [SIGNATURE_MISMATCH, CALL_SITE_ERROR, DEPENDENCY_WRONG];

/// Categories that stop the team loop (decision STOP): build, test and environment failures.
pub const STOPPING: [&str; 3] = [BUILD_FAILURE, TEST_FAILURE, ENVIRONMENT_ERROR];
