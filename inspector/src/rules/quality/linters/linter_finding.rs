//! `quality/linter-finding`: the findings of the field's own analyzers (clippy, ruff, eslint,
//! go vet; which ones run is [`active`]), read from their JSON output. None runs under
//! `--no-exec`; one that is not installed ("clippy not run: cargo-clippy not installed"),
//! times out or prints no JSON becomes one note. Clippy's output also repeats rustc's own
//! lints: `clippy::` lints are taken, and rustc's only where they stand in for a built-in rule
//! (naming); rustc's dead code is `quality/compiler-dead-code`. Diagnostics outside the scope
//! are dropped. A lint that says what a built-in rule says stands in for it (`stand_ins.rs`).
//!
//! Severity: clippy's deny-by-default lints (its `correctness` group) High, its `suspicious`
//! ones Medium, the rest Low; ruff's syntax errors and `E9`/`F63`/`F7`/`F82` High, the rest
//! Low; go vet Medium; an eslint error Medium, its warning Low.

use super::cargo::cargo_run;
use super::stand_ins::{category_of, is_tabled_rustc_lint, stands_in_for};
use super::{active, eslint, go_vet, not_installed, ruff, run_tool, Diagnostic, Linter};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/linter-finding",
    category: Category::Lint,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "Findings of the project's analyzers (clippy, ruff, eslint, go vet JSON)",
};

/// Clippy's `suspicious` lints (warn by default, Medium): the ones named `suspicious_*` and
/// these.
const SUSPICIOUS: [&str; 16] = [
    "almost_complete_range",
    "await_holding_lock",
    "await_holding_refcell_ref",
    "crate_in_macro_def",
    "drop_non_drop",
    "duplicate_mod",
    "empty_loop",
    "float_equality_without_abs",
    "forget_non_drop",
    "let_underscore_future",
    "misnamed_getters",
    "multi_assignments",
    "mut_range_bound",
    "mutable_key_type",
    "print_in_format_impl",
    "swap_ptr_to_ref",
];

/// Turns the active analyzers' diagnostics into findings.
pub(crate) struct LinterFinding;

impl Rule for LinterFinding {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        for linter in active(ctx) {
            if ctx.options.no_exec {
                out.not_run(linter.label());
            } else if let Some(found) = diagnostics(linter, ctx, out) {
                report(linter, found, ctx, out);
            }
        }
    }
}

/// Runs `linter` (clippy: reads the review's cargo run) and returns its diagnostics; `None`
/// when it did not run or printed no JSON, said in a note.
fn diagnostics(linter: Linter, ctx: &Context, out: &mut Sink) -> Option<Vec<Diagnostic>> {
    let label = linter.label();
    let ran = match linter {
        Linter::Clippy => {
            let run = cargo_run(ctx);
            run.notes.iter().for_each(|n| out.note(n.clone()));
            return run.clippy.then(|| clippy_lints(&run.diagnostics));
        }
        Linter::Ruff => {
            let argv = [
                "ruff",
                "check",
                "--output-format=json",
                "--exit-zero",
                "--no-cache",
                ".",
            ];
            run_tool(ctx, label, &argv, Vec::new())
        }
        Linter::Eslint => {
            let local = ctx.root.join("node_modules/.bin/eslint");
            let explicit = ctx.options.linters.iter().any(|n| n == linter.name());
            let program = if local.is_file() {
                local.to_string_lossy().into_owned()
            } else if explicit {
                "eslint".to_string()
            } else {
                // `auto` runs only the repository's own install, never a global or `npx` one.
                out.note(not_installed(label, "node_modules/.bin/eslint"));
                return None;
            };
            run_tool(
                ctx,
                label,
                &[program.as_str(), "--format", "json", "."],
                Vec::new(),
            )
        }
        Linter::GoVet => {
            // Never fetch another Go toolchain a go.mod asks for.
            let env = vec![("GOTOOLCHAIN".to_string(), "local".to_string())];
            run_tool(ctx, label, &["go", "vet", "-json", "./..."], env)
        }
    };
    let done = match ran {
        Ok(done) => done,
        Err(note) => {
            out.note(note);
            return None;
        }
    };
    let parsed = match linter {
        Linter::Ruff => ruff::parse(&done.stdout, &ctx.root),
        Linter::Eslint => eslint::parse(&done.stdout, &ctx.root),
        _ => {
            let vet = go_vet::parse(&format!("{}\n{}", done.stderr, done.stdout), &ctx.root);
            for error in vet.errors.iter().take(3) {
                out.note(format!("go vet: {error}"));
            }
            (vet.json || done.code == Some(0)).then_some(vet.diagnostics)
        }
    };
    if parsed.is_none() {
        let why = done.stderr.lines().next().unwrap_or("no output");
        out.note(format!(
            "{}: {label} printed no JSON ({why}): its findings are missing",
            META.id
        ));
    }
    parsed
}

/// Clippy's own lints in a cargo run, and rustc's that stand in for a built-in rule.
fn clippy_lints(diagnostics: &[Diagnostic]) -> Vec<Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| d.code.starts_with("clippy::") || is_tabled_rustc_lint(&d.code))
        .cloned()
        .collect()
}

/// The severity of one analyzer diagnostic (see the module's documentation).
fn severity(linter: Linter, d: &Diagnostic) -> Severity {
    match linter {
        Linter::Clippy if d.deny_by_default => Severity::High,
        Linter::Clippy => {
            let lint = d.code.trim_start_matches("clippy::");
            if lint.starts_with("suspicious_") || SUSPICIOUS.contains(&lint) {
                Severity::Medium
            } else {
                Severity::Low
            }
        }
        Linter::Ruff => {
            let high = ["E9", "F63", "F7", "F82"];
            if d.code == "syntax-error" || high.iter().any(|p| d.code.starts_with(p)) {
                Severity::High
            } else {
                Severity::Low
            }
        }
        Linter::Eslint if d.error => Severity::Medium,
        Linter::Eslint => Severity::Low,
        Linter::GoVet => Severity::Medium,
    }
}

/// Hits for an analyzer's diagnostics in scope, each standing in for the built-in rule that
/// says the same, with that rule's category (pure: filtering and mapping only).
fn report(linter: Linter, diagnostics: Vec<Diagnostic>, ctx: &Context, out: &mut Sink) {
    for d in diagnostics
        .into_iter()
        .filter(|d| ctx.file(&d.path).is_some())
    {
        let mut location = Location::at(&d.path, d.line);
        if d.end_line > d.line {
            location.end_line = Some(d.end_line);
        }
        let label = linter.label();
        let mut hit = Hit::new(
            location,
            format!("{label} `{}`: {}", d.code, d.message),
            format!("{label} {}: {}", d.code, d.message),
        );
        if let Some(rule) = stands_in_for(linter, &d.code) {
            out.stand_in(rule, &d.path, d.line, d.end_line);
            if let Some(category) = category_of(rule) {
                hit = hit.with_category(category);
            }
        }
        out.hit(hit.with_severity(severity(linter, &d)));
    }
}

#[cfg(test)]
mod tests;
