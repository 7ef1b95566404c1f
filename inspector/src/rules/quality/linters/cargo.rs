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
            Ok((stderr, _)) if clippy_missing(&stderr) => {
                notes.push(not_installed("clippy", "cargo-clippy"));
            }
            Ok((_, stdout)) => {
                return CargoRun {
                    clippy: true,
                    diagnostics: cargo_json::parse(&stdout, &ctx.root),
                    notes,
                }
            }
            Err(note) => {
                return CargoRun {
                    notes: vec![note],
                    ..CargoRun::default()
                }
            }
        }
    }
    match cargo(ctx, "check") {
        Ok((_, stdout)) => CargoRun {
            clippy: false,
            diagnostics: cargo_json::parse(&stdout, &ctx.root),
            notes,
        },
        Err(note) => {
            notes.push(note);
            CargoRun {
                notes,
                ..CargoRun::default()
            }
        }
    }
}

/// Runs `cargo <sub>` over the workspace; (stderr, stdout), or the note to give.
fn cargo(ctx: &Context, sub: &str) -> Result<(String, String), String> {
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
        .map(|done| (done.stderr, done.stdout))
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
}
