//! `session.md` as text: the drafted sections written fresh, every other section kept byte for
//! byte where the user put it. A section runs from its `## ` heading to the next one; what
//! comes before the first is the title and its blockquote, which retake writes.

use super::{exceptions, Draft};

/// The sections retake drafts, in the order a first draft has them.
pub const DRAFTED: [&str; 3] = ["Last command", "Verdicts and decisions", "Pending"];

/// The user's section for notes.
pub const NOTES: &str = "Notes";

/// One `## ` section of a handover: its heading's text and its whole text (heading included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Section<'a> {
    /// The heading's text, trimmed (`Notes`).
    pub title: &'a str,
    /// The section's bytes, from its heading line to the next heading.
    pub text: &'a str,
}

/// The text before the first section, and the sections in order.
pub(super) fn sections(text: &str) -> (&str, Vec<Section<'_>>) {
    let mut starts: Vec<usize> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("## ") {
            starts.push(at);
        }
        at += line.len();
    }
    let preamble = &text[..starts.first().copied().unwrap_or(text.len())];
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    let sections = starts
        .iter()
        .zip(ends)
        .map(|(&start, end)| {
            let text = &text[start..end];
            let heading = text.lines().next().unwrap_or_default();
            Section {
                title: heading.trim_start_matches('#').trim(),
                text,
            }
        })
        .collect();
    (preamble, sections)
}

/// Whether a heading's text names `title` (case and surrounding blanks aside).
pub(super) fn is(title: &str, wanted: &str) -> bool {
    title.trim().eq_ignore_ascii_case(wanted)
}

/// The handover's new text: `draft`'s sections in place of the drafted ones of `previous`, the
/// user's sections kept as written, and the Steering Exceptions and Notes sections added with
/// their explanation when `previous` has none.
pub fn render(previous: Option<&str>, draft: &Draft) -> String {
    let (_, old) = sections(previous.unwrap_or_default());
    let drafted = |i: usize| drafted_section(i, draft);
    let present: Vec<bool> = DRAFTED
        .iter()
        .map(|d| old.iter().any(|s| is(s.title, d)))
        .collect();
    let mut out = title(draft);
    // Drafted sections missing from `previous` go where a first draft has them: after the
    // drafted section before them, or first.
    let mut next = 0;
    let catch_up = |out: &mut String, next: &mut usize, until: usize| {
        while *next < until {
            if !present[*next] {
                push(out, &drafted(*next));
            }
            *next += 1;
        }
    };
    let first_present = present.iter().position(|p| *p).unwrap_or(DRAFTED.len());
    catch_up(&mut out, &mut next, first_present);
    let mut written = [false; DRAFTED.len()];
    for section in &old {
        match DRAFTED.iter().position(|d| is(section.title, d)) {
            Some(i) if !written[i] => {
                written[i] = true;
                push(&mut out, &drafted(i));
                next = next.max(i + 1);
                let until = (next..DRAFTED.len())
                    .find(|j| present[*j])
                    .unwrap_or(DRAFTED.len());
                catch_up(&mut out, &mut next, until);
            }
            // A drafted heading written twice: the first one stands for it.
            Some(_) => {}
            None => push(&mut out, section.text),
        }
    }
    catch_up(&mut out, &mut next, DRAFTED.len());
    if !old.iter().any(|s| is(s.title, exceptions::HEADING)) {
        push(&mut out, EXCEPTIONS_TEMPLATE);
    }
    if !old.iter().any(|s| is(s.title, NOTES)) {
        push(&mut out, NOTES_TEMPLATE);
    }
    out
}

/// Appends `section`, on a line of its own.
fn push(out: &mut String, section: &str) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(section);
}

/// The title and the blockquote saying who writes what.
fn title(draft: &Draft) -> String {
    format!(
        "# Session handover\n\n\
         > Drafted by retake after every review, run, fix and resume; last drafted at {} by `{}`.\n\
         > The sections \"Steering Exceptions\" and \"Notes\", and any section retake does not draft, are yours: they are kept as written.\n\n",
        draft.at, draft.command
    )
}

/// The `i`th drafted section of [`DRAFTED`].
fn drafted_section(i: usize, draft: &Draft) -> String {
    let body = match i {
        0 => {
            let mut lines = vec![format!("- `{}` at {}", draft.command, draft.at)];
            lines.extend(draft.outcome.iter().map(|l| format!("- {l}")));
            lines
        }
        1 => {
            let mut lines = if draft.verdicts.is_empty() {
                vec!["No verdicts yet.".to_string()]
            } else {
                draft.verdicts.clone()
            };
            if !draft.decisions.is_empty() {
                lines.push(String::new());
                lines.push(format!(
                    "Last decisions ({}):",
                    crate::steering::DECISIONS_MD
                ));
                lines.push(String::new());
                lines.extend(draft.decisions.iter().cloned());
            }
            lines
        }
        _ if draft.pending.is_empty() => vec!["Nothing pending.".to_string()],
        _ => draft.pending.clone(),
    };
    format!("## {}\n\n{}\n\n", DRAFTED[i.min(2)], body.join("\n"))
}

/// A first draft's Steering Exceptions: the columns explained, the table empty.
const EXCEPTIONS_TEMPLATE: &str = "## Steering Exceptions\n\n\
<!-- Rules suspended on purpose, one row each. Feature: a feature (specs/<feature>/) or * for every review. \
Rule: a rule id (quality/unwrap-in-library) or a finding category (unwrap-in-library). \
Where: a file, or a folder ending with /; blank for anywhere. Decided by and Why are required: a row without them is not applied. \
A review applies the rows as committed (the change under review never configures its own gate); \
the Auditor removes each covered finding with a REMOVED row quoting the row. -->\n\n\
| Feature | Rule | Where | Decided by | Why |\n\
|---|---|---|---|---|\n\n";

/// A first draft's Notes: an invitation.
const NOTES_TEMPLATE: &str =
    "## Notes\n\n<!-- Notes for the next session: retake keeps this section as you write it. -->\n";
