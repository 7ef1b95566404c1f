//! `quality/omission-marker`: places where code was left out and a marker stands in for it —
//! the typical trace of generated code that was never finished (`// ...`, `// 以下同様`).
//!
//! A comment matches when its whole text is a marker (case and trailing dots or colons aside),
//! or, for the ellipsis, when it starts with one and goes on to say what was left out
//! (`// ... rest of the handlers`, `// ... existing code ...`) — not when it continues a sentence
//! (`// ... but only if`). Prose is not searched: doc comments (`/// ...` in a doc list), a
//! comment line that continues the comment above it (a list in a comment ending in `// ...`),
//! and comments inside `macro_rules!` bodies (separators between rules). A bare `...` line is a
//! marker in TypeScript, JavaScript and Go, and in Rust files that do not parse (in a Rust file
//! that parses it can only be a macro token); in Python it is `Ellipsis` and never flagged.
//! A marker comment stands where code would be, on a line of its own: a comment after code on
//! its line (`25, // etc`) annotates that code. In test code a bare ellipsis elides what the test
//! does not need (a regression test reproducing a user's program); there only a marker that says
//! code was left out (`// ... rest of the assertions`) counts.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::{Comment, LexLine};
use crate::rules::line_hits::LazyTestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

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

/// The default omission markers of the Inspectors spec.
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
    category: Category::Incomplete,
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
        let lines = file.lexed(lang);
        let candidates: Vec<(usize, String)> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| !continues_comment(&lines, *i))
            .filter_map(|(i, line)| find_marker(line, lang).map(|m| (i, m)))
            .collect();
        if candidates.is_empty() {
            return;
        }
        // In Rust that parses, a bare `...` line can only be a macro token, and a comment inside
        // a `macro_rules!` body separates rules rather than standing in for code.
        let (parses, macro_bodies) = match (lang, file.rust_ast()) {
            (Language::Rust, Some(Ok(ast))) => {
                let mut bodies = MacroBodies(Vec::new());
                bodies.visit_file(ast);
                (true, bodies.0)
            }
            _ => (false, Vec::new()),
        };
        let mut tests = LazyTestCode::new(file);
        for (i, marker) in candidates {
            let number = lines[i].number;
            let in_macro = macro_bodies
                .iter()
                .any(|&(a, b)| a <= number && number <= b);
            if in_macro || (parses && marker == "...") || separates_items(&lines, i, &marker) {
                continue;
            }
            if is_bare(&marker) && (file.is_test_file() || tests.contains(number)) {
                continue;
            }
            let previous = lines[..i]
                .iter()
                .rev()
                .map(|l| l.text.trim())
                .find(|t| !t.is_empty())
                .unwrap_or_default();
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, number),
                    format!("omission marker `{marker}`: code was left out here"),
                    format!("{marker} after {previous}"),
                )
                .suggest("write the omitted code out in full"),
            );
        }
    }
}

/// Line ranges of `macro_rules!` definitions.
struct MacroBodies(Vec<(u32, u32)>);

impl<'ast> Visit<'ast> for MacroBodies {
    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        if m.mac.path.is_ident("macro_rules") {
            let span = m.span();
            self.0
                .push((span.start().line as u32, span.end().line as u32));
        }
        visit::visit_item_macro(self, m);
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
                // Only on a line of its own: after code, a comment annotates that code.
                if code.is_empty() && line.comments().any(|c| !c.doc && comment_is(c, text)) {
                    return Some(line.text.trim().to_string());
                }
            }
            Marker::Line(_) => {}
        }
    }
    None
}

/// Whether line `i` is a comment-only line right after another one: an ellipsis that goes on
/// from a comment (`// (0, 1)` / `// (2, 3)` / `// ...`) is prose, not an omission.
fn continues_comment(lines: &[LexLine<'_>], i: usize) -> bool {
    let comment_only = |l: &LexLine<'_>| l.has_comment() && !l.has_code();
    let above = i.checked_sub(1).and_then(|j| lines.get(j));
    lines.get(i).is_some_and(comment_only) && above.is_some_and(comment_only)
}

/// Whether a marker is a bare ellipsis (`...`, `// ...`, `# …`), saying nothing of what is gone.
fn is_bare(marker: &str) -> bool {
    marker
        .trim_start_matches(['#', '/', '*', ' '])
        .trim_end_matches(['*', '/', ' '])
        .chars()
        .all(|c| c == '.' || c == '…')
}

/// Whether a bare ellipsis comment (`# ...`, `// …`) stands between two items of a list: the
/// code line above ends with a `,` and the code line below continues the list at the comment's
/// indentation — a separator between groups of cases, not code left out (nothing is missing
/// where the list goes on).
fn separates_items(lines: &[LexLine<'_>], i: usize, marker: &str) -> bool {
    let bare = is_bare(marker);
    let indent = |t: &str| t.len() - t.trim_start().len();
    let code_at = |l: &LexLine<'_>| l.has_code().then(|| l.code());
    let above = lines[..i].iter().rev().find_map(code_at);
    let below = lines[i + 1..].iter().find(|l| l.has_code());
    bare && !lines[i].has_code()
        && above.is_some_and(|c| c.trim_end().ends_with(','))
        && below.is_some_and(|l| {
            let code = l.code();
            indent(l.text) == indent(lines[i].text)
                && !code.trim_start().starts_with([')', ']', '}'])
        })
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
        let lower = rest.to_lowercase();
        return rest.is_empty()
            || OMISSION_WORDS.contains(&first_word.as_str())
            || lower.starts_with("and so on")
            || ["omitted", "unchanged", "elided"]
                .iter()
                .any(|w| lower.contains(w));
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
        let ts =
            "const a = {\n  x: 1,\n  // Etc.\n};\n// 以下同様\nrun();\n// ... existing code ...\n";
        let lines: Vec<u32> = hits(&OmissionMarker, "web/a.ts", ts)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![3, 5, 7]);
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
    fn annotations_after_code_and_elisions_in_tests_are_not_omissions() {
        let table = "const NUM_PRIMES: &[usize] = &[\n    0,  // primes in 0..10^0\n    25, // etc\n    168,\n];\n";
        assert!(hits(&OmissionMarker, "src/sieve.rs", table).is_empty());
        let repro = "#[test]\nfn out_of_scope_fields() {\n    fn call() -> u8 {\n        // ...\n        let m = 1;\n        // ...\n        m\n    }\n    // ... rest of the assertions\n}\n";
        assert_eq!(
            hits(&OmissionMarker, "tests/async_fn.rs", repro)
                .into_iter()
                .map(|h| h.0)
                .collect::<Vec<_>>(),
            vec![9],
            "in a test only a marker that says code is gone counts"
        );
        let shipped = repro.replace("#[test]\n", "");
        assert_eq!(hits(&OmissionMarker, "src/call.rs", &shipped).len(), 3);
    }

    #[test]
    fn quiet_on_an_ellipsis_between_list_items_but_not_at_its_end() {
        let py = "CASES = [\n    (\"a\", 1),\n    # ...\n    (\"b\", 2),\n]\nMORE = [\n    (\"c\", 3),\n    # ...\n]\n";
        assert_eq!(
            hits(&OmissionMarker, "app/cases.py", py),
            vec![(
                8,
                "omission marker `# ...`: code was left out here".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_python_ellipsis_prose_doc_lists_and_strings() {
        let py = "class P(Protocol):\n    def f(self) -> int:\n        ...\n";
        assert!(hits(&OmissionMarker, "app/p.py", py).is_empty());
        let rust = "/// one\n/// ...\n/// ten\nfn f(v: &[u8]) -> &[u8] {\n    // remaining bytes are padding\n    let s = \"...\";\n    // ... but only when aligned.\n    // ...generate a new sample to reduce bias...\n    &v[..]\n}\n// (0, 1)\n// (2, 3)\n// ...\nmacro_rules! m {\n    ($a:expr\n    ...\n    ) => {};\n    // ...\n    () => {};\n}\n";
        assert!(hits(&OmissionMarker, "src/a.rs", rust).is_empty());
        let go = "func f(args ...int) {}\n// versions:\n// 1.0.0\n// ...\n// 1.0.9\n";
        assert!(hits(&OmissionMarker, "x/f.go", go).is_empty());
    }
}
