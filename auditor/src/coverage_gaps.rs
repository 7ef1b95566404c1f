//! Step 4 of the audit, coverage: did the Inspectors together cover every file, interface, error
//! scenario and task the design names, and every cross-feature integration point?
//!
//! Evidence of coverage is what the Inspectors claim by name (`FilesCovered`, `InterfacesCovered`,
//! `ErrorScenariosCovered`, `TasksCovered`, `TaskComplete`, `IntegrationPointsCovered`); a file a
//! finding points at was looked at too. Each gap is one note with a fixed prefix:
//!
//! - `COVERAGE_GAP|{kind}|{item}` — the design names it and no Inspector covered it; a design file
//!   an Inspector skipped says so: `COVERAGE_GAP|file|big.rs (skipped by quality: too large)`;
//! - `COVERAGE_GAP|{kind}|unverified: no Inspector reported which {kind}s it covered ({n} named)`
//!   — once per kind when the design names items but no Inspector made a claim of that kind, so
//!   that an Inspector that does not send claims yet yields one note, not one per item.
//!
//! Kinds: `file`, `interface`, `error-scenario`, `task`, `integration-point`. Paths compare in one
//! spelling (`./src/a.rs` is `src/a.rs`); names compare trimmed and case-insensitively.

use crate::context::AuditContext;
use crate::place::normalise_path;
use protocol::{Claim, Finding, InspectorReport};

/// The fixed prefix of every coverage note.
pub const COVERAGE_GAP: &str = "COVERAGE_GAP";

/// The coverage notes for these reports and findings against the design context.
pub fn coverage_gaps(
    reports: &[InspectorReport],
    findings: &[Finding],
    ctx: &AuditContext,
) -> Vec<String> {
    let mut notes = Vec::new();
    notes.extend(file_gaps(reports, findings, ctx));
    let all_claims = || reports.iter().flat_map(|r| r.claims.iter());
    let named = |pick: fn(&Claim) -> Option<&Vec<String>>| -> Option<Vec<String>> {
        let mut claimed = all_claims().filter_map(pick).peekable();
        claimed.peek()?;
        Some(claimed.flatten().map(|s| name_key(s)).collect())
    };
    let interfaces = named(|c| match c {
        Claim::InterfacesCovered { names } => Some(names),
        _ => None,
    });
    // An interface an Inspector found outside the scope (another task's file) is that review's
    // to cover: a task-scoped review names only its own.
    let elsewhere = named(|c| match c {
        Claim::InterfacesOutOfScope { names } => Some(names),
        _ => None,
    })
    .unwrap_or_default();
    let in_scope: Vec<String> = ctx
        .design_interfaces
        .iter()
        .filter(|s| !elsewhere.contains(&name_key(s)))
        .cloned()
        .collect();
    notes.extend(name_gaps("interface", &in_scope, interfaces));
    let scenarios = named(|c| match c {
        Claim::ErrorScenariosCovered { names } => Some(names),
        _ => None,
    });
    notes.extend(name_gaps(
        "error-scenario",
        &ctx.design_error_scenarios,
        scenarios,
    ));
    notes.extend(name_gaps("task", &ctx.design_tasks, covered_tasks(reports)));
    let points = named(|c| match c {
        Claim::IntegrationPointsCovered { names } => Some(names),
        _ => None,
    });
    notes.extend(name_gaps(
        "integration-point",
        &ctx.integration_points,
        points,
    ));
    notes
}

fn file_gaps(reports: &[InspectorReport], findings: &[Finding], ctx: &AuditContext) -> Vec<String> {
    let claimed: Vec<String> = reports
        .iter()
        .flat_map(|r| r.claims.iter())
        .filter_map(|c| match c {
            Claim::FilesCovered { paths } => Some(paths),
            _ => None,
        })
        .flatten()
        .map(|p| normalise_path(p))
        .collect();
    let any_claim = reports
        .iter()
        .flat_map(|r| r.claims.iter())
        .any(|c| matches!(c, Claim::FilesCovered { .. }));
    if !any_claim {
        return unverified("file", ctx.design_files.len());
    }
    let looked_at: Vec<String> = findings
        .iter()
        .map(|f| normalise_path(&f.location.path))
        .collect();
    ctx.design_files
        .iter()
        .map(|p| normalise_path(p))
        .filter(|p| !p.is_empty() && !claimed.contains(p) && !looked_at.contains(p))
        .map(|p| {
            let skipped: Vec<String> = reports
                .iter()
                .flat_map(|r| {
                    r.coverage
                        .skipped
                        .iter()
                        .filter(|s| normalise_path(&s.path) == p)
                        .map(move |s| format!("{}: {}", r.inspector, s.reason))
                })
                .collect();
            if skipped.is_empty() {
                format!("{COVERAGE_GAP}|file|{p}")
            } else {
                format!(
                    "{COVERAGE_GAP}|file|{p} (skipped by {})",
                    skipped.join("; ")
                )
            }
        })
        .collect()
}

/// Task ids any Inspector claims to have covered or judged complete; `None` without such claims.
fn covered_tasks(reports: &[InspectorReport]) -> Option<Vec<String>> {
    let mut any = false;
    let mut ids = Vec::new();
    for c in reports.iter().flat_map(|r| r.claims.iter()) {
        match c {
            Claim::TasksCovered { ids: list } => {
                any = true;
                ids.extend(list.iter().map(|s| name_key(s)));
            }
            Claim::TaskComplete { id, .. } => {
                any = true;
                ids.push(name_key(id));
            }
            _ => {}
        }
    }
    any.then_some(ids)
}

/// The gaps of one kind of named item; `covered` is `None` when no Inspector claimed that kind.
fn name_gaps(kind: &str, designed: &[String], covered: Option<Vec<String>>) -> Vec<String> {
    let Some(covered) = covered else {
        return unverified(kind, designed.len());
    };
    designed
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty() && !covered.contains(&name_key(s)))
        .map(|s| format!("{COVERAGE_GAP}|{kind}|{s}"))
        .collect()
}

fn unverified(kind: &str, named: usize) -> Vec<String> {
    if named == 0 {
        return Vec::new();
    }
    vec![format!(
        "{COVERAGE_GAP}|{kind}|unverified: no Inspector reported which {kind}s it covered ({named} named by the design)"
    )]
}

fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{finding, report};
    use protocol::{Severity, Skipped};

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn design() -> AuditContext {
        AuditContext {
            design_files: strings(&["src/auth.rs", "./src/store.rs", "src/big.rs", "src/api.rs"]),
            design_interfaces: strings(&["login", "SessionStore"]),
            design_error_scenarios: strings(&["expired token", "store unavailable"]),
            design_tasks: strings(&["1", "2", "3"]),
            integration_points: strings(&["billing::charge"]),
            ..AuditContext::default()
        }
    }

    #[test]
    fn everything_named_and_not_covered_is_one_gap_note() {
        let mut rulebase = report("rulebase", vec![]);
        rulebase.claims = vec![
            Claim::FilesCovered {
                paths: strings(&["src/auth.rs"]),
            },
            Claim::TaskComplete {
                id: "1".into(),
                files: strings(&["src/auth.rs"]),
            },
            Claim::TasksCovered {
                ids: strings(&["2"]),
            },
        ];
        let mut interface = report("interface", vec![]);
        interface.claims = vec![Claim::InterfacesCovered {
            names: strings(&[" LOGIN "]),
        }];
        let mut holistic = report("holistic", vec![]);
        holistic.claims = vec![
            Claim::ErrorScenariosCovered {
                names: strings(&["Expired token"]),
            },
            Claim::IntegrationPointsCovered { names: vec![] },
        ];
        let mut quality = report("quality", vec![]);
        quality.coverage.skipped = vec![Skipped {
            path: "src/big.rs".into(),
            reason: "too large".into(),
        }];
        // A finding in src/store.rs proves someone looked at it.
        let looked = finding("quality", "dead-code", Severity::Low, "src/store.rs", 3);
        let notes = coverage_gaps(
            &[rulebase, interface, holistic, quality],
            &[looked],
            &design(),
        );
        assert_eq!(
            notes,
            vec![
                "COVERAGE_GAP|file|src/big.rs (skipped by quality: too large)",
                "COVERAGE_GAP|file|src/api.rs",
                "COVERAGE_GAP|interface|SessionStore",
                "COVERAGE_GAP|error-scenario|store unavailable",
                "COVERAGE_GAP|task|3",
                "COVERAGE_GAP|integration-point|billing::charge",
            ]
        );
    }

    #[test]
    fn without_claims_each_kind_is_one_unverified_note() {
        let notes = coverage_gaps(&[report("quality", vec![])], &[], &design());
        assert_eq!(
            notes,
            vec![
                "COVERAGE_GAP|file|unverified: no Inspector reported which files it covered (4 named by the design)",
                "COVERAGE_GAP|interface|unverified: no Inspector reported which interfaces it covered (2 named by the design)",
                "COVERAGE_GAP|error-scenario|unverified: no Inspector reported which error-scenarios it covered (2 named by the design)",
                "COVERAGE_GAP|task|unverified: no Inspector reported which tasks it covered (3 named by the design)",
                "COVERAGE_GAP|integration-point|unverified: no Inspector reported which integration-points it covered (1 named by the design)",
            ]
        );
    }

    #[test]
    fn no_design_no_gaps() {
        let notes = coverage_gaps(&[report("quality", vec![])], &[], &AuditContext::EMPTY);
        assert!(notes.is_empty());
    }

    #[test]
    fn full_coverage_is_silent() {
        let ctx = AuditContext {
            design_files: strings(&["src/a.rs"]),
            design_tasks: strings(&["T1"]),
            ..AuditContext::default()
        };
        let mut r = report("rulebase", vec![]);
        r.claims = vec![
            Claim::FilesCovered {
                paths: strings(&["./src/a.rs"]),
            },
            Claim::TasksCovered {
                ids: strings(&["t1"]),
            },
        ];
        assert!(coverage_gaps(&[r], &[], &ctx).is_empty());
    }

    #[test]
    fn an_interface_claimed_out_of_scope_is_no_gap_and_the_rest_still_are() {
        let ctx = AuditContext {
            design_interfaces: strings(&["login", "SessionStore", "logout"]),
            ..AuditContext::default()
        };
        let mut interface = report("interface", vec![]);
        interface.claims = vec![
            Claim::InterfacesCovered {
                names: strings(&["login"]),
            },
            Claim::InterfacesOutOfScope {
                names: strings(&["sessionstore"]),
            },
        ];
        assert_eq!(
            coverage_gaps(&[interface], &[], &ctx),
            vec!["COVERAGE_GAP|interface|logout".to_string()]
        );
    }
}
