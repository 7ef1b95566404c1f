//! The terminal report: one headline (verdict, exit code, decision and grade, and why they
//! differ), counts, prioritized issues (a rule that fires often as one group), what was already
//! there before a session's change, coverage, notes as sentences. Colour only when standard
//! output is a terminal.

use super::gate::Gate;
use super::headline::headline;
use super::issues::{entries, more_line, Entry, GROUP_SHOWN};
use super::notes::lines;
use super::Summary;
use protocol::{Finding, Severity, Verdict};
use std::fmt::Write;

/// The header's lines on findings that do not count: suppressed ones (how many, which rules),
/// those the change suppressed itself, and the baseline's classes.
fn counted_aside(s: &Summary<'_>) -> String {
    let mut out = String::new();
    let suppressed = s.suppressed();
    if !suppressed.is_empty() {
        // So a reader knows they exist: how many, and which rules (SARIF lists each one).
        let mut by_rule: std::collections::BTreeMap<&str, usize> = Default::default();
        for f in &suppressed {
            *by_rule.entry(f.rule.as_str()).or_default() += 1;
        }
        let rules: Vec<String> = by_rule
            .iter()
            .map(|(rule, n)| {
                if *n == 1 {
                    rule.to_string()
                } else {
                    format!("{rule} ×{n}")
                }
            })
            .collect();
        let n = crate::suppressed::count(suppressed.len());
        let _ = writeln!(out, "  {n} suppressed: {}", rules.join(", "));
    }
    let by_change = crate::suppressed::by_change(s.reports);
    if !by_change.is_empty() {
        let n = crate::suppressed::count(by_change.len());
        let _ = writeln!(out, "  {n} suppressed by this change (see Notes)");
    }
    if let Some((new, unchanged, absent)) = s.baseline_counts() {
        let _ = writeln!(
            out,
            "  baseline {new} new, {unchanged} unchanged, {absent} absent"
        );
    }
    out
}

/// Renders the report for a command that gates with `gate`; `color` adds ANSI colours.
pub fn render(s: &Summary<'_>, gate: &Gate, color: bool) -> String {
    let o = s.outcome;
    let paint = |code: &str, text: &str| {
        if color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    };
    let verdict_color = match o.verdict {
        Verdict::Go => "1;32",
        Verdict::Conditional => "1;33",
        Verdict::NoGo => "1;31",
        Verdict::SpecUpdateNeeded => "1;35",
    };
    let mut out = String::new();
    let run = s.run_id.map(|r| format!(" (run {r})")).unwrap_or_default();
    let _ = writeln!(out, "retake review: {}{run}", o.scope);
    let (verdict, rest) = headline(s, gate);
    let _ = writeln!(out, "\n  VERDICT  {}{rest}", paint(verdict_color, &verdict));
    let counts: Vec<String> = Severity::ALL_DESC
        .iter()
        .map(|sev| {
            format!(
                "{} {}",
                s.active().filter(|f| f.severity == *sev).count(),
                sev.word()
            )
        })
        .collect();
    let _ = writeln!(out, "  findings {}", counts.join(", "));
    out.push_str(&counted_aside(s));
    let issues = entries(s);
    if !issues.is_empty() {
        let _ = writeln!(out, "\nIssues (most severe first)");
        for entry in &issues {
            let f = entry.first();
            let letter = paint(severity_color(f.severity), f.severity.letter());
            match entry {
                Entry::One(f) => {
                    let _ = writeln!(
                        out,
                        "  {letter}  {}  [{}] {}\n      {} — {}",
                        f.location,
                        f.category,
                        f.rule,
                        f.agents_joined(),
                        f.description
                    );
                    if let Some(sugg) = &f.suggestion {
                        let _ = writeln!(out, "      fix: {sugg}");
                    }
                }
                Entry::Group(all) => group(&mut out, all, &letter),
            }
        }
    }
    out.push_str(&super::already_there::terminal(s));
    let _ = writeln!(out, "\nCoverage");
    for agent in s.agents() {
        let status = s.coverage_status(agent);
        let detail = s.reports.get(agent).map_or(String::new(), |r| {
            let skipped = r.coverage.skipped.len();
            let skipped = if skipped > 0 {
                format!(", {skipped} skipped")
            } else {
                String::new()
            };
            format!(" ({} files{skipped})", r.coverage.files_reviewed)
        });
        let detail = match s.lost_reason(agent) {
            Some(reason) => format!(": {reason}"),
            None => detail,
        };
        let _ = writeln!(out, "  {agent:<24} {status}{detail}");
    }
    // Every Inspector walks the same scope, so one report's skipped list stands for all.
    if let Some(r) = s.reports.values().find(|r| !r.coverage.skipped.is_empty()) {
        out.push_str(&skipped_files(&r.coverage.skipped));
    }
    let notes: Vec<&String> = o
        .notes
        .iter()
        .chain(s.reports.values().flat_map(|r| r.notes.iter()))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "\nNotes");
        for line in lines(notes.iter().map(|n| n.as_str())) {
            let _ = writeln!(out, "  - {line}");
        }
    }
    out
}

fn severity_color(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "31",
        Severity::High => "33",
        Severity::Medium => "36",
        Severity::Low => "2",
    }
}

/// A rule that fired more than [`GROUP_SHOWN`] times: one count line, its first locations each
/// with its own description, and how many more the machine-readable formats list.
fn group(out: &mut String, all: &[&Finding], letter: &str) {
    let f = all[0];
    let _ = writeln!(
        out,
        "  {letter}  {} findings of [{}] {} — {}",
        all.len(),
        f.category,
        f.rule,
        f.agents_joined()
    );
    for f in all.iter().take(GROUP_SHOWN) {
        let _ = writeln!(
            out,
            "      {} {} — {}",
            f.severity.letter(),
            f.location,
            f.description
        );
    }
    if let Some(more) = more_line(all.len()) {
        let _ = writeln!(out, "      {more}");
    }
    if let Some(sugg) = &f.suggestion {
        let _ = writeln!(out, "      fix: {sugg}");
    }
}

/// How many skipped files the terminal report names one by one.
const SKIPPED_SHOWN: usize = 10;

/// The skipped files: their count by reason, the first [`SKIPPED_SHOWN`] by name, and how many
/// more the machine-readable formats list.
fn skipped_files(skipped: &[protocol::Skipped]) -> String {
    let mut by_reason: Vec<(&str, usize)> = Vec::new();
    for k in skipped {
        match by_reason.iter_mut().find(|(r, _)| *r == k.reason) {
            Some((_, n)) => *n += 1,
            None => by_reason.push((&k.reason, 1)),
        }
    }
    let counts: Vec<String> = by_reason.iter().map(|(r, n)| format!("{r} {n}")).collect();
    let mut out = format!(
        "  skipped files: {} ({})\n",
        skipped.len(),
        counts.join(", ")
    );
    for k in skipped.iter().take(SKIPPED_SHOWN) {
        out += &format!("    {} ({})\n", k.path, k.reason);
    }
    if skipped.len() > SKIPPED_SHOWN {
        out += &format!(
            "    … and {} more (--format json lists them all)\n",
            skipped.len() - SKIPPED_SHOWN
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::{Decision, Grade, Skipped};

    /// A GO with one High (REQUEST_CHANGES), six findings of one rule, two CPF notes.
    fn go_with_request_changes() -> protocol::AuditOutcome {
        let mut high = finding(Severity::High, "src/pay.rs", 7);
        high.rule = "holistic/unwrap-in-lib".into();
        high.category = "error-handling-drift".into();
        high.description = "unwrap() in library code".into();
        high.suggestion = None;
        let mut findings = vec![high];
        findings.extend((1..=6).map(|i| finding(Severity::Low, &format!("src/m{i}.rs"), i)));
        let mut o = outcome(Verdict::Go, findings);
        o.decision = Decision::RequestChanges;
        o.grade = Grade::C;
        o.notes = vec![
            "VERIFY|src/pay.rs:7|error-handling-drift|High reported by holistic only".into(),
            "PARTIAL:inspector-interface|no report".into(),
        ];
        o
    }

    #[test]
    fn the_report_reads_headline_ordered_issues_one_group_and_sentences() {
        let o = go_with_request_changes();
        summary_of(&o, |s| {
            let text = render(s, &Gate::default(), false);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(
                lines[2],
                "  VERDICT  GO (exit 0: the gate follows the verdict) — decision REQUEST_CHANGES \
                 (grade C): 1 High finding; the verdict table needs more than 3 High for CONDITIONAL"
            );
            assert_eq!(lines[3], "  findings 0 Critical, 1 High, 0 Medium, 6 Low");
            let issues = lines
                .iter()
                .position(|l| *l == "Issues (most severe first)")
                .expect("an issues section");
            assert_eq!(
                lines[issues + 1..issues + 11],
                [
                    "  H  src/pay.rs:7  [error-handling-drift] holistic/unwrap-in-lib",
                    "      inspector-quality — unwrap() in library code",
                    "  L  6 findings of [incomplete] quality/todo-marker — inspector-quality",
                    "      L src/m1.rs:1 — TODO left in src/m1.rs",
                    "      L src/m2.rs:2 — TODO left in src/m2.rs",
                    "      L src/m3.rs:3 — TODO left in src/m3.rs",
                    "      L src/m4.rs:4 — TODO left in src/m4.rs",
                    "      L src/m5.rs:5 — TODO left in src/m5.rs",
                    "      … and 1 more (--format json lists every finding)",
                    "      fix: finish it",
                ]
            );
            assert!(!text.contains("src/m6.rs"), "{text}");
            assert!(text.ends_with(
                "\nNotes\n  - Worth verifying: error-handling-drift at src/pay.rs:7, High reported by \
                 holistic only.\n  - inspector-interface sent no report.\n"
            ));
        });
    }

    #[test]
    fn the_header_counts_suppressed_findings_and_names_their_rules() {
        let mut o = go_with_request_changes();
        for (i, rule) in [
            "quality/todo-marker",
            "quality/todo-marker",
            "holistic/static-mut",
        ]
        .into_iter()
        .enumerate()
        {
            let mut f = finding(Severity::Medium, "src/s.rs", 10 + i as u32);
            f.rule = rule.into();
            f.fingerprint = format!("s{i}");
            f.suppression = Some("retake-ignore: reviewed".into());
            o.findings.push(f);
        }
        summary_of(&o, |s| {
            let text = render(s, &Gate::default(), false);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[3], "  findings 0 Critical, 1 High, 0 Medium, 6 Low");
            assert_eq!(
                lines[4],
                "  3 findings suppressed: holistic/static-mut, quality/todo-marker ×2"
            );
        });
        summary_of(&go_with_request_changes(), |s| {
            let text = render(s, &Gate::default(), false);
            assert!(!text.contains("suppressed"), "none: no line");
        });
    }

    #[test]
    fn skipped_files_are_counted_by_reason_and_listed_up_to_ten() {
        let skip = |path: String, reason: &str| Skipped {
            path,
            reason: reason.into(),
        };
        let mut skipped: Vec<Skipped> = (0..11)
            .map(|i| skip(format!("t/test_data/{i:02}.rs"), "test data"))
            .collect();
        skipped.push(skip("gen.rs".into(), "generated"));
        let text = skipped_files(&skipped);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  skipped files: 12 (test data 11, generated 1)");
        assert_eq!(lines[1], "    t/test_data/00.rs (test data)");
        assert_eq!(lines.len(), 12);
        assert_eq!(lines[11], "    … and 2 more (--format json lists them all)");
        let one = skipped_files(&[skip("big.bin".into(), "binary")]);
        assert_eq!(one, "  skipped files: 1 (binary 1)\n    big.bin (binary)\n");
    }
}
