//! The layout shared by reports and verdicts: an optional fence, metadata before the first
//! section, then sections of lines. Reading rows and notes is left to report.rs and verdict.rs.

use super::escape::header_name;
use super::CpfError;

/// What kind of document is being read: its name in messages and its sections.
pub(super) struct Layout<S: 'static> {
    /// How messages name the document ("an Inspector report").
    pub(super) label: &'static str,
    /// The section names, in writer order, with the tag the reader matches on.
    pub(super) sections: &'static [(&'static str, S)],
}

/// One non-blank line of the input, trimmed, with its 1-based number in the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Line<'a> {
    /// 1-based line number.
    pub(super) number: usize,
    /// The line without surrounding whitespace (and without a `\r`).
    pub(super) text: &'a str,
}

/// A section as it appears in the input: its tag and its lines.
#[derive(Debug)]
pub(super) struct Section<'a, S> {
    /// Which section.
    pub(super) tag: S,
    /// Its non-blank lines.
    pub(super) lines: Vec<Line<'a>>,
}

/// A scanned document: metadata values (trimmed, still escaped) and sections in input order.
#[derive(Debug)]
pub(super) struct Document<'a, S> {
    /// The `VERDICT:` value and its line.
    pub(super) verdict: Option<Line<'a>>,
    /// The `SCOPE:` value and its line.
    pub(super) scope: Option<Line<'a>>,
    /// Sections in the order they appear; a repeated header appears twice.
    pub(super) sections: Vec<Section<'a, S>>,
    /// The first line with content (1 for an empty input), for errors about what is missing.
    pub(super) first_line: usize,
}

const FENCE_OPENERS: [&str; 3] = ["```", "```text", "```cpf"];

/// Splits `text` into metadata and sections, or says which line is out of place.
pub(super) fn scan<'a, S: Copy>(
    text: &'a str,
    layout: &Layout<S>,
) -> Result<Document<'a, S>, CpfError> {
    let lines: Vec<Line<'a>> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| Line {
            number: i + 1,
            text: l.trim(),
        })
        .filter(|l| !l.text.is_empty())
        .collect();
    let content = strip_fence(&lines)?;
    let mut doc = Document {
        verdict: None,
        scope: None,
        sections: Vec::new(),
        first_line: content.first().map_or(1, |l| l.number),
    };
    for &line in content {
        if let Some(name) = header_name(line.text) {
            if let Some(&(_, tag)) = layout.sections.iter().find(|(n, _)| *n == name) {
                doc.sections.push(Section {
                    tag,
                    lines: Vec::new(),
                });
                continue;
            }
            let is_key = name == "VERDICT" || name == "SCOPE";
            if !(is_key && doc.sections.is_empty()) {
                return Err(unknown_header(line, name, layout));
            }
        }
        if let Some(section) = doc.sections.last_mut() {
            section.lines.push(line);
        } else if let Some(value) = line.text.strip_prefix("VERDICT:") {
            set_once(&mut doc.verdict, line, value, "VERDICT")?;
        } else if let Some(value) = line.text.strip_prefix("SCOPE:") {
            set_once(&mut doc.scope, line, value, "SCOPE")?;
        } else {
            return Err(outside_section(line, layout));
        }
    }
    Ok(doc)
}

/// Without a fence, all lines; with one, the lines between it and the closing ``` line.
fn strip_fence<'l, 'a>(lines: &'l [Line<'a>]) -> Result<&'l [Line<'a>], CpfError> {
    let Some(first) = lines.first() else {
        return Ok(lines);
    };
    let opener = first.text.to_ascii_lowercase();
    if !FENCE_OPENERS.contains(&opener.as_str()) {
        return Ok(lines);
    }
    match lines.split_last() {
        Some((last, rest)) if lines.len() >= 2 && last.text == "```" => {
            Ok(rest.get(1..).unwrap_or_default())
        }
        _ => Err(CpfError::new(
            first.number,
            "the ``` fence opened here is not closed: the last non-blank line must be ```",
        )),
    }
}

fn set_once<'a>(
    slot: &mut Option<Line<'a>>,
    line: Line<'a>,
    value: &'a str,
    key: &str,
) -> Result<(), CpfError> {
    if let Some(first) = slot {
        return Err(CpfError::new(
            line.number,
            format!(
                "a second {key}: line (the first is on line {}); keep only one",
                first.number
            ),
        ));
    }
    *slot = Some(Line {
        number: line.number,
        text: value.trim(),
    });
    Ok(())
}

fn expected_headers<S>(layout: &Layout<S>) -> String {
    let names: Vec<String> = layout
        .sections
        .iter()
        .map(|(n, _)| format!("{n}:"))
        .collect();
    names.join(", ")
}

fn unknown_header<S>(line: Line<'_>, name: &str, layout: &Layout<S>) -> CpfError {
    let problem = if name == "VERDICT" || name == "SCOPE" {
        format!("{name}: must come before the first section header")
    } else {
        format!(
            "unknown section '{name}' in {} (expected one of: {})",
            layout.label,
            expected_headers(layout)
        )
    };
    CpfError::new(line.number, problem)
}

fn outside_section<S>(line: Line<'_>, layout: &Layout<S>) -> CpfError {
    let expected = format!(
        "expected VERDICT:, SCOPE: or a section header ({})",
        expected_headers(layout)
    );
    let key = line.text.split_once(':').map(|(k, _)| k.trim());
    let key_like = key.filter(|k| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    });
    let problem = if let Some(key) = key_like {
        format!("unknown key '{key}' ({expected})")
    } else if line.text.contains('|') {
        format!("a row outside any section ({expected} before it)")
    } else {
        format!("unexpected text outside any section ({expected})")
    };
    CpfError::new(line.number, problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: Layout<u8> = Layout {
        label: "a test document",
        sections: &[("ROWS", 0), ("NOTES", 1)],
    };

    fn tags<'a>(doc: &Document<'a, u8>) -> Vec<(u8, Vec<(usize, &'a str)>)> {
        doc.sections
            .iter()
            .map(|s| (s.tag, s.lines.iter().map(|l| (l.number, l.text)).collect()))
            .collect()
    }

    #[test]
    fn reads_metadata_and_sections_with_original_line_numbers() {
        let text = "\r\n  VERDICT: GO \r\nSCOPE:feature\r\n\r\nROWS:\r\na|b  \r\n\nNOTES:\nx\nROWS:\nc|d\n";
        let doc = scan(text, &LAYOUT).unwrap();
        assert_eq!(doc.verdict.map(|l| (l.number, l.text)), Some((2, "GO")));
        assert_eq!(doc.scope.map(|l| (l.number, l.text)), Some((3, "feature")));
        assert_eq!(doc.first_line, 2);
        assert_eq!(
            tags(&doc),
            vec![
                (0, vec![(6, "a|b")]),
                (1, vec![(9, "x")]),
                (0, vec![(11, "c|d")])
            ]
        );
    }

    #[test]
    fn strips_a_surrounding_fence() {
        for opener in ["```", "```text", "```cpf", "  ```CPF  "] {
            let text = format!("\n{opener}\nVERDICT:GO\nROWS:\na|b\n```\n\n");
            let doc = scan(&text, &LAYOUT).unwrap();
            assert_eq!(doc.first_line, 3);
            assert_eq!(tags(&doc), vec![(0, vec![(5, "a|b")])]);
        }
        assert!(scan("```\n```", &LAYOUT).unwrap().sections.is_empty());
    }

    #[test]
    fn an_unclosed_fence_is_an_error_on_its_line() {
        let err = scan("\n```\nVERDICT:GO\nROWS:\na|b\n", &LAYOUT).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: the ``` fence opened here is not closed: the last non-blank line must be ```"
        );
        assert_eq!(scan("```", &LAYOUT).unwrap_err().line, 1);
    }

    #[test]
    fn a_fence_only_at_the_end_is_an_error() {
        let err = scan("VERDICT:GO\n```", &LAYOUT).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err
            .problem
            .starts_with("unexpected text outside any section"));
    }

    #[test]
    fn unknown_and_misplaced_headers_are_errors() {
        let err = scan("VERDICT:GO\nROWS:\na|b\nISSUES:\n", &LAYOUT).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: unknown section 'ISSUES' in a test document (expected one of: ROWS:, NOTES:)"
        );
        let err = scan("NOTES:\nx\nSCOPE:\n", &LAYOUT).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: SCOPE: must come before the first section header"
        );
    }

    #[test]
    fn metadata_after_a_section_is_section_content() {
        let doc = scan("NOTES:\nSCOPE: widened to the crate\n", &LAYOUT).unwrap();
        assert_eq!(
            tags(&doc),
            vec![(1, vec![(2, "SCOPE: widened to the crate")])]
        );
    }

    #[test]
    fn lines_outside_sections_are_errors_naming_the_line() {
        let cases = [
            ("VERDICT:GO\nVERDICT:NO-GO", "line 2: a second VERDICT: line (the first is on line 1); keep only one"),
            ("\nVerdict: GO", "line 2: unknown key 'Verdict' (expected VERDICT:, SCOPE: or a section header (ROWS:, NOTES:))"),
            ("H|cat|a.rs|d", "line 1: a row outside any section (expected VERDICT:, SCOPE: or a section header (ROWS:, NOTES:) before it)"),
            ("some prose", "line 1: unexpected text outside any section (expected VERDICT:, SCOPE: or a section header (ROWS:, NOTES:))"),
        ];
        for (text, message) in cases {
            assert_eq!(scan(text, &LAYOUT).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn empty_scope_is_a_value() {
        let doc = scan("SCOPE:\n", &LAYOUT).unwrap();
        assert_eq!(doc.scope.map(|l| l.text), Some(""));
        assert_eq!(scan("", &LAYOUT).unwrap().first_line, 1);
    }
}
