//! `quality/swallowed-error`: errors that are caught or discarded and then ignored, so a failure
//! goes unnoticed. Rust is read from the syntax tree (`rust.rs`); Python and TypeScript/JavaScript
//! at the text level (`script.rs`).
//!
//! An explanatory comment on the statement (or inside the empty handler) counts as a decision
//! and keeps the rule quiet: the point is errors dropped *silently*. Test code is exempt.

mod rust;
mod script;

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Claim, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/swallowed-error",
    category: Category::ErrorHandlingDrift,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
    ],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "Errors discarded without a word: `let _ =` on a fallible call, empty `Err(_) => {}`, empty `catch {}`, `except: pass`",
};

/// Flags errors that are caught or discarded and then ignored.
pub(crate) struct SwallowedError;

/// One swallowed error found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Swallow {
    /// 1-based line where the statement or handler starts.
    pub(super) line: u32,
    /// What is swallowed, for the description.
    pub(super) what: String,
    /// Identifies it without the line (enclosing function and construct).
    pub(super) key: String,
}

impl Rule for SwallowedError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        let t = &file.text;
        match file.language {
            Some(Language::Rust) => t.contains("let _") || t.contains("Err("),
            Some(Language::Python) => t.contains("except"),
            Some(Language::TypeScript | Language::JavaScript) => t.contains("catch"),
            _ => false,
        }
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        if file.is_test_file() {
            return;
        }
        let found = match file.language {
            Some(Language::Rust) => rust::find(file),
            Some(Language::Python) => script::find_python(&file.text),
            Some(lang @ (Language::TypeScript | Language::JavaScript)) => {
                script::find_js(&file.text, lang)
            }
            _ => Vec::new(),
        };
        for s in found {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, s.line),
                    format!("{}: the error is swallowed silently", s.what),
                    s.key,
                )
                .suggest("handle or propagate the error, log it, or say in a comment why it can be ignored"),
            );
        }
    }

    /// Claims how many files had their error handling checked and how many problems that
    /// found: with 0 issues it is the quality Inspector's "error handling is fine", which the
    /// Auditor weighs against other Inspectors' error-handling findings.
    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let files = ctx
            .files
            .iter()
            .filter(|f| f.language.is_some_and(|l| META.languages.contains(&l)))
            .filter(|f| !f.is_test_file())
            .count();
        if files > 0 {
            out.claims.push(Claim::ErrorHandlingChecked {
                files: files as u32,
                issues: out.hits.len() as u32,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::file_pass::run_file_rules;
    use std::path::Path;

    /// The claim after the engine's file pass over `files`.
    fn claims(files: &[(&str, &str)]) -> Vec<Claim> {
        let mut ctx = Context::from_files(
            Path::new("/r"),
            files.iter().map(|(p, t)| SourceFile::new(*p, *t)).collect(),
            crate::spec::Specs::default(),
        );
        let rules: Vec<Box<dyn Rule>> = vec![Box::new(SwallowedError)];
        let mut sink = run_file_rules(&rules, &mut ctx, None).remove(0);
        SwallowedError.check_project(&ctx, &mut sink);
        sink.claims
    }

    #[test]
    fn claims_the_files_checked_and_the_problems_found() {
        let dropped = "fn save() {\n    let _ = std::fs::remove_file(\"x\");\n}\n";
        assert_eq!(
            claims(&[
                ("src/a.rs", dropped),
                ("src/b.rs", "fn ok() {}\n"),
                ("app.py", "x = 1\n"),
                ("tests/t.rs", dropped),
                ("README.md", "# r\n"),
            ]),
            vec![Claim::ErrorHandlingChecked {
                files: 3,
                issues: 1
            }]
        );
        assert_eq!(
            claims(&[("src/b.rs", "fn ok() {}\n")]),
            vec![Claim::ErrorHandlingChecked {
                files: 1,
                issues: 0
            }]
        );
        assert!(claims(&[("README.md", "# r\n")]).is_empty());
    }
}
