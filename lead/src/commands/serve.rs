//! `retake serve`: start the worker pool and the HTTP API, then serve until stopped.

use crate::cli::ServeArgs;
use crate::runtime::remote::shared_pool;
use crate::serve::{http, Service};
use anyhow::Context as _;
use std::time::Duration;

/// Runs the command (returns only on a startup error).
pub fn run(args: ServeArgs) -> anyhow::Result<u8> {
    let here = std::env::current_dir().context("cannot read the current directory")?;
    // The service's own configuration, trusted as it is; the jobs' repositories are not.
    let settings = crate::config::load(&here)?;
    let listen = args
        .listen
        .unwrap_or_else(|| settings.review.listen.clone());
    let wire = settings.wire.wire_config();
    let pool =
        shared_pool(&listen, settings.wire.secret.as_deref(), &wire).map_err(anyhow::Error::msg)?;
    let server = tiny_http::Server::http(&args.api)
        .map_err(|e| anyhow::anyhow!("cannot listen on {} for the API: {e}", args.api))?;
    let api = server
        .server_addr()
        .to_ip()
        .map_or_else(|| args.api.clone(), |a| a.to_string());
    let dir = match args.jobs_dir {
        Some(dir) => dir,
        None => std::env::temp_dir().join(format!("retake-serve-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the jobs folder {}", dir.display()))?;
    eprintln!(
        "retake serve: workers connect to {}; API on http://{api}; job reports in {}",
        pool.local_addr(),
        dir.display()
    );
    // A job waits for a whole set of idle workers (up to its review's deadline) rather than
    // start with part of one and wait on the workers another job holds.
    pool.set_full_set_wait(Duration::from_secs(settings.review.timeout_secs));
    let service = Service::new(
        pool,
        dir,
        args.max_jobs as usize,
        settings.serve.trust_repo_config,
    )
    .map_err(anyhow::Error::msg)?;
    http::serve(&server, &service);
    Ok(0)
}
