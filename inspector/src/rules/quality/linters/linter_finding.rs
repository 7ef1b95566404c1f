//! `quality/linter-finding`: the findings of the linters a project opted into (clippy, ruff,
//! eslint; see [`enabled_linters`]), read from their JSON output. A linter runs only when the
//! scope holds files it lints (Rust with a root `Cargo.toml`, Python, TypeScript/JavaScript),
//! never under `--no-exec`; one that is not installed, times out or prints no JSON becomes a
//! note. Clippy's output also repeats rustc's own lints: only `clippy::` lints are taken
//! (rustc's dead code is `quality/compiler-dead-code`). A linter's error is Medium, its warning
//! Low. Diagnostics outside the scope are dropped.

use super::{cargo_json, enabled_linters, eslint, ruff, run_tool, Diagnostic, Linter};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/linter-finding",
    category: "lint",
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
    ],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "Findings of the project's opt-in linters (clippy, ruff, eslint JSON)",
};

/// Turns opted-in linters' diagnostics into findings.
pub(crate) struct LinterFinding;

impl Rule for LinterFinding {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        for linter in enabled_linters(&ctx.options) {
            if !applies(linter, ctx) {
                continue;
            }
            if ctx.options.no_exec {
                out.not_run(linter.name());
                continue;
            }
            let eslint_local = ctx.root.join("node_modules/.bin/eslint");
            let eslint_local = eslint_local.to_string_lossy();
            let argv: Vec<&str> = match linter {
                Linter::Clippy => vec![
                    "cargo",
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--message-format=json",
                    "--quiet",
                ],
                Linter::Ruff => vec!["ruff", "check", "--output-format=json", "--exit-zero", "."],
                Linter::Eslint if ctx.root.join("node_modules/.bin/eslint").is_file() => {
                    vec![&eslint_local, "--format", "json", "."]
                }
                Linter::Eslint => vec!["eslint", "--format", "json", "."],
            };
            match run_tool(ctx, META.id, &argv, Vec::new()) {
                Ok(stdout) => apply(linter, &stdout, ctx, out),
                Err(note) => out.note(note),
            }
        }
    }
}

/// Whether the scope holds files the linter lints.
fn applies(linter: Linter, ctx: &Context) -> bool {
    let has = |langs: &[Language]| {
        ctx.files
            .iter()
            .any(|f| f.language.is_some_and(|l| langs.contains(&l)))
    };
    match linter {
        Linter::Clippy => ctx.root.join("Cargo.toml").is_file() && has(&[Language::Rust]),
        Linter::Ruff => has(&[Language::Python]),
        Linter::Eslint => has(&[Language::TypeScript, Language::JavaScript]),
    }
}

/// Hits for a linter's output (pure: parsing and filtering only).
fn apply(linter: Linter, stdout: &str, ctx: &Context, out: &mut Sink) {
    let parsed: Option<Vec<Diagnostic>> = match linter {
        Linter::Clippy => Some(
            cargo_json::parse(stdout, &ctx.root)
                .into_iter()
                .filter(|d| d.code.starts_with("clippy::"))
                .collect(),
        ),
        Linter::Ruff => ruff::parse(stdout, &ctx.root),
        Linter::Eslint => eslint::parse(stdout, &ctx.root),
    };
    let Some(diagnostics) = parsed else {
        out.note(format!(
            "{}: {} printed no JSON: its findings are missing",
            META.id,
            linter.name()
        ));
        return;
    };
    for d in diagnostics
        .into_iter()
        .filter(|d| ctx.file(&d.path).is_some())
    {
        let mut location = Location::at(&d.path, d.line);
        if d.end_line > d.line {
            location.end_line = Some(d.end_line);
        }
        let mut hit = Hit::new(
            location,
            format!("{} `{}`: {}", linter.name(), d.code, d.message),
            format!("{} {}: {}", linter.name(), d.code, d.message),
        );
        if d.error {
            hit = hit.with_severity(Severity::Medium);
        }
        out.hit(hit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ctx_with(paths: &[&str]) -> Context {
        Context::from_files(
            Path::new("/r"),
            paths.iter().map(|p| SourceFile::new(*p, "")).collect(),
            crate::spec::Specs::default(),
        )
    }

    fn found(sink: Sink) -> Vec<(String, Option<u32>, String, Option<Severity>)> {
        sink.hits
            .into_iter()
            .map(|h| (h.location.path, h.location.line, h.description, h.severity))
            .collect()
    }

    #[test]
    fn fires_on_linter_json_in_scope() {
        let ctx = ctx_with(&["app.py", "src/lib.rs", "web/app.js"]);
        let mut sink = Sink::default();
        apply(
            Linter::Ruff,
            r#"[{"code": "F401", "end_location": {"column": 10, "row": 1}, "filename": "/r/app.py", "location": {"column": 8, "row": 1}, "message": "`os` imported but unused"}]"#,
            &ctx,
            &mut sink,
        );
        apply(
            Linter::Eslint,
            r#"[{"filePath": "/r/web/app.js", "messages": [{"ruleId": "eqeqeq", "severity": 1, "message": "Expected '===' and instead saw '=='.", "line": 5, "endLine": 5}]}]"#,
            &ctx,
            &mut sink,
        );
        apply(
            Linter::Clippy,
            "{\"reason\":\"compiler-message\",\"message\":{\"code\":{\"code\":\"clippy::needless_return\"},\"level\":\"warning\",\"message\":\"unneeded `return` statement\",\"spans\":[{\"file_name\":\"src/lib.rs\",\"is_primary\":true,\"line_start\":9,\"line_end\":9}]}}\n{\"reason\":\"compiler-message\",\"message\":{\"code\":{\"code\":\"dead_code\"},\"level\":\"warning\",\"message\":\"function `f` is never used\",\"spans\":[{\"file_name\":\"src/lib.rs\",\"is_primary\":true,\"line_start\":3,\"line_end\":3}]}}\n",
            &ctx,
            &mut sink,
        );
        assert_eq!(
            found(sink),
            vec![
                (
                    "app.py".to_string(),
                    Some(1),
                    "ruff `F401`: `os` imported but unused".to_string(),
                    None
                ),
                (
                    "web/app.js".to_string(),
                    Some(5),
                    "eslint `eqeqeq`: Expected '===' and instead saw '=='.".to_string(),
                    None
                ),
                (
                    "src/lib.rs".to_string(),
                    Some(9),
                    "clippy `clippy::needless_return`: unneeded `return` statement".to_string(),
                    None
                ),
            ]
        );
    }

    #[test]
    fn quiet_out_of_scope_and_a_note_for_garbage() {
        let ctx = ctx_with(&["app.py"]);
        let mut sink = Sink::default();
        apply(
            Linter::Ruff,
            r#"[{"code": "F401", "filename": "/r/vendor/x.py", "location": {"row": 1}, "message": "m"}]"#,
            &ctx,
            &mut sink,
        );
        assert!(sink.hits.is_empty() && sink.notes.is_empty());
        apply(
            Linter::Eslint,
            "Oops! Something went wrong!",
            &ctx,
            &mut sink,
        );
        assert_eq!(
            sink.notes,
            vec![
                "quality/linter-finding: eslint printed no JSON: its findings are missing"
                    .to_string()
            ]
        );
        assert!(!applies(Linter::Eslint, &ctx) && applies(Linter::Ruff, &ctx));
        let mut sink = Sink::default();
        LinterFinding.check_project(&ctx, &mut sink);
        assert!(
            sink.hits.is_empty() && sink.notes.is_empty(),
            "no linter is enabled by default"
        );
    }
}
