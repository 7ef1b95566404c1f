use super::*;
use protocol::live::{
    ActorState, FindingLine, LiveEvent, PhaseLine, ReviewView, RunPhase, TaskLine,
};
use protocol::Severity;

fn finding(severity: Severity, rule: &str, who: &str, path: &str, line: u32) -> FindingLine {
    FindingLine {
        severity,
        rule: rule.into(),
        inspectors: vec![who.into()],
        path: path.into(),
        line: Some(line),
        description: format!("<{rule}> here"),
    }
}

/// A run in Phase B: one Inspector replaced, task 1 rejected once then passed, a review with
/// three findings.
fn state() -> LiveState {
    let mut s = LiveState::default();
    let events = [
        LiveEvent::Watching {
            title: "retake run — shop".into(),
        },
        LiveEvent::Phase(PhaseLine {
            phase: RunPhase::Implement,
            iteration: 2,
            retakes: 1,
            max_retakes: 3,
        }),
        LiveEvent::Actors {
            hub: "review".into(),
            actors: vec![ActorLine {
                name: "inspector-quality".into(),
                instance: "inspector-quality-r1".into(),
                state: ActorState::Reported,
                detail: String::new(),
                seen_ms: 10_000,
                restarts: 1,
                last_restart: Some("inspector-quality was killed by signal 9".into()),
            }],
        },
        LiveEvent::Tasks {
            tasks: vec![TaskLine {
                id: 1,
                subject: "Add <login>".into(),
                status: "completed".into(),
                owner: None,
                attempts: 1,
            }],
        },
        LiveEvent::Judgment(JudgmentLine {
            task: 1,
            iteration: 1,
            judgment: "REJECT".into(),
            failed: vec!["Q3".into()],
            summary: Some("a TODO is left".into()),
            prompt: None,
            implementer: Some("implementer-1".into()),
        }),
        LiveEvent::Prompt {
            task: 1,
            iteration: 1,
            prompt: "Remove the TODO".into(),
        },
        LiveEvent::Judgment(JudgmentLine {
            task: 1,
            iteration: 2,
            judgment: "PASS".into(),
            failed: vec![],
            summary: None,
            prompt: None,
            implementer: Some("implementer-1".into()),
        }),
        LiveEvent::Review(ReviewView {
            verdict: "NO-GO".into(),
            explanation: "decision REJECT (grade D)".into(),
            answered: 6,
            expected: 6,
            findings: vec![
                finding(
                    Severity::Critical,
                    "security/sql",
                    "inspector-security",
                    "src/db.rs",
                    4,
                ),
                finding(
                    Severity::High,
                    "quality/todo",
                    "inspector-quality",
                    "src/a b.rs",
                    3,
                ),
                finding(
                    Severity::High,
                    "quality/todo",
                    "inspector-quality",
                    "lib/c.rs",
                    9,
                ),
            ],
            notes: vec![],
        }),
    ];
    for e in &events {
        s.apply(e);
    }
    s
}

fn view<'a>(state: &'a LiveState, filter: &'a Filter) -> LiveView<'a> {
    LiveView {
        state,
        filter,
        links: &[("/history", "History")],
        source: Some("/source/"),
        events: Some("/events"),
        now_ms: 15_000,
    }
}

#[test]
fn the_snapshot_shows_actors_judgments_and_findings_escaped() {
    let state = state();
    let filter = Filter::default();
    let html = page(&view(&state, &filter));
    assert!(html.contains("<body data-events=\"/events\">"));
    assert!(html.contains("<strong>Phase B — implementation and review</strong> · review round 2 · retakes 1 of at most 3"), "{html}");
    assert!(
        html.contains("<td class=\"state-replaced\">")
            || html.contains("<td class=\"state-reported\">reported</td>")
    );
    assert!(html.contains("<td class=\"n\" data-seen=\"10000\">5 s ago</td>"));
    assert!(html.contains("inspector-quality was killed by signal 9"));
    assert!(html.contains("<td>Add &lt;login&gt;</td>"));
    assert!(html
        .contains("<span class=\"j-REJECT\">REJECT</span> → <span class=\"j-PASS\">PASS</span>"));
    assert!(html.contains("failed checks: Q3"));
    assert!(html.contains("<pre>Remove the TODO</pre>"));
    assert!(
        html.contains("<td>implementer-1</td>"),
        "the last judge's implementer owns a finished task"
    );
    assert!(html.contains("<strong id=\"verdict\">NO-GO</strong>"));
    assert!(html.contains("Showing <span id=\"shown\">3</span> of 3 findings."));
    assert!(
        html.contains("<a href=\"/source/src/a%20b.rs#L3\"><code>src/a b.rs:3</code></a>"),
        "{html}"
    );
    assert!(html.contains("&lt;security/sql&gt; here"));
}

#[test]
fn a_submitted_filter_reduces_the_table_and_grouping_makes_one_body_per_rule() {
    let state = state();
    let filter = Filter::from_query("severity=H&inspector=inspector-quality&path=&x=1");
    assert_eq!(filter.severity, Some(Severity::High));
    assert_eq!(filter.path, None);
    let html = page(&view(&state, &filter));
    assert!(html.contains("Showing <span id=\"shown\">2</span> of 3 findings."));
    assert!(!html.contains("src/db.rs:4"));
    assert!(html.contains("<option value=\"H\" selected>High</option>"));
    let grouped = Filter::from_query("group=rule&path=LIB%2Fc");
    let html = page(&view(&state, &grouped));
    assert!(
        html.contains("Showing <span id=\"shown\">1</span> of 3 findings."),
        "{html}"
    );
    assert_eq!(html.matches("<tr class=\"group\">").count(), 1);
    assert!(html.contains("quality/todo (1)"));
}

#[test]
fn one_part_renders_alone_with_its_id() {
    let state = state();
    let filter = Filter::default();
    let (id, html) = part(&view(&state, &filter), Part::Tasks);
    assert_eq!(id, "tasks");
    assert!(html.starts_with("<section id=\"tasks\">"), "{html}");
    assert!(!html.contains("<html"));
}

#[test]
fn a_long_table_holds_its_first_rows_and_links_to_all_of_them() {
    let mut state = LiveState::default();
    let severities = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
    ];
    let findings: Vec<FindingLine> = (0..2_500)
        .map(|i| {
            finding(
                severities[i % 4],
                "quality/todo",
                "inspector-quality",
                "src/a.rs",
                i as u32 + 1,
            )
        })
        .collect();
    state.apply(&LiveEvent::Review(ReviewView {
        verdict: "NO-GO".into(),
        explanation: String::new(),
        answered: 6,
        expected: 6,
        findings,
        notes: vec![],
    }));
    let rows = |html: &str| html.matches("<tr data-severity=").count();
    let html = page(&view(&state, &Filter::default()));
    assert_eq!(rows(&html), crate::findings::ROWS_AT_MOST);
    assert!(html.contains("<table id=\"findings\" data-truncated>"));
    assert!(
        html.contains("the first 2000 of the 2500 that match, most severe first"),
        "{html}"
    );
    assert!(html.contains("<a href=\"?all=1\">show all 2500</a>"));
    let all = Filter::from_query("all=1");
    let html = page(&view(&state, &all));
    assert_eq!(rows(&html), 2_500);
    assert!(html.contains("<input type=\"hidden\" name=\"all\" value=\"1\">"));
    let high = Filter::from_query("severity=H&path=src%2Fa");
    let html = page(&view(&state, &high));
    assert_eq!(
        rows(&html),
        625,
        "a filter under the limit shows every match"
    );
    assert!(html.contains("<table id=\"findings\">"));
    let grouped = Filter::from_query("group=rule&rule=quality%2Ftodo");
    let html = page(&view(&state, &grouped));
    assert!(
        html.contains("<a href=\"?rule=quality%2Ftodo&amp;group=rule&amp;all=1\">"),
        "{html}"
    );
}
