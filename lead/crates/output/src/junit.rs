//! `--format junit`: JUnit XML for CI test views — a `<testsuite>` per Inspector, a
//! `<testcase>` per rule of its kind (name = rule id), a `<failure>` per finding at or above the
//! fail level (High when `--fail-level` is none: the severities the verdict table counts).
//! Findings below it, and with `--new-only` unchanged ones, are listed in the case's
//! `<system-out>`; an Inspector without a report has its cases `<skipped>` and one `report`
//! case in `<error>` saying why, so that a CI view counts the lost Inspector as an error.
//! Findings already there before a session's change are no case of it: left out.

use super::gate::{gated, Gate};
use super::Summary;
use protocol::{Finding, InspectorKind, Severity};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// The fail level JUnit uses when `--fail-level` is none.
pub const DEFAULT_THRESHOLD: Severity = Severity::High;

/// Renders the report as one JUnit XML document.
pub fn render(s: &Summary<'_>, gate: &Gate) -> String {
    let threshold = gate.fail_level.unwrap_or(DEFAULT_THRESHOLD);
    // By address: a finding fails or not as itself, and a set keeps the lookup O(1).
    let failing: HashSet<*const Finding> = gated(s, gate)
        .into_iter()
        .filter(|f| f.severity >= threshold)
        .map(|f| f as *const Finding)
        .collect();
    let catalog = inspector::rules::catalog();
    let mut agents: Vec<&str> = s.agents();
    let mut listed: HashSet<&str> = agents.iter().copied().collect();
    for f in s.active() {
        if listed.insert(Summary::owner(f)) {
            agents.push(Summary::owner(f));
        }
    }
    let (mut tests, mut failures, mut errors, mut body) = (0, 0, 0, String::new());
    for agent in agents {
        let rules = rules_of(s, agent, &catalog);
        let lost = s.lost_message(agent);
        let unavailable = lost.is_some();
        let mut suite = String::new();
        let (mut suite_failures, mut skipped) = (0, 0);
        if let Some(message) = &lost {
            let _ = writeln!(
                suite,
                "    <testcase name=\"report\" classname=\"{}\">\n      <error message=\"{}\" type=\"unavailable\"/>\n    </testcase>",
                attr(agent),
                attr(message)
            );
        }
        let suite_errors = usize::from(unavailable);
        for (rule, hits) in &rules {
            let _ = write!(
                suite,
                "    <testcase name=\"{}\" classname=\"{}\"",
                attr(rule),
                attr(agent)
            );
            if unavailable {
                skipped += 1;
                let _ = writeln!(
                    suite,
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                    attr(lost.as_deref().unwrap_or_default())
                );
                continue;
            }
            suite_failures += case_body(&mut suite, hits, &failing);
        }
        tests += rules.len() + suite_errors;
        failures += suite_failures;
        errors += suite_errors;
        let _ = write!(
            body,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{suite_failures}\" errors=\"{suite_errors}\" skipped=\"{skipped}\">\n{suite}  </testsuite>\n",
            attr(agent),
            rules.len() + suite_errors
        );
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"retake\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{body}</testsuites>\n"
    )
}

/// The rules of `agent`'s kind from the catalog, then any other rule its findings name, each
/// with its findings: one pass over them, however many rules a report invents.
fn rules_of<'s>(
    s: &Summary<'s>,
    agent: &str,
    catalog: &[(InspectorKind, &'static inspector::engine::RuleMeta)],
) -> Vec<(&'s str, Vec<&'s Finding>)> {
    let kind = s
        .reports
        .get(agent)
        .and_then(|r| r.kind)
        .or_else(|| agent.parse::<InspectorKind>().ok());
    let mut rules: Vec<(&str, Vec<&Finding>)> = catalog
        .iter()
        .filter(|(k, _)| Some(*k) == kind)
        .map(|(_, m)| (m.id, Vec::new()))
        .collect();
    let mut rule_at: HashMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    for f in s.active().filter(|f| Summary::owner(f) == agent) {
        let at = *rule_at.entry(&f.rule).or_insert_with(|| {
            rules.push((&f.rule, Vec::new()));
            rules.len() - 1
        });
        rules[at].1.push(f);
    }
    rules
}

/// The rest of a rule's `<testcase` with its findings: a `<failure>` each for the failing
/// ones, the others in `<system-out>`. Returns the failures.
fn case_body(suite: &mut String, hits: &[&Finding], failing: &HashSet<*const Finding>) -> usize {
    if hits.is_empty() {
        suite.push_str("/>\n");
        return 0;
    }
    suite.push_str(">\n");
    let (mut failures, mut out) = (0, String::new());
    for &f in hits {
        if failing.contains(&(f as *const Finding)) {
            failures += 1;
            let _ = writeln!(
                suite,
                "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                attr(&f.description),
                f.severity.letter(),
                text(&f.location.to_string())
            );
        } else {
            let _ = writeln!(
                out,
                "{} {} {}",
                f.severity.letter(),
                f.location,
                f.description
            );
        }
    }
    if !out.is_empty() {
        let _ = writeln!(suite, "      <system-out>{}</system-out>", text(&out));
    }
    suite.push_str("    </testcase>\n");
    failures
}

/// Escapes text content; characters XML 1.0 cannot carry at all are dropped.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// Escapes an attribute value (quotes and line breaks too, so they survive normalisation).
pub fn attr(s: &str) -> String {
    text(s)
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{finding, outcome, summary_of};
    use protocol::Verdict;

    #[test]
    fn a_suite_per_inspector_a_case_per_rule_failures_at_the_level() {
        let mut bad = finding(Severity::High, "src/a.rs", 3);
        bad.description = "uses <T> & \"quotes\"".into();
        let o = outcome(
            Verdict::Go,
            vec![bad, finding(Severity::Low, "src/b.rs", 4)],
        );
        summary_of(&o, |s| {
            let xml = render(s, &Gate::default());
            assert_eq!(xml.matches("<testsuite ").count(), 2);
            let quality_rules = inspector::rules::catalog()
                .iter()
                .filter(|(k, _)| *k == InspectorKind::Quality)
                .count();
            assert!(xml.contains(&format!(
                "<testsuite name=\"inspector-quality\" tests=\"{quality_rules}\" failures=\"1\""
            )));
            assert!(xml.contains("<failure message=\"uses &lt;T&gt; &amp; &quot;quotes&quot;\" type=\"H\">src/a.rs:3</failure>"));
            assert!(xml.contains("<system-out>L src/b.rs:4 TODO left in src/b.rs\n</system-out>"));
            assert!(xml.contains("<skipped message=\"inspector-interface sent no report\"/>"));
            // The lost Inspector is an error of its own, so the CI view does not pass it over.
            assert!(xml.contains("<testcase name=\"report\" classname=\"inspector-interface\">\n      <error message=\"inspector-interface sent no report\" type=\"unavailable\"/>"));
            assert!(xml.contains("errors=\"1\">"));
            let low = render(
                s,
                &Gate {
                    fail_level: Some(Severity::Low),
                    ..Gate::default()
                },
            );
            assert_eq!(low.matches("<failure ").count(), 2);
        });
    }

    #[test]
    fn escapes_control_characters_away() {
        assert_eq!(text("a\u{1}b<"), "ab&lt;");
        assert_eq!(attr("x\n'y'"), "x&#10;&apos;y&apos;");
    }
}
