//! Step 6 of the audit: the Auditor's own severity table, written down in this one place.
//!
//! Everything the table does not name keeps the Inspector's severity. In particular, being
//! reported by one agent only is not a reason to re-rate, and findings read from CPF carry
//! normal confidence, so the low-confidence row never touches them.

use crate::category::Category;
use protocol::{Confidence, Finding, Severity};

/// Which findings a row of the table applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// Findings of this category.
    Category(Category),
    /// Findings located only in test code (see [`is_test_code`]), except these categories.
    TestCodeOnly {
        /// Categories about tests by nature, which test code cannot make less severe.
        except: &'static [Category],
    },
    /// Findings whose reporters are not sure ([`Confidence::Low`]).
    LowConfidence,
}

/// What a row of the table does to the severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adjustment {
    /// Sets this severity; later rows leave the finding alone.
    Fix(Severity),
    /// One level less severe (Low stays Low); later rows still apply.
    LowerOne,
}

/// One row of the severity table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeverityRule {
    /// Which findings it applies to.
    pub applies: Applies,
    /// What it does.
    pub adjustment: Adjustment,
}

/// The Auditor's severity table, applied top to bottom (the Auditor spec, step 6):
///
/// | finding                                      | severity                |
/// |----------------------------------------------|-------------------------|
/// | category `signature-mismatch`                | Critical, and final     |
/// | only in test code (not `test-failure`)       | one level lower         |
/// | confidence Low                               | one level lower         |
/// | anything else                                | the Inspector's, as is  |
///
/// A signature mismatch is Critical wherever it is and however sure its reporter was: the design
/// contract is broken either way, so its row is final. The two "lower" rows add up.
pub const SEVERITY_TABLE: [SeverityRule; 3] = [
    SeverityRule {
        applies: Applies::Category(Category::SignatureMismatch),
        adjustment: Adjustment::Fix(Severity::Critical),
    },
    SeverityRule {
        applies: Applies::TestCodeOnly {
            except: &[Category::TestFailure],
        },
        adjustment: Adjustment::LowerOne,
    },
    SeverityRule {
        applies: Applies::LowConfidence,
        adjustment: Adjustment::LowerOne,
    },
];

/// The severity [`SEVERITY_TABLE`] gives a finding.
pub fn rerated(finding: &Finding) -> Severity {
    let mut severity = finding.severity;
    for rule in &SEVERITY_TABLE {
        if !applies(rule.applies, finding) {
            continue;
        }
        match rule.adjustment {
            Adjustment::Fix(fixed) => return fixed,
            Adjustment::LowerOne => severity = severity.lowered(),
        }
    }
    severity
}

/// Re-rates every finding by [`SEVERITY_TABLE`]; the order is kept.
pub fn rerate(findings: Vec<Finding>) -> Vec<Finding> {
    findings
        .into_iter()
        .map(|mut f| {
            f.severity = rerated(&f);
            f
        })
        .collect()
}

fn applies(applies: Applies, finding: &Finding) -> bool {
    match applies {
        Applies::Category(category) => finding.category_is(category),
        Applies::TestCodeOnly { except } => {
            is_test_code(&finding.location.path) && !finding.category_in(except)
        }
        Applies::LowConfidence => finding.confidence == Confidence::Low,
    }
}

/// Whether a repository-relative path is test code by its name: a `tests/` or `test/` directory,
/// or a file named `*_test.rs`, `test_*.py`, `*_test.go`, `*.test.ts|js` or `*.spec.ts|js`.
///
/// A `#[cfg(test)]` module inside a source file cannot be seen from a path, so it counts as code.
pub fn is_test_code(path: &str) -> bool {
    let mut parts = path.split(['/', '\\']).filter(|p| !p.is_empty());
    let Some(file) = parts.next_back() else {
        return false;
    };
    if parts.any(|dir| dir == "tests" || dir == "test") {
        return true;
    }
    const SUFFIXES: [&str; 6] = [
        "_test.rs", "_test.go", ".test.ts", ".test.js", ".spec.ts", ".spec.js",
    ];
    SUFFIXES
        .iter()
        .any(|s| file.ends_with(s) && file.len() > s.len())
        || (file.starts_with("test_") && file.ends_with(".py"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;

    #[test]
    fn test_paths_are_recognised_by_directory_and_file_name() {
        for path in [
            "tests/x.rs",
            "crates/core/tests/it.rs",
            "test/helpers.py",
            "src/parser_test.rs",
            "pkg/server_test.go",
            "scripts/test_login.py",
            "web/app.test.ts",
            "web/app.spec.js",
        ] {
            assert!(is_test_code(path), "{path} is test code");
        }
        for path in [
            "src/lib.rs",
            "src/tests.rs",
            "src/testing/mod.rs",
            "contest/main.go",
            "latest_test.md",
            "_test.rs",
            "",
            "tests",
        ] {
            assert!(!is_test_code(path), "{path} is not test code");
        }
    }

    #[test]
    fn signature_mismatch_is_critical_wherever_it_is() {
        let f = finding(
            "interface",
            Category::SignatureMismatch,
            Severity::Medium,
            "src/a.rs",
            1,
        );
        assert_eq!(rerated(&f), Severity::Critical);
        let mut in_tests = finding(
            "interface",
            Category::SignatureMismatch,
            Severity::Low,
            "tests/a.rs",
            1,
        );
        in_tests.confidence = Confidence::Low;
        assert_eq!(rerated(&in_tests), Severity::Critical);
    }

    #[test]
    fn test_code_drops_one_level_except_test_failures() {
        let f = finding("quality", "dead-code", Severity::High, "tests/x.rs", 4);
        assert_eq!(rerated(&f), Severity::Medium);
        let low = finding("quality", "dead-code", Severity::Low, "tests/x.rs", 4);
        assert_eq!(rerated(&low), Severity::Low);
        let failing = finding(
            "test",
            Category::TestFailure,
            Severity::High,
            "tests/x.rs",
            4,
        );
        assert_eq!(rerated(&failing), Severity::High);
    }

    #[test]
    fn low_confidence_drops_one_level_and_adds_up_with_test_code() {
        let mut f = finding("agent", "race-condition", Severity::Critical, "src/a.rs", 1);
        f.confidence = Confidence::Low;
        assert_eq!(rerated(&f), Severity::High);
        f.location.path = "tests/a.rs".into();
        assert_eq!(rerated(&f), Severity::Medium);
    }

    #[test]
    fn everything_else_keeps_its_severity() {
        for severity in Severity::ALL_DESC {
            let mut f = finding("quality", "dead-code", severity, "src/a.rs", 1);
            assert_eq!(rerated(&f), severity);
            f.confidence = Confidence::High;
            assert_eq!(rerated(&f), severity);
        }
    }

    #[test]
    fn rerate_keeps_the_order() {
        let out = rerate(vec![
            finding("q", "dead-code", Severity::High, "tests/a.rs", 1),
            finding(
                "q",
                Category::SignatureMismatch,
                Severity::Low,
                "src/a.rs",
                1,
            ),
        ]);
        let severities: Vec<Severity> = out.iter().map(|f| f.severity).collect();
        assert_eq!(severities, vec![Severity::Medium, Severity::Critical]);
    }
}
