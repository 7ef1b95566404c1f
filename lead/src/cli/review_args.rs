//! `retake review`'s arguments: the scope flags, the review options and the chaos flags.

use super::OutputArgs;
use clap::{Args, ValueEnum};
use host::Runtime;
use std::path::PathBuf;

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
    #[arg(long, value_parser = crate::cli::runtime_parser())]
    pub runtime: Option<Runtime>,
    /// Run no external command (no tests, no compiler): a purely static review.
    #[arg(long)]
    pub no_exec: bool,
    /// Review every file afresh: neither read nor write the per-file result cache
    /// (`.retake/cache/`; config `inspector.cache`).
    #[arg(long)]
    pub no_cache: bool,
    /// Review the session: files changed against the merge base with REF (committed,
    /// uncommitted and untracked). The default when the repository has uncommitted changes or
    /// commits over origin/HEAD, main or master; use `--paths '**'` to review everything.
    #[arg(long, value_name = "REF", conflicts_with_all = ["feature", "paths", "cross_check", "wave"])]
    pub base: Option<String>,
    /// In a session review, which findings gate: those the change introduced (added or
    /// rewritten lines, new files, test runs; default — the changed files' other findings are
    /// listed apart as "already there" and never gate), or, dropping the rest, those on changed
    /// lines and their context, in changed files, or everything.
    #[arg(long, value_enum, conflicts_with_all = ["feature", "paths", "cross_check", "wave"])]
    pub filter: Option<FilterArg>,
    /// Run only the rules of these dimensions, grouping findings by them (comma separated:
    /// security, architecture, quality, action-items, performance, maintainability,
    /// best-practices, compatibility).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(protocol::Dimension))]
    pub dimensions: Vec<protocol::Dimension>,
    /// Which rules run: `default` (the rules precise enough to be on by default) or
    /// `pedantic` (every rule at its own severity); overrides `[rules] profile`.
    #[arg(long, value_name = "PROFILE", value_parser = clap::value_parser!(protocol::message::RuleProfile))]
    pub profile: Option<protocol::message::RuleProfile>,
    /// With dimensions (here or `[review] dimensions`): at most N deep-dive iterations of the
    /// review cycle written to .retake/reviews/<run-id>/ (default 3; 0 aggregates only).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub max_iterations: Option<u32>,
    /// Fault injection.
    #[command(flatten)]
    pub chaos: ChaosArgs,
    /// Serve the live dashboard while the review runs, on ADDR (default 127.0.0.1:0; the URL
    /// is printed on stderr; beyond loopback it needs RETAKE_API_TOKEN).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    pub dashboard: Option<String>,
    /// The feed a caller watches the review on (`retake serve`'s job views); not a flag.
    #[arg(skip)]
    pub live: Option<host::live::Feed>,
    /// Run N pipelines side by side (each with its own Inspectors and an Auditor
    /// `auditor-impl-K`) and aggregate their verdicts into the consensus verdict.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=9))]
    pub consensus: u32,
    /// With --consensus: a finding is Consensus when at least K verdicts have it
    /// (default: ceil(0.6 × the verdicts produced)).
    #[arg(long, value_name = "K")]
    pub threshold: Option<u32>,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Ask nothing: the Auditor's PROPOSE rows are recorded pending in
    /// .retake/proposals.jsonl, neither approved nor rejected (CODIFY rows are applied anyway).
    /// Without a terminal this is what happens too.
    #[arg(long)]
    pub yes: bool,
    /// Answer a proposal the Auditor made (repeatable): ID=yes approves it (written to its
    /// steering file and steering/decisions.md), ID=no rejects it. The ids are in the
    /// PROPOSE_PENDING note; a unique prefix of 4 or more digits is enough.
    #[arg(long, value_name = "ID=yes|no")]
    pub answer: Vec<review::steering::proposals::GivenAnswer>,
    /// After the review, run the fix pipeline over its findings (as `retake fix` on its
    /// folder); the exit code is then the fix's. Not with --consensus.
    #[arg(long)]
    pub fix: bool,
    /// Use the work tree's retake.toml and .retake/decisions.yaml as they are, uncommitted
    /// edits included, for this run (to try a configuration before committing it). Without it
    /// they are read as committed at the base (--base, a session) or HEAD, so the change under
    /// review cannot configure its own gate.
    #[arg(long)]
    pub trust_repo_config: bool,
    /// Set by `retake serve` for its jobs: the repository's file may not set keys that run
    /// commands or send code or credentials (unless the service trusts repositories).
    #[arg(skip)]
    pub untrusted_repo: bool,
}

/// Fault injection (the supervision spec): any fault is refused unless injection is enabled, here or by
/// `[chaos] enabled = true`.
#[derive(Debug, Clone, Default, Args)]
pub struct ChaosArgs {
    /// Enable fault injection for this command.
    #[arg(long)]
    pub chaos: bool,
    /// Inject a fault into an actor (repeatable; needs --chaos): ACTOR[#SPAWN]:FAULT, e.g.
    /// inspector-quality:hang-at=inspect (every spawn) or 'auditor#1:stall-output' (the first).
    /// FAULT: crash-at=PHASE, hang-at=PHASE, stall-output, delay=MS, garbage-frame,
    /// drop-after=N, exit-code=N, fail-times=N.
    #[arg(long = "fault", value_name = "ACTOR[#SPAWN]:FAULT")]
    pub faults: Vec<protocol::chaos::FaultSpec>,
}

/// `--filter`: how a session review limits findings to the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FilterArg {
    /// Findings the change introduced gate (added or rewritten lines, new files, test runs);
    /// the changed files' other findings are reported as "already there" (default).
    Added,
    /// Findings on changed lines and within 3 lines of them.
    #[value(name = "diff_context", alias = "diff-context")]
    DiffContext,
    /// Findings anywhere in a changed file.
    File,
    /// Every finding in the changed files' review.
    #[value(name = "nofilter", alias = "no-filter")]
    NoFilter,
}

impl From<FilterArg> for protocol::DiffFilter {
    fn from(f: FilterArg) -> Self {
        match f {
            FilterArg::Added => protocol::DiffFilter::Added,
            FilterArg::DiffContext => protocol::DiffFilter::DiffContext,
            FilterArg::File => protocol::DiffFilter::File,
            FilterArg::NoFilter => protocol::DiffFilter::NoFilter,
        }
    }
}
