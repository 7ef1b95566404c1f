//! One module per command; each returns the process exit code or an error (exit 2).

pub mod actor;
pub mod audit;
pub mod review;
pub mod rules;

use crate::cli::{Format, OutputArgs};
use crate::output::{exit_code, json, terminal, Summary};
use std::io::{IsTerminal, Write};

/// Prints the summary in the chosen format and returns the verdict's exit code.
pub fn emit(summary: &Summary<'_>, output: &OutputArgs) -> anyhow::Result<u8> {
    let mut stdout = std::io::stdout().lock();
    match output.format {
        Format::Terminal => {
            let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            stdout.write_all(terminal::render(summary, color).as_bytes())?;
        }
        Format::Json => {
            serde_json::to_writer_pretty(&mut stdout, &json::render(summary))?;
            stdout.write_all(b"\n")?;
        }
    }
    stdout.flush()?;
    Ok(exit_code(summary.outcome.verdict, output.strict))
}
