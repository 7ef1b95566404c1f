//! The command line: every command of the overview (`retake review`'s arguments in
//! `cli/review_args.rs`).

mod review_args;

use clap::{Args, Parser, Subcommand, ValueEnum};
use host::Runtime;
use protocol::message::TestFailurePolicy;
pub use review_args::{ChaosArgs, FilterArg, ReviewArgs};
use std::path::PathBuf;

const EXIT_CODES: &str = "Exit codes:
  0  GO / APPROVE (CONDITIONAL too, unless --strict)
  1  NO-GO / REJECT / REQUEST_CHANGES, or a finding at or above --fail-level
  2  usage, configuration or internal error
  3  CONDITIONAL with --strict
  4  SPEC-UPDATE-NEEDED
  5  escalated to a human (team loop); `fix`: some group failed every attempt
  124 the whole command timed out
A PROPOSE waiting for an answer does not change the exit code: the report's PROPOSE_PENDING
note lists its id (answer with `retake review --answer ID=yes|no`).";

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

/// Log output format: one definition, shared with the actor binaries.
pub use protocol::session::process::LogFormat;

/// Output format of a review or audit (the outputs spec).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum Format {
    /// The human-readable report (default).
    Terminal,
    /// The report as Markdown, with a hidden marker for bots that update one comment.
    Markdown,
    /// One JSON object (schema: docs/retake-report.schema.json).
    Json,
    /// SARIF 2.1.0, one run per Inspector.
    Sarif,
    /// reviewdog's Diagnostic Format: one DiagnosticResult.
    Rdjson,
    /// reviewdog's Diagnostic Format: one Diagnostic per line.
    Rdjsonl,
    /// JUnit XML: a suite per Inspector, a case per rule.
    Junit,
    /// GitLab Code Quality JSON.
    Gitlab,
}

impl Format {
    /// The file `--output DIR` writes this format to; none for the terminal report.
    pub fn file_name(self) -> Option<&'static str> {
        match self {
            Format::Terminal => None,
            Format::Markdown => Some("retake.md"),
            Format::Json => Some("retake.json"),
            Format::Sarif => Some("retake.sarif"),
            Format::Rdjson => Some("retake.rdjson"),
            Format::Rdjsonl => Some("retake.rdjsonl"),
            Format::Junit => Some("retake-junit.xml"),
            Format::Gitlab => Some("retake-gitlab.json"),
        }
    }
}

/// The `--fail-level` severity: findings at or above it fail the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailLevel {
    /// Critical.
    #[value(name = "C")]
    C,
    /// High and above.
    #[value(name = "H")]
    H,
    /// Medium and above.
    #[value(name = "M")]
    M,
    /// Every finding.
    #[value(name = "L")]
    L,
    /// No severity fails by itself: the verdict alone decides (default).
    #[value(name = "none")]
    None,
}

impl FailLevel {
    /// The lowest severity that fails, or none.
    pub fn severity(self) -> Option<protocol::Severity> {
        match self {
            FailLevel::C => Some(protocol::Severity::Critical),
            FailLevel::H => Some(protocol::Severity::High),
            FailLevel::M => Some(protocol::Severity::Medium),
            FailLevel::L => Some(protocol::Severity::Low),
            FailLevel::None => None,
        }
    }
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
    /// Drive a plan (Plans.md or specs/*/tasks.yaml) with the team loop; `--dry-run` shows
    /// the tasks, dependencies and team a run would use.
    Run(RunArgs),
    /// Run the fix pipeline over an earlier review's findings: plan groups, then fix, test and
    /// commit each group (or roll it back and retry); exit 0 when every group is fixed, 5 when
    /// some group failed every attempt.
    Fix(FixArgs),
    /// Continue an interrupted review or run from its state file (journaled reports and
    /// finished tasks are not re-run).
    Resume(ResumeArgs),
    /// Aggregate Auditor verdicts of N pipelines into the consensus verdict.
    Consensus(ConsensusArgs),
    /// The configuration: `config show` prints every key with where its value came from.
    Config {
        /// What to do.
        #[command(subcommand)]
        action: ConfigAction,
    },
    /// Write a commented retake.toml and the agent prompt templates into a repository.
    Init(InitArgs),
    /// Show what is in progress in a repository (a review or a run of the team loop, whether its
    /// Lead is alive, its tasks and journaled reports) and the last review's outcome.
    Status(StatusArgs),
    /// Serve a repository's review history as a web page, read-only (`verdicts.md`: every
    /// batch's verdict, findings by severity, regressions), until stopped.
    Dashboard(DashboardArgs),
    /// Serve the Lead as a long-lived service: remote-runtime workers register with it and
    /// review jobs are submitted over HTTP (POST /reviews, GET /reviews/ID/result).
    Serve(ServeArgs),
    /// Run recovery scenarios: reviews with injected faults, checked against expected outcomes.
    Scenario {
        /// What to do.
        #[command(subcommand)]
        action: ScenarioAction,
    },
}

/// `retake scenario …`
#[derive(Debug, Subcommand)]
pub enum ScenarioAction {
    /// Run scenario files (TOML; see deploy/scenarios/README.md): a table, optional JUnit XML;
    /// exit 0 when all pass, 1 when any fails, 2 on a bad file.
    Run(ScenarioRunArgs),
}

/// `retake scenario run`
#[derive(Debug, Args)]
pub struct ScenarioRunArgs {
    /// Scenario files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Also write the results as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Instead of the files' faults and expectations: N runs of their reviews with random
    /// faults, checked against the recovery invariants.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub soak: Option<u32>,
    /// The soak's seed (default: from the clock, printed so that a run replays).
    #[arg(long, value_name = "S", requires = "soak")]
    pub seed: Option<u64>,
    /// Keep each reviewed copy (its path is printed) instead of deleting it.
    #[arg(long)]
    pub keep: bool,
}

/// `retake config …`
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the effective configuration, each key with its source: default, a file, a
    /// RETAKE__SECTION__KEY variable or a flag (the review flags below).
    Show(ConfigShowArgs),
}

/// `retake config show`
#[derive(Debug, Args)]
pub struct ConfigShowArgs {
    /// The repository whose configuration to show (default: the current directory).
    pub path: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ConfigFormat::Text)]
    pub format: ConfigFormat,
    /// As `review --runtime`: shows the flag's effect on review.runtime.
    #[arg(long, value_parser = runtime_parser())]
    pub runtime: Option<Runtime>,
    /// As `review --dimensions`: shows the flag's effect on review.dimensions.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(protocol::Dimension))]
    pub dimensions: Vec<protocol::Dimension>,
    /// As `review --chaos`: shows the flag's effect on chaos.enabled.
    #[arg(long)]
    pub chaos: bool,
    /// As `review --trust-repo-config`: the work tree's retake.toml as it is (without it, as
    /// committed at HEAD, which is what a review without a base uses).
    #[arg(long)]
    pub trust_repo_config: bool,
}

/// Output format of `retake config show` and `retake status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConfigFormat {
    /// Lines for people (`config show`: `key = value  # source`).
    Text,
    /// One JSON object (`config show`: repository, files, keys with value, source and origin).
    Json,
}

/// `retake init`
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The repository to write into (default: the current directory).
    pub path: Option<PathBuf>,
    /// Overwrite files that already exist.
    #[arg(long)]
    pub force: bool,
}

/// Output format of `retake run --dry-run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// The human-readable plan (default).
    Terminal,
    /// One JSON object with `tasks`, `independent_tasks` and `implementers`.
    Json,
}

/// `retake run`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Which tasks: `all` (every open task, the default), "FIRST to LAST" (from the first task
    /// matching FIRST to the last matching LAST), a keyword, or a comma list of keywords.
    #[arg(value_name = "RANGE")]
    pub range: Vec<String>,
    /// At most N Implementers in parallel (never more than 5; without it and without a
    /// planner recommendation, at most 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub parallel: Option<u32>,
    /// Skip Phase 0, the planning discussion.
    #[arg(long)]
    pub no_discuss: bool,
    /// Stop after Phase A's plan: print the tasks, dependencies and team; start nothing and
    /// write no state.
    #[arg(long)]
    pub dry_run: bool,
    /// Answer the scope confirmation with yes (required without a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Output format of --dry-run.
    #[arg(long, value_enum, default_value_t = RunFormat::Terminal)]
    pub format: RunFormat,
    /// Where the Implementers and the review's actors run (default from config: local).
    #[arg(long, value_parser = runtime_parser())]
    pub runtime: Option<Runtime>,
    /// The rule profile of the run's review rounds (`default` or `pedantic`); overrides
    /// `[rules] profile`.
    #[arg(long, value_name = "PROFILE", value_parser = clap::value_parser!(protocol::message::RuleProfile))]
    pub profile: Option<protocol::message::RuleProfile>,
    /// Fault injection.
    #[command(flatten)]
    pub chaos: ChaosArgs,
    /// Serve the live dashboard while the run runs, on ADDR (default 127.0.0.1:0; the URL is
    /// printed on stderr; beyond loopback it needs RETAKE_API_TOKEN).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    pub dashboard: Option<String>,
}

/// `retake status`
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The repository (default: the current directory).
    pub path: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ConfigFormat::Text)]
    pub format: ConfigFormat,
}

/// `retake actor ROLE …`
#[derive(Debug, Subcommand)]
pub enum ActorRole {
    /// An Inspector.
    Inspector(inspector::runtime::InspectorArgs),
    /// The Auditor.
    Auditor(auditor::runtime::AuditorArgs),
    /// An Implementer of the team loop.
    Implementer(implementer::runtime::ImplementerArgs),
}

/// Output options shared by `review` and `audit`.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format; repeat it for several. Without --output only one format other than
    /// terminal may be given: it goes to standard output.
    #[arg(long, value_enum, default_values_t = [Format::Terminal])]
    pub format: Vec<Format>,
    /// Write every requested format to a file in DIR (retake.md, retake.json, retake.sarif,
    /// retake.rdjson, retake.rdjsonl, retake-junit.xml, retake-gitlab.json); the terminal
    /// report still prints.
    #[arg(long = "output", value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Exit 3 on CONDITIONAL.
    #[arg(long)]
    pub strict: bool,
    /// Exit 1 when a finding is at or above this severity, even on GO (C, H, M, L or none;
    /// none: the verdict alone decides). Suppressed findings never count.
    #[arg(long, value_enum, ignore_case = true, default_value_t = FailLevel::None)]
    pub fail_level: FailLevel,
    /// A previous retake SARIF or JSON output: findings are classified new, unchanged or
    /// absent by fingerprint.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// With --baseline: the exit code (verdict and --fail-level) counts only new findings.
    #[arg(long, requires = "baseline")]
    pub new_only: bool,
    /// The people's report goes to the log at debug level instead of standard output (a
    /// service's jobs: one JSON log, no report per job on the service's standard output).
    #[arg(skip)]
    pub report_to_log: bool,
}

/// `retake dashboard`
#[derive(Debug, Args)]
pub struct DashboardArgs {
    /// The repository (default: the current directory).
    pub path: Option<PathBuf>,
    /// Where the page is served; beyond loopback it needs `RETAKE_API_TOKEN`.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: String,
}

/// `retake serve`
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where workers connect (default: `[review] listen`, 0.0.0.0:7700).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Where the HTTP API listens.
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0:8080")]
    pub api: String,
    /// Reviews run at once; more wait queued (scale each worker kind to at least this).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_jobs: u32,
    /// Where job reports are written (default: a folder under the system's temp dir).
    #[arg(long, value_name = "DIR")]
    pub jobs_dir: Option<PathBuf>,
    /// The folder jobs' repositories must be in (default: `[serve] repos_root`; one is required).
    #[arg(long, value_name = "DIR")]
    pub repos_root: Option<PathBuf>,
    /// Jobs that may wait for a free slot; one more is refused (429).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_queued: u32,
}

/// `retake audit`
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// A folder of .cpf files, or .cpf files; each file's stem names the reporting agent.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// What the audit does with test failures.
    #[arg(
        long,
        value_parser = clap::builder::PossibleValuesParser::new(TestFailurePolicy::NAMES),
        default_value = TestFailurePolicy::NAMES[0]
    )]
    pub test_failure: String,
    /// An agent whose report is expected (repeatable): one without a file is partial coverage
    /// (never GO), none of them is exit 2. Default: every file's agent is expected.
    #[arg(long = "expect", value_name = "AGENT")]
    pub expect: Vec<String>,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Output format of `retake consensus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConsensusFormat {
    /// The human-readable report (default).
    Terminal,
    /// One JSON object.
    Json,
}

/// `retake consensus`
#[derive(Debug, Args)]
pub struct ConsensusArgs {
    /// Auditor verdict CPF files, one per pipeline (V1, V2, … in the order given).
    #[arg(required = true, value_name = "VERDICT.cpf")]
    pub files: Vec<PathBuf>,
    /// Consensus threshold K (default: ceil(0.6 × the verdicts produced)).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub threshold: Option<u32>,
    /// Pipelines run, when some failed and left no verdict file (default: one per file).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: Option<u32>,
    /// Append the batch to this verdicts.md (created when missing); nothing is written without it.
    #[arg(long, value_name = "FILE")]
    pub verdicts: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ConsensusFormat::Terminal)]
    pub format: ConsensusFormat,
    /// Exit 3 on CONDITIONAL.
    #[arg(long)]
    pub strict: bool,
}

/// `retake fix`
#[derive(Debug, Args)]
pub struct FixArgs {
    /// The review's folder, `.retake/runs/<run-id>` (reports/*.json or *.cpf, verdict.cpf).
    #[arg(value_name = "REVIEW-DIR")]
    pub review_dir: PathBuf,
    /// The repository to fix (default: the one whose .retake holds REVIEW-DIR, else the
    /// current directory).
    #[arg(long, value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Continue the interrupted session (active-fix-session.json), or fix what the sessions
    /// in fix-history.json left unfixed; committed groups are not redone.
    #[arg(long, conflicts_with = "dry_run")]
    pub resume: bool,
    /// Attempts per group, the first included, before the group is given up and rolled back.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub max_retries: u32,
    /// Findings per planner batch.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch_size: u32,
    /// Plan and export (.task/FIX-*.json, plan.json, fix-plan.json) without fixing, testing or
    /// committing anything.
    #[arg(long)]
    pub dry_run: bool,
}

/// `retake resume`
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The repository whose interrupted review or run to continue (default: the current
    /// directory).
    pub path: Option<PathBuf>,
    /// Ask nothing, as `retake run --yes` (a review's proposals are recorded pending; a run's
    /// options keep it for the next resume).
    #[arg(long)]
    pub yes: bool,
    /// As `retake run --no-discuss`: no Phase 0 discussion, the team sized by the loops spec's
    /// table alone (kept in the run's options).
    #[arg(long)]
    pub no_discuss: bool,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// As `retake review --trust-repo-config`: the work tree's retake.toml and
    /// .retake/decisions.yaml as they are (not remembered from the interrupted command).
    #[arg(long)]
    pub trust_repo_config: bool,
    /// Set by `retake serve` when it resumes a job: as `ReviewArgs::untrusted_repo`.
    #[arg(skip)]
    pub untrusted_repo: bool,
}

/// `--runtime`'s parser: the runtimes by name, each with its phrase. The runtime module knows
/// nothing of the command line; this is where its names become a flag's values.
pub fn runtime_parser() -> impl clap::builder::TypedValueParser<Value = Runtime> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(
        Runtime::ALL.map(|r| clap::builder::PossibleValue::new(r.name()).help(r.about())),
    )
    .map(|name| {
        name.parse::<Runtime>()
            .expect("PossibleValuesParser passes only a listed runtime's name")
    })
}
