//! Between the typed domain and CPF: a report both ways, an Auditor outcome to CPF.
//!
//! CPF carries only the four seed fields of a finding; a report read back gets defaults for the
//! rest (rule `cpf/{category}`, normal confidence, no claims, empty coverage), and its fingerprint
//! is keyed on the description because CPF has no snippet or symbol.

use super::report::{CpfIssue, ReportCpf};
use super::verdict::{VerdictCpf, VerifiedRow};
use crate::domain::{AuditOutcome, Coverage, Finding, InspectorKind, InspectorReport, Location};

impl InspectorReport {
    /// The report as CPF: the Inspector's own verdict, its scope, one issue per finding, its notes.
    pub fn to_cpf(&self) -> ReportCpf {
        ReportCpf {
            verdict: Some(self.own_verdict()),
            scope: Some(self.scope.clone()),
            issues: self
                .findings
                .iter()
                .map(|f| CpfIssue {
                    severity: f.severity,
                    category: f.category.clone(),
                    location: f.location.to_string(),
                    description: f.description.clone(),
                })
                .collect(),
            notes: self.notes.clone(),
            questions: Vec::new(),
        }
    }

    /// A report read from CPF written by `agent` (a file stem or actor name) for `review`; the
    /// CPF verdict is dropped, since the Auditor recomputes it from the findings.
    pub fn from_cpf(agent: &str, review: &str, cpf: ReportCpf) -> InspectorReport {
        let findings = cpf
            .issues
            .into_iter()
            .map(|i| {
                Finding::new(
                    agent,
                    crate::domain::cpf_rule(&i.category),
                    i.category,
                    i.severity,
                    Location::parse(&i.location),
                    i.description.clone(),
                    &i.description,
                )
            })
            .collect();
        InspectorReport {
            review: review.to_string(),
            inspector: agent.to_string(),
            kind: agent.parse::<InspectorKind>().ok(),
            scope: cpf.scope.unwrap_or_default(),
            findings,
            notes: cpf.notes,
            claims: Vec::new(),
            coverage: Coverage::default(),
            preexisting: Vec::new(),
        }
    }
}

impl AuditOutcome {
    /// The outcome as a CPF verdict: the verdict, the scope, a VERIFIED row per finding, and the
    /// other sections as they are.
    pub fn to_cpf(&self) -> VerdictCpf {
        VerdictCpf {
            verdict: self.verdict,
            scope: Some(self.scope.clone()),
            verified: self
                .findings
                .iter()
                .map(|f| VerifiedRow {
                    agents: f.agents.clone(),
                    severity: f.severity,
                    category: f.category.clone(),
                    location: f.location.to_string(),
                    description: f.description.clone(),
                })
                .collect(),
            removed: self.removed.clone(),
            resolved: self.resolved.clone(),
            spec_feedback: self.spec_feedback.clone(),
            steering: self.steering.clone(),
            notes: self.notes.clone(),
            roadmap_advisory: self.roadmap_advisory.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpf::{format_report, format_verdict, parse_report, parse_verdict};
    use crate::domain::{
        fingerprint, Confidence, Decision, Grade, Removed, Severity, Steering, SteeringAction,
        Verdict,
    };

    fn report() -> InspectorReport {
        let mut anchored = Finding::new(
            "inspector-quality",
            "quality/todo-marker",
            "todo",
            Severity::Critical,
            Location::anchored("design.md", "Spec 3"),
            "TODO left | in code",
            "// TODO",
        );
        anchored.suggestion = Some("finish it".into());
        InspectorReport {
            review: "r1".into(),
            inspector: "inspector-quality".into(),
            kind: Some(InspectorKind::Quality),
            scope: "feature".into(),
            findings: vec![
                anchored,
                Finding::new(
                    "inspector-quality",
                    "quality/dead-code",
                    "dead-code",
                    Severity::Medium,
                    Location::at("src/a.rs", 12),
                    "unused fn",
                    "fn f",
                ),
            ],
            notes: vec!["looked at 3 files".into()],
            claims: Vec::new(),
            coverage: Coverage::default(),
            preexisting: Vec::new(),
        }
    }

    #[test]
    fn a_report_becomes_cpf_with_its_own_verdict() {
        let cpf = report().to_cpf();
        assert_eq!(cpf.verdict, Some(Verdict::NoGo));
        assert_eq!(cpf.scope.as_deref(), Some("feature"));
        assert_eq!(
            cpf.issues,
            vec![
                CpfIssue {
                    severity: Severity::Critical,
                    category: "todo".into(),
                    location: "design.md#Spec 3".into(),
                    description: "TODO left | in code".into(),
                },
                CpfIssue {
                    severity: Severity::Medium,
                    category: "dead-code".into(),
                    location: "src/a.rs:12".into(),
                    description: "unused fn".into(),
                },
            ]
        );
        assert_eq!(
            format_report(&cpf),
            "VERDICT:NO-GO\nSCOPE:feature\nISSUES:\nC|todo|design.md#Spec 3|TODO left \\| in code\n\
             M|dead-code|src/a.rs:12|unused fn\nNOTES:\nlooked at 3 files\n"
        );
    }

    #[test]
    fn a_cpf_report_is_read_back_with_defaults() {
        let text = "VERDICT:CONDITIONAL\nSCOPE:cross-check\nISSUES:\nH|dead-code|src/a.rs:12:4|unused fn\n\
                    NOTES:\nPARTIAL:x|y\n";
        let report = InspectorReport::from_cpf("quality", "r2", parse_report(text).unwrap());
        assert_eq!(report.review, "r2");
        assert_eq!(report.inspector, "quality");
        assert_eq!(report.kind, Some(InspectorKind::Quality));
        assert_eq!(report.scope, "cross-check");
        assert_eq!(report.notes, vec!["PARTIAL:x|y".to_string()]);
        assert!(report.claims.is_empty());
        assert_eq!(report.coverage, Coverage::default());
        let f = &report.findings[0];
        assert_eq!(f.agents, vec!["quality".to_string()]);
        assert_eq!(f.rule, "cpf/dead-code");
        assert_eq!(f.category, "dead-code");
        assert_eq!(f.severity, Severity::High);
        assert_eq!(f.location.path, "src/a.rs");
        assert_eq!((f.location.line, f.location.column), (Some(12), Some(4)));
        assert_eq!(f.description, "unused fn");
        assert_eq!(f.suggestion, None);
        assert_eq!(f.confidence, Confidence::Normal);
        assert_eq!(
            f.fingerprint,
            fingerprint("cpf/dead-code", "src/a.rs", "unused fn")
        );
        assert_eq!(report.own_verdict(), Verdict::Conditional);
    }

    #[test]
    fn an_unknown_agent_has_no_kind_and_a_missing_scope_is_empty() {
        let report = InspectorReport::from_cpf("my-linter", "r3", ReportCpf::default());
        assert_eq!(report.kind, None);
        assert_eq!(report.scope, "");
        assert!(report.findings.is_empty());
        let report = InspectorReport::from_cpf("inspector-test", "r3", ReportCpf::default());
        assert_eq!(report.kind, Some(InspectorKind::Test));
    }

    #[test]
    fn a_report_survives_cpf_in_its_seed_fields() {
        let original = report();
        let text = format_report(&original.to_cpf());
        let back =
            InspectorReport::from_cpf("inspector-quality", "r1", parse_report(&text).unwrap());
        assert_eq!(back.to_cpf(), original.to_cpf());
        assert_eq!(back.findings[0].location, original.findings[0].location);
    }

    #[test]
    fn an_audit_outcome_becomes_a_cpf_verdict() {
        let mut finding = Finding::new(
            "quality",
            "quality/dead-code",
            "dead-code",
            Severity::High,
            Location::at("src/a.rs", 3),
            "unused",
            "fn f",
        );
        finding.agents.push("consistency".into());
        let outcome = AuditOutcome {
            verdict: Verdict::Conditional,
            scope: "feature".into(),
            answered: 5,
            expected: 6,
            decision: Decision::RequestChanges,
            grade: Grade::C,
            findings: vec![finding],
            removed: vec![Removed {
                agent: "test".into(),
                reason: "flaky".into(),
                original: "L|x|y|z".into(),
            }],
            resolved: Vec::new(),
            spec_feedback: Vec::new(),
            steering: vec![Steering {
                action: SteeringAction::Codify,
                target: "structure.md".into(),
                text: "one file per concept".into(),
            }],
            notes: vec!["PARTIAL:inspector-holistic|crashed".into()],
            roadmap_advisory: Vec::new(),
        };
        let cpf = outcome.to_cpf();
        assert_eq!(cpf.verdict, Verdict::Conditional);
        assert_eq!(cpf.scope.as_deref(), Some("feature"));
        assert_eq!(
            cpf.verified,
            vec![VerifiedRow {
                agents: vec!["quality".into(), "consistency".into()],
                severity: Severity::High,
                category: "dead-code".into(),
                location: "src/a.rs:3".into(),
                description: "unused".into(),
            }]
        );
        let text = format_verdict(&cpf);
        assert_eq!(
            text,
            "VERDICT:CONDITIONAL\nSCOPE:feature\nVERIFIED:\nquality+consistency|H|dead-code|src/a.rs:3|unused\n\
             REMOVED:\ntest|flaky|L\\|x\\|y\\|z\nSTEERING:\nCODIFY|structure.md|one file per concept\n\
             NOTES:\nPARTIAL:inspector-holistic|crashed\n"
        );
        assert_eq!(parse_verdict(&text), Ok(cpf));
    }
}
