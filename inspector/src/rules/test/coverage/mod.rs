//! `test/coverage`: when a coverage command is configured, runs it and reports its total as a
//! note (`test: coverage 85.7 % of lines (cargo-llvm-cov)`). A figure is information for the
//! reader and the Auditor's notes, not a defect, so it never becomes a finding.

mod parse;

use super::runner::{run, RunError};
use crate::engine::{Context, Rule, RuleMeta, Sink};
use parse::coverage_figure;
use protocol::{Category, Dimension, Severity};
use std::time::Duration;

static META: RuleMeta = RuleMeta {
    id: "test/coverage",
    category: Category::Coverage,
    severity: Severity::Low,
    languages: &[],
    dimensions: &[Dimension::Quality],
    explanation: "Runs the configured coverage command and notes its total (llvm-cov, tarpaulin, pytest-cov, go cover, istanbul).",
};

/// Notes the configured coverage command's total.
pub(crate) struct Coverage;

/// The configured coverage command. The Inspector's options carry none yet (the Lead's
/// `[test] coverage_command` has no field in `InspectOptions`), so nothing is run until they do.
fn configured_command(ctx: &Context) -> Option<Vec<String>> {
    ctx.options.coverage_command.clone()
}

impl Rule for Coverage {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        if let Some(argv) = configured_command(ctx) {
            measure(ctx, &argv, out);
        }
    }
}

/// Runs `argv` (unless `--no-exec`) and notes the coverage it prints.
fn measure(ctx: &Context, argv: &[String], out: &mut Sink) {
    let command = argv.join(" ");
    if ctx.options.no_exec {
        out.not_run("the coverage command");
        return;
    }
    let timeout = Duration::from_millis(ctx.options.test_timeout_ms);
    let done = match run(argv, &ctx.root, timeout) {
        Ok(done) => done,
        Err(RunError::TimedOut) => {
            out.note(format!("test: coverage command timed out: {command}"));
            return;
        }
        Err(RunError::Spawn(e)) => {
            out.note(format!(
                "test: coverage command could not run: {command}: {e}"
            ));
            return;
        }
    };
    let output = format!("{}\n{}", done.stdout, done.stderr);
    out.note(match coverage_figure(&output) {
        Some(f) => format!(
            "test: coverage {:.1} % of {} ({}: {command})",
            f.percent, f.of, f.tool
        ),
        None => {
            format!("test: coverage command printed no total this Inspector recognises: {command}")
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context_with, repo};
    use protocol::message::InspectOptions;
    use protocol::Scope;

    fn measured(script: &str, no_exec: bool) -> Sink {
        let dir = repo(&[("Cargo.toml", "[package]\n")]);
        let options = InspectOptions {
            no_exec,
            test_timeout_ms: 20_000,
            ..InspectOptions::default()
        };
        let ctx = context_with(&dir, Scope::repository(), options);
        let mut sink = Sink::default();
        let argv: Vec<String> = ["sh", "-c", script].iter().map(|w| w.to_string()).collect();
        measure(&ctx, &argv, &mut sink);
        sink
    }

    #[test]
    fn notes_the_total_the_command_prints() {
        let sink = measured("echo '85.71% coverage, 12/14 lines covered'", false);
        assert!(sink.hits.is_empty());
        assert_eq!(
            sink.notes,
            vec!["test: coverage 85.7 % of lines (cargo-tarpaulin: sh -c echo '85.71% coverage, 12/14 lines covered')".to_string()]
        );
    }

    #[test]
    fn quiet_without_a_command_and_under_no_exec() {
        let dir = repo(&[("Cargo.toml", "[package]\n")]);
        let ctx = context_with(&dir, Scope::repository(), InspectOptions::default());
        let mut sink = Sink::default();
        Coverage.check_project(&ctx, &mut sink);
        assert!(sink.hits.is_empty() && sink.notes.is_empty());
        let sink = measured("touch ran; echo '90% coverage,'", true);
        assert!(sink.notes.is_empty());
        assert_eq!(sink.not_run, vec!["the coverage command".to_string()]);
    }
}
