//! `quality/todo-marker`: unfinished-work markers left in comments.
//!
//! Only comments are searched (a marker inside a string literal is data), the markers are
//! upper-case whole words (`todo list` in prose is not a marker), and doc comments count too.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::find_word;
use protocol::{Category, Dimension, Location, Severity};

/// The markers, matched as upper-case whole words.
const MARKERS: [&str; 4] = ["TODO", "FIXME", "TBD", "XXX"];

static META: RuleMeta = RuleMeta {
    id: "quality/todo-marker",
    category: Category::Incomplete,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation:
        "Unfinished-work markers (TODO, FIXME, TBD, XXX) in comments: the work is not done",
};

/// Flags unfinished-work markers in comments.
pub(crate) struct TodoMarker;

impl Rule for TodoMarker {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && MARKERS.iter().any(|m| file.text.contains(m))
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        for line in file.lexed(lang).iter() {
            let found = line.comments().find_map(|c| {
                MARKERS
                    .iter()
                    .filter_map(|m| marker_at(c.body, m).map(|at| (at, *m, c.body)))
                    .min_by_key(|(at, _, _)| *at)
            });
            if let Some((at, marker, body)) = found {
                let note = body[at..].trim();
                out.hit(
                    Hit::new(
                        Location::at(&file.rel_path, line.number),
                        format!("{marker} marker left in a comment: \"{note}\""),
                        note,
                    )
                    .suggest("finish the work, or track it in an issue and remove the marker"),
                );
            }
        }
    }
}

/// Where `marker` occurs as a word in a comment, outside `inline code` spans (a comment that
/// quotes a marker in backticks is talking about it, not leaving one).
fn marker_at(body: &str, marker: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = find_word(&body[from..], marker).map(|p| p + from) {
        let in_code_span = body[..at].matches('`').fold(false, |open, _| !open);
        if !in_code_span {
            return Some(at);
        }
        from = at + marker.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_markers_in_comments_of_each_language() {
        let rust = "fn a() {\n    let x = 1; // FIXME: overflow\n}\n/* TBD */\n";
        assert_eq!(
            hits(&TodoMarker, "src/a.rs", rust),
            vec![
                (
                    2,
                    "FIXME marker left in a comment: \"FIXME: overflow\"".to_string()
                ),
                (4, "TBD marker left in a comment: \"TBD\"".to_string()),
            ]
        );
        let py = "def f():\n    # TODO(ana): handle None\n    return 1\n";
        assert_eq!(
            hits(&TodoMarker, "app/f.py", py),
            vec![(
                2,
                "TODO marker left in a comment: \"TODO(ana): handle None\"".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_strings_prose_and_identifiers() {
        let rust = "const TODO_LIST: &str = \"TODO: not a comment\";\n// a todo list and TODOS\nfn xxx() { todo_app(); }\n/// Writes `TODO:` lines escaped.\nfn w() {}\n";
        assert!(hits(&TodoMarker, "src/a.rs", rust).is_empty());
        let js = "const s = 'FIXME'; // fine\n";
        assert!(hits(&TodoMarker, "web/a.js", js).is_empty());
        assert!(hits(&TodoMarker, "README.md", "TODO").is_empty());
    }

    #[test]
    fn inline_ignore_suppresses_it() {
        use crate::engine::{inspect, Context};
        use protocol::InspectorKind;
        let text =
            "// retake-ignore: quality/todo-marker tracked in #12\n// TODO: later\n// TODO: now\n";
        let mut ctx = Context::from_files(
            std::path::Path::new("/repo"),
            vec![SourceFile::new("src/a.rs", text)],
            crate::spec::Specs::default(),
        );
        // The rule is off in the default profile.
        ctx.options.profile = protocol::message::RuleProfile::Pedantic;
        let report = inspect(InspectorKind::Quality, &mut ctx, "inspector-quality", "r1");
        // Suppressed findings are kept, marked with the reason, for the Auditor to remove.
        let lines: Vec<(Option<u32>, Option<&str>)> = report
            .findings
            .iter()
            .filter(|f| f.rule == META.id)
            .map(|f| (f.location.line, f.suppression.as_deref()))
            .collect();
        assert_eq!(
            lines,
            vec![
                (Some(2), Some("retake-ignore: tracked in #12")),
                (Some(3), None)
            ]
        );
    }
}
