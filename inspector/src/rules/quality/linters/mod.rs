//! Findings from the compiler and linters: `cargo check` diagnostics for dead code and unused
//! imports (`compiler_dead_code.rs`), and the opt-in linter adapters — clippy, ruff and eslint
//! JSON (`linter_finding.rs`). Each tool runs through the engine's process runner (argv, own
//! process group, timeout that kills the group); none runs under `--no-exec`, and a tool that
//! is missing or times out becomes a note, never a failed review.
//!
//! Enabling the linter adapters: [`enabled_linters`] reads which linters a project opted into
//! (`[inspector] linters = ["clippy", "ruff"]` in `retake.toml`, passed in `InspectOptions`).

mod cargo_json;
pub(super) mod compiler_dead_code;
mod eslint;
pub(super) mod linter_finding;
mod ruff;

use crate::engine::process::{run_with, Extra, RunError};
use crate::engine::Context;
use protocol::message::InspectOptions;
use std::path::Path;
use std::time::Duration;

/// One diagnostic of a compiler or linter, located in the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diagnostic {
    /// Repository-relative path.
    pub(crate) path: String,
    /// 1-based first line.
    pub(crate) line: u32,
    /// 1-based last line.
    pub(crate) end_line: u32,
    /// The tool's code (`dead_code`, `clippy::needless_return`, `F401`, `no-unused-vars`).
    pub(crate) code: String,
    /// Whether the tool rates it an error (else a warning).
    pub(crate) error: bool,
    /// The tool's message.
    pub(crate) message: String,
}

/// A linter with a JSON adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Linter {
    /// `cargo clippy --message-format=json`.
    Clippy,
    /// `ruff check --output-format=json`.
    Ruff,
    /// `eslint --format json`.
    Eslint,
}

impl Linter {
    /// The name used in configuration and notes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Linter::Clippy => "clippy",
            Linter::Ruff => "ruff",
            Linter::Eslint => "eslint",
        }
    }
}

/// The linters the project opted into (the Lead has rejected unknown names).
pub(crate) fn enabled_linters(options: &InspectOptions) -> Vec<Linter> {
    from_names(&options.linters)
}

/// Linters by their configuration names; unknown names are ignored.
pub(crate) fn from_names(names: &[String]) -> Vec<Linter> {
    names
        .iter()
        .filter_map(|n| match n.as_str() {
            "clippy" => Some(Linter::Clippy),
            "ruff" => Some(Linter::Ruff),
            "eslint" => Some(Linter::Eslint),
            _ => None,
        })
        .collect()
}

/// A repository-relative path for a tool's path (absolute, or relative to the root).
pub(crate) fn relative(root: &Path, path: &str) -> String {
    let p = Path::new(path);
    let rel = p.strip_prefix(root).unwrap_or(p);
    rel.to_string_lossy()
        .trim_start_matches("./")
        .replace('\\', "/")
}

/// Runs a tool in the repository root with the review's timeout; `Err` is the note to give.
pub(crate) fn run_tool(
    ctx: &Context,
    rule: &str,
    argv: &[&str],
    env: Vec<(String, String)>,
) -> Result<String, String> {
    let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
    let timeout = Duration::from_millis(ctx.options.test_timeout_ms.max(1));
    let command = argv.join(" ");
    match run_with(&argv, &ctx.root, timeout, &Extra { stdin: None, env }) {
        Ok(done) => Ok(done.stdout),
        Err(RunError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(format!("{rule}: `{}` is not installed: not run", argv[0]))
        }
        Err(RunError::Spawn(e)) => Err(format!("{rule}: `{command}` could not start: {e}")),
        Err(RunError::TimedOut) => Err(format!(
            "{rule}: `{command}` timed out after {} s: its findings are missing",
            timeout.as_secs()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_and_missing_tools() {
        assert_eq!(relative(Path::new("/r"), "/r/app/a.py"), "app/a.py");
        assert_eq!(relative(Path::new("/r"), "src/lib.rs"), "src/lib.rs");
        let dir = tempfile::tempdir().expect("tempdir");
        let ctx = Context::from_files(dir.path(), Vec::new(), crate::spec::Specs::default());
        assert_eq!(
            run_tool(
                &ctx,
                "quality/linter-finding",
                &["retake-no-such-linter", "--json"],
                Vec::new()
            ),
            Err(
                "quality/linter-finding: `retake-no-such-linter` is not installed: not run"
                    .to_string()
            )
        );
        assert!(enabled_linters(&InspectOptions::default()).is_empty());
        let names = [
            "ruff".to_string(),
            "pylint".to_string(),
            "clippy".to_string(),
        ];
        assert_eq!(from_names(&names), vec![Linter::Ruff, Linter::Clippy]);
    }
}
