//! `retake dashboard [PATH] [--listen ADDR]`: serves a repository's review history read-only
//! (`.retake/verdicts.md`, read again on each request) until stopped. Loopback by default
//! (`127.0.0.1:0`, the URL printed on stderr); an address beyond loopback needs the API's token
//! (`RETAKE_API_TOKEN`), as `retake serve` does. The repository's own configuration is not
//! read: nothing in it may open the dashboard.

use crate::cli::DashboardArgs;
use anyhow::Context as _;
use outputs::ExitCode;
use std::path::PathBuf;

/// Runs the command (returns only on a startup error).
pub fn run(args: DashboardArgs) -> anyhow::Result<ExitCode> {
    let repo = args.path.unwrap_or_else(|| PathBuf::from("."));
    let repo = repo
        .canonicalize()
        .with_context(|| format!("cannot read the repository {}", repo.display()))?;
    let _served = crate::dashboard::start(repo, &args.listen, None, "the history and last run")?;
    eprintln!("retake dashboard: read-only, nothing runs; Ctrl-C stops it");
    loop {
        std::thread::park();
    }
}
