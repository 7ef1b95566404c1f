//! Notes as sentences for the human reports. The Auditor and the Lead write notes as CPF records
//! (`VERIFY|src/a.rs:2|race-condition|Critical reported by holistic only`, the protocol spec); the
//! journal, `--format json` and the CPF files keep that form for scripts, while the terminal and
//! Markdown reports read each record as a sentence. A record of a kind this module does not know
//! still reads as a sentence (its tag in words, its fields separated), so no raw `TAG|…` row
//! reaches a person. The Auditor notes once per finding for some kinds (`VERIFY`, `CONFIRMED`),
//! so a kind with more than [`GROUP_SHOWN`] notes is cut like a grouped rule.

use super::issues::GROUP_SHOWN;

/// The notes as the lines of a human report: each a sentence, in their order, and of a kind with
/// more than [`GROUP_SHOWN`] notes the first ones and a line saying how many more JSON lists.
pub fn lines<'a>(notes: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let notes: Vec<&str> = notes.into_iter().collect();
    let kind = |note: &str| record(note).map(|(tag, _)| tag.to_string());
    let mut lines = Vec::new();
    let mut shown: Vec<(String, usize)> = Vec::new();
    for (i, note) in notes.iter().enumerate() {
        let Some(tag) = kind(note) else {
            lines.push(sentence(note));
            continue;
        };
        let seen = match shown.iter_mut().find(|(t, _)| *t == tag) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                shown.push((tag.clone(), 1));
                1
            }
        };
        if seen <= GROUP_SHOWN {
            lines.push(sentence(note));
        }
        if seen == GROUP_SHOWN {
            let more = notes[i + 1..]
                .iter()
                .filter(|n| kind(n).as_deref() == Some(tag.as_str()))
                .count();
            if more > 0 {
                lines.push(format!(
                    "… and {more} more like these (--format json lists every note)."
                ));
            }
        }
    }
    lines
}

/// One note as a sentence ending in a full stop; plain prose notes keep their words.
pub fn sentence(note: &str) -> String {
    let text = match record(note) {
        Some((tag, fields)) => known(tag, &fields).unwrap_or_else(|| generic(tag, &fields)),
        None => capitalised(note),
    };
    full_stop(text)
}

/// `TAG|field|…` or `PARTIAL:{name}|{reason}` split into the tag and its fields; `None` for prose.
fn record(note: &str) -> Option<(&str, Vec<&str>)> {
    if let Some((name, reason)) = auditor::parse_partial_note(note) {
        return Some(("PARTIAL", vec![name, reason]));
    }
    let (tag, rest) = note.split_once('|')?;
    let is_tag = !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
    is_tag.then(|| (tag, rest.split('|').collect()))
}

/// The sentence for each note kind the Auditor and the Lead write (`auditor::audit`'s note order,
/// `lead::steering`); `None` when the kind or its field count is not one of them.
fn known(tag: &str, fields: &[&str]) -> Option<String> {
    Some(match (tag, fields) {
        ("PARTIAL", [name, reason]) if *reason == auditor::NO_REPORT => {
            format!("{name} sent no report")
        }
        ("PARTIAL", [name, reason]) => format!("{name} sent no report: {reason}"),
        ("PARTIAL_VERIFICATION", [steps]) => {
            let done = steps.strip_prefix("steps completed: ").unwrap_or(steps);
            match done.strip_prefix("1..") {
                Some(last) => format!(
                    "The audit ran out of budget after steps 1–{last} of 10; the verdict rests on those steps"
                ),
                None => "The audit ran out of budget before its first step; the verdict rests on the Inspectors' findings alone".into(),
            }
        }
        ("LARGE_SCOPE", [text]) => format!("Large scope ({text})"),
        ("AUDITOR_UNAVAILABLE", [_]) => {
            "No Auditor answered: the Lead derived the verdict with the conservative table".into()
        }
        ("OVERRIDE", [change, why]) => {
            format!("The Auditor overrode the verdict table ({change}): {why}")
        }
        ("OVERRIDE_REFUSED", [text]) => format!("Override refused: {text}"),
        ("CONFIRMED", [location, category, text]) => {
            format!("{category} at {location} is {text}")
        }
        ("VERIFY", [location, category, text]) => {
            format!("Worth verifying: {category} at {location}, {text}")
        }
        ("COVERAGE_GAP", [kind, item]) => match item.strip_prefix("unverified: ") {
            Some(why) => format!("Coverage of each {kind} is unverified: {why}"),
            None => format!("No Inspector covered the {kind} {item}"),
        },
        ("SIMPLICITY", [location, category, text]) => {
            format!("{category} at {location}: {text}")
        }
        ("STEERING_APPLIED", [target, text]) => format!("Added to {target}: {text}"),
        ("STEERING_SUGGESTED", [target, text]) => format!(
            "Suggested for {target} (not written: the repository keeps no steering/ folder): {text}"
        ),
        ("STEERING_REFUSED", [target, why]) => {
            format!("Steering row for {target} refused: {why}")
        }
        ("PROPOSE_APPROVED", [id, target, text]) => {
            format!("Proposal {id} for {target} approved: {text}")
        }
        ("PROPOSE_REJECTED", [id, target, text]) => {
            format!("Proposal {id} for {target} rejected: {text}")
        }
        ("PROPOSE_PENDING", [text]) => capitalised(text),
        _ => return None,
    })
}

/// An unknown record: `SOME_TAG|a|b` → `Some tag: a; b`.
fn generic(tag: &str, fields: &[&str]) -> String {
    let words = tag.replace('_', " ").to_lowercase();
    format!("{}: {}", capitalised(&words), fields.join("; "))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn full_stop(mut text: String) -> String {
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{lines, sentence};

    #[test]
    fn a_kind_with_more_than_five_notes_shows_five_and_counts_the_rest() {
        let mut notes: Vec<String> = (1..=7)
            .map(|i| format!("VERIFY|src/a.rs:{i}|race-condition|High reported by holistic only"))
            .collect();
        notes.insert(1, "PARTIAL:inspector-test|no report".into());
        let got = lines(notes.iter().map(String::as_str));
        assert_eq!(
            got,
            [
                "Worth verifying: race-condition at src/a.rs:1, High reported by holistic only.",
                "inspector-test sent no report.",
                "Worth verifying: race-condition at src/a.rs:2, High reported by holistic only.",
                "Worth verifying: race-condition at src/a.rs:3, High reported by holistic only.",
                "Worth verifying: race-condition at src/a.rs:4, High reported by holistic only.",
                "Worth verifying: race-condition at src/a.rs:5, High reported by holistic only.",
                "… and 2 more like these (--format json lists every note).",
            ]
        );
    }

    #[test]
    fn every_cpf_note_kind_reads_as_a_sentence() {
        let cases = [
            ("PARTIAL:inspector-test|exited with code 2", "inspector-test sent no report: exited with code 2."),
            ("PARTIAL:inspector-test|no report", "inspector-test sent no report."),
            ("PARTIAL_VERIFICATION|steps completed: 1..4", "The audit ran out of budget after steps 1–4 of 10; the verdict rests on those steps."),
            ("PARTIAL_VERIFICATION|steps completed: none", "The audit ran out of budget before its first step; the verdict rests on the Inspectors' findings alone."),
            ("LARGE_SCOPE|3 findings, 0 files: audited on Inspector evidence only, no source reading", "Large scope (3 findings, 0 files: audited on Inspector evidence only, no source reading)."),
            ("AUDITOR_UNAVAILABLE|lead-derived verdict", "No Auditor answered: the Lead derived the verdict with the conservative table."),
            ("OVERRIDE|NO-GO → CONDITIONAL|the Critical is in dead code", "The Auditor overrode the verdict table (NO-GO → CONDITIONAL): the Critical is in dead code."),
            ("OVERRIDE_REFUSED|GO requested without a written justification; NO-GO stands", "Override refused: GO requested without a written justification; NO-GO stands."),
            ("CONFIRMED|src/io.rs:8|resource-leak|confirmed by 2 agents: quality+holistic", "resource-leak at src/io.rs:8 is confirmed by 2 agents: quality+holistic."),
            ("VERIFY|src/a.rs:2|race-condition|Critical reported by holistic only", "Worth verifying: race-condition at src/a.rs:2, Critical reported by holistic only."),
            ("COVERAGE_GAP|file|src/api.rs", "No Inspector covered the file src/api.rs."),
            ("COVERAGE_GAP|task|unverified: no Inspector reported which tasks it covered (3 named by the design)", "Coverage of each task is unverified: no Inspector reported which tasks it covered (3 named by the design)."),
            ("SIMPLICITY|src/net.rs:14|operational-risk|dropped the suggestion \"Retry\": phantom resilience, the design has none", "operational-risk at src/net.rs:14: dropped the suggestion \"Retry\": phantom resilience, the design has none."),
            ("STEERING_APPLIED|steering/tech.md|errors: thiserror enums", "Added to steering/tech.md: errors: thiserror enums."),
            ("STEERING_SUGGESTED|steering/tech.md|errors: thiserror enums", "Suggested for steering/tech.md (not written: the repository keeps no steering/ folder): errors: thiserror enums."),
            ("STEERING_REFUSED|../outside.md|not a steering file (steering/*.md)", "Steering row for ../outside.md refused: not a steering file (steering/*.md)."),
            ("PROPOSE_APPROVED|p1|steering/structure.md|Rule A", "Proposal p1 for steering/structure.md approved: Rule A."),
            ("PROPOSE_REJECTED|p2|steering/structure.md|Rule B", "Proposal p2 for steering/structure.md rejected: Rule B."),
            ("PROPOSE_PENDING|1 proposal(s) await an answer: answer in a terminal", "1 proposal(s) await an answer: answer in a terminal."),
            ("NEW_KIND|a|b", "New kind: a; b."),
            ("verdict: NO-GO (2 Critical)", "Verdict: NO-GO (2 Critical)."),
        ];
        for (note, expected) in cases {
            assert_eq!(sentence(note), expected, "{note}");
        }
    }
}
