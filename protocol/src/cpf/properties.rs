//! Property tests: every representable value survives the writer and reader, formatting is
//! stable, and no input makes either reader panic.
//!
//! Representable means: fields and lines trimmed (padding cannot be told from content), required
//! fields and notes non-empty, agent names without `+`, a report verdict other than
//! SPEC-UPDATE-NEEDED. Pipes, backslashes, newlines, colons and any unicode are fair game.

use super::*;
use crate::domain::{Removed, Resolved, Severity, SpecFeedback, Steering, SteeringAction, Verdict};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

/// Text an agent might write, biased towards the characters CPF treats specially.
fn raw_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 |\\\\\n\r\t+:_#.é€🦀-]{0,16}",
        1 => "[A-Z_]{1,8}:",
        1 => any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    raw_text().prop_map(|s| s.trim().to_string())
}

fn nonempty() -> impl Strategy<Value = String> {
    text().prop_filter("required fields are not empty", |s| !s.is_empty())
}

fn agent() -> impl Strategy<Value = String> {
    nonempty().prop_filter("agent names have no '+'", |s| !s.contains('+'))
}

fn severity() -> impl Strategy<Value = Severity> {
    select(Severity::ALL_DESC.to_vec())
}

fn verdict() -> impl Strategy<Value = Verdict> {
    select(vec![
        Verdict::Go,
        Verdict::Conditional,
        Verdict::NoGo,
        Verdict::SpecUpdateNeeded,
    ])
}

fn report() -> impl Strategy<Value = ReportCpf> {
    let issue = (severity(), nonempty(), text(), text()).prop_map(
        |(severity, category, location, description)| CpfIssue {
            severity,
            category,
            location,
            description,
        },
    );
    let own_verdict = select(vec![Verdict::Go, Verdict::Conditional, Verdict::NoGo]);
    (
        proptest::option::of(own_verdict),
        proptest::option::of(text()),
        vec(issue, 0..4),
        vec(nonempty(), 0..4),
    )
        .prop_map(|(verdict, scope, issues, notes)| ReportCpf {
            verdict,
            scope,
            issues,
            notes,
            questions: Vec::new(),
        })
        // A report that says nothing is refused by the reader (it is not a clean report).
        .prop_filter("an empty report", |r| {
            r.verdict.is_some() || !r.issues.is_empty() || !r.notes.is_empty()
        })
}

fn verified() -> impl Strategy<Value = VerifiedRow> {
    (vec(agent(), 1..3), severity(), nonempty(), text(), text()).prop_map(
        |(agents, severity, category, location, description)| VerifiedRow {
            agents,
            severity,
            category,
            location,
            description,
        },
    )
}

fn sections() -> impl Strategy<
    Value = (
        Vec<Removed>,
        Vec<Resolved>,
        Vec<SpecFeedback>,
        Vec<Steering>,
    ),
> {
    let removed = (nonempty(), text(), text()).prop_map(|(agent, reason, original)| Removed {
        agent,
        reason,
        original,
    });
    let resolved =
        (vec(agent(), 1..3), text(), text()).prop_map(|(agents, resolution, conflicting)| {
            Resolved {
                agents,
                resolution,
                conflicting,
            }
        });
    let feedback =
        (nonempty(), nonempty(), text()).prop_map(|(phase, spec, description)| SpecFeedback {
            phase,
            spec,
            description,
        });
    let action = select(vec![SteeringAction::Codify, SteeringAction::Propose]);
    let steering = (action, nonempty(), text()).prop_map(|(action, target, text)| Steering {
        action,
        target,
        text,
    });
    (
        vec(removed, 0..3),
        vec(resolved, 0..3),
        vec(feedback, 0..3),
        vec(steering, 0..3),
    )
}

fn verdict_cpf() -> impl Strategy<Value = VerdictCpf> {
    (
        verdict(),
        proptest::option::of(text()),
        vec(verified(), 0..4),
        sections(),
        vec(nonempty(), 0..3),
        vec(nonempty(), 0..3),
    )
        .prop_map(
            |(
                verdict,
                scope,
                verified,
                (removed, resolved, spec_feedback, steering),
                notes,
                roadmap_advisory,
            )| {
                VerdictCpf {
                    verdict,
                    scope,
                    verified,
                    removed,
                    resolved,
                    spec_feedback,
                    steering,
                    notes,
                    roadmap_advisory,
                }
            },
        )
}

const SOUP_WORDS: &[&str] = &[
    "VERDICT:GO",
    "VERDICT:NO-GO",
    "VERDICT:SPEC-UPDATE-NEEDED",
    "VERDICT:",
    "SCOPE:feature|cross-check",
    "SCOPE:",
    "ISSUES:",
    "NOTES:",
    "VERIFIED:",
    "REMOVED:",
    "RESOLVED:",
    "SPEC_FEEDBACK:",
    "STEERING:",
    "ROADMAP_ADVISORY:",
    "TODO:",
    "TODO\\:",
    "```",
    "```cpf",
    "",
    "   ",
    "\r",
    "\\",
    "|",
    "||||",
];

/// One line of a document that is often, but not always, valid somewhere.
fn soup_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(SOUP_WORDS).prop_map(String::from),
        2 => "[CHMLX ]{1,2}\\|[a-z\\\\ ]{0,3}\\|[a-z.:#0-9]{0,5}\\|[a-z|\\\\ ]{0,6}",
        2 => "[a-z]{0,2}(\\+[a-z ]{0,2}){0,2}\\|[CHMLZ]\\|[a-z]{0,2}\\|[a-z\\\\]{0,3}\\|[a-z|\\\\n ]{0,6}",
        2 => "(CODIFY|PROPOSE|KEEP| )\\|[a-z.]{0,4}\\|[a-z|\\\\ ]{0,6}",
        2 => "[a-zA-Z:|\\\\+ ]{0,12}",
        1 => any::<String>(),
    ]
}

/// A section header followed by rows that mostly fit it, with some noise.
fn block() -> impl Strategy<Value = Vec<String>> {
    let issue = "[CHML]\\|[a-z\\\\ ]{1,3}\\|[a-z.:#0-9]{0,5}\\|[a-z|\\\\ ]{0,6}";
    let verified = "[a-z]{1,2}(\\+[a-z ]{1,2}){0,2}\\|[CHML]\\|[a-z]{1,2}\\|[a-z\\\\]{0,3}\\|[a-z|\\\\n ]{0,6}";
    let three = "[a-z]{1,3}(\\+[a-z]{1,2})?\\|[a-z\\\\ ]{1,3}\\|[a-z|\\\\ ]{0,6}";
    let steering = "(CODIFY|PROPOSE)\\|[a-z.]{1,4}\\|[a-z|\\\\ ]{0,6}";
    let note = "[a-zA-Z:|\\\\+ ]{1,12}";
    let fitting = |header: &'static str, row: &'static str| {
        let row = prop_oneof![9 => row, 1 => soup_line()];
        vec(row, 0..4).prop_map(move |rows| {
            let mut lines = vec![header.to_string()];
            lines.extend(rows);
            lines
        })
    };
    prop_oneof![
        fitting("ISSUES:", issue),
        fitting("VERIFIED:", verified),
        fitting("REMOVED:", three),
        fitting("RESOLVED:", three),
        fitting("SPEC_FEEDBACK:", three),
        fitting("STEERING:", steering),
        fitting("NOTES:", note),
        fitting("ROADMAP_ADVISORY:", note),
        vec(soup_line(), 1..3),
    ]
}

/// A document that is often, but not always, valid as a report or as a verdict.
fn soup() -> impl Strategy<Value = String> {
    let verdict = select(vec![
        "VERDICT:GO",
        "VERDICT:NO-GO",
        "VERDICT:SPEC-UPDATE-NEEDED",
    ]);
    let start = (
        proptest::option::weighted(0.8, verdict),
        proptest::option::of(Just("SCOPE: a|b ")),
        proptest::option::weighted(0.1, select(vec!["```", "", "noise"])),
    )
        .prop_map(|(v, s, n)| [n, v, s].into_iter().flatten().collect::<Vec<_>>());
    (start, vec(block(), 0..4), any::<bool>()).prop_map(|(start, blocks, crlf)| {
        let mut all: Vec<String> = start.into_iter().map(String::from).collect();
        all.extend(blocks.into_iter().flatten());
        all.join(if crlf { "\r\n" } else { "\n" })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn reports_round_trip(r in report()) {
        let text = format_report(&r);
        prop_assert_eq!(parse_report(&text), Ok(r));
    }

    #[test]
    fn verdicts_round_trip(v in verdict_cpf()) {
        let text = format_verdict(&v);
        prop_assert_eq!(parse_verdict(&text), Ok(v));
    }

    #[test]
    fn formatting_a_parsed_text_is_stable(text in prop_oneof![soup(), any::<String>()]) {
        if let Ok(r) = parse_report(&text) {
            let once = format_report(&r);
            let again = parse_report(&once);
            prop_assert_eq!(again.as_ref(), Ok(&r));
            prop_assert_eq!(again.map(|r| format_report(&r)), Ok(once));
        }
        if let Ok(v) = parse_verdict(&text) {
            let once = format_verdict(&v);
            let again = parse_verdict(&once);
            prop_assert_eq!(again.as_ref(), Ok(&v));
            prop_assert_eq!(again.map(|v| format_verdict(&v)), Ok(once));
        }
    }

    #[test]
    fn no_input_makes_a_reader_panic(text in prop_oneof![soup(), any::<String>(), raw_text()]) {
        let report = parse_report(&text);
        let verdict = parse_verdict(&text);
        // Errors always point at a line of the input.
        let lines = text.split('\n').count();
        if let Err(e) = report {
            prop_assert!(e.line >= 1 && e.line <= lines, "{e} for {text:?}");
        }
        if let Err(e) = verdict {
            prop_assert!(e.line >= 1 && e.line <= lines, "{e} for {text:?}");
        }
    }
}

#[test]
fn soup_produces_both_valid_and_invalid_documents() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut ok, mut err) = (0, 0);
    for _ in 0..500 {
        let Ok(tree) = soup().new_tree(&mut runner) else {
            continue;
        };
        for parsed in [
            parse_verdict(&tree.current()).is_ok(),
            parse_report(&tree.current()).is_ok(),
        ] {
            if parsed {
                ok += 1;
            } else {
                err += 1;
            }
        }
    }
    // The stability property is only meaningful if a fair share of the soup parses.
    assert!(ok >= 200 && err >= 200, "ok {ok}, err {err}");
}
