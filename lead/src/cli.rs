//! The command line: every command of chapter 00. Commands that later work will build say so
//! and exit 2 rather than pretending.

use crate::runtime::Runtime;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const EXIT_CODES: &str = "Exit codes:
  0  GO / APPROVE (CONDITIONAL too, unless --strict)
  1  NO-GO / REJECT / REQUEST_CHANGES
  2  usage, configuration or internal error
  3  CONDITIONAL with --strict
  4  SPEC-UPDATE-NEEDED
  5  escalated to a human (team loop)
  124 the whole command timed out";

/// retake: a fault-tolerant, multi-actor review gate and fix loop for code changes.
#[derive(Debug, Parser)]
#[command(name = "retake", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// Log format on standard error.
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable.
    Text,
    /// One JSON object per line.
    Json,
}

/// Output format of a review or audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The human-readable report (default).
    Terminal,
    /// One JSON object (chapter 07).
    Json,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Review a repository: six Inspectors, the Auditor, a verdict, verdicts.md, an exit code.
    Review(ReviewArgs),
    /// Run the Auditor on CPF reports from any source (a folder of .cpf files, or files).
    Audit(AuditArgs),
    /// List the rule catalog.
    Rules,
    /// Run one actor (what the Lead spawns, and what containers run).
    Actor {
        /// The actor's role.
        #[command(subcommand)]
        role: ActorRole,
    },
    /// Drive a plan with the team loop (not yet available).
    Run(NotYet),
    /// Run the fix pipeline over an earlier review (not yet available).
    Fix(NotYet),
    /// Continue an interrupted run (not yet available).
    Resume(NotYet),
    /// Aggregate verdicts of N pipelines (not yet available).
    Consensus(NotYet),
    /// Show the effective configuration and where each value came from (not yet available).
    Config(NotYet),
    /// Write a commented retake.toml into a repository (not yet available).
    Init(NotYet),
    /// Show the state of the current run (not yet available).
    Status(NotYet),
    /// Serve the Lead as a long-lived service with a dashboard (not yet available).
    Serve(NotYet),
    /// Run recovery scenarios (not yet available).
    Scenario(NotYet),
}

/// Arguments of a command that a later release builds.
#[derive(Debug, Args)]
pub struct NotYet {
    /// Ignored.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

/// `retake actor ROLE …`
#[derive(Debug, Subcommand)]
pub enum ActorRole {
    /// An Inspector.
    Inspector(inspector::runtime::InspectorArgs),
    /// The Auditor.
    Auditor(auditor::runtime::AuditorArgs),
}

/// Output options shared by `review` and `audit`.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
    /// Exit 3 on CONDITIONAL.
    #[arg(long)]
    pub strict: bool,
}

/// `retake review`
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The repository to review (default: the current directory).
    pub path: Option<PathBuf>,
    /// Review only files matching these globs (relative to the repository root).
    #[arg(long, num_args = 1..)]
    pub paths: Vec<String>,
    /// Review one feature of the spec folder (phase gate applies).
    #[arg(long)]
    pub feature: Option<String>,
    /// With --feature: only these task ids (comma separated).
    #[arg(long, value_delimiter = ',', requires = "feature")]
    pub tasks: Vec<String>,
    /// Review every spec's files.
    #[arg(long, conflicts_with_all = ["feature", "paths"])]
    pub cross_check: bool,
    /// Review the specs of waves 1..N.
    #[arg(long, conflicts_with_all = ["feature", "paths", "cross_check"])]
    pub wave: Option<u32>,
    /// Where the actors run (default from config: local).
    #[arg(long, value_enum)]
    pub runtime: Option<Runtime>,
    /// Run no external command (no tests, no compiler): a purely static review.
    #[arg(long)]
    pub no_exec: bool,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `retake audit`
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// A folder of .cpf files, or .cpf files; each file's stem names the reporting agent.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// What the audit does with test failures.
    #[arg(long, value_parser = ["no-go", "conditional"], default_value = "no-go")]
    pub test_failure: String,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}
