//! One module per command; each returns the process exit code or an error (exit 2).

pub mod actor;
pub mod audit;
pub mod config_show;
pub mod consensus;
pub mod dashboard;
pub mod fix;
pub mod init;
pub mod resume;
pub mod review;
pub mod rules;
pub mod run;
pub mod scenario;
pub mod serve;
pub mod status;

use crate::cli::{Format, OutputArgs};
use anyhow::{bail, Context as _};
use outputs::baseline::{self, Baseline};
use outputs::gate::{self, Gate};
use outputs::ExitCode;
use outputs::{gitlab, json, junit, markdown, rdjson, sarif, terminal, Summary};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// The output options, checked: where each format goes, the gate, and the loaded baseline.
#[derive(Debug)]
pub struct OutputPlan {
    /// The requested formats other than terminal, once each, in the order given.
    pub files: Vec<Format>,
    /// Where they are written; none: the one format goes to standard output.
    pub dir: Option<PathBuf>,
    /// Whether the terminal report prints (to standard output, or to standard error when a
    /// format other than terminal takes standard output).
    pub terminal: bool,
    /// How the exit code is computed.
    pub gate: Gate,
    /// The previous output of `--baseline`.
    pub baseline: Option<Baseline>,
}

/// Checks the output options and reads the baseline; commands call it before doing any work so
/// that bad options cost nothing. Errors are usage errors (exit 2) naming the problem.
pub fn plan(output: &OutputArgs) -> anyhow::Result<OutputPlan> {
    let mut files: Vec<Format> = Vec::new();
    for format in &output.format {
        if *format != Format::Terminal && !files.contains(format) {
            files.push(*format);
        }
    }
    if output.output_dir.is_none() && files.len() > 1 {
        let names: Vec<String> = files
            .iter()
            .map(|f| format!("--format {}", name(*f)))
            .collect();
        bail!(
            "{} would all go to standard output: pass --output DIR to write each to a file",
            names.join(", ")
        );
    }
    let terminal = output.output_dir.is_some()
        || files.is_empty()
        || output.format.contains(&Format::Terminal);
    let baseline = match &output.baseline {
        Some(path) => Some(baseline::load(path)?),
        None => None,
    };
    Ok(OutputPlan {
        files,
        dir: output.output_dir.clone(),
        terminal,
        gate: Gate {
            strict: output.strict,
            fail_level: output.fail_level.severity(),
            new_only: output.new_only,
        },
        baseline,
    })
}

/// Prints and writes the summary in every requested format and returns the exit code (the
/// verdict's, `--fail-level`, `--new-only`).
pub fn emit(summary: &Summary<'_>, output: &OutputArgs) -> anyhow::Result<ExitCode> {
    let plan = plan(output)?;
    let summary = Summary {
        baseline: plan.baseline.as_ref(),
        ..summary.clone()
    };
    let code = gate::exit_code_for(&summary, &plan.gate);
    let render = |format: Format| -> anyhow::Result<String> {
        Ok(match format {
            Format::Terminal => terminal::render(&summary, &plan.gate, false),
            Format::Markdown => markdown::render(&summary, &plan.gate),
            Format::Json => pretty(&json::render(&summary))?,
            Format::Sarif => pretty(&sarif::render(&summary, code))?,
            Format::Rdjson => pretty(&rdjson::render(&summary))?,
            Format::Rdjsonl => rdjson::render_lines(&summary),
            Format::Junit => junit::render(&summary, &plan.gate),
            Format::Gitlab => pretty(&gitlab::render(&summary))?,
        })
    };
    match &plan.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create output folder {}", dir.display()))?;
            for format in &plan.files {
                let Some(file) = format.file_name() else {
                    continue;
                };
                let path = dir.join(file);
                write_to_file(&path, *format, &summary, &render)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        None => {
            if let Some(format) = plan.files.first() {
                let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
                write_format(&mut stdout, *format, &summary, &render)?;
                stdout.flush()?;
            }
        }
    }
    if plan.terminal {
        // With a format on standard output, the people's report moves to standard error.
        let to_stderr = plan.dir.is_none() && !plan.files.is_empty();
        let color = std::env::var_os("NO_COLOR").is_none()
            && if to_stderr {
                std::io::stderr().is_terminal()
            } else {
                std::io::stdout().is_terminal()
            };
        if output.report_to_log {
            let text = terminal::render(&summary, &plan.gate, false);
            tracing::debug!(report = %text, "the review's report");
            return Ok(code);
        }
        let text = terminal::render(&summary, &plan.gate, color);
        if to_stderr {
            std::io::stderr().lock().write_all(text.as_bytes())?;
        } else {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
    }
    Ok(code)
}

/// Writes a command's output to standard output. A reader that went away (`retake … | head`)
/// is a `BrokenPipe` error the binary's top level turns into a quiet exit 141, as for every
/// command: output goes through here or another `write_all`, never `print!`, which panics.
pub fn print_stdout(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Writes one format: JSON streamed finding by finding (a large review's findings are never
/// held twice), every other format rendered first.
fn write_format(
    out: &mut dyn Write,
    format: Format,
    summary: &Summary<'_>,
    render: &dyn Fn(Format) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    match format {
        Format::Json => {
            json::write_pretty(summary, &mut *out)?;
            out.write_all(b"\n")?;
        }
        other => out.write_all(render(other)?.as_bytes())?,
    }
    Ok(())
}

/// [`write_format`] into a new file, flushed before it returns.
fn write_to_file(
    path: &std::path::Path,
    format: Format,
    summary: &Summary<'_>,
    render: &dyn Fn(Format) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    write_format(&mut file, format, summary, render)?;
    file.flush()?;
    Ok(())
}

fn pretty(value: &serde_json::Value) -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}

fn name(format: Format) -> String {
    use clap::ValueEnum as _;
    format
        .to_possible_value()
        .map_or_else(|| format!("{format:?}"), |v| v.get_name().to_string())
}
