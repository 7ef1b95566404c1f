//! From the Lead's `AuditRequest` to the audit's inputs: the design and steering context the Lead
//! read from the spec layout, converted to [`AuditContext`], and the source reader of step 7,
//! rooted at the repository and unable to read outside it.
//!
//! The reader is the only place the Auditor touches the reviewed repository, and it only reads:
//! a path that climbs out of the root (`..`, an absolute path, a symbolic link pointing elsewhere)
//! reads as "no such file" — there is no such file *in the repository* — and so does a file over
//! [`MAX_SOURCE_BYTES`], a size no source file reaches (step 7 reads at most three files).
//! Bytes that are not UTF-8 are replaced, so a file that exists is never reported missing.

use crate::audit::{audit, AuditConfig, AuditInput};
use crate::budget::Budget;
use crate::context::{AuditContext, Exemption};
use protocol::message::{AuditRequest, SpecContext, SpecExemption};
use protocol::{AuditOutcome, InspectorReport, Location};
use std::path::Path;

/// The largest file step 7 reads; a larger one reads as absent.
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// Audits `reports` as `request` asks: its test-failure policy, its spec context, a source reader
/// rooted at its repository (none without a root), and `spent`, asked before each step.
pub fn audit_request(
    request: &AuditRequest,
    reports: &[InspectorReport],
    unavailable: &[(String, String)],
    spent: &dyn Fn() -> bool,
) -> AuditOutcome {
    let config = AuditConfig {
        test_failure: request.test_failure,
    };
    let context = audit_context(&request.context);
    let input = AuditInput::new(
        &request.scope,
        reports,
        &request.expect,
        unavailable,
        &config,
    )
    .with_budget(Budget::Check(spent))
    .with_context(&context);
    match request.root.as_deref().map(Path::new) {
        Some(root) => {
            let read = move |path: &str| read_source(root, path);
            audit(&input.with_source(&read))
        }
        None => audit(&input),
    }
}

/// The audit context the Lead's spec context describes.
pub fn audit_context(spec: &SpecContext) -> AuditContext {
    let exemptions = |list: &[SpecExemption]| -> Vec<Exemption> {
        list.iter()
            .map(|e| Exemption {
                category: e.category.clone(),
                path: e.path.clone(),
                mentions: e.mentions.clone(),
                reason: e.reason.clone(),
            })
            .collect()
    };
    AuditContext {
        design_files: spec.design_files.clone(),
        design_interfaces: spec.design_interfaces.clone(),
        design_error_scenarios: spec.design_error_scenarios.clone(),
        design_tasks: spec.design_tasks.clone(),
        integration_points: spec.integration_points.clone(),
        documented_deviations: exemptions(&spec.documented_deviations),
        allowed_patterns: exemptions(&spec.allowed_patterns),
        optional_parameters: spec.optional_parameters.clone(),
        changed_files: spec.changed_files.clone(),
        design_text: spec.design_text.clone(),
        steering_text: spec.steering_text.clone(),
        steering_exceptions: spec.steering_exceptions.clone(),
    }
}

/// The text of the repository-relative `path` under `root`; `None` when there is no such file,
/// it lies outside the root, or it is larger than [`MAX_SOURCE_BYTES`].
pub fn read_source(root: &Path, path: &str) -> Option<String> {
    let joined = Location::file(path).resolve(root).ok()?;
    // `resolve` refuses `..` and absolute paths; canonical forms also catch a symbolic link
    // inside the repository that points outside it.
    let root = std::fs::canonicalize(root).ok()?;
    let file = std::fs::canonicalize(joined).ok()?;
    if !file.starts_with(&root) {
        return None;
    }
    let meta = std::fs::metadata(&file).ok()?;
    if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
        return None;
    }
    let bytes = std::fs::read(file).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{finding, report};
    use protocol::message::TestFailurePolicy;
    use protocol::{Claim, Severity, Verdict};

    fn request(root: Option<&Path>, context: SpecContext) -> AuditRequest {
        AuditRequest {
            review: "r1".into(),
            scope: "repository".into(),
            expect: Vec::new(),
            recovery: None,
            budget_ms: 60_000,
            test_failure: TestFailurePolicy::NoGo,
            unavailable: Vec::new(),
            root: root.map(|r| r.to_string_lossy().into_owned()),
            context,
        }
    }

    fn spec() -> SpecContext {
        SpecContext {
            design_files: vec!["src/orders.rs".into()],
            design_interfaces: vec!["place_order".into()],
            design_error_scenarios: vec!["out of stock".into()],
            design_tasks: vec!["1".into(), "2".into()],
            integration_points: vec!["billing".into()],
            documented_deviations: vec![SpecExemption {
                category: Some("todo-marker".into()),
                path: Some("src/legacy.rs".into()),
                mentions: None,
                reason: "kept until v2".into(),
            }],
            allowed_patterns: vec![SpecExemption {
                category: None,
                path: Some("src/bin/".into()),
                mentions: Some("unwrap".into()),
                reason: "binaries may exit on bad input".into(),
            }],
            optional_parameters: vec!["timeout".into()],
            changed_files: vec!["src/extra.rs".into()],
            design_text: "# Design\nplace_order".into(),
            steering_text: "# Tech".into(),
            steering_exceptions: vec![protocol::message::SteeringException {
                feature: "orders".into(),
                rule: "quality/unwrap-in-library".into(),
                path: Some("src/orders.rs".into()),
                decided_by: "alice".into(),
                reason: "prototype".into(),
            }],
        }
    }

    #[test]
    fn every_field_of_the_spec_context_reaches_the_audit_context() {
        let ctx = audit_context(&spec());
        assert_eq!(ctx.design_files, vec!["src/orders.rs"]);
        assert_eq!(ctx.design_interfaces, vec!["place_order"]);
        assert_eq!(ctx.design_error_scenarios, vec!["out of stock"]);
        assert_eq!(ctx.design_tasks, vec!["1", "2"]);
        assert_eq!(ctx.integration_points, vec!["billing"]);
        assert_eq!(ctx.optional_parameters, vec!["timeout"]);
        assert_eq!(ctx.changed_files, vec!["src/extra.rs"]);
        assert_eq!(ctx.design_text, "# Design\nplace_order");
        assert_eq!(ctx.steering_text, "# Tech");
        assert_eq!(ctx.steering_exceptions, spec().steering_exceptions);
        assert_eq!(ctx.steering_exceptions[0].decided_by, "alice");
        assert_eq!(
            ctx.documented_deviations,
            vec![Exemption {
                category: Some("todo-marker".into()),
                path: Some("src/legacy.rs".into()),
                mentions: None,
                reason: "kept until v2".into(),
            }]
        );
        let mut f = finding(
            "quality",
            "error-handling-drift",
            Severity::High,
            "src/bin/cli.rs",
            3,
        );
        f.description = "`unwrap` on user input".into();
        assert!(ctx.allowed_patterns[0].covers(&f));
    }

    #[test]
    fn an_empty_spec_context_is_the_empty_audit_context() {
        assert_eq!(
            audit_context(&SpecContext::default()),
            AuditContext::default()
        );
    }

    #[test]
    fn the_reader_reads_inside_the_root_only() {
        let outer = tempfile::tempdir().expect("tempdir");
        let root = outer.path().join("repo");
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").expect("write");
        std::fs::write(outer.path().join("secret.txt"), "s3cret").expect("write");
        assert_eq!(
            read_source(&root, "src/a.rs").as_deref(),
            Some("fn a() {}\n")
        );
        assert_eq!(
            read_source(&root, "./src/a.rs").as_deref(),
            Some("fn a() {}\n")
        );
        assert_eq!(read_source(&root, "src/missing.rs"), None);
        assert_eq!(read_source(&root, "src"), None);
        assert_eq!(read_source(&root, "../secret.txt"), None);
        let absolute = outer.path().join("secret.txt");
        assert_eq!(read_source(&root, &absolute.to_string_lossy()), None);
        std::os::unix::fs::symlink(outer.path().join("secret.txt"), root.join("link.txt"))
            .expect("symlink");
        assert_eq!(read_source(&root, "link.txt"), None);
    }

    #[test]
    fn a_file_that_is_not_utf8_still_exists() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("latin1.rs"), b"// caf\xe9\n").expect("write");
        assert_eq!(
            read_source(dir.path(), "latin1.rs").as_deref(),
            Some("// caf\u{fffd}\n")
        );
    }

    #[test]
    fn the_request_context_removes_a_documented_deviation() {
        let todo = finding("quality", "todo-marker", Severity::High, "src/legacy.rs", 4);
        let reports = [report("quality", vec![todo])];
        let context = SpecContext {
            documented_deviations: vec![SpecExemption {
                category: Some("todo-marker".into()),
                path: Some("src/legacy.rs".into()),
                mentions: None,
                reason: "kept until v2".into(),
            }],
            ..SpecContext::default()
        };
        let never = || false;
        let with = audit_request(&request(None, context), &reports, &[], &never);
        assert_eq!(with.verdict, Verdict::Go);
        assert!(with.findings.is_empty());
        assert_eq!(with.removed.len(), 1);
        assert_eq!(
            with.removed[0].reason,
            "deviation documented as intentional: kept until v2"
        );
        let without = audit_request(
            &request(None, SpecContext::default()),
            &reports,
            &[],
            &never,
        );
        assert_eq!(without.findings.len(), 1);
        assert!(without.removed.is_empty());
    }

    #[test]
    fn the_request_root_lets_step_7_read_the_source() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("tests")).expect("mkdir");
        std::fs::write(dir.path().join("tests/a.rs"), "#[test]\nfn adds() {}\n").expect("write");
        let mut failure = finding(
            "agent-test",
            "test-failure",
            Severity::High,
            "tests/a.rs",
            2,
        );
        failure.description = "`subtracts` fails".into();
        let mut test = report("test", vec![]);
        test.claims = vec![Claim::TestsRun {
            passed: 3,
            failed: 0,
            skipped: 0,
        }];
        let reports = [test, report("agent-test", vec![failure])];
        let never = || false;
        let read = audit_request(
            &request(Some(dir.path()), SpecContext::default()),
            &reports,
            &[],
            &never,
        );
        assert!(read.findings.is_empty(), "{:?}", read.findings);
        assert_eq!(
            read.resolved[0].resolution,
            "dropped the finding: tests/a.rs has none of `subtracts`"
        );
        let blind = audit_request(
            &request(None, SpecContext::default()),
            &reports,
            &[],
            &never,
        );
        assert_eq!(blind.findings.len(), 1);
        assert!(blind.resolved[0].resolution.starts_with("UNRESOLVED: "));
    }
}
