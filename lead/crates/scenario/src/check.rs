//! The expectation checker: a pure function from what a run left behind (exit code, the JSON
//! object, the journal listing, the time, leftover processes) to the list of failed checks.

use super::expect::Expect;
use super::observed::Observed;

/// Every failed check of `expect` against `got`, in the order of the `[expect]` table; empty
/// when the scenario passes.
pub fn check(expect: &Expect, got: &Observed) -> Vec<String> {
    let mut failed = got.problems.clone();
    let limit = expect.max_seconds();
    if got.timed_out {
        failed.push(format!("did not finish within {} s: killed", limit * 2.0));
    }
    if let Some(code) = expect.exit_code {
        if got.exit_code != Some(code) {
            failed.push(format!("exit code: expected {code}, got {}", got.ending()));
        }
    }
    let needs_json = expect.verdict.is_some()
        || expect.decision.is_some()
        || !expect.notes.is_empty()
        || !expect.restarts.is_empty()
        || expect.qualifier.is_some()
        || !expect.reports.is_empty();
    if needs_json && got.json.is_none() {
        failed.push(format!("no JSON output: {}", got.ending()));
        return with_common(failed, expect, got);
    }
    for (key, wanted) in [("verdict", &expect.verdict), ("decision", &expect.decision)] {
        if let Some(wanted) = wanted {
            let actual = got.field(key).unwrap_or("none");
            if actual != wanted {
                failed.push(format!("{key}: expected {wanted}, got {actual}"));
            }
        }
    }
    let notes = got.notes();
    for wanted in &expect.notes {
        if !notes.iter().any(|n| n.starts_with(wanted.as_str())) {
            failed.push(format!("note '{wanted}' missing (notes: {notes:?})"));
        }
    }
    for banned in &expect.absent_notes {
        if let Some(n) = notes.iter().find(|n| n.starts_with(banned.as_str())) {
            failed.push(format!("note '{n}' must not appear"));
        }
    }
    for (actor, wanted) in &expect.restarts {
        let actual = got.restarts_of(actor);
        if actual != *wanted {
            failed.push(format!(
                "restarts of {actor}: expected {wanted}, got {actual}"
            ));
        }
    }
    if let Some(q) = &expect.qualifier {
        let qualifiers = got.qualifiers();
        if !qualifiers.contains(&q.as_str()) {
            failed.push(format!(
                "qualifier '{q}' missing (qualifiers: {qualifiers:?})"
            ));
        }
    }
    for report in &expect.reports {
        let stem = report.strip_suffix(".cpf").unwrap_or(report);
        if !got.journal.iter().any(|j| j == stem) {
            failed.push(format!(
                "journaled report {stem} missing (journal: {:?})",
                got.journal
            ));
        }
    }
    failed.extend(super::run_check::check(expect, got));
    with_common(failed, expect, got)
}

fn with_common(mut failed: Vec<String>, expect: &Expect, got: &Observed) -> Vec<String> {
    let limit = expect.max_seconds();
    if !got.timed_out && got.seconds > limit {
        failed.push(format!(
            "took {:.1} s, more than max_seconds = {limit}",
            got.seconds
        ));
    }
    if expect.no_leftovers && !got.leftovers.is_empty() {
        let list: Vec<String> = got.leftovers.iter().map(ToString::to_string).collect();
        failed.push(format!("{} left over: {}", list.len(), list.join(", ")));
    }
    failed
}

/// The table's "expected" column: `GO exit 0 r:inspector-quality=1 +PARTIAL:inspector-quality`
/// (verdict, decision, exit code, nonzero restarts, required notes).
pub fn expected_summary(e: &Expect) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(e.verdict.clone());
    parts.extend(e.decision.clone());
    parts.extend(e.exit_code.map(|c| format!("exit {c}")));
    let restarts: Vec<String> = e
        .restarts
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(a, n)| format!("{a}={n}"))
        .collect();
    if !restarts.is_empty() {
        parts.push(format!("r:{}", restarts.join(",")));
    }
    // Absent notes stay out of the column (it would double in width); a failure names them.
    parts.extend(e.notes.iter().map(|n| format!("+{n}")));
    parts.extend(super::run_check::expected_parts(e));
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

/// The table's "got" column: verdict, decision, exit, nonzero restarts, notes up to their `|`.
pub fn got_summary(o: &Observed) -> String {
    let mut parts: Vec<String> = Vec::new();
    if o.json.is_some() {
        parts.extend(o.field("verdict").map(str::to_string));
        parts.extend(o.field("decision").map(str::to_string));
    }
    parts.push(match (o.timed_out, o.exit_code) {
        (true, _) => "killed".to_string(),
        (false, Some(c)) => format!("exit {c}"),
        (false, None) => "signal".to_string(),
    });
    let restarts = o.nonzero_restarts();
    if !restarts.is_empty() {
        parts.push(format!("r:{}", restarts.join(",")));
    }
    parts.extend(
        o.notes()
            .iter()
            .map(|n| format!("+{}", n.split('|').next().unwrap_or(n))),
    );
    parts.extend(super::run_check::got_parts(o));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leftovers::Leftover;
    use serde_json::{json, Value};

    fn observed(json: Value) -> Observed {
        Observed {
            exit_code: Some(0),
            json: Some(json),
            journal: vec!["inspector-quality".into(), "inspector-test".into()],
            seconds: 2.5,
            ..Observed::default()
        }
    }

    fn partial() -> Value {
        json!({
            "run_id": "r1", "verdict": "GO", "decision": "APPROVE",
            "qualifiers": ["partial coverage (5/6)"],
            "notes": ["PARTIAL:inspector-holistic|unavailable after retry: hung"],
            "restarts": {"inspector-holistic": 1, "auditor": 0},
            "coverage": {"inspector-quality": {"status": "ok"}, "inspector-holistic": {"status": "unavailable"}}
        })
    }

    #[test]
    fn a_matching_run_passes_with_prefix_notes_and_default_restarts() {
        let expect = Expect {
            verdict: Some("GO".into()),
            decision: Some("APPROVE".into()),
            exit_code: Some(0),
            notes: vec!["PARTIAL:inspector-holistic".into()],
            absent_notes: vec!["AUDITOR_UNAVAILABLE".into()],
            restarts: [
                ("inspector-holistic".to_string(), 1),
                ("inspector-test".to_string(), 0),
            ]
            .into(),
            qualifier: Some("partial coverage (5/6)".into()),
            reports: vec!["inspector-quality.cpf".into(), "inspector-test".into()],
            max_seconds: Some(10.0),
            ..Expect::default()
        };
        assert_eq!(check(&expect, &observed(partial())), Vec::<String>::new());
    }

    #[test]
    fn every_failed_check_is_named_in_order() {
        let expect = Expect {
            verdict: Some("CONDITIONAL".into()),
            exit_code: Some(0),
            notes: vec!["AUDITOR_UNAVAILABLE".into()],
            absent_notes: vec!["PARTIAL:".into()],
            restarts: [("inspector-holistic".to_string(), 0)].into(),
            qualifier: Some("partial coverage (4/6)".into()),
            reports: vec!["inspector-holistic".into()],
            max_seconds: Some(2.0),
            ..Expect::default()
        };
        let mut got = observed(partial());
        got.leftovers = vec![
            Leftover::Process {
                pid: 42,
                command: "retake actor auditor".into(),
            },
            Leftover::Docker {
                kind: "volume",
                id: "p_state".into(),
            },
        ];
        let failed = check(&expect, &got);
        assert_eq!(
            failed,
            vec![
                "verdict: expected CONDITIONAL, got GO".to_string(),
                "note 'AUDITOR_UNAVAILABLE' missing (notes: [\"PARTIAL:inspector-holistic|unavailable after retry: hung\"])".into(),
                "note 'PARTIAL:inspector-holistic|unavailable after retry: hung' must not appear".into(),
                "restarts of inspector-holistic: expected 0, got 1".into(),
                "qualifier 'partial coverage (4/6)' missing (qualifiers: [\"partial coverage (5/6)\"])".into(),
                "journaled report inspector-holistic missing (journal: [\"inspector-quality\", \"inspector-test\"])".into(),
                "took 2.5 s, more than max_seconds = 2".into(),
                "2 left over: pid 42 (retake actor auditor), volume p_state".into(),
            ]
        );
    }

    #[test]
    fn a_run_without_json_fails_once_with_its_error_and_a_kill_is_reported() {
        let expect = Expect {
            verdict: Some("GO".into()),
            exit_code: Some(0),
            ..Expect::default()
        };
        let got = Observed {
            exit_code: Some(2),
            stderr_tail: "retake: error: boom".into(),
            seconds: 0.3,
            ..Observed::default()
        };
        assert_eq!(
            check(&expect, &got),
            vec![
                "exit code: expected 0, got exit 2 (retake: error: boom)".to_string(),
                "no JSON output: exit 2 (retake: error: boom)".into(),
            ]
        );
        let killed = Observed {
            timed_out: true,
            seconds: 120.0,
            ..Observed::default()
        };
        let failed = check(&Expect::default(), &killed);
        assert_eq!(
            failed,
            vec!["did not finish within 120 s: killed".to_string()]
        );
    }

    #[test]
    fn summaries_are_short() {
        let expect = Expect {
            verdict: Some("GO".into()),
            exit_code: Some(0),
            restarts: [
                ("auditor".to_string(), 1),
                ("inspector-test".to_string(), 0),
            ]
            .into(),
            absent_notes: vec!["AUDITOR_UNAVAILABLE".into()],
            ..Expect::default()
        };
        assert_eq!(expected_summary(&expect), "GO exit 0 r:auditor=1");
        assert_eq!(
            got_summary(&observed(partial())),
            "GO APPROVE exit 0 r:inspector-holistic=1 +PARTIAL:inspector-holistic"
        );
    }
}
