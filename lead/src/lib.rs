//! retake's Lead as an application: the command line (`cli`, one module per command in
//! `commands`), the settings (`config`: files, environment and flags read once into typed
//! values) and the service (`serve`).
//!
//! Everything else is a library it calls with typed values: `review` (one review, its state,
//! verdicts.md, steering and review cycle), `run` (the team loop's shell over the pure `team`
//! crate), `fix` (the fix pipeline's shell over `team::fix`), `host` (where actors run and how
//! they are supervised), `outputs` (every format and the exit code), `scenario` (recovery
//! scenarios).
//! The binary's `main` calls [`main`] and exits with the code it returns.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod auth;
pub mod chaos;
pub mod cli;
pub mod commands;
pub mod config;
pub mod dashboard;
pub mod exit;
pub mod handover;
pub mod serve;

use clap::Parser;
use cli::{Cli, Command};
use outputs::ExitCode;

/// Runs the command line and returns the process exit code.
pub fn main() -> u8 {
    quiet_on_closed_stdout();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help`, `--version` and usage errors, printed as clap would, but a closed output
        // pipe ends like any command's output: quietly, 141.
        Err(e) => {
            return match e.print() {
                Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => {
                    ExitCode::BrokenPipe.code()
                }
                _ => u8::try_from(e.exit_code()).unwrap_or(2),
            }
        }
    };
    protocol::session::process::init_logging(cli.log_format);
    let result = match cli.command {
        Command::Review(args) => commands::review::run(args).map_err(|f| (f.code, f.error)),
        Command::Audit(args) => commands::audit::run(args).map_err(|e| (ExitCode::Error, e)),
        Command::Rules => commands::rules::run().map_err(|e| (ExitCode::Error, e)),
        Command::Actor { role } => commands::actor::run(role).map_err(|e| (ExitCode::Error, e)),
        Command::Consensus(args) => {
            commands::consensus::run(args).map_err(|e| (ExitCode::Error, e))
        }
        Command::Scenario { action } => {
            commands::scenario::run(action).map_err(|e| (ExitCode::Error, e))
        }
        Command::Resume(args) => commands::resume::run(args).map_err(|f| (f.code, f.error)),
        Command::Config {
            action: cli::ConfigAction::Show(args),
        } => commands::config_show::run(args).map_err(|e| (ExitCode::Error, e)),
        Command::Init(args) => commands::init::run(args).map_err(|e| (ExitCode::Error, e)),
        Command::Run(args) => commands::run::run(args).map_err(|e| (ExitCode::Error, e)),
        Command::Fix(args) => commands::fix::run(args).map_err(|e| (ExitCode::Error, e)),
        Command::Dashboard(args) => {
            commands::dashboard::run(args).map_err(|e| (ExitCode::Error, e))
        }
        Command::Serve(args) => commands::serve::run(args).map_err(|e| (ExitCode::Error, e)),
        Command::Status(args) => commands::status::run(args).map_err(|e| (ExitCode::Error, e)),
    };
    match result {
        Ok(code) => code.code(),
        // The reader of our output went away (`retake rules | head`): like a Unix tool killed by
        // SIGPIPE, stop quietly with 128 + 13 — not a clean exit, and not a message about it.
        Err((_, e)) if is_broken_pipe(&e) => ExitCode::BrokenPipe.code(),
        Err((code, e)) => {
            eprintln!("retake: error: {e:#}");
            code.code()
        }
    }
}

/// The safety net under [`commands::print_stdout`]: a `print!` that reaches a closed pipe
/// panics (and under `panic = "abort"` would end with 134 and a message); it ends as every
/// command does, quietly with 141.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        // std's message for a failed `print!` to a closed pipe (library/std/src/io/stdio.rs).
        if message.starts_with("failed printing to stdout") && message.contains("os error 32") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Whether an error comes from writing to a pipe whose reader has closed it.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
