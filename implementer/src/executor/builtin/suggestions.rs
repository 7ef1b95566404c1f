//! Machine-applicable suggestions from cargo's JSON diagnostics (`--message-format=json`), and
//! their application to a file's text. Pure: the caller runs cargo and writes the files.
//!
//! One suggestion is one `help` child of a diagnostic whose spans all carry a replacement with
//! `suggestion_applicability: MachineApplicable`; its spans are applied together or not at all.
//! Positions come from the 1-based line and character columns, not the byte offsets, because
//! rustc counts bytes after normalising CRLF to LF and removing a BOM.

use serde::Deserialize;

/// One replacement of a span by new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Replacement {
    /// 1-based line and character column of the start.
    pub(crate) start: (usize, usize),
    /// 1-based line and character column just past the end.
    pub(crate) end: (usize, usize),
    /// The new text.
    pub(crate) text: String,
}

/// A fix rustc or clippy is sure of, for one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Suggestion {
    /// The file as cargo names it (relative to the workspace root, or absolute).
    pub(crate) file: String,
    /// The lint (`unused_imports`, `clippy::needless_return`).
    pub(crate) lint: String,
    /// What the fix does (`remove the whole `use` item`).
    pub(crate) message: String,
    /// The first line it touches, for the report.
    pub(crate) line: usize,
    /// Its replacements, applied together.
    pub(crate) replacements: Vec<Replacement>,
}

#[derive(Deserialize)]
struct Line {
    reason: String,
    message: Option<Diagnostic>,
}

#[derive(Deserialize)]
struct Diagnostic {
    message: String,
    code: Option<Code>,
    #[serde(default)]
    spans: Vec<Span>,
    #[serde(default)]
    children: Vec<Diagnostic>,
}

#[derive(Deserialize)]
struct Code {
    code: String,
}

#[derive(Deserialize)]
struct Span {
    file_name: String,
    line_start: usize,
    line_end: usize,
    column_start: usize,
    column_end: usize,
    suggested_replacement: Option<String>,
    suggestion_applicability: Option<String>,
}

/// Every machine-applicable suggestion in cargo's JSON output, without duplicates (with
/// `--all-targets` a library's diagnostic comes once per target). Lines that are not
/// compiler messages are skipped.
pub(crate) fn machine_applicable(json_lines: &str) -> Vec<Suggestion> {
    let mut found: Vec<Suggestion> = Vec::new();
    for line in json_lines.lines() {
        let Ok(parsed) = serde_json::from_str::<Line>(line) else {
            continue;
        };
        let (true, Some(diag)) = (parsed.reason == "compiler-message", parsed.message) else {
            continue;
        };
        let lint = diag.code.as_ref().map_or("rustc", |c| c.code.as_str());
        for child in std::iter::once(&diag).chain(&diag.children) {
            if let Some(s) = suggestion_of(child, lint) {
                if !found.contains(&s) {
                    found.push(s);
                }
            }
        }
    }
    found
}

fn suggestion_of(diag: &Diagnostic, lint: &str) -> Option<Suggestion> {
    let spans: Vec<&Span> = diag
        .spans
        .iter()
        .filter(|s| s.suggested_replacement.is_some())
        .collect();
    let first = spans.first()?;
    let sure = spans.iter().all(|s| {
        s.suggestion_applicability.as_deref() == Some("MachineApplicable")
            && s.file_name == first.file_name
    });
    if !sure {
        return None;
    }
    let replacements = spans
        .iter()
        .map(|s| Replacement {
            start: (s.line_start, s.column_start),
            end: (s.line_end, s.column_end),
            text: s.suggested_replacement.clone().unwrap_or_default(),
        })
        .collect();
    Some(Suggestion {
        file: first.file_name.clone(),
        lint: lint.to_string(),
        message: diag.message.clone(),
        line: spans
            .iter()
            .map(|s| s.line_start)
            .min()
            .unwrap_or(first.line_start),
        replacements,
    })
}

/// Applies `suggestions` (all for this file) to `text`: a suggestion any of whose spans
/// overlaps one already taken, or falls outside the text, is skipped whole. Returns the new
/// text and the indices of the suggestions applied.
pub(crate) fn apply(text: &str, suggestions: &[&Suggestion]) -> (String, Vec<usize>) {
    let starts = line_starts(text);
    let mut taken: Vec<(usize, usize, &str)> = Vec::new();
    let mut applied = Vec::new();
    for (i, s) in suggestions.iter().enumerate() {
        let ranges: Option<Vec<(usize, usize, &str)>> = s
            .replacements
            .iter()
            .map(|r| {
                let a = offset(text, &starts, r.start)?;
                let b = offset(text, &starts, r.end)?;
                (a <= b).then_some((a, b, r.text.as_str()))
            })
            .collect();
        let Some(ranges) = ranges else { continue };
        let clash = ranges
            .iter()
            .any(|&(a, b, _)| taken.iter().any(|&(c, d, _)| (a < d && c < b) || a == c));
        if !clash {
            taken.extend(ranges);
            applied.push(i);
        }
    }
    taken.sort_by_key(|t| std::cmp::Reverse(t.0));
    let mut out = text.to_string();
    for (a, b, new) in taken {
        out.replace_range(a..b, new);
    }
    (out, applied)
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The byte offset of a 1-based (line, character column), or `None` when it is not in `text`.
fn offset(text: &str, starts: &[usize], (line, column): (usize, usize)) -> Option<usize> {
    let start = *starts.get(line.checked_sub(1)?)?;
    let line_end = text[start..]
        .find('\n')
        .map_or(text.len(), |i| start + i + 1);
    let mut chars = column.checked_sub(1)?;
    // rustc does not count a leading BOM.
    if line == 1 && text.starts_with('\u{feff}') {
        chars += 1;
    }
    let line_text = &text[start..line_end];
    match line_text.char_indices().nth(chars) {
        Some((i, _)) => Some(start + i),
        None if line_text.chars().count() == chars => Some(line_end),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Abridged from `cargo clippy --message-format=json` on a two-import file.
    const CARGO: &str = r#"{"reason":"compiler-artifact","package_id":"x"}
{"reason":"compiler-message","message":{"message":"unused import: `std::collections::HashMap`","code":{"code":"unused_imports","explanation":null},"spans":[],"children":[{"message":"remove the whole `use` item","code":null,"spans":[{"file_name":"src/lib.rs","line_start":1,"line_end":2,"column_start":1,"column_end":1,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"}],"children":[]}]}}
{"reason":"compiler-message","message":{"message":"unused import: `self`","code":{"code":"unused_imports","explanation":null},"spans":[],"children":[{"message":"remove the unused import","code":null,"spans":[{"file_name":"src/lib.rs","line_start":2,"line_end":2,"column_start":16,"column_end":22,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"},{"file_name":"src/lib.rs","line_start":2,"line_end":2,"column_start":15,"column_end":16,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"},{"file_name":"src/lib.rs","line_start":2,"line_end":2,"column_start":29,"column_end":30,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"}],"children":[]}]}}
{"reason":"compiler-message","message":{"message":"unused import: `self`","code":{"code":"unused_imports","explanation":null},"spans":[],"children":[{"message":"remove the unused import","code":null,"spans":[{"file_name":"src/lib.rs","line_start":2,"line_end":2,"column_start":16,"column_end":22,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"},{"file_name":"src/lib.rs","line_start":2,"line_end":2,"column_start":15,"column_end":16,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"},{"file_name":"src/lib.rs","line_start":2,"line_end":2,"column_start":29,"column_end":30,"suggested_replacement":"","suggestion_applicability":"MachineApplicable"}],"children":[]}]}}
{"reason":"compiler-message","message":{"message":"consider a guess","code":null,"spans":[],"children":[{"message":"maybe","code":null,"spans":[{"file_name":"src/lib.rs","line_start":3,"line_end":3,"column_start":1,"column_end":2,"suggested_replacement":"x","suggestion_applicability":"MaybeIncorrect"}],"children":[]}]}}
{"reason":"build-finished","success":true}"#;

    const SOURCE: &str =
        "use std::collections::HashMap;\nuse std::fmt::{self, Display};\nfn f() {}\n";

    #[test]
    fn only_machine_applicable_suggestions_are_kept_once_each() {
        let found = machine_applicable(CARGO);
        let summary: Vec<(&str, &str, usize, usize)> = found
            .iter()
            .map(|s| {
                (
                    s.lint.as_str(),
                    s.message.as_str(),
                    s.line,
                    s.replacements.len(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("unused_imports", "remove the whole `use` item", 1, 1),
                ("unused_imports", "remove the unused import", 2, 3)
            ]
        );
    }

    #[test]
    fn suggestions_apply_together_and_clashes_are_skipped() {
        let found = machine_applicable(CARGO);
        let all: Vec<&Suggestion> = found.iter().collect();
        let (text, applied) = apply(SOURCE, &all);
        assert_eq!(text, "use std::fmt::Display;\nfn f() {}\n");
        assert_eq!(applied, [0, 1]);
        let twice = [all[1], all[1]];
        assert_eq!(apply(SOURCE, &twice).1, [0]);
    }

    #[test]
    fn positions_count_characters_and_reject_the_impossible() {
        let text = "let é = 1;\r\nx\n";
        let starts = line_starts(text);
        assert_eq!(offset(text, &starts, (1, 6)), Some(6));
        assert_eq!(offset(text, &starts, (2, 1)), Some(13));
        assert_eq!(offset(text, &starts, (2, 3)), Some(15));
        assert_eq!(offset(text, &starts, (2, 4)), None);
        assert_eq!(offset(text, &starts, (9, 1)), None);
        assert_eq!(
            offset("\u{feff}ab", &line_starts("\u{feff}ab"), (1, 2)),
            Some(4)
        );
    }
}
