//! `quality/unreviewed-file`: a file in scope that no rule could analyse — nested, long or large
//! beyond the engine's limits (`engine::limits`). Every Inspector skips and lists such a file;
//! this rule makes it a finding, raised by the quality Inspector alone so it is reported exactly
//! once, because a file nobody reviewed must not pass a gate silently. It is not
//! `incomplete-syntax`: the file may well be valid, it was just not analysed. Test files and
//! their data (highlighted-output fixtures, whose escape sequences read as unclosed brackets)
//! are listed in one note instead, and so are data and text that ship no code (JSON, YAML and
//! other configuration formats — a terminal recording for a README —, documentation, examples,
//! benchmarks, generated and vendored files) — still "not reviewed", never "clean", but not a
//! finding a maintainer has to dismiss file by file.
//!
//! In a session it also reports the files the change wrote that the walk skipped by what their
//! own path, size or text says (vendored, build output, generated, minified, too large) or that
//! an ignore file kept out (`engine::unread`): the change chose that, so it cannot be how code
//! passes the gate unread. One finding per reason, at the first such file's first written line,
//! naming the others: a dependency bump under `vendor/` is one finding, not hundreds.

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, UnreadChange};
use crate::project::role_without_model;
use protocol::project::FileRole;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/unreviewed-file",
    category: Category::UnreviewedFile,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
        Language::Config,
    ],
    dimensions: &[Dimension::Quality],
    explanation: "A file too deeply nested, with too long a line or too many tokens to analyse, \
                  or one the change wrote where retake skips files (vendored, build output, \
                  generated, too large, ignored): no rule reviewed it",
};

/// Reports the files the file pass found beyond what the rules can analyse.
pub(crate) struct UnreviewedFile;

impl Rule for UnreviewedFile {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    // A project rule: the files it reports never reach the file pass.
    fn wants(&self, _file: &crate::engine::SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        // Test files, and data or text that ships no code (configuration and data formats,
        // documentation, examples, benchmarks, generated and vendored files).
        let is_test = |path: &str| {
            let role = ctx
                .project
                .role(path)
                .unwrap_or_else(|| role_without_model(path, ""));
            role.is_test()
                || Language::of(path) == Some(Language::Config)
                || matches!(
                    role,
                    FileRole::Docs
                        | FileRole::Example
                        | FileRole::Bench
                        | FileRole::Generated
                        | FileRole::Vendored
                )
        };
        let tests: Vec<&str> = ctx
            .unanalysable
            .iter()
            .map(|(path, _)| path.as_str())
            .filter(|p| is_test(p))
            .collect();
        if !tests.is_empty() {
            let shown: Vec<&str> = tests.iter().take(5).copied().collect();
            out.note(format!(
                "quality/unreviewed-file: {} test or data file(s) not reviewed, beyond the analysis limits: {}{}",
                tests.len(),
                shown.join(", "),
                more_than(tests.len(), shown.len())
            ));
        }
        for (path, exceeded) in ctx.unanalysable.iter().filter(|(p, _)| !is_test(p)) {
            out.hit(
                Hit::new(
                    Location::at(path, exceeded.line),
                    format!("not reviewed: {}", exceeded.what),
                    path,
                )
                .suggest("split or restructure the file, or review it by hand"),
            );
        }
        unread_changes(ctx, out);
    }
}

/// `" and N more"` when `all` exceeds the `shown`, else nothing.
fn more_than(all: usize, shown: usize) -> String {
    if all > shown {
        format!(" and {} more", all - shown)
    } else {
        String::new()
    }
}

/// One finding per kind of skip among the shipped source files the change wrote that no rule
/// reads; test, example and documentation files and data it wrote there (a code generator's
/// golden output under `tests/`, a lockfile over the size limit) are one note, as above.
fn unread_changes(ctx: &Context, out: &mut Sink) {
    let ships_no_code = |path: &str| {
        // A generated or vendored file's role says what it is, not where it serves: the path
        // tells that.
        let role = match ctx.project.role(path) {
            Some(r) if !matches!(r, FileRole::Generated | FileRole::Vendored) => r,
            _ => role_without_model(path, ""),
        };
        Language::of(path) == Some(Language::Config)
            || role.is_test()
            || matches!(role, FileRole::Docs | FileRole::Example | FileRole::Bench)
    };
    let (quiet, code): (Vec<&UnreadChange>, Vec<&UnreadChange>) = ctx
        .unread_changes
        .iter()
        .partition(|u| ships_no_code(&u.path));
    if !quiet.is_empty() {
        let shown: Vec<String> = quiet
            .iter()
            .take(5)
            .map(|u| format!("{} ({})", u.path, u.reason))
            .collect();
        out.note(format!(
            "quality/unreviewed-file: the change wrote {} test, example or data file(s) retake skips: {}{}",
            quiet.len(),
            shown.join(", "),
            more_than(quiet.len(), shown.len())
        ));
    }
    let kind = |reason: &str| reason.split(" (").next().unwrap_or(reason).to_string();
    let mut kinds: Vec<String> = code.iter().map(|u| kind(&u.reason)).collect();
    kinds.sort();
    kinds.dedup();
    for k in kinds {
        let group: Vec<&UnreadChange> = code
            .iter()
            .copied()
            .filter(|u| kind(&u.reason) == k)
            .collect();
        let first = group[0];
        let description = if group.len() == 1 {
            format!(
                "not reviewed: the change wrote this file, which retake skips ({})",
                first.reason
            )
        } else {
            let shown: Vec<&str> = group.iter().take(5).map(|u| u.path.as_str()).collect();
            format!(
                "not reviewed: the change wrote {} files retake skips as {k}: {}{}",
                group.len(),
                shown.join(", "),
                more_than(group.len(), shown.len())
            )
        };
        out.hit(
            Hit::new(
                Location::at(&first.path, first.line),
                description,
                &first.path,
            )
            .suggest("review what the change wrote there by hand: no rule read it"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::write;
    use protocol::message::InspectOptions;
    use protocol::Scope;

    fn hits_in(files: &[(&str, &str)]) -> Vec<(String, Option<u32>, String)> {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            write(dir.path(), path, text);
        }
        let mut ctx = Context::build(dir.path(), &Scope::repository(), &InspectOptions::default())
            .expect("context");
        // The file pass measures the files, as in a review, before any project rule runs.
        crate::engine::file_pass::refuse_unanalysable(&mut ctx);
        let mut sink = Sink::default();
        UnreviewedFile.check_project(&ctx, &mut sink);
        sink.hits
            .into_iter()
            .map(|h| (h.location.path, h.location.line, h.description))
            .collect()
    }

    #[test]
    fn fires_once_per_file_beyond_the_limits_at_the_line_that_crossed_one() {
        let deep = format!(
            "pub fn table() {}{}\n",
            "{".repeat(50_000),
            "}".repeat(50_000)
        );
        let found = hits_in(&[
            ("src/lib.rs", "pub fn a() {}\n"),
            ("src/table.rs", &deep),
            ("web/app.js", &format!("let a = 1;\n{}\n", "[".repeat(300))),
        ]);
        assert_eq!(
            found,
            vec![
                (
                    "src/table.rs".to_string(),
                    Some(1),
                    "not reviewed: brackets nested deeper than 256".to_string()
                ),
                (
                    "web/app.js".to_string(),
                    Some(2),
                    "not reviewed: brackets nested deeper than 256".to_string()
                ),
            ]
        );
    }

    #[test]
    fn unanalysable_test_files_are_one_note_not_findings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let deep = format!("x = 1\n{}\n", "[".repeat(300));
        write(dir.path(), "tests/fixtures/highlighted/a.py", &deep);
        write(dir.path(), "tests/fixtures/highlighted/b.py", &deep);
        write(
            dir.path(),
            "screenshot.json",
            &format!("{}{}\n", "[".repeat(300), "]".repeat(300)),
        );
        write(dir.path(), "src/lib.rs", "pub fn a() {}\n");
        let mut ctx = Context::build(dir.path(), &Scope::repository(), &InspectOptions::default())
            .expect("context");
        crate::engine::file_pass::refuse_unanalysable(&mut ctx);
        let mut sink = Sink::default();
        UnreviewedFile.check_project(&ctx, &mut sink);
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
        assert_eq!(
            sink.notes,
            vec!["quality/unreviewed-file: 3 test or data file(s) not reviewed, beyond the analysis limits: screenshot.json, tests/fixtures/highlighted/a.py, tests/fixtures/highlighted/b.py".to_string()]
        );
    }

    #[test]
    fn quiet_when_every_file_was_analysed_or_skipped_on_purpose() {
        let found = hits_in(&[
            ("src/lib.rs", "pub fn a() { if x { (1) } }\n"),
            (
                "src/gen.rs",
                &format!("// @generated\n{}\n", "{".repeat(300)),
            ),
        ]);
        assert_eq!(found, vec![]);
    }
}
