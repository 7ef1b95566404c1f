//! The `builtin` executor: real mechanical fixes for auto-fixable findings in a Cargo
//! repository. It applies the machine-applicable suggestions of `cargo clippy` (or
//! `cargo check` when clippy is not installed) — which include removing unused imports — for
//! a few passes, since one fix can reveal the next, then formats with rustfmt. It touches only
//! the files the task owns (every file when the task owns none), so Implementers working in
//! parallel never edit each other's files.

mod format;
mod suggestions;

use super::process::{self, Extra};
use super::{ExecOutcome, ExecRequest, Executor};
use crate::change::{slash_path, walk};
use crate::ownership::Ownership;
use format::{format_file, Formatted, Workspace};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use suggestions::{apply, machine_applicable, Suggestion};

/// Suggestion passes before formatting.
const PASSES: usize = 3;

/// Applies compiler and clippy fixes and formats, within the task's owned files.
#[derive(Debug, Clone)]
pub struct BuiltinExecutor {
    timeout: Duration,
}

impl BuiltinExecutor {
    /// A builtin executor whose every cargo or rustfmt run is limited to `timeout`.
    pub fn new(timeout: Duration) -> BuiltinExecutor {
        BuiltinExecutor { timeout }
    }

    fn fix(&self, request: &ExecRequest<'_>) -> Result<Vec<String>, ExecOutcome> {
        let repo = request.repo.canonicalize().map_err(|e| {
            ExecOutcome::Failed(format!("cannot open {}: {e}", request.repo.display()))
        })?;
        if !repo.join("Cargo.toml").is_file() {
            return Err(ExecOutcome::Failed(format!(
                "the builtin executor fixes Cargo repositories; {} has no Cargo.toml",
                repo.display()
            )));
        }
        let workspace = Workspace::read(&repo, self.timeout).map_err(ExecOutcome::Failed)?;
        let scope = Ownership::new(&request.task.owns).map_err(ExecOutcome::Failed)?;
        let mut report = Vec::new();
        for _ in 0..PASSES {
            let json = self.diagnostics(&repo)?;
            let applied = apply_in_scope(&machine_applicable(&json), &workspace, &repo, &scope)
                .map_err(ExecOutcome::Failed)?;
            if applied.is_empty() {
                break;
            }
            report.extend(applied);
        }
        for entry in walk(&repo).flatten() {
            let path = entry.path();
            let Ok(relative) = path.strip_prefix(&repo) else {
                continue;
            };
            let relative = slash_path(relative);
            if !relative.ends_with(".rs") || !scope.contains(&relative) {
                continue;
            }
            match format_file(path, workspace.edition_of(path), self.timeout) {
                Formatted::Changed => report.push(format!("formatted {relative} (rustfmt)")),
                Formatted::Unchanged => {}
                Formatted::Failed(why) => {
                    report.push(format!("could not format {relative}: {why}"))
                }
            }
        }
        Ok(report)
    }

    /// cargo's JSON diagnostics from clippy, or from `cargo check` when clippy printed none
    /// (not installed).
    fn diagnostics(&self, repo: &Path) -> Result<String, ExecOutcome> {
        let mut last = String::new();
        for tool in ["clippy", "check"] {
            let argv = ["cargo", tool, "--all-targets", "--message-format=json"].map(String::from);
            let done = match process::run(&argv, repo, self.timeout, &Extra::default()) {
                Ok(done) => done,
                Err(process::RunError::TimedOut) => {
                    return Err(ExecOutcome::TimedOut {
                        secs: self.timeout.as_secs(),
                    })
                }
                Err(process::RunError::Spawn(e)) => {
                    return Err(ExecOutcome::Failed(format!("cargo did not run: {e}")))
                }
            };
            let json = String::from_utf8_lossy(&done.stdout).into_owned();
            if json.lines().any(|l| l.starts_with("{\"reason\":")) {
                return Ok(json);
            }
            last = String::from_utf8_lossy(&done.stderr).into_owned();
        }
        let first = last.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        Err(ExecOutcome::Failed(format!(
            "cargo printed no diagnostics: {first}"
        )))
    }
}

impl Executor for BuiltinExecutor {
    fn kind(&self) -> &str {
        "builtin"
    }

    fn execute(&mut self, request: &ExecRequest<'_>) -> ExecOutcome {
        match self.fix(request) {
            Ok(report) if report.is_empty() => ExecOutcome::success(
                "builtin: no machine-applicable fixes or formatting changes for the owned files\n",
            ),
            Ok(report) => {
                let mut text = String::from("builtin fixes:\n");
                for line in report {
                    text.push_str(&format!("- {line}\n"));
                }
                ExecOutcome::success(text)
            }
            Err(outcome) => outcome,
        }
    }
}

/// Applies each in-scope file's suggestions and returns one report line per applied fix.
fn apply_in_scope(
    found: &[Suggestion],
    workspace: &Workspace,
    repo: &Path,
    scope: &Ownership,
) -> Result<Vec<String>, String> {
    let mut by_file: BTreeMap<(PathBuf, String), Vec<&Suggestion>> = BTreeMap::new();
    for s in found {
        let path = workspace.root.join(&s.file);
        // Cargo names files relative to the workspace root, which may lie above the repository.
        let Ok(path) = path.canonicalize() else {
            continue;
        };
        let Ok(relative) = path.strip_prefix(repo) else {
            continue;
        };
        let relative = slash_path(relative);
        if scope.contains(&relative) {
            by_file.entry((path, relative)).or_default().push(s);
        }
    }
    let mut report = Vec::new();
    for ((path, relative), suggestions) in by_file {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read {relative}: {e}"))?;
        let (fixed, applied) = apply(&text, &suggestions);
        if applied.is_empty() || fixed == text {
            continue;
        }
        std::fs::write(&path, fixed).map_err(|e| format!("cannot write {relative}: {e}"))?;
        for i in applied {
            let s = suggestions[i];
            report.push(format!("{relative}:{} {}: {}", s.line, s.lint, s.message));
        }
    }
    Ok(report)
}
