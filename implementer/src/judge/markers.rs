//! Text scanners for Q2 (TODO markers), Q3 (omission markers) and Q6 (early termination).
//!
//! The executor's output mixes prose and code: TODO and omission markers are looked for in its
//! fenced code blocks only (an agent that writes "removed the TODO" in prose has not left one),
//! and early termination claims in its prose only (`println!("Done.")` in a code block is code).

/// The executor output split into prose lines and fenced-code lines, each with its 1-based line.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct OutputParts<'a> {
    pub(crate) prose: Vec<(usize, &'a str)>,
    pub(crate) code: Vec<(usize, &'a str)>,
}

/// Splits `output` at ``` and ~~~ fences; the fence lines themselves belong to neither part.
pub(crate) fn split_output(output: &str) -> OutputParts<'_> {
    let mut parts = OutputParts::default();
    let mut fence: Option<&str> = None;
    for (i, line) in output.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (Some(_), _) => parts.code.push((i + 1, line)),
            (None, None) => parts.prose.push((i + 1, line)),
        }
    }
    parts
}

/// The TODO-style marker in `line`: `TODO`, `FIXME` or `TBD` as whole upper-case words, or
/// Rust's `todo!(` / `unimplemented!(`.
pub(crate) fn todo_marker(line: &str) -> Option<&'static str> {
    for mac in ["todo!(", "unimplemented!("] {
        if find_word_start(line, mac).is_some() {
            return Some(if mac == "todo!(" {
                "todo!()"
            } else {
                "unimplemented!()"
            });
        }
    }
    ["TODO", "FIXME", "TBD"]
        .into_iter()
        .find(|word| find_whole_word(line, word))
}

/// The omission pattern `line` holds, if any (see `LoopConfig::omission_patterns`).
pub(crate) fn omission_marker<'p>(line: &str, patterns: &'p [String]) -> Option<&'p str> {
    let trimmed = line.trim();
    let comment = comment_text(line);
    patterns.iter().map(String::as_str).find(|p| {
        if p.is_empty() {
            return false;
        }
        if has_comment_marker(p) {
            return line.contains(p);
        }
        trimmed == *p || comment.is_some_and(|c| c == *p || c.ends_with(p))
    })
}

/// The early termination pattern `line` holds, matched case-sensitively and not as the tail
/// of a longer word ("Undone." is not "Done.").
pub(crate) fn early_termination<'p>(line: &str, patterns: &'p [String]) -> Option<&'p str> {
    patterns
        .iter()
        .map(String::as_str)
        .find(|p| !p.is_empty() && find_word_start(line, p).is_some())
}

fn has_comment_marker(pattern: &str) -> bool {
    ["//", "/*", "#", "--", "<!--"]
        .iter()
        .any(|m| pattern.contains(m))
}

/// The text of a line comment or one-line block comment on `line`, trimmed.
fn comment_text(line: &str) -> Option<&str> {
    let starts = ["//", "/*", "# ", "-- ", "<!--"];
    let at = starts
        .iter()
        .filter_map(|m| line.find(m).map(|i| (i, *m)))
        .min();
    let (i, marker) = at?;
    let body = line[i + marker.len()..].trim_start_matches(['/', '*', '!']);
    let body = body.trim();
    let body = body.strip_suffix("*/").unwrap_or(body);
    let body = body.strip_suffix("-->").unwrap_or(body);
    Some(body.trim())
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where `needle` starts in `line` with no word character right before it.
fn find_word_start(line: &str, needle: &str) -> Option<usize> {
    line.match_indices(needle).map(|(i, _)| i).find(|&i| {
        let before = line[..i].chars().next_back();
        !before.is_some_and(is_word_char) || !needle.starts_with(is_word_char)
    })
}

fn find_whole_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LoopConfig;

    #[test]
    fn output_splits_into_prose_and_fenced_code() {
        let out = "Changed it.\n```rust\nfn a() {} // TODO\n```\nDone.\n~~~\nx\n~~~\n";
        let parts = split_output(out);
        assert_eq!(parts.prose, [(1, "Changed it."), (5, "Done.")]);
        assert_eq!(parts.code, [(3, "fn a() {} // TODO"), (7, "x")]);
    }

    #[test]
    fn todo_markers_are_whole_upper_case_words_or_macros() {
        assert_eq!(todo_marker("    // TODO: handle errors"), Some("TODO"));
        assert_eq!(todo_marker("/* FIXME */"), Some("FIXME"));
        assert_eq!(todo_marker("size: TBD"), Some("TBD"));
        assert_eq!(todo_marker("    todo!()"), Some("todo!()"));
        assert_eq!(
            todo_marker("x => unimplemented!(\"later\"),"),
            Some("unimplemented!()")
        );
        assert_eq!(todo_marker("let todo_list = TODOS;"), None);
        assert_eq!(todo_marker("fn my_todo!() {}"), None);
        assert_eq!(todo_marker("no markers here"), None);
    }

    #[test]
    fn omission_markers_match_comments_and_whole_lines() {
        let p = LoopConfig::default().omission_patterns;
        assert_eq!(omission_marker("    // ...", &p), Some("..."));
        assert_eq!(omission_marker("    ...", &p), Some("..."));
        assert_eq!(
            omission_marker("// rest of the handlers...", &p),
            Some("...")
        );
        assert_eq!(
            omission_marker("    // remaining cases", &p),
            Some("// remaining")
        );
        assert_eq!(omission_marker("// 残り省略", &p), Some("// 残り省略"));
        assert_eq!(omission_marker("f(...args);", &p), None);
        assert_eq!(omission_marker("let r = 0..=9;", &p), None);
        assert_eq!(omission_marker("#[derive(Debug)]", &p), None);
    }

    #[test]
    fn early_termination_needs_the_exact_phrase_at_a_word_start() {
        let p = LoopConfig::default().early_termination_patterns;
        assert_eq!(
            early_termination("All changes made. Done.", &p),
            Some("Done.")
        );
        assert_eq!(early_termination("Done.", &p), Some("Done."));
        assert_eq!(
            early_termination("実装しました。以上です", &p),
            Some("以上です")
        );
        assert_eq!(
            early_termination("This completes the task", &p),
            Some("This completes")
        );
        assert_eq!(early_termination("Undone. done. Done", &p), None);
        assert_eq!(early_termination("Added the parser.", &p), None);
    }
}
