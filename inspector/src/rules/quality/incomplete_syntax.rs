//! `quality/incomplete-syntax`: a Rust file that does not parse — usually code cut off
//! mid-item or an omission left where an expression should be. The tree is the one every other
//! Rust rule shares, so this costs one parse per file in total, not one more.

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::project::Ecosystem;
use protocol::{Category, Dimension, Location, Severity};
use serde::{Deserialize, Serialize};

static META: RuleMeta = RuleMeta {
    id: "quality/incomplete-syntax",
    category: Category::IncompleteSyntax,
    severity: Severity::Critical,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality],
    explanation: "A Rust file that does not parse: the code is incomplete or malformed",
};

/// Why a parse failure in a Rust 2015 crate proves nothing: that edition allows syntax the
/// parser, which reads 2018 and later, refuses.
const RUST_2015: &str = "its crate is Rust 2015 (its Cargo.toml names no edition), which allows \
     syntax retake's parser (2018 and later) refuses, such as a trait method's unnamed parameter";

/// Flags Rust files that do not parse.
pub(crate) struct IncompleteSyntax;

/// What the file pass keeps of one Rust file: the files it reads as text with `include_str!`
/// (repository-relative), and its hit when it does not parse.
#[derive(Serialize, Deserialize)]
struct Facts {
    includes: Vec<String>,
    hit: Option<Hit>,
}

impl Rule for IncompleteSyntax {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let includes = included_texts(file);
        let hit = self.hit(file);
        if hit.is_some() || !includes.is_empty() {
            out.keep(Facts { includes, hit });
        }
    }

    /// A file another file reads with `include_str!` is text to that program (a fixture, a
    /// fake `core` for tests), which no crate compiles: its parse failure is excused. So is one
    /// in a Rust 2015 crate, whose syntax the parser does not fully read (an excuse, so what a
    /// change writes there still gates).
    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let facts: Vec<Facts> = out.kept(ctx, self);
        let included: Vec<&str> = facts
            .iter()
            .flat_map(|f| f.includes.iter().map(String::as_str))
            .collect();
        for hit in facts.iter().filter_map(|f| f.hit.clone()) {
            let rust_2015 = || {
                ctx.project
                    .package_of(&hit.location.path, Ecosystem::Cargo)
                    .is_some_and(|p| p.edition == Some(2015))
            };
            out.hit(if hit.excuse.is_some() {
                hit
            } else if included.contains(&hit.location.path.as_str()) {
                hit.excused("another file reads it as text with `include_str!`: data, not a module any crate compiles")
            } else if rust_2015() {
                hit.excused(RUST_2015)
            } else {
                hit
            });
        }
    }
}

impl IncompleteSyntax {
    /// The file's hit, when it does not parse.
    fn hit(&self, file: &SourceFile) -> Option<Hit> {
        // Documentation's code is shown, not compiled: a chapter's fragment with hidden lines;
        // an example or a course's exercise may be left broken for the reader to fix.
        if TEMPLATE_SUFFIXES.iter().any(|s| file.rel_path.ends_with(s)) || file.is_illustration() {
            return None;
        }
        let Some(Err((line, message))) = file.rust_ast() else {
            return None;
        };
        let hit = Hit::new(
            Location::at(&file.rel_path, line),
            format!("the file does not parse: {message}"),
            message,
        )
        .suggest("complete or fix the code at this line");
        Some(if has_template_tags(file) {
            hit.excused("template block tags (`{% … %}`) in its code: a template a build step renders into Rust")
        } else {
            hit
        })
    }
}

/// The repository paths `file` reads with `include_str!("…")` (relative to its folder), from
/// the raw text: the path is a string literal, which the lexed code blanks out.
fn included_texts(file: &SourceFile) -> Vec<String> {
    let dir = file.rel_path.rsplit_once('/').map_or("", |(d, _)| d);
    file.text
        .match_indices("include_str!(\"")
        .filter_map(|(at, m)| {
            let rest = &file.text[at + m.len()..];
            let rel = &rest[..rest.find('"')?];
            Some(normalise(dir, rel))
        })
        .collect()
}

/// `rel` (`./minicore.rs`, `../data/x.rs`) joined to `dir`, with `.` and `..` resolved.
fn normalise(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
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
    use crate::rules::project_fixture::project_sink;

    /// The project pass over one file: (line, description) of the hits not excused.
    fn hits(_: &IncompleteSyntax, path: &str, text: &str) -> Vec<(u32, String)> {
        project_sink(&IncompleteSyntax, &[(path, text)])
            .hits
            .into_iter()
            .filter(|h| h.excuse.is_none())
            .map(|h| (h.location.line.unwrap_or(0), h.description))
            .collect()
    }

    #[test]
    fn a_file_read_with_include_str_is_data() {
        let broken = "pub const trait Residual<O>: Sized {\n    type T: [const] Try;\n}\n";
        let files = [
            ("crates/test-utils/src/minicore.rs", broken),
            (
                "crates/test-utils/src/fixture.rs",
                "pub const RAW: &str = include_str!(\"./minicore.rs\");\n",
            ),
            ("crates/core/src/broken.rs", broken),
        ];
        let sink = project_sink(&IncompleteSyntax, &files);
        let found = crate::rules::project_fixture::excused_by_path(&sink);
        assert_eq!(
            found,
            vec![
                ("crates/core/src/broken.rs", false),
                ("crates/test-utils/src/minicore.rs", true)
            ]
        );
    }

    #[test]
    fn a_parse_failure_in_a_rust_2015_crate_is_excused() {
        // A trait method's unnamed parameter: valid Rust 2015, refused by a 2018+ parser.
        let old =
            "pub type Rows = Vec<String>;\n\npub trait Csv {\n    fn from_vecs(Rows) -> Self;\n}\n";
        let with = |edition: &str| {
            let manifest = format!("[package]\nname = \"csv\"\nversion = \"1.0.0\"\n{edition}");
            let files = [("Cargo.toml", manifest.as_str()), ("src/lib.rs", old)];
            let sink = project_sink(&IncompleteSyntax, &files);
            sink.hits
                .iter()
                .map(|h| (h.location.line, h.excuse.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(with(""), vec![(Some(4), Some(RUST_2015.to_string()))]);
        assert_eq!(with("edition = \"2021\"\n"), vec![(Some(4), None)]);
    }

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
        // A course's exercise, left broken for the learner.
        let exercise = "// TODO: Add the missing type of the argument.\nfn call_me(num:) {}\n";
        assert!(hits(
            &IncompleteSyntax,
            "exercises/02_functions/functions2.rs",
            exercise
        )
        .is_empty());
        assert_eq!(
            hits(&IncompleteSyntax, "src/functions2.rs", exercise).len(),
            1
        );
        // A template that build.rs renders into Rust.
        let tera = "pub enum Language {\n    {% for key in languages -%}\n        {{key}},\n    {% endfor %}\n}\n";
        assert!(hits(&IncompleteSyntax, "src/language/kinds.rs", tera).is_empty());
        assert_eq!(
            project_sink(&IncompleteSyntax, &[("src/language/kinds.rs", tera)])
                .hits
                .iter()
                .filter(|h| h.excuse.is_some())
                .count(),
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
