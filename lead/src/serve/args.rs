//! What a job asks for, checked: its `retake review` arguments parsed as the CLI would, its
//! repository confined to the service's root, file options to the repository, `--base` to a
//! commit it has, a clone URL to the schemes the service allows. Each refusal is the client's
//! 400 or 403 at submission, and the same checks run again when the job starts.

use super::confine::{self, ReposRoot};
use super::jobs::JobRequest;
use super::Rejected;
use crate::cli::{Cli, Command};
use clap::Parser;
use std::path::{Path, PathBuf};

/// Output options writing the JSON report into `out_dir` and nothing to standard output.
pub(super) fn json_output(out_dir: &Path) -> crate::cli::OutputArgs {
    crate::cli::OutputArgs {
        format: vec![crate::cli::Format::Json],
        output_dir: Some(out_dir.to_path_buf()),
        strict: false,
        fail_level: crate::cli::FailLevel::None,
        baseline: None,
        new_only: false,
        report_to_log: true,
    }
}

/// The scheme of a clone URL (`https://…`), when the service allows it; scp-like addresses
/// (`git@host:path`, ssh) and transports without `://` (`ext::`) are refused.
pub(super) fn clone_scheme<'a>(url: &'a str, allowed: &[String]) -> Result<&'a str, String> {
    let scheme = url.split_once("://").map(|(s, _)| s).unwrap_or("");
    if scheme.is_empty() || !allowed.iter().any(|a| a == scheme) {
        return Err(format!(
            "clone '{url}': only {} URLs may be cloned ([serve] clone_schemes)",
            allowed.join(", ")
        ));
    }
    Ok(scheme)
}

/// A job's canonical repository and its `retake review` arguments, writing the JSON report
/// into `out_dir`: the repository confined to `repos`, a file option to the repository.
pub(super) fn job_args(
    repos: &ReposRoot,
    request: &JobRequest,
    out_dir: &Path,
) -> Result<(PathBuf, crate::cli::ReviewArgs), Rejected> {
    let repo = repos.repository(&request.repo)?;
    let mut args = review_args(&repo, &request.args, out_dir).map_err(Rejected::bad)?;
    args.output.report_to_log = true;
    if let Some(baseline) = &args.output.baseline {
        args.output.baseline = Some(confine::file_in_repo(&repo, "--baseline", baseline)?);
    }
    if let Some(base) = &args.base {
        base_commit(&repo, base).map_err(Rejected::bad)?;
    }
    Ok((repo, args))
}

/// Checks that `--base` names a commit of the job's repository (and that git runs), so that a
/// job that cannot work is the client's 400, not a failed job.
fn base_commit(repo: &Path, base: &str) -> Result<(), String> {
    if base.starts_with('-') {
        return Err(format!("--base '{base}': not a revision"));
    }
    let commit = format!("{base}^{{commit}}");
    protocol::exec::git::git(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &commit,
        ],
    )
    .map(drop)
    .map_err(|e| match e {
        protocol::exec::git::GitError::Failed { .. } => {
            format!("--base '{base}': not a commit of the job's repository")
        }
        other => format!("--base '{base}': {other}"),
    })
}

/// `retake review` arguments for a job on `repo` writing its JSON report into `out_dir`.
pub(super) fn review_args(
    repo: &Path,
    job_args: &[String],
    out_dir: &Path,
) -> Result<crate::cli::ReviewArgs, String> {
    let mut argv: Vec<String> = vec!["retake".into(), "review".into()];
    argv.push(repo.display().to_string());
    argv.extend(job_args.iter().cloned());
    argv.extend(["--runtime", "remote", "--format", "json", "--output"].map(String::from));
    argv.push(out_dir.display().to_string());
    match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Review(args),
            ..
        }) => Ok(args),
        Ok(_) => Err("not a review".into()),
        Err(e) => Err(e
            .to_string()
            .lines()
            .next()
            .unwrap_or("bad options")
            .trim_start_matches("error: ")
            .to_string()),
    }
}
