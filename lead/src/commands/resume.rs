//! `retake resume [PATH]`: continue an interrupted review from `.retake/state/active.json` — the
//! Inspectors whose reports were journaled are not run again; the rest run, then the Auditor.

use super::review::{execute, Failure};
use crate::cli::ResumeArgs;
use crate::review::ReviewRequest;
use crate::runtime::Runtime;
use crate::state::ActiveReview;
use anyhow::Context as _;

/// Runs the command.
pub fn run(args: ResumeArgs) -> Result<u8, Failure> {
    let fail2 = |error: anyhow::Error| Failure { code: 2, error };
    super::plan(&args.output).map_err(fail2)?;
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    let repo = std::fs::canonicalize(&path)
        .with_context(|| format!("cannot resume in '{}': no such directory", path.display()))
        .map_err(fail2)?;
    let active = ActiveReview::read(&repo.join(".retake")).map_err(|e| fail2(e.into()))?;
    let settings = crate::config::load(&repo).map_err(|e| fail2(e.into()))?;
    let runtime = active
        .runtime
        .parse::<Runtime>()
        .map_err(|e| fail2(anyhow::anyhow!(e)))?;
    eprintln!(
        "retake: resuming review {} ({})",
        active.run_id,
        active.scope.label()
    );
    let request = ReviewRequest {
        repo,
        scope: active.scope,
        runtime,
        no_exec: active.no_exec,
        settings,
        pipelines: active.pipelines,
        faults: Default::default(),
        resume: Some(active.run_id),
        nested: false,
    };
    execute(request, &args.output, None)
}
