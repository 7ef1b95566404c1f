//! The terminal report: verdict banner, decision and grade, counts, prioritized issues, coverage,
//! notes. Colour only when standard output is a terminal.

use super::Summary;
use protocol::{Severity, Verdict};
use std::fmt::Write;

/// Renders the report; `color` adds ANSI colours.
pub fn render(s: &Summary<'_>, color: bool) -> String {
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
    let _ = writeln!(
        out,
        "\n  VERDICT  {}",
        paint(verdict_color, &s.verdict_line())
    );
    let _ = writeln!(out, "  decision {} (grade {})", o.decision, o.grade);
    let counts: Vec<String> = Severity::ALL_DESC
        .iter()
        .map(|sev| {
            format!(
                "{} {}",
                o.findings.iter().filter(|f| f.severity == *sev).count(),
                sev.word()
            )
        })
        .collect();
    let _ = writeln!(out, "  findings {}", counts.join(", "));
    let by_change = crate::review::suppressed::by_change(s.reports);
    if !by_change.is_empty() {
        let n = crate::review::suppressed::count(by_change.len());
        let _ = writeln!(out, "  {n} suppressed by this change (see Notes)");
    }
    if let Some((new, unchanged, absent)) = s.baseline_counts() {
        let _ = writeln!(
            out,
            "  baseline {new} new, {unchanged} unchanged, {absent} absent"
        );
    }
    if !o.findings.is_empty() {
        let _ = writeln!(out, "\nIssues (most severe first)");
        for f in &o.findings {
            let sev_color = match f.severity {
                Severity::Critical => "31",
                Severity::High => "33",
                Severity::Medium => "36",
                Severity::Low => "2",
            };
            let _ = writeln!(
                out,
                "  {}  {}  [{}] {}\n      {} — {}",
                paint(sev_color, f.severity.letter()),
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
    }
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
        for n in notes {
            let _ = writeln!(out, "  - {n}");
        }
    }
    out
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
    use protocol::Skipped;

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
