//! `quality/compiler-dead-code`: dead code and unused imports as the compiler itself reports
//! them (lints `dead_code` and `unused_imports`), located with the compiler's own span. Runs
//! when the repository root has a `Cargo.toml`, the scope holds Rust files and `--no-exec` is
//! off, reading the review's one cargo run (`cargo.rs`: clippy's when clippy is active, else
//! `cargo check`'s), which builds outside the repository. Diagnostics outside the scope are
//! dropped.

use super::cargo::cargo_run;
use super::Diagnostic;
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/compiler-dead-code",
    category: Category::DeadCode,
    severity: Severity::Low,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::Maintainability],
    explanation: "Dead code and unused imports reported by the compiler (cargo check, dead_code/unused_imports)",
};

/// The compiler lints this rule reports.
const LINTS: [&str; 2] = ["dead_code", "unused_imports"];

/// Turns the compiler's dead-code and unused-import warnings into findings.
pub(crate) struct CompilerDeadCode;

impl Rule for CompilerDeadCode {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let cargo_project = ctx.root.join("Cargo.toml").is_file();
        if !cargo_project || !ctx.files.iter().any(|f| f.language == Some(Language::Rust)) {
            return;
        }
        if ctx.options.no_exec {
            out.not_run("cargo check");
            return;
        }
        let run = cargo_run(ctx);
        for note in &run.notes {
            out.note(note.clone());
        }
        report(ctx, &run.diagnostics, out);
    }
}

/// Hits for the dead-code and unused-import diagnostics in scope; a note when the build had
/// errors (the compiler stops reporting unused items of a crate that does not compile).
fn report(ctx: &Context, diagnostics: &[Diagnostic], out: &mut Sink) {
    for d in diagnostics {
        if !LINTS.contains(&d.code.as_str()) || ctx.file(&d.path).is_none() {
            continue;
        }
        let mut location = Location::at(&d.path, d.line);
        if d.end_line > d.line {
            location.end_line = Some(d.end_line);
        }
        let suggestion = if d.code == "unused_imports" {
            "remove the import"
        } else {
            "remove it, or use it; `#[allow(dead_code)]` with a reason if it must stay"
        };
        out.hit(
            Hit::new(
                location,
                format!("{} (rustc `{}`)", d.message, d.code),
                format!("{}: {}", d.code, d.message),
            )
            .suggest(suggestion),
        );
    }
    // Clippy's deny-by-default lints are errors too; only the compiler's stop it.
    let errors = diagnostics
        .iter()
        .filter(|d| d.error && !d.code.starts_with("clippy::"))
        .count();
    if errors > 0 {
        out.note(format!(
            "{}: cargo reported {errors} compile error{}: dead code in crates that do not compile is not reported",
            META.id,
            if errors == 1 { "" } else { "s" }
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SourceFile;
    use std::path::Path;

    fn diag(path: &str, line: u32, code: &str, message: &str, error: bool) -> Diagnostic {
        Diagnostic {
            path: path.into(),
            line,
            end_line: line,
            code: code.into(),
            error,
            deny_by_default: false,
            message: message.into(),
        }
    }

    fn ctx_with(root: &Path, paths: &[&str]) -> Context {
        Context::from_files(
            root,
            paths.iter().map(|p| SourceFile::new(*p, "")).collect(),
            crate::spec::Specs::default(),
        )
    }

    #[test]
    fn reports_dead_code_and_unused_imports_in_scope() {
        let ctx = ctx_with(Path::new("/r"), &["src/lib.rs"]);
        let mut sink = Sink::default();
        report(
            &ctx,
            &[
                diag(
                    "src/lib.rs",
                    3,
                    "dead_code",
                    "function `helper` is never used",
                    false,
                ),
                diag(
                    "src/lib.rs",
                    1,
                    "unused_imports",
                    "unused import: `HashSet`",
                    false,
                ),
            ],
            &mut sink,
        );
        let found: Vec<(Option<u32>, String)> = sink
            .hits
            .into_iter()
            .map(|h| (h.location.line, h.description))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    Some(3),
                    "function `helper` is never used (rustc `dead_code`)".to_string()
                ),
                (
                    Some(1),
                    "unused import: `HashSet` (rustc `unused_imports`)".to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_on_other_lints_out_of_scope_files_and_no_exec() {
        let ctx = ctx_with(Path::new("/r"), &["src/lib.rs"]);
        let mut sink = Sink::default();
        report(
            &ctx,
            &[
                diag(
                    "src/lib.rs",
                    8,
                    "unused_variables",
                    "unused variable: `x`",
                    false,
                ),
                diag(
                    "other/src/lib.rs",
                    3,
                    "dead_code",
                    "function `f` is never used",
                    false,
                ),
                diag("src/lib.rs", 2, "E0308", "mismatched types", true),
            ],
            &mut sink,
        );
        assert!(sink.hits.is_empty());
        assert_eq!(
            sink.notes,
            vec!["quality/compiler-dead-code: cargo reported 1 compile error: dead code in crates that do not compile is not reported".to_string()]
        );
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
        let mut ctx = ctx_with(dir.path(), &["src/lib.rs"]);
        ctx.options.no_exec = true;
        let mut sink = Sink::default();
        CompilerDeadCode.check_project(&ctx, &mut sink);
        assert_eq!(
            (sink.hits.len(), sink.not_run),
            (0, vec!["cargo check".to_string()])
        );
    }

    #[test]
    fn runs_cargo_check_on_a_real_crate() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir(root.join("src")).expect("src");
        std::fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"fixture\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
        )
        .expect("manifest");
        std::fs::write(
            root.join("Cargo.lock"),
            "version = 3\n\n[[package]]\nname = \"fixture\"\nversion = \"0.1.0\"\n",
        )
        .expect("lock");
        let lib = "use std::collections::HashMap;\n\nfn helper() -> u8 {\n    1\n}\n\npub fn used() -> u8 {\n    2\n}\n";
        std::fs::write(root.join("src/lib.rs"), lib).expect("lib");
        let ctx = Context::from_files(
            root,
            vec![SourceFile::new("src/lib.rs", lib)],
            crate::spec::Specs::default(),
        );
        let mut sink = Sink::default();
        CompilerDeadCode.check_project(&ctx, &mut sink);
        // The build directory lives outside the repository; the retake cache's is not needed
        // again, but a user's own `CARGO_TARGET_DIR` (where this very test may have been built)
        // is theirs and stays.
        let target = protocol::exec::sandbox::analyzer_target_dir(root);
        assert!(target.is_dir() && !target.starts_with(root));
        if target
            .parent()
            .is_some_and(|p| p.ends_with("retake/target"))
        {
            std::fs::remove_dir_all(target).ok();
        }
        let found: Vec<(Option<u32>, String)> = sink
            .hits
            .into_iter()
            .map(|h| (h.location.line, h.description))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    Some(1),
                    "unused import: `std::collections::HashMap` (rustc `unused_imports`)"
                        .to_string()
                ),
                (
                    Some(3),
                    "function `helper` is never used (rustc `dead_code`)".to_string()
                ),
            ],
            "notes: {:?}",
            sink.notes
        );
    }
}
