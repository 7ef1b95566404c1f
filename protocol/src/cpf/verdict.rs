//! An Auditor verdict in CPF: `VERDICT:` (required), `SCOPE:`, and the sections VERIFIED,
//! REMOVED, RESOLVED, SPEC_FEEDBACK, STEERING, NOTES and ROADMAP_ADVISORY.

use super::document::{scan, Layout, Line};
use super::escape::{escape_field, escape_line, escape_text, unescape};
use super::row::{agents, required, severity, split_row};
use super::CpfError;
use crate::domain::{Removed, Resolved, Severity, SpecFeedback, Steering, SteeringAction, Verdict};

/// One `VERIFIED:` row: `{agents+}|{sev}|{category}|{location}|{description}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedRow {
    /// The reporting agents (joined with `+` in the text); at least one, none empty.
    pub agents: Vec<String>,
    /// Severity letter.
    pub severity: Severity,
    /// Category; never empty.
    pub category: String,
    /// Location text; empty for a repository-wide finding.
    pub location: String,
    /// What is wrong; may be empty.
    pub description: String,
}

/// An Auditor verdict as CPF carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerdictCpf {
    /// The verdict; every Auditor verdict has one.
    pub verdict: Verdict,
    /// The scope label, when written.
    pub scope: Option<String>,
    /// Verified findings.
    pub verified: Vec<VerifiedRow>,
    /// Dropped false positives.
    pub removed: Vec<Removed>,
    /// Resolved contradictions.
    pub resolved: Vec<Resolved>,
    /// Spec defects.
    pub spec_feedback: Vec<SpecFeedback>,
    /// Steering suggestions.
    pub steering: Vec<Steering>,
    /// Synthesis notes, one per line (`PARTIAL:{name}|{reason}` …).
    pub notes: Vec<String>,
    /// Wave-scoped advisories, one per line.
    pub roadmap_advisory: Vec<String>,
}

impl VerdictCpf {
    /// A verdict with no scope and every section empty.
    pub fn new(verdict: Verdict) -> VerdictCpf {
        VerdictCpf {
            verdict,
            scope: None,
            verified: Vec::new(),
            removed: Vec::new(),
            resolved: Vec::new(),
            spec_feedback: Vec::new(),
            steering: Vec::new(),
            notes: Vec::new(),
            roadmap_advisory: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Part {
    Verified,
    Removed,
    Resolved,
    SpecFeedback,
    Steering,
    Notes,
    RoadmapAdvisory,
}

const LAYOUT: Layout<Part> = Layout {
    label: "an Auditor verdict",
    sections: &[
        ("VERIFIED", Part::Verified),
        ("REMOVED", Part::Removed),
        ("RESOLVED", Part::Resolved),
        ("SPEC_FEEDBACK", Part::SpecFeedback),
        ("STEERING", Part::Steering),
        ("NOTES", Part::Notes),
        ("ROADMAP_ADVISORY", Part::RoadmapAdvisory),
    ],
};

/// Reads an Auditor verdict; a missing `VERDICT:` line is an error, like any malformed line.
pub fn parse_verdict(text: &str) -> Result<VerdictCpf, CpfError> {
    let doc = scan(text, &LAYOUT)?;
    let Some(verdict_line) = doc.verdict else {
        return Err(CpfError::new(
            doc.first_line,
            "missing VERDICT: line (an Auditor verdict starts with VERDICT: followed by \
             GO, CONDITIONAL, NO-GO or SPEC-UPDATE-NEEDED)",
        ));
    };
    let verdict = verdict_line
        .text
        .parse::<Verdict>()
        .map_err(|e| CpfError::new(verdict_line.number, e.to_string()))?;
    let mut v = VerdictCpf::new(verdict);
    v.scope = doc.scope.map(|l| unescape(l.text));
    for section in doc.sections {
        for line in section.lines {
            match section.tag {
                Part::Verified => v.verified.push(verified(line)?),
                Part::Removed => v.removed.push(removed(line)?),
                Part::Resolved => v.resolved.push(resolved(line)?),
                Part::SpecFeedback => v.spec_feedback.push(spec_feedback(line)?),
                Part::Steering => v.steering.push(steering(line)?),
                Part::Notes => v.notes.push(unescape(line.text)),
                Part::RoadmapAdvisory => v.roadmap_advisory.push(unescape(line.text)),
            }
        }
    }
    Ok(v)
}

/// Writes a verdict in canonical form: VERDICT, SCOPE, then the sections in spec order,
/// empty ones omitted.
pub fn format_verdict(v: &VerdictCpf) -> String {
    let mut out = format!("VERDICT:{}\n", v.verdict);
    if let Some(scope) = &v.scope {
        out.push_str(&format!("SCOPE:{}\n", escape_text(scope)));
    }
    let verified = v.verified.iter().map(|r| {
        let agents: Vec<String> = r.agents.iter().map(|a| escape_field(a)).collect();
        row(&[
            &agents.join("+"),
            &escape_field(r.severity.letter()),
            &escape_field(&r.category),
            &escape_field(&r.location),
            &escape_field(&r.description),
        ])
    });
    section(&mut out, "VERIFIED", verified);
    let removed = v
        .removed
        .iter()
        .map(|r| fields(&[&r.agent, &r.reason, &r.original]));
    section(&mut out, "REMOVED", removed);
    let resolved = v.resolved.iter().map(|r| {
        let agents: Vec<String> = r.agents.iter().map(|a| escape_field(a)).collect();
        row(&[
            &agents.join("+"),
            &escape_field(&r.resolution),
            &escape_field(&r.conflicting),
        ])
    });
    section(&mut out, "RESOLVED", resolved);
    let feedback = v
        .spec_feedback
        .iter()
        .map(|s| fields(&[&s.phase, &s.spec, &s.description]));
    section(&mut out, "SPEC_FEEDBACK", feedback);
    let steering = v
        .steering
        .iter()
        .map(|s| fields(&[s.action.as_str(), &s.target, &s.text]));
    section(&mut out, "STEERING", steering);
    section(&mut out, "NOTES", v.notes.iter().map(|n| escape_line(n)));
    let advisory = v.roadmap_advisory.iter().map(|n| escape_line(n));
    section(&mut out, "ROADMAP_ADVISORY", advisory);
    out
}

fn section(out: &mut String, name: &str, lines: impl Iterator<Item = String>) {
    let mut lines = lines.peekable();
    if lines.peek().is_some() {
        out.push_str(name);
        out.push_str(":\n");
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
    }
}

/// Already escaped fields joined with `|`.
fn row(escaped: &[&str]) -> String {
    escaped.join("|")
}

/// Raw fields, escaped and joined with `|`.
fn fields(raw: &[&str]) -> String {
    let escaped: Vec<String> = raw.iter().map(|f| escape_field(f)).collect();
    escaped.join("|")
}

fn verified(line: Line<'_>) -> Result<VerifiedRow, CpfError> {
    let [who, sev, category, location, description] = split_row::<5>(line)?;
    Ok(VerifiedRow {
        agents: agents(line, &who)?,
        severity: severity(line, &sev)?,
        category: required(line, category, "category", 3, 5)?,
        location,
        description,
    })
}

fn removed(line: Line<'_>) -> Result<Removed, CpfError> {
    let [agent, reason, original] = split_row::<3>(line)?;
    Ok(Removed {
        agent: required(line, agent, "agent", 1, 3)?,
        reason,
        original,
    })
}

fn resolved(line: Line<'_>) -> Result<Resolved, CpfError> {
    let [who, resolution, conflicting] = split_row::<3>(line)?;
    Ok(Resolved {
        agents: agents(line, &who)?,
        resolution,
        conflicting,
    })
}

fn spec_feedback(line: Line<'_>) -> Result<SpecFeedback, CpfError> {
    let [phase, spec, description] = split_row::<3>(line)?;
    Ok(SpecFeedback {
        phase: required(line, phase, "phase", 1, 3)?,
        spec: required(line, spec, "spec", 2, 3)?,
        description,
    })
}

fn steering(line: Line<'_>) -> Result<Steering, CpfError> {
    let [action, target, text] = split_row::<3>(line)?;
    let action = match action.as_str() {
        "CODIFY" => SteeringAction::Codify,
        "PROPOSE" => SteeringAction::Propose,
        other => {
            return Err(CpfError::new(
                line.number,
                format!("unknown steering action '{other}' (expected CODIFY or PROPOSE)"),
            ))
        }
    };
    Ok(Steering {
        action,
        target: required(line, target, "target", 2, 3)?,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> VerdictCpf {
        VerdictCpf {
            verdict: Verdict::NoGo,
            scope: Some("wave-scoped-cross-check".into()),
            verified: vec![VerifiedRow {
                agents: vec!["quality".into(), "holistic".into()],
                severity: Severity::Critical,
                category: "lock-across-await".into(),
                location: "src/a.rs:40".into(),
                description: "guard held | across await".into(),
            }],
            removed: vec![Removed {
                agent: "test".into(),
                reason: "false positive".into(),
                original: "M|style|b.rs|x".into(),
            }],
            resolved: vec![Resolved {
                agents: vec!["interface".into(), "rulebase".into()],
                resolution: "design wins".into(),
                conflicting: "sig differs\nsig matches".into(),
            }],
            spec_feedback: vec![SpecFeedback {
                phase: "design".into(),
                spec: "Spec 3".into(),
                description: "ambiguous".into(),
            }],
            steering: vec![Steering {
                action: SteeringAction::Propose,
                target: "tech.md".into(),
                text: "use tokio".into(),
            }],
            notes: vec![
                "PARTIAL:inspector-quality|timed out".into(),
                "PARTIAL_VERIFICATION|steps completed: 1..6".into(),
                "AUDITOR_UNAVAILABLE|lead-derived verdict".into(),
            ],
            roadmap_advisory: vec!["wave 2 touches a\\b".into()],
        }
    }

    const SAMPLE_TEXT: &str = "VERDICT:NO-GO\nSCOPE:wave-scoped-cross-check\n\
        VERIFIED:\nquality+holistic|C|lock-across-await|src/a.rs:40|guard held \\| across await\n\
        REMOVED:\ntest|false positive|M\\|style\\|b.rs\\|x\n\
        RESOLVED:\ninterface+rulebase|design wins|sig differs\\nsig matches\n\
        SPEC_FEEDBACK:\ndesign|Spec 3|ambiguous\n\
        STEERING:\nPROPOSE|tech.md|use tokio\n\
        NOTES:\nPARTIAL:inspector-quality|timed out\nPARTIAL_VERIFICATION|steps completed: 1..6\n\
        AUDITOR_UNAVAILABLE|lead-derived verdict\n\
        ROADMAP_ADVISORY:\nwave 2 touches a\\\\b\n";

    #[test]
    fn writes_the_canonical_form_and_reads_it_back() {
        assert_eq!(format_verdict(&sample()), SAMPLE_TEXT);
        assert_eq!(parse_verdict(SAMPLE_TEXT), Ok(sample()));
        assert_eq!(
            format_verdict(&VerdictCpf::new(Verdict::Go)),
            "VERDICT:GO\n"
        );
    }

    #[test]
    fn reads_what_agents_write() {
        let text = "```\n\nVERDICT: NO-GO\nSCOPE:  wave-scoped-cross-check\n\
            ROADMAP_ADVISORY:\n  wave 2 touches a\\\\b  \n\
            NOTES:\nPARTIAL:inspector-quality|timed out\nPARTIAL_VERIFICATION|steps completed: 1..6\n\
            AUDITOR_UNAVAILABLE\\|lead-derived verdict\n\
            STEERING:\nPROPOSE | tech.md | use tokio\n\
            SPEC_FEEDBACK:\ndesign|Spec 3|ambiguous\n\
            RESOLVED:\ninterface + rulebase|design wins|sig differs\\nsig matches\n\
            REMOVED:\ntest|false positive|M|style|b.rs|x\n\
            VERIFIED:\nquality+holistic|C|lock-across-await|src/a.rs:40|guard held | across await\n\n```\n";
        assert_eq!(parse_verdict(text), Ok(sample()));
    }

    #[test]
    fn every_verdict_value_is_accepted() {
        for v in [
            Verdict::Go,
            Verdict::Conditional,
            Verdict::NoGo,
            Verdict::SpecUpdateNeeded,
        ] {
            let text = format!("VERDICT:{v}\n");
            assert_eq!(parse_verdict(&text).map(|c| c.verdict), Ok(v));
        }
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases = [
            ("", "line 1: missing VERDICT: line (an Auditor verdict starts with VERDICT: followed by GO, CONDITIONAL, NO-GO or SPEC-UPDATE-NEEDED)"),
            ("\n\nSCOPE:x\nNOTES:\nn", "line 3: missing VERDICT: line (an Auditor verdict starts with VERDICT: followed by GO, CONDITIONAL, NO-GO or SPEC-UPDATE-NEEDED)"),
            ("VERDICT:OK", "line 1: unknown verdict 'OK' (expected one of: GO, CONDITIONAL, NO-GO, SPEC-UPDATE-NEEDED)"),
            ("VERDICT:GO\nSTEERING:\nAPPLY|tech.md|x", "line 3: unknown steering action 'APPLY' (expected CODIFY or PROPOSE)"),
            ("VERDICT:GO\nSTEERING:\nCODIFY||x", "line 3: empty target: field 2 of 3 must not be empty"),
            ("VERDICT:GO\nVERIFIED:\nq|Z|c|l|d", "line 3: unknown severity 'Z' (expected C, H, M or L)"),
            ("VERDICT:GO\nVERIFIED:\nq|H|c|l", "line 3: expected 5 fields separated by '|', found 4"),
            ("VERDICT:GO\nVERIFIED:\nq+|H|c|l|d", "line 3: empty agent name in 'q+' (agents are joined with '+')"),
            ("VERDICT:GO\nVERIFIED:\nq|H| |l|d", "line 3: empty category: field 3 of 5 must not be empty"),
            ("VERDICT:GO\nREMOVED:\n|why|what", "line 3: empty agent: field 1 of 3 must not be empty"),
            ("VERDICT:GO\nRESOLVED:\nonly|two", "line 3: expected 3 fields separated by '|', found 2"),
            ("VERDICT:GO\nSPEC_FEEDBACK:\ndesign||d", "line 3: empty spec: field 2 of 3 must not be empty"),
            ("VERDICT:GO\nISSUES:\n", "line 2: unknown section 'ISSUES' in an Auditor verdict (expected one of: VERIFIED:, REMOVED:, RESOLVED:, SPEC_FEEDBACK:, STEERING:, NOTES:, ROADMAP_ADVISORY:)"),
        ];
        for (text, message) in cases {
            assert_eq!(
                parse_verdict(text).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
    }
}
