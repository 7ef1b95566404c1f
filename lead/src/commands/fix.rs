//! `retake fix REVIEW-DIR`: the fix pipeline over a review's findings (the `fix` crate); prints
//! each step, and exits 0 when every group is fixed, 5 when some group failed every attempt
//! (naming them), 2 on bad input.

use crate::cli::FixArgs;
use fix::config::FixConfig;
use fix::FixOptions;
use outputs::ExitCode;
use std::io::Write;
use std::path::Path;

/// Runs the command, then (unless it is a dry run) drafts the session handover.
pub fn run(args: FixArgs) -> anyhow::Result<ExitCode> {
    let opts = FixOptions {
        review_dir: args.review_dir,
        repo: args.repo,
        resume: args.resume,
        max_attempts: args.max_retries,
        batch_size: usize::try_from(args.batch_size).unwrap_or(usize::MAX),
        dry_run: args.dry_run,
    };
    let report = execute(&opts)?;
    if !opts.dry_run {
        let mut outcome = vec![format!(
            "{} of {} findings fixed",
            report.fixed, report.planned
        )];
        outcome.extend(
            report
                .failed_groups
                .iter()
                .map(|g| format!("not fixed (rolled back): {g}")),
        );
        crate::handover::after_command(
            &repository(&opts),
            "retake fix",
            crate::handover::Kind::Fix,
            report.code,
            outcome,
        );
    }
    Ok(report.code)
}

/// The repository a fix session worked on, as `fix::run` finds it: `--repo`, else the folder
/// above the review folder's `.retake`, else the current directory.
fn repository(opts: &FixOptions) -> std::path::PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    opts.repo.clone().unwrap_or_else(|| {
        let dir = std::fs::canonicalize(&opts.review_dir).unwrap_or(opts.review_dir.clone());
        fix::review_dir::repository_of(&dir, &cwd)
    })
}

/// Runs a fix session over `review_dir` with the default options (`retake review --fix`).
pub fn after_review(review_dir: &Path) -> anyhow::Result<ExitCode> {
    execute(&FixOptions {
        review_dir: review_dir.to_path_buf(),
        repo: None,
        resume: false,
        max_attempts: team::fix::MAX_ATTEMPTS,
        batch_size: team::fix::DEFAULT_BATCH_SIZE,
        dry_run: false,
    })
    .map(|r| r.code)
}

/// The fixed repository's configuration: its file as committed at `HEAD` (the fixer and the
/// test gate run commands).
fn configure(repo: &Path) -> Result<FixConfig, String> {
    let trust = crate::config::Trust::default();
    crate::config::load_repo(repo, None, trust)
        .map(|loaded| loaded.settings.fix_config())
        .map_err(|e| e.to_string())
}

fn execute(opts: &FixOptions) -> anyhow::Result<fix::FixReport> {
    let mut log = |line: String| {
        let mut out = std::io::stdout().lock();
        // A closed standard output (a pipe whose reader left) must not stop the session
        // halfway: the summary files still record everything.
        let _shown = writeln!(out, "{line}").and_then(|()| out.flush());
    };
    let report = fix::run(opts, &configure, &mut log)?;
    if !report.code.is_success() {
        eprintln!(
            "retake fix: {} group{} not fixed after every attempt (rolled back): {}",
            report.failed_groups.len(),
            if report.failed_groups.len() == 1 {
                ""
            } else {
                "s"
            },
            report.failed_groups.join("; ")
        );
    }
    Ok(report)
}
