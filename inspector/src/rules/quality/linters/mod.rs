//! Findings from the compiler and the field's own analyzers: `cargo check`/`cargo clippy`
//! diagnostics for dead code and unused imports (`compiler_dead_code.rs`), and the analyzer
//! adapters — clippy, ruff, eslint and go vet JSON (`linter_finding.rs`). Each tool runs through
//! the engine's process runner (argv, own process group, timeout that kills the group); none
//! runs under `--no-exec`, and a tool that is missing or times out becomes one note, never a
//! failed review.
//!
//! Which analyzers run: [`active`] reads `[inspector] linters` (passed in `InspectOptions`):
//! `auto`, the Lead's default, is the analyzer of each language in scope — clippy for a cargo
//! project, ruff for Python, go vet for a Go module, and eslint only when the repository
//! configures it (an eslint config file or `eslintConfig` in `package.json`), from its own
//! `node_modules/.bin` (never `npx`, which downloads); named analyzers run when their language
//! is in scope; an empty list runs none. One cargo run serves both Rust rules (`cargo.rs`):
//! clippy when it is active (its output carries rustc's lints too), else `cargo check`.
//! An analyzer's lint that says what a built-in rule says stands in for it (`stand_ins.rs`).

mod cargo;
mod cargo_json;
pub(super) mod compiler_dead_code;
mod eslint;
mod go_vet;
pub(super) mod linter_finding;
mod ruff;
mod stand_ins;

use crate::engine::process::{run_with, Extra, Finished, RunError};
use crate::engine::{Context, Language};
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
    /// Whether the lint is an error by the tool's own default (clippy's `correctness` group
    /// is the one denied by default), not by the project's configuration.
    pub(crate) deny_by_default: bool,
    /// The tool's message.
    pub(crate) message: String,
}

/// An analyzer with a JSON adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Linter {
    /// `cargo clippy --message-format=json`.
    Clippy,
    /// `ruff check --output-format=json`.
    Ruff,
    /// `eslint --format json`.
    Eslint,
    /// `go vet -json ./...`.
    GoVet,
}

impl Linter {
    /// Every adapter, in the order they run.
    const ALL: [Linter; 4] = [Linter::Clippy, Linter::Ruff, Linter::Eslint, Linter::GoVet];

    /// The name used in configuration.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Linter::Clippy => "clippy",
            Linter::Ruff => "ruff",
            Linter::Eslint => "eslint",
            Linter::GoVet => "go-vet",
        }
    }

    /// The name used in notes and findings.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Linter::GoVet => "go vet",
            other => other.name(),
        }
    }

    /// Whether the scope holds files this analyzer lints (and, for clippy and go vet, the
    /// root holds the manifest the tool needs).
    fn applies(self, ctx: &Context) -> bool {
        let has = |langs: &[Language]| {
            ctx.files
                .iter()
                .any(|f| f.language.is_some_and(|l| langs.contains(&l)))
        };
        match self {
            Linter::Clippy => ctx.root.join("Cargo.toml").is_file() && has(&[Language::Rust]),
            Linter::Ruff => has(&[Language::Python]),
            Linter::Eslint => has(&[Language::TypeScript, Language::JavaScript]),
            Linter::GoVet => ctx.root.join("go.mod").is_file() && has(&[Language::Go]),
        }
    }

    /// Whether `auto` runs it: it applies, and eslint only where the repository configures it.
    fn auto_applies(self, ctx: &Context) -> bool {
        self.applies(ctx) && (self != Linter::Eslint || eslint::configured(&ctx.root))
    }
}

/// The analyzers this review runs (the Lead has rejected unknown names): with `auto`, those of
/// the languages in scope; named ones when their language is in scope.
pub(crate) fn active(ctx: &Context) -> Vec<Linter> {
    let names = &ctx.options.linters;
    let auto = names.iter().any(|n| n == "auto");
    Linter::ALL
        .into_iter()
        .filter(|l| {
            (auto && l.auto_applies(ctx)) || (names.iter().any(|n| n == l.name()) && l.applies(ctx))
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

/// The note for an analyzer whose program is missing: "clippy not run: cargo-clippy not
/// installed".
pub(crate) fn not_installed(tool: &str, program: &str) -> String {
    format!("{tool} not run: {program} not installed")
}

/// Runs a tool (`argv`, labelled `tool` in notes) in the repository root with the review's
/// test timeout; `Err` is the note to give (not installed, could not start, timed out).
pub(crate) fn run_tool(
    ctx: &Context,
    tool: &str,
    argv: &[&str],
    env: Vec<(String, String)>,
) -> Result<Finished, String> {
    let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
    let timeout = Duration::from_millis(ctx.options.test_timeout_ms.max(1));
    let command = argv.join(" ");
    match run_with(&argv, &ctx.root, timeout, &Extra { stdin: None, env }) {
        Ok(done) => Ok(done),
        Err(RunError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(not_installed(tool, &argv[0]))
        }
        Err(RunError::Spawn(e)) => Err(format!("{tool} not run: `{command}` could not start: {e}")),
        Err(RunError::TimedOut) => {
            let after = match timeout.as_secs() {
                0 => format!("{} ms", timeout.as_millis()),
                secs => format!("{secs} s"),
            };
            Err(format!(
                "{tool}: `{command}` timed out after {after} (the test timeout): its findings are missing"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SourceFile;

    fn ctx_in(root: &Path, paths: &[&str], linters: &[&str]) -> Context {
        let mut ctx = Context::from_files(
            root,
            paths.iter().map(|p| SourceFile::new(*p, "")).collect(),
            crate::spec::Specs::default(),
        );
        ctx.options.linters = linters.iter().map(|l| l.to_string()).collect();
        ctx
    }

    #[test]
    fn relative_paths_and_missing_tools() {
        assert_eq!(relative(Path::new("/r"), "/r/app/a.py"), "app/a.py");
        assert_eq!(relative(Path::new("/r"), "src/lib.rs"), "src/lib.rs");
        let dir = tempfile::tempdir().expect("tempdir");
        let ctx = ctx_in(dir.path(), &[], &[]);
        assert_eq!(
            run_tool(
                &ctx,
                "ruff",
                &["retake-no-such-linter", "--json"],
                Vec::new()
            )
            .map(|d| d.stdout),
            Err("ruff not run: retake-no-such-linter not installed".to_string())
        );
        let mut ctx = ctx;
        ctx.options.test_timeout_ms = 200;
        assert_eq!(
            run_tool(&ctx, "go vet", &["sleep", "5"], Vec::new()).map(|d| d.stdout),
            Err("go vet: `sleep 5` timed out after 200 ms (the test timeout): its findings are missing".to_string())
        );
        assert_eq!(
            not_installed("clippy", "cargo-clippy"),
            "clippy not run: cargo-clippy not installed"
        );
    }

    #[test]
    fn auto_picks_the_analyzers_of_the_languages_present() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let all = ["src/lib.rs", "tool.py", "web/app.ts", "cmd/main.go"];
        // No Cargo.toml, go.mod or eslint config yet: only ruff has what it needs.
        assert_eq!(active(&ctx_in(root, &all, &["auto"])), vec![Linter::Ruff]);
        std::fs::write(root.join("Cargo.toml"), "[package]\n").expect("write");
        std::fs::write(root.join("go.mod"), "module x\n").expect("write");
        assert_eq!(
            active(&ctx_in(root, &all, &["auto"])),
            vec![Linter::Clippy, Linter::Ruff, Linter::GoVet]
        );
        std::fs::write(
            root.join("package.json"),
            r#"{"eslintConfig": {"root": true}}"#,
        )
        .expect("write");
        assert_eq!(
            active(&ctx_in(root, &all, &["auto"])),
            vec![Linter::Clippy, Linter::Ruff, Linter::Eslint, Linter::GoVet]
        );
        // Languages not in scope: nothing to run.
        assert_eq!(active(&ctx_in(root, &["README.md"], &["auto"])), Vec::new());
        // An explicit list keeps its meaning; an empty one runs none.
        assert_eq!(
            active(&ctx_in(root, &all, &["ruff", "go-vet"])),
            vec![Linter::Ruff, Linter::GoVet]
        );
        assert_eq!(active(&ctx_in(root, &all, &[])), Vec::new());
    }
}
