//! `--format markdown`: the human-readable report of the Auditor spec for PR comments — Executive
//! Summary (opened by the one headline of `headline`), prioritized issues (a rule that fires
//! often as one row), verification notes as sentences, recommended actions — opened by a hidden
//! marker (`<!-- retake:report fingerprints=… round=N head=… -->`) so that a bot can find and
//! update its one comment in place. The marker lists every active finding, grouped or not.

use super::gate::Gate;
use super::headline::headline;
use super::issues::{entries, more_line, ordered, Entry, GROUP_SHOWN};
use super::notes::lines;
use super::Summary;
use protocol::{Finding, Severity, SteeringAction};
use std::fmt::Write;

/// The hidden marker: sorted fingerprints of the active findings, the verdicts.md round, and
/// the reviewed commit (`none` outside a git work tree).
pub fn marker(s: &Summary<'_>) -> String {
    let mut fingerprints: Vec<&str> = s.active().map(|f| f.fingerprint.as_str()).collect();
    fingerprints.sort_unstable();
    fingerprints.dedup();
    format!(
        "<!-- retake:report fingerprints={} round={} head={} -->",
        fingerprints.join(","),
        s.round,
        s.head.unwrap_or("none")
    )
}

/// Renders the report for a command that gates with `gate`.
pub fn render(s: &Summary<'_>, gate: &Gate) -> String {
    let o = s.outcome;
    let mut out = String::new();
    let _ = writeln!(out, "{}\n", marker(s));
    let _ = writeln!(out, "# retake review: {}\n", cell(&o.scope));
    let _ = writeln!(out, "## Executive Summary\n");
    let _ = writeln!(out, "| | |\n|---|---|");
    let (verdict, rest) = headline(s, gate);
    let _ = writeln!(out, "| Verdict | **{}**{} |", cell(&verdict), cell(&rest));
    let _ = writeln!(out, "| Findings | {} |", counts(s));
    let by_change = crate::suppressed::by_change(s.reports).len();
    if by_change > 0 {
        let _ = writeln!(out, "| Suppressed by this change | {by_change} |");
    }
    let already = s.already_there().len();
    if already > 0 {
        let _ = writeln!(out, "| Already there | {already} (not gating) |");
    }
    let _ = writeln!(out, "| Coverage | {} |", coverage(s));
    if let Some((new, unchanged, absent)) = s.baseline_counts() {
        let _ = writeln!(
            out,
            "| Baseline | {new} new, {unchanged} unchanged, {absent} absent |"
        );
    }
    let run = s.run_id.unwrap_or("—");
    let _ = writeln!(out, "| Run | {} (round {}) |", cell(run), s.round);
    issues(s, &mut out);
    out.push_str(&super::already_there::markdown(s, code));
    verification(s, &mut out);
    let _ = writeln!(out, "\n## Recommended actions\n");
    for (i, action) in actions(s).iter().enumerate() {
        let _ = writeln!(out, "{}. {}", i + 1, action);
    }
    out
}

fn counts(s: &Summary<'_>) -> String {
    Severity::ALL_DESC
        .iter()
        .map(|sev| {
            format!(
                "{} {}",
                s.active().filter(|f| f.severity == *sev).count(),
                sev.word()
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

fn coverage(s: &Summary<'_>) -> String {
    let agents = s.agents();
    let ok = agents
        .iter()
        .filter(|a| s.coverage_status(a) == "ok")
        .count();
    let files = s
        .reports
        .values()
        .map(|r| r.coverage.files_reviewed)
        .max()
        .unwrap_or(0);
    let skipped = s
        .reports
        .values()
        .map(|r| r.coverage.skipped.len())
        .max()
        .unwrap_or(0);
    let missing: Vec<String> = agents
        .iter()
        .copied()
        .filter(|a| s.coverage_status(a) != "ok")
        .map(|a| match s.lost_reason(a) {
            Some(reason) => format!("{a} ({reason})"),
            None => a.to_string(),
        })
        .collect();
    let mut text = format!(
        "{ok}/{} Inspectors reported; {files} files reviewed, {skipped} skipped",
        agents.len()
    );
    if !missing.is_empty() {
        let _ = write!(text, "; unavailable: {}", cell(&missing.join(", ")));
    }
    text
}

fn issues(s: &Summary<'_>, out: &mut String) {
    let entries = entries(s);
    let _ = writeln!(out, "\n## Issues\n");
    if entries.is_empty() {
        let _ = writeln!(out, "No issues.");
        return;
    }
    let with_baseline = s.baseline.is_some();
    let extra = if with_baseline { " Baseline |" } else { "" };
    let _ = writeln!(
        out,
        "| # | Severity | Location | Rule | Agents | Issue | Suggestion |{extra}"
    );
    let rule = if with_baseline { "---|" } else { "" };
    let _ = writeln!(out, "|---|---|---|---|---|---|---|{rule}");
    for (i, entry) in entries.iter().enumerate() {
        let f = entry.first();
        let (location, state) = match entry {
            Entry::One(f) => (
                format!("`{}`", code(&f.location.to_string())),
                s.baseline_state(f)
                    .map_or(String::new(), |st| format!(" {} |", st.as_str())),
            ),
            Entry::Group(all) => (group_locations(all), group_baseline(s, all)),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {location} | `{}` | {} | {} | {} |{state}",
            i + 1,
            f.severity.word(),
            code(&f.rule),
            cell(&f.agents_joined()),
            cell(&f.description),
            f.suggestion.as_deref().map_or("—".to_string(), cell),
        );
    }
}

/// A grouped rule's location cell: its count, its first locations, how many more.
fn group_locations(all: &[&Finding]) -> String {
    let mut text = format!("{} findings:", all.len());
    for f in all.iter().take(GROUP_SHOWN) {
        let _ = write!(text, "<br>`{}`", code(&f.location.to_string()));
    }
    if let Some(more) = more_line(all.len()) {
        let _ = write!(text, "<br>{more}");
    }
    text
}

/// A grouped rule's baseline cell: how many of its findings are new and unchanged.
fn group_baseline(s: &Summary<'_>, all: &[&Finding]) -> String {
    if s.baseline.is_none() {
        return String::new();
    }
    let unchanged = all
        .iter()
        .filter(|f| s.baseline_state(f) == Some(super::baseline::BaselineState::Unchanged))
        .count();
    format!(" {} new, {unchanged} unchanged |", all.len() - unchanged)
}

fn verification(s: &Summary<'_>, out: &mut String) {
    let o = s.outcome;
    let _ = writeln!(out, "\n## Verification notes\n");
    let mut any = false;
    let mut line = |text: String| {
        any = true;
        let _ = writeln!(out, "- {text}");
    };
    for r in &o.removed {
        line(format!(
            "Removed ({}): {} — {}",
            cell(&r.agent),
            cell(&r.original),
            cell(&r.reason)
        ));
    }
    for r in &o.resolved {
        line(format!(
            "Resolved ({}): {} → {}",
            cell(&r.agents.join("+")),
            cell(&r.conflicting),
            cell(&r.resolution)
        ));
    }
    for f in s.suppressed() {
        let why = f.suppression.as_deref().unwrap_or_default();
        line(format!(
            "Suppressed: `{}` at `{}` — {}",
            code(&f.rule),
            code(&f.location.to_string()),
            cell(why)
        ));
    }
    if let Some(q) = o.coverage_qualifier() {
        line(format!("Partial coverage: {}", cell(&q)));
    }
    for note in lines(o.notes.iter().map(String::as_str)) {
        line(cell(&note));
    }
    if !any {
        let _ = writeln!(out, "Nothing removed, resolved or partial.");
    }
}

/// What to do next, most urgent first.
pub fn actions(s: &Summary<'_>) -> Vec<String> {
    let o = s.outcome;
    let count = |sev: Severity| s.active().filter(|f| f.severity == sev).count();
    let mut actions = Vec::new();
    let critical = count(Severity::Critical);
    if critical > 0 {
        // The issues table's order and cut: the first places a reader sees there.
        let places: Vec<String> = ordered(s)
            .into_iter()
            .filter(|f| f.severity == Severity::Critical)
            .take(GROUP_SHOWN)
            .map(|f| format!("`{}`", code(&f.location.to_string())))
            .collect();
        let more = more_line(critical).map_or(String::new(), |m| format!(" {m}"));
        actions.push(format!(
            "Fix the {critical} Critical issue(s) before merging: {}{more}.",
            places.join(", ")
        ));
    }
    for fb in &o.spec_feedback {
        actions.push(format!(
            "Update the {} ({}): {}.",
            cell(&fb.phase),
            cell(&fb.spec),
            cell(&fb.description)
        ));
    }
    let high = count(Severity::High);
    if high > 0 {
        actions.push(format!(
            "Fix the {high} High issue(s), or track each one explicitly."
        ));
    }
    for st in o
        .steering
        .iter()
        .filter(|st| st.action == SteeringAction::Propose)
    {
        actions.push(format!(
            "Approve or reject the proposed rule for `{}`: {}.",
            code(&st.target),
            cell(&st.text)
        ));
    }
    let missing: Vec<&str> = s
        .agents()
        .into_iter()
        .filter(|a| s.coverage_status(a) != "ok")
        .collect();
    if !missing.is_empty() {
        actions.push(format!(
            "Re-run the review: {} sent no report.",
            cell(&missing.join(", "))
        ));
    }
    let minor = count(Severity::Medium) + count(Severity::Low);
    if minor > 0 {
        actions.push(format!(
            "Consider the {minor} Medium/Low issue(s) when you next touch the code."
        ));
    }
    if actions.is_empty() {
        actions.push("None: nothing blocks this change.".into());
    }
    actions
}

/// A table cell: pipes escaped, line breaks as `<br>`, and `&`, `<`, `>` outside code spans as
/// entities (inside a code span an entity would show literally).
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for (i, c) in text.char_indices() {
        match c {
            // A backtick opens a code span only when another one closes it.
            '`' if in_code || text[i + 1..].contains('`') => {
                in_code = !in_code;
                out.push(c);
            }
            '|' => out.push_str("\\|"),
            '\r' => {}
            '\n' if in_code => out.push(' '),
            '\n' => out.push_str("<br>"),
            '&' if !in_code => out.push_str("&amp;"),
            '<' if !in_code => out.push_str("&lt;"),
            '>' if !in_code => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Text inside backticks: a backtick would end the span, a pipe the cell.
fn code(text: &str) -> String {
    text.replace('`', "'")
        .replace('|', "\\|")
        .replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::{Removed, Verdict};

    #[test]
    fn marker_summary_table_and_actions() {
        let mut crit = finding(Severity::Critical, "src/a.rs", 3);
        crit.description = "a | b <x>".into();
        let low = finding(Severity::Low, "src/b.rs", 9);
        let mut o = outcome(Verdict::NoGo, vec![low.clone(), crit.clone()]);
        o.decision = protocol::Decision::Reject;
        o.grade = protocol::Grade::D;
        o.removed.push(Removed {
            agent: "inspector-quality".into(),
            reason: "generated file".into(),
            original: "M|x|gen.rs:1|y".into(),
        });
        summary_of(&o, |s| {
            let md = render(s, &Gate::default());
            let mut fps = [crit.fingerprint.as_str(), low.fingerprint.as_str()];
            fps.sort_unstable();
            let first = md.lines().next().expect("a first line");
            assert_eq!(
                first,
                format!(
                    "<!-- retake:report fingerprints={} round=2 head=0123abcd -->",
                    fps.join(",")
                )
            );
            assert!(md.contains("| Verdict | **NO-GO** (exit 1: the gate follows the verdict) — decision REJECT (grade D): 1 Critical finding |"), "{md}");
            assert!(md.contains("| Findings | 1 Critical · 0 High · 0 Medium · 1 Low |"));
            assert!(md.contains("| Coverage | 1/2 Inspectors reported; 4 files reviewed, 1 skipped; unavailable: inspector-interface (no report) |"));
            assert!(md.contains("| 1 | Critical | `src/a.rs:3` | `quality/todo-marker` | inspector-quality | a \\| b &lt;x&gt; | finish it |"), "{md}");
            assert!(md.contains("| 2 | Low | `src/b.rs:9` |"));
            assert!(
                md.contains("- Removed (inspector-quality): M\\|x\\|gen.rs:1\\|y — generated file")
            );
            assert_eq!(
                actions(s)[0],
                "Fix the 1 Critical issue(s) before merging: `src/a.rs:3`."
            );
        });
    }

    #[test]
    fn a_rule_that_fires_six_times_is_one_row_and_the_marker_keeps_every_fingerprint() {
        let findings: Vec<Finding> = (1..=6)
            .map(|i| finding(Severity::Medium, &format!("src/m{i}.rs"), i))
            .collect();
        let mut o = outcome(Verdict::Go, findings.clone());
        o.grade = protocol::Grade::B;
        o.notes.push("COVERAGE_GAP|file|src/api.rs".into());
        summary_of(&o, |s| {
            let md = render(s, &Gate::default());
            let mut fps: Vec<&str> = findings.iter().map(|f| f.fingerprint.as_str()).collect();
            fps.sort_unstable();
            assert!(md.starts_with(&format!(
                "<!-- retake:report fingerprints={} round=2 head=0123abcd -->\n",
                fps.join(",")
            )));
            assert!(
                md.contains("| Verdict | **GO** (exit 0: the gate follows the verdict) — decision APPROVE (grade B): nothing at High or above |"),
                "{md}"
            );
            let rows: Vec<&str> = md
                .lines()
                .filter(|l| l.starts_with("| 1 |") || l.starts_with("| 2 |"))
                .collect();
            assert_eq!(
                rows,
                ["| 1 | Medium | 6 findings:<br>`src/m1.rs:1`<br>`src/m2.rs:2`<br>`src/m3.rs:3`<br>`src/m4.rs:4`<br>`src/m5.rs:5`<br>… and 1 more (--format json lists every finding) | `quality/todo-marker` | inspector-quality | TODO left in src/m1.rs | finish it |"]
            );
            assert!(
                md.contains("\n- No Inspector covered the file src/api.rs.\n"),
                "{md}"
            );
        });
    }

    #[test]
    fn the_critical_action_names_the_first_five_places_in_table_order() {
        let findings: Vec<Finding> = (1..=6)
            .rev()
            .map(|i| finding(Severity::Critical, &format!("src/c{i}.rs"), i))
            .collect();
        let o = outcome(Verdict::NoGo, findings);
        summary_of(&o, |s| {
            assert_eq!(
                actions(s)[0],
                "Fix the 6 Critical issue(s) before merging: `src/c1.rs:1`, `src/c2.rs:2`, \
                 `src/c3.rs:3`, `src/c4.rs:4`, `src/c5.rs:5` … and 1 more (--format json lists \
                 every finding)."
            );
        });
    }

    #[test]
    fn cells_escape_html_outside_code_spans_only() {
        assert_eq!(
            cell("a <b> `Vec<u8> | x` & c\nd"),
            "a &lt;b&gt; `Vec<u8> \\| x` &amp; c<br>d"
        );
        assert_eq!(cell("odd ` <x>"), "odd ` &lt;x&gt;");
    }

    #[test]
    fn a_clean_review_has_no_fingerprints_and_nothing_to_do() {
        let o = outcome(Verdict::Go, vec![]);
        summary_of(&o, |s| {
            let s = Summary {
                head: None,
                ..s.clone()
            };
            assert_eq!(
                marker(&s),
                "<!-- retake:report fingerprints= round=2 head=none -->"
            );
            // The fixture's interface Inspector is unavailable: that is the one action left.
            assert_eq!(
                actions(&s),
                ["Re-run the review: inspector-interface sent no report."]
            );
            assert!(render(&s, &Gate::default()).contains("No issues."));
        });
    }
}
