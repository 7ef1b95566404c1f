//! `quality/incomplete-syntax`: a Rust file that does not parse — usually code cut off
//! mid-item or an omission left where an expression should be. The tree is the one every other
//! Rust rule shares, so this costs one parse per file in total, not one more.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/incomplete-syntax",
    category: "incomplete-syntax",
    severity: Severity::Critical,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality],
    explanation: "A Rust file that does not parse: the code is incomplete or malformed",
};

/// Flags Rust files that do not parse.
pub(crate) struct IncompleteSyntax;

impl Rule for IncompleteSyntax {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        if TEMPLATE_SUFFIXES.iter().any(|s| file.rel_path.ends_with(s)) {
            return;
        }
        if let Some(Err((line, message))) = file.rust_ast() {
            let hit = Hit::new(
                Location::at(&file.rel_path, line),
                format!("the file does not parse: {message}"),
                message,
            )
            .suggest("complete or fix the code at this line");
            out.hit(if has_template_tags(file) {
                hit.excused("template block tags (`{% … %}`) in its code: a template a build step renders into Rust")
            } else {
                hit
            });
        }
    }
}

/// Template engines' names for a template of a Rust file (`language_type.tera.rs`).
const TEMPLATE_SUFFIXES: [&str; 7] = [
    ".tera.rs",
    ".j2.rs",
    ".jinja.rs",
    ".hbs.rs",
    ".tmpl.rs",
    ".tpl.rs",
    ".template.rs",
];

/// Whether a `.rs` file holds template block tags (`{% for … %}`) in its code — which no Rust
/// program can (outside strings and comments, `{%` is not Rust): a template a build step
/// renders into Rust. A file named for a template engine (`language_type.tera.rs`, never a
/// module name rustc would load) is one for sure; tags are the file's own word for it, which a
/// change could write to hide a broken file, so they only excuse ([`Hit::excuse`]).
fn has_template_tags(file: &SourceFile) -> bool {
    file.lexed(Language::Rust)
        .iter()
        .any(|l| l.code().contains("{%"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_at_the_error_line_with_syns_message() {
        let text = "fn a() -> u32 {\n    1\n}\n\nfn b() {\n    let x = ;\n}\n";
        let found = hits(&IncompleteSyntax, "src/a.rs", text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, 6);
        assert_eq!(
            found[0].1,
            "the file does not parse: expected an expression"
        );
    }

    #[test]
    fn quiet_on_valid_rust_and_other_languages() {
        assert!(hits(&IncompleteSyntax, "src/a.rs", "fn a() {}\n").is_empty());
        assert!(hits(&IncompleteSyntax, "app/a.py", "def f(:\n").is_empty());
        // A template that build.rs renders into Rust.
        let tera = "pub enum Language {\n    {% for key in languages -%}\n        {{key}},\n    {% endfor %}\n}\n";
        assert!(hits(&IncompleteSyntax, "src/language/kinds.rs", tera).is_empty());
        assert_eq!(
            crate::rules::fixture::excused(&IncompleteSyntax, "src/language/kinds.rs", tera).len(),
            1,
            "the tags excuse the file, unless the change under review wrote it"
        );
        let named = "pub enum Language {\n    {{ variants }}\n}\n";
        assert!(hits(&IncompleteSyntax, "src/language_type.tera.rs", named).is_empty());
        assert_eq!(
            hits(&IncompleteSyntax, "src/language_type.rs", named).len(),
            1
        );
    }
}
