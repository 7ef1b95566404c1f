//! The one cargo run of a review, shared by `quality/compiler-dead-code` (rustc's `dead_code`
//! and `unused_imports`) and `quality/linter-finding` (clippy's lints): `cargo clippy` when
//! clippy is active — its output carries rustc's lints too — else `cargo check`; a missing
//! `cargo-clippy` is a note and `cargo check` runs instead. Whichever rule asks first runs it
//! (`Context::memo`).
//!
//! The reviewed repository is never written to: cargo builds into a directory of its own per
//! repository in the user's cache (`protocol::exec::sandbox::analyzer_target_dir`), so later
//! reviews are incremental (folders unused for a week are removed); with a `Cargo.lock`,
//! `--locked` keeps cargo from rewriting it, and one cargo creates where there was none is
//! removed after the run (the sandbox's lock guard).
//! `--all-targets` checks tests and examples too, so code used only by tests is still reported
//! where the library does not use it.

use super::{active, cargo_json, not_installed, run_tool, Diagnostic, Linter};
use crate::engine::process::Finished;
use crate::engine::Context;
use protocol::exec::sandbox::{analyzer_target_dir, mark_analyzer_target_used, STALE_AFTER};
use std::sync::Arc;

/// What the review's cargo run found.
#[derive(Debug, Default)]
pub(crate) struct CargoRun {
    /// Whether the diagnostics come from clippy (else from `cargo check`, or nothing ran).
    pub(crate) clippy: bool,
    /// Every diagnostic, rustc's and clippy's.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// What the report should say (clippy missing, cargo missing or timed out).
    pub(crate) notes: Vec<String>,
}

/// The review's cargo run, made by the first rule that asks.
pub(crate) fn cargo_run(ctx: &Context) -> Arc<CargoRun> {
    ctx.memo.get_or_make("cargo diagnostics", || run(ctx))
}

fn run(ctx: &Context) -> CargoRun {
    let mut notes = Vec::new();
    if active(ctx).contains(&Linter::Clippy) {
        match cargo(ctx, "clippy") {
            Ok(done) if clippy_missing(&done.stderr) => {
                notes.push(not_installed("clippy", "cargo-clippy"));
            }
            Ok(done) => return read(ctx, "clippy", &done, notes),
            Err(note) => {
                return CargoRun {
                    notes: vec![note],
                    ..CargoRun::default()
                }
            }
        }
    }
    match cargo(ctx, "check") {
        Ok(done) => read(ctx, "cargo check", &done, notes),
        Err(note) => {
            notes.push(note);
            CargoRun {
                notes,
                ..CargoRun::default()
            }
        }
    }
}

/// The diagnostics of a finished cargo run; a run that failed without reporting one compile
/// error (a dependency it could not fetch, a broken manifest) is a note, not a clean result.
fn read(ctx: &Context, tool: &str, done: &Finished, mut notes: Vec<String>) -> CargoRun {
    let diagnostics = cargo_json::parse(&done.stdout, &ctx.root);
    let explained = diagnostics.iter().any(|d| d.error);
    if done.code != Some(0) && !explained {
        notes.push(failed_note(tool, &done.stderr));
    }
    CargoRun {
        clippy: tool == "clippy",
        diagnostics,
        notes,
    }
}

/// "clippy failed (error: …): its findings are missing", with cargo's first error line.
fn failed_note(tool: &str, stderr: &str) -> String {
    let why = stderr
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("error"))
        .or_else(|| stderr.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("no output");
    format!("{tool} failed ({why}): its findings are missing")
}

/// Runs `cargo <sub>` over the workspace, or gives the note to give.
fn cargo(ctx: &Context, sub: &str) -> Result<Finished, String> {
    let mut argv = vec![
        "cargo",
        sub,
        "--workspace",
        "--all-targets",
        "--message-format=json",
        "--quiet",
    ];
    if ctx.root.join("Cargo.lock").is_file() {
        argv.push("--locked");
    }
    let target = analyzer_target_dir(&ctx.root);
    mark_analyzer_target_used(&target, STALE_AFTER);
    let target = target.to_string_lossy().into_owned();
    let tool = if sub == "clippy" {
        "clippy"
    } else {
        "cargo check"
    };
    run_tool(ctx, tool, &argv, vec![("CARGO_TARGET_DIR".into(), target)])
}

/// Whether cargo said it has no clippy (no `cargo-clippy` on the PATH, or rustup's proxy
/// without the component).
fn clippy_missing(stderr: &str) -> bool {
    stderr.contains("no such command: `clippy`")
        || stderr.contains("no such subcommand: `clippy`")
        || stderr.contains("'cargo-clippy' is not installed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_s_words_for_a_missing_clippy() {
        assert!(clippy_missing(
            "error: no such command: `clippy`\n\n\thelp: view all installed commands with `cargo --list`\n"
        ));
        assert!(clippy_missing("error: 'cargo-clippy' is not installed for the toolchain 'stable-x86_64-unknown-linux-gnu'.\nTo install, run `rustup component add clippy`\n"));
        assert!(!clippy_missing("warning: unused import\n"));
    }

    #[test]
    fn a_failed_run_without_compile_errors_is_a_note() {
        let ctx = Context::from_files(
            std::path::Path::new("/r"),
            Vec::new(),
            crate::spec::Specs::default(),
        );
        let failed = Finished {
            code: Some(101),
            stdout: String::new(),
            stderr: "    Updating crates.io index\nerror: failed to get `serde` as a dependency of package `demo`\n".into(),
        };
        let run = read(&ctx, "clippy", &failed, Vec::new());
        assert_eq!(
            (run.clippy, run.diagnostics.len(), run.notes),
            (true, 0, vec!["clippy failed (error: failed to get `serde` as a dependency of package `demo`): its findings are missing".to_string()])
        );
        // A build with compile errors explains its exit code: its diagnostics are the result.
        let broken = Finished {
            code: Some(101),
            stdout: r#"{"reason":"compiler-message","message":{"code":{"code":"E0308"},"level":"error","message":"mismatched types","children":[],"spans":[{"file_name":"src/lib.rs","is_primary":true,"line_start":2,"line_end":2}]}}"#.into(),
            stderr: "error: could not compile `demo`\n".into(),
        };
        let run = read(&ctx, "cargo check", &broken, Vec::new());
        assert_eq!(
            (run.clippy, run.diagnostics.len(), run.notes.len()),
            (false, 1, 0)
        );
    }
}
