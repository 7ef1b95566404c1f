//! One run of the test command, judged: not run, an environment error, or a run with its
//! failing tests located. Both test rules report from the same outcome.

use super::command::{test_command, Source};
use super::locate::{locate, Others};
use super::runner::{run, Finished, RunError};
use super::test_run::{parse_output, Failure, Format, TestRun};
use crate::engine::Context;
use protocol::Location;
use std::time::Duration;

/// What running the tests came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Nothing ran (`--no-exec`, no command): a note, and the reason for the claim.
    NotRun { note: String, reason: String },
    /// The command could not run, timed out, or failed without a failing test.
    EnvironmentError {
        location: Location,
        description: String,
        key: String,
        /// The reason for a `TestsNotRun` claim.
        reason: String,
        /// The counts, when test summaries were printed before it went wrong.
        partial: Option<TestRun>,
    },
    /// The tests ran; each failure with its location.
    Ran {
        run: TestRun,
        failures: Vec<(Location, Failure)>,
        command: String,
        location: Location,
    },
}

/// Runs the test command of `ctx` (unless `--no-exec`) and judges the result.
pub(super) fn run_tests(ctx: &Context) -> Outcome {
    if ctx.options.no_exec {
        return Outcome::NotRun {
            note: "test: not run (--no-exec)".to_string(),
            reason: "--no-exec".to_string(),
        };
    }
    let Some((argv, source)) = test_command(ctx) else {
        return Outcome::NotRun {
            note: "test: no test command configured or detected: not run".to_string(),
            reason: "no test command".to_string(),
        };
    };
    let command = argv.join(" ");
    let location = match source {
        Source::Config => Location::file(""),
        Source::Steering => Location::file("steering/tech.md"),
        Source::Manifest(manifest) => Location::file(manifest),
    };
    let env_error =
        |description: String, reason: String, partial: Option<TestRun>| Outcome::EnvironmentError {
            location: location.clone(),
            description,
            key: format!("test command {command}"),
            reason,
            partial,
        };
    let timeout_ms = ctx.options.test_timeout_ms;
    let done = match run(&argv, &ctx.root, Duration::from_millis(timeout_ms)) {
        Ok(done) => done,
        Err(RunError::TimedOut) => {
            let after = seconds(timeout_ms);
            return env_error(
                format!("test command timed out after {after}: {command}"),
                format!("timed out after {after}"),
                None,
            );
        }
        Err(RunError::Spawn(e)) => {
            return env_error(
                format!("test command could not run: {command}: {e}"),
                format!("could not run: {e}"),
                None,
            );
        }
    };
    let output = format!("{}\n{}", done.stdout, done.stderr);
    let (test_run, format) = parse_output(Format::of(&argv), &output);
    if done.code != Some(0) && test_run.failed == 0 && test_run.failures.is_empty() {
        let first = first_error_line(&done);
        return if test_run.summarised {
            env_error(
                format!(
                    "test command exited with {} although no test failed: {first}",
                    status(&done)
                ),
                format!("exited with {}", status(&done)),
                Some(test_run),
            )
        } else {
            env_error(
                format!("tests did not build or run: {first}"),
                "did not build or run".to_string(),
                None,
            )
        };
    }
    let others = Others::new();
    let failures = test_run
        .failures
        .iter()
        .map(|f| (locate(ctx, &others, format, f), f.clone()))
        .collect();
    Outcome::Ran {
        run: test_run,
        failures,
        command,
        location,
    }
}

/// `300000` → `300s`, `1500` → `1.5s`.
fn seconds(ms: u64) -> String {
    let (whole, millis) = (ms / 1000, ms % 1000);
    if millis == 0 {
        format!("{whole}s")
    } else {
        format!("{:.1}s", ms as f64 / 1000.0)
    }
}

fn status(done: &Finished) -> String {
    match done.code {
        Some(code) => format!("status {code}"),
        None => "a signal".to_string(),
    }
}

/// The first line that reads as an error (`error[E0425]: …`, `ModuleNotFoundError: …`), else
/// the last line of output, stderr first.
fn first_error_line(done: &Finished) -> String {
    let streams = [done.stderr.as_str(), done.stdout.as_str()];
    let is_error = |l: &&str| {
        let t = l.trim_start().to_lowercase();
        t.starts_with("error") || t.contains("error:") || t.contains("error[")
    };
    streams
        .iter()
        .find_map(|s| s.lines().find(is_error))
        .or_else(|| {
            streams
                .iter()
                .find_map(|s| s.lines().rev().find(|l| !l.trim().is_empty()))
        })
        .map_or_else(
            || format!("no output ({})", status(done)),
            |l| l.trim().to_string(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(code: Option<i32>, stdout: &str, stderr: &str) -> Finished {
        Finished {
            code,
            stdout: stdout.into(),
            stderr: stderr.into(),
        }
    }

    #[test]
    fn words_durations_and_error_lines() {
        assert_eq!(seconds(300_000), "300s");
        assert_eq!(seconds(300), "0.3s");
        let build = finished(
            Some(101),
            "",
            "   Compiling a v0.1.0\nerror[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:1:1\n",
        );
        assert_eq!(
            first_error_line(&build),
            "error[E0425]: cannot find value `x` in this scope"
        );
        assert_eq!(
            first_error_line(&finished(Some(1), "last words\n\n", "")),
            "last words"
        );
        assert_eq!(
            first_error_line(&finished(None, "", "")),
            "no output (a signal)"
        );
    }
}
