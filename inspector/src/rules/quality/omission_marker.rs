//! `quality/omission-marker`: places where code was left out and a marker stands in for it —
//! the typical trace of generated code that was never finished (`// ...`, `// 以下同様`).
//!
//! A comment matches when its whole text is a marker (case and trailing dots or colons aside),
//! or, for the ellipsis, when it starts with one and goes on to say what was left out
//! (`// ... rest of the handlers`, `// ... existing code ...`) — not when it continues a sentence
//! (`// ... but only if`). Doc comments are not searched: `/// ...` in a doc list is prose.
//! A bare `...` line is a marker in TypeScript, JavaScript and Go, and in Rust files that do not
//! parse (in a Rust file that parses it can only be a `macro_rules!` token); in Python it is the
//! `Ellipsis` expression and never flagged.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::lexical::{lex, Comment, LexLine};
use protocol::{Dimension, Location, Severity};

/// One omission marker.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Marker {
    /// A line that holds only this text (outside strings and comments).
    Line(&'static str),
    /// A comment whose text is this marker.
    Comment(&'static str),
}

/// Words that, right after a leading ellipsis, say that code was left out.
const OMISSION_WORDS: [&str; 8] = [
    "rest",
    "remaining",
    "existing",
    "omitted",
    "snip",
    "etc",
    "省略",
    "以下同様",
];

/// The default omission markers of chapter 02.
pub(crate) const DEFAULT_MARKERS: [Marker; 8] = [
    Marker::Line("..."),
    Marker::Comment("..."),
    Marker::Comment("remaining"),
    Marker::Comment("and so on"),
    Marker::Comment("etc."),
    Marker::Comment("残り省略"),
    Marker::Comment("以下同様"),
    Marker::Comment("省略"),
];

static META: RuleMeta = RuleMeta {
    id: "quality/omission-marker",
    category: "incomplete",
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation: "Omission markers (a bare `...` line, `// ...`, `// etc.`, `// 以下同様`) where code was left out",
};

/// Flags omission markers.
pub(crate) struct OmissionMarker;

impl Rule for OmissionMarker {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        // Lower-case tails so that "Remaining" and "remaining" both pass the cheap test.
        const NEEDLES: [&str; 9] = [
            "...",
            "…",
            "emaining",
            "nd so on",
            "etc",
            "Etc",
            "ETC",
            "省略",
            "以下同様",
        ];
        file.language.is_some_and(|l| META.languages.contains(&l))
            && NEEDLES.iter().any(|n| file.text.contains(n))
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let lines = lex(&file.text, lang);
        let mut previous = "";
        // In Rust, a bare `...` line only survives parsing inside a macro definition.
        let mut bare_lines_count = None;
        for (i, line) in lines.iter().enumerate() {
            let marker = find_marker(line, lang)
                .filter(|_| !inside_comment_block(&lines, i))
                .filter(|m| {
                    m != "..."
                        || lang != Language::Rust
                        || *bare_lines_count
                            .get_or_insert_with(|| matches!(file.rust_ast(), Some(Err(_))))
                });
            if let Some(marker) = marker {
                out.hit(
                    Hit::new(
                        Location::at(&file.rel_path, line.number),
                        format!("omission marker `{marker}`: code was left out here"),
                        format!("{marker} after {previous}"),
                    )
                    .suggest("write the omitted code out in full"),
                );
            }
            if !line.text.trim().is_empty() {
                previous = line.text.trim();
            }
        }
    }
}

/// The marker on `line`, as written in the report (`// etc.`, `...`).
fn find_marker(line: &LexLine<'_>, lang: Language) -> Option<String> {
    let code = line.code();
    let code = code.trim();
    let bare_line_counts = lang != Language::Python;
    for marker in DEFAULT_MARKERS {
        match marker {
            Marker::Line(text) if bare_line_counts && (code == text || code == "…") => {
                return Some(text.to_string());
            }
            Marker::Comment(text) => {
                if let Some(c) = line.comments().find(|c| !c.doc && comment_is(c, text)) {
                    if code.is_empty() {
                        return Some(line.text.trim().to_string());
                    }
                    let lead = if lang == Language::Python { "#" } else { "//" };
                    return Some(format!("{lead} {}", c.body.trim()));
                }
            }
            Marker::Line(_) => {}
        }
    }
    None
}

/// Whether line `i` is a comment-only line between two other comment-only lines: an ellipsis
/// in the middle of a comment is prose (`// 1.0.1` / `// ...` / `// 1.0.9`), not an omission.
fn inside_comment_block(lines: &[LexLine<'_>], i: usize) -> bool {
    let comment_only = |l: &LexLine<'_>| l.has_comment() && l.code().trim().is_empty();
    let above = i.checked_sub(1).and_then(|j| lines.get(j));
    lines.get(i).is_some_and(comment_only)
        && above.is_some_and(comment_only)
        && lines.get(i + 1).is_some_and(comment_only)
}

/// Whether a comment's text is `marker`.
fn comment_is(comment: &Comment<'_>, marker: &str) -> bool {
    let body = comment.body.trim().trim_start_matches('*').trim();
    if marker == "..." {
        let Some(rest) = body.strip_prefix("...").or_else(|| body.strip_prefix('…')) else {
            return false;
        };
        let rest = rest.trim_start_matches(['.', '…']).trim();
        let first_word = rest
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default()
            .to_lowercase();
        return rest.is_empty()
            || rest.ends_with("...")
            || rest.ends_with('…')
            || OMISSION_WORDS.contains(&first_word.as_str())
            || rest.to_lowercase().starts_with("and so on");
    }
    normalise(body) == normalise(marker)
}

fn normalise(text: &str) -> String {
    text.trim_matches(|c: char| c.is_whitespace() || matches!(c, '.' | '…' | ':' | '。'))
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_bare_ellipsis_lines_and_marker_comments() {
        let rust = "fn a() {\n    step_one();\n    ...\n}\nfn b() {\n    // ... rest of the handlers\n}\n/* 省略 */\n";
        assert_eq!(
            hits(&OmissionMarker, "src/a.rs", rust),
            vec![
                (
                    3,
                    "omission marker `...`: code was left out here".to_string()
                ),
                (
                    6,
                    "omission marker `// ... rest of the handlers`: code was left out here"
                        .to_string()
                ),
                (
                    8,
                    "omission marker `/* 省略 */`: code was left out here".to_string()
                ),
            ]
        );
        let ts = "const a = {\n  x: 1,\n  // Etc.\n};\n// 以下同様\n// ... existing code ...\n";
        let lines: Vec<u32> = hits(&OmissionMarker, "web/a.ts", ts)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![3, 5, 6]);
        let py = "def f():\n    # and so on\n    pass\n";
        assert_eq!(
            hits(&OmissionMarker, "app/f.py", py),
            vec![(
                2,
                "omission marker `# and so on`: code was left out here".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_python_ellipsis_prose_doc_lists_and_strings() {
        let py = "class P(Protocol):\n    def f(self) -> int:\n        ...\n";
        assert!(hits(&OmissionMarker, "app/p.py", py).is_empty());
        let rust = "/// one\n/// ...\n/// ten\nfn f(v: &[u8]) -> &[u8] {\n    // remaining bytes are padding\n    // ... but only when aligned.\n    let s = \"...\";\n    &v[..]\n}\nmacro_rules! m {\n    ($a:expr\n    ...\n    ) => {};\n}\n";
        assert!(hits(&OmissionMarker, "src/a.rs", rust).is_empty());
        let go = "func f(args ...int) {}\n// versions:\n// 1.0.0\n// ...\n// 1.0.9\n";
        assert!(hits(&OmissionMarker, "x/f.go", go).is_empty());
    }
}
