//! An Inspector report in CPF: `VERDICT:`, `SCOPE:`, `ISSUES:` rows, `NOTES:` lines and — from an
//! agent that needs the author's intent before it judges (pattern A) — `QUESTIONS:` rows
//! `{location}|{question}`.

use super::document::{scan, Layout, Line};
use super::escape::{escape_field, escape_line, escape_text, unescape};
use super::row::{required, severity, split_row};
use super::CpfError;
use crate::domain::{Severity, Verdict};

/// One `ISSUES:` row: `{sev}|{category}|{location}|{description}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpfIssue {
    /// Severity letter.
    pub severity: Severity,
    /// Category (`dead-code`); never empty.
    pub category: String,
    /// Location text (`src/a.rs:12`, `design.md#Spec 3`); empty for a repository-wide issue.
    pub location: String,
    /// What is wrong; may be empty.
    pub description: String,
}

/// One `QUESTIONS:` row: `{location}|{question}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpfQuestion {
    /// Where it is about (`src/a.rs:12`); empty for the change as a whole.
    pub location: String,
    /// The question; never empty.
    pub text: String,
}

/// An Inspector report as CPF carries it: the seed fields of each finding, plus notes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReportCpf {
    /// The Inspector's own verdict (GO, CONDITIONAL or NO-GO), when it wrote one.
    pub verdict: Option<Verdict>,
    /// The scope label, when it wrote one.
    pub scope: Option<String>,
    /// The `ISSUES:` rows.
    pub issues: Vec<CpfIssue>,
    /// The `NOTES:` lines, one advisory observation each.
    pub notes: Vec<String>,
    /// The `QUESTIONS:` rows: what an agent asks the author before it judges.
    pub questions: Vec<CpfQuestion>,
}

#[derive(Debug, Clone, Copy)]
enum Part {
    Issues,
    Notes,
    Questions,
}

const LAYOUT: Layout<Part> = Layout {
    label: "an Inspector report",
    sections: &[
        ("ISSUES", Part::Issues),
        ("NOTES", Part::Notes),
        ("QUESTIONS", Part::Questions),
    ],
};

/// Reads an Inspector report; the error names the first line that is wrong and why.
pub fn parse_report(text: &str) -> Result<ReportCpf, CpfError> {
    let doc = scan(text, &LAYOUT)?;
    let first_line = doc.first_line;
    let mut report = ReportCpf {
        verdict: doc.verdict.map(report_verdict).transpose()?,
        scope: doc.scope.map(|l| unescape(l.text)),
        ..ReportCpf::default()
    };
    for section in doc.sections {
        for line in section.lines {
            match section.tag {
                Part::Issues => report.issues.push(issue(line)?),
                Part::Notes => report.notes.push(unescape(line.text)),
                Part::Questions => report.questions.push(question(line)?),
            }
        }
    }
    // A text that says nothing (an empty file, a lone SCOPE, headers without rows) is not a
    // clean report: read as one it would audit to GO, so a truncated or missing answer would
    // pass the gate. A clean report says so with its VERDICT.
    if report.verdict.is_none()
        && report.issues.is_empty()
        && report.notes.is_empty()
        && report.questions.is_empty()
    {
        return Err(CpfError::new(
            first_line,
            "an empty Inspector report: no VERDICT, no ISSUES row and no NOTES line",
        ));
    }
    Ok(report)
}

/// Writes a report in canonical form: VERDICT, SCOPE, ISSUES, NOTES, QUESTIONS; empty sections
/// omitted.
pub fn format_report(r: &ReportCpf) -> String {
    let mut out = String::new();
    if let Some(verdict) = r.verdict {
        out.push_str(&format!("VERDICT:{verdict}\n"));
    }
    if let Some(scope) = &r.scope {
        out.push_str(&format!("SCOPE:{}\n", escape_text(scope)));
    }
    if !r.issues.is_empty() {
        out.push_str("ISSUES:\n");
        for i in &r.issues {
            let fields = [
                i.severity.letter().to_string(),
                escape_field(&i.category),
                escape_field(&i.location),
                escape_field(&i.description),
            ];
            out.push_str(&fields.join("|"));
            out.push('\n');
        }
    }
    if !r.notes.is_empty() {
        out.push_str("NOTES:\n");
        for note in &r.notes {
            out.push_str(&escape_line(note));
            out.push('\n');
        }
    }
    if !r.questions.is_empty() {
        out.push_str("QUESTIONS:\n");
        for q in &r.questions {
            out.push_str(&format!(
                "{}|{}\n",
                escape_field(&q.location),
                escape_field(&q.text)
            ));
        }
    }
    out
}

/// An Inspector may say GO, CONDITIONAL or NO-GO; only the Auditor asks for a spec update.
fn report_verdict(line: Line<'_>) -> Result<Verdict, CpfError> {
    match line.text.parse::<Verdict>() {
        Ok(Verdict::SpecUpdateNeeded) => Err(CpfError::new(
            line.number,
            "an Inspector report's VERDICT cannot be SPEC-UPDATE-NEEDED \
             (expected GO, CONDITIONAL or NO-GO; only the Auditor decides a spec update)",
        )),
        Ok(verdict) => Ok(verdict),
        Err(_) => Err(CpfError::new(
            line.number,
            format!(
                "unknown verdict '{}' (expected GO, CONDITIONAL or NO-GO)",
                line.text
            ),
        )),
    }
}

fn question(line: Line<'_>) -> Result<CpfQuestion, CpfError> {
    let [location, text] = split_row::<2>(line)?;
    Ok(CpfQuestion {
        location,
        text: required(line, text, "question", 2, 2)?,
    })
}

fn issue(line: Line<'_>) -> Result<CpfIssue, CpfError> {
    let [sev, category, location, description] = split_row::<4>(line)?;
    Ok(CpfIssue {
        severity: severity(line, &sev)?,
        category: required(line, category, "category", 2, 4)?,
        location,
        description,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(severity: Severity, category: &str, location: &str, description: &str) -> CpfIssue {
        CpfIssue {
            severity,
            category: category.into(),
            location: location.into(),
            description: description.into(),
        }
    }

    fn sample() -> ReportCpf {
        ReportCpf {
            verdict: Some(Verdict::Conditional),
            scope: Some("feature".into()),
            issues: vec![
                issue(Severity::High, "dead-code", "src/a.rs:12", "unused fn `f`"),
                issue(Severity::Low, "style", "", "a|b \\ c\nnext"),
            ],
            notes: vec!["PARTIAL:inspector-quality|reason".into(), "TODO:".into()],
            questions: vec![CpfQuestion {
                location: "src/a.rs:3".into(),
                text: "why is `f` sync? a|b".into(),
            }],
        }
    }

    const SAMPLE_TEXT: &str = "VERDICT:CONDITIONAL\nSCOPE:feature\nISSUES:\n\
        H|dead-code|src/a.rs:12|unused fn `f`\nL|style||a\\|b \\\\ c\\nnext\n\
        NOTES:\nPARTIAL:inspector-quality|reason\nTODO\\:\n\
        QUESTIONS:\nsrc/a.rs:3|why is `f` sync? a\\|b\n";

    #[test]
    fn a_report_may_only_ask_and_a_question_needs_its_text() {
        let asked = parse_report("QUESTIONS:\n|why is the cache global?\n").expect("asks");
        assert_eq!(
            asked.questions,
            [CpfQuestion {
                location: String::new(),
                text: "why is the cache global?".into()
            }]
        );
        assert_eq!(
            parse_report("QUESTIONS:\nsrc/a.rs:1|\n")
                .unwrap_err()
                .to_string(),
            "line 2: empty question: field 2 of 2 must not be empty"
        );
    }

    #[test]
    fn writes_the_canonical_form() {
        assert_eq!(format_report(&sample()), SAMPLE_TEXT);
        assert_eq!(parse_report(SAMPLE_TEXT), Ok(sample()));
        assert_eq!(format_report(&ReportCpf::default()), "");
    }

    #[test]
    fn a_report_that_says_nothing_is_an_error_not_a_clean_report() {
        let empty =
            "line 1: an empty Inspector report: no VERDICT, no ISSUES row and no NOTES line";
        assert_eq!(parse_report("").unwrap_err().to_string(), empty);
        assert_eq!(parse_report(" \n\n").unwrap_err().to_string(), empty);
        assert_eq!(
            parse_report("\nSCOPE:feature\nISSUES:\nNOTES:\n")
                .unwrap_err()
                .to_string(),
            "line 2: an empty Inspector report: no VERDICT, no ISSUES row and no NOTES line"
        );
        // A clean report says so.
        let clean = parse_report("VERDICT:GO\nSCOPE:feature\n").expect("clean report");
        assert_eq!(clean.verdict, Some(Verdict::Go));
        assert!(clean.issues.is_empty());
    }

    #[test]
    fn reads_what_agents_write() {
        let text = "```cpf\r\n\r\nVERDICT: CONDITIONAL  \r\nSCOPE: feature \r\n\r\nISSUES:\r\n \
            H | dead-code | src/a.rs:12 | unused fn `f` \r\n\
            L|style| |a\\|b \\\\ c\\nnext\r\n\r\nNOTES:\r\n\
            PARTIAL:inspector-quality\\|reason\r\nTODO\\:\r\nQUESTIONS:\r\n src/a.rs:3 | why is `f` sync? a\\|b \r\n```\r\n";
        assert_eq!(parse_report(text), Ok(sample()));
    }

    #[test]
    fn an_unescaped_pipe_belongs_to_the_description() {
        let r = parse_report("ISSUES:\nM|shell|run.sh:3|use `a | b` with care|really\n").unwrap();
        assert_eq!(r.issues[0].description, "use `a | b` with care|really");
        assert_eq!(r.verdict, None);
        assert_eq!(r.scope, None);
    }

    #[test]
    fn notes_unescape_backslash_newline_and_pipe() {
        let r = parse_report("NOTES:\na\\\\b\\nc\\|d|e\nC:\\Users\n").unwrap();
        assert_eq!(r.notes, vec!["a\\b\nc|d|e".to_string(), "C:\\Users".into()]);
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases = [
            ("VERDICT:GO\n\nISSUES:\nX|a|b|c", "line 4: unknown severity 'X' (expected C, H, M or L)"),
            ("VERDICT:GO\nISSUES:\n\nH|a|b|c\n\n\nH|cat", "line 7: expected 4 fields separated by '|', found 2"),
            ("ISSUES:\nH||b|c", "line 2: empty category: field 2 of 4 must not be empty"),
            ("VERDICT:MAYBE", "line 1: unknown verdict 'MAYBE' (expected GO, CONDITIONAL or NO-GO)"),
            ("VERDICT:SPEC-UPDATE-NEEDED", "line 1: an Inspector report's VERDICT cannot be SPEC-UPDATE-NEEDED (expected GO, CONDITIONAL or NO-GO; only the Auditor decides a spec update)"),
            ("VERDICT:GO\nVERIFIED:\n", "line 2: unknown section 'VERIFIED' in an Inspector report (expected one of: ISSUES:, NOTES:, QUESTIONS:)"),
            ("VERDICT:GO\nH|a|b|c", "line 2: a row outside any section (expected VERDICT:, SCOPE: or a section header (ISSUES:, NOTES:, QUESTIONS:) before it)"),
            ("NOTES:\nfine\nIMPORTANT:\n", "line 3: unknown section 'IMPORTANT' in an Inspector report (expected one of: ISSUES:, NOTES:, QUESTIONS:)"),
            ("ISSUES:\nH|a|b|c\nVERDICT:GO", "line 3: expected 4 fields separated by '|', found 1 (VERDICT: and SCOPE: must come before the first section header)"),
            ("\r\n```text\r\nVERDICT:GO\r\n", "line 2: the ``` fence opened here is not closed: the last non-blank line must be ```"),
        ];
        for (text, message) in cases {
            assert_eq!(
                parse_report(text).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
    }

    #[test]
    fn repeated_sections_are_appended_in_order() {
        let r = parse_report("ISSUES:\nH|a|b|c\nNOTES:\nn1\nISSUES:\nL|d|e|f\nNOTES:\nn2").unwrap();
        assert_eq!(r.issues.len(), 2);
        assert_eq!(r.issues[1].category, "d");
        assert_eq!(r.notes, vec!["n1".to_string(), "n2".into()]);
    }
}
