//! `retake serve`: start the worker pool and the HTTP API, then serve until stopped.

use crate::auth::{self, ApiToken};
use crate::cli::ServeArgs;
use crate::serve::confine::ReposRoot;
use crate::serve::{server, Options, Runners, Service};
use anyhow::Context as _;
use host::remote::shared_pool;
use outputs::ExitCode;
use std::time::Duration;

/// Runs the command (returns only on a startup error).
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let here = std::env::current_dir().context("cannot read the current directory")?;
    // The service's own configuration, trusted as it is; the jobs' repositories are not.
    let settings = crate::config::load(&here)?;
    let token = ApiToken::load(
        std::env::var(auth::TOKEN_ENV).ok(),
        settings.serve.api_token_file.as_deref(),
    )
    .map_err(anyhow::Error::msg)?;
    // No job's process inherits it.
    std::env::remove_var(auth::TOKEN_ENV);
    let root = args.repos_root.or(settings.serve.repos_root).context(
        "a service needs the folder its jobs' repositories are in: --repos-root DIR or [serve] repos_root",
    )?;
    let repos = ReposRoot::new(&root).map_err(anyhow::Error::msg)?;
    let api = std::net::TcpListener::bind(&args.api)
        .with_context(|| format!("cannot listen on {} for the API", args.api))?;
    let api_addr = api.local_addr().context("the API's address")?;
    auth::require_for(api_addr, token.as_ref()).map_err(anyhow::Error::msg)?;
    api.set_nonblocking(true).context("the API's socket")?;
    let listen = args
        .listen
        .unwrap_or_else(|| settings.review.listen.clone());
    let wire = settings.wire.wire_config();
    let heartbeat = Duration::from_millis(settings.supervision.heartbeat_interval_ms);
    let pool = shared_pool(&listen, settings.wire.secret.as_deref(), &wire, heartbeat)
        .map_err(anyhow::Error::msg)?;
    let dir = match args.jobs_dir {
        Some(dir) => dir,
        None => std::env::temp_dir().join(format!("retake-serve-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the jobs folder {}", dir.display()))?;
    eprintln!(
        "retake serve: workers connect to {}; API on http://{api_addr}; job reports in {}; repositories under {}",
        pool.local_addr(),
        dir.display(),
        repos.path().display()
    );
    // A job waits for a whole set of idle workers (up to its review's deadline) rather than
    // start with part of one and wait on the workers another job holds.
    pool.set_full_set_wait(Duration::from_secs(settings.review.timeout_secs));
    let options = Options {
        max_jobs: args.max_jobs as usize,
        max_queued: args.max_queued as usize,
        trust_repo_config: settings.serve.trust_repo_config,
        repos,
        token,
        clone_schemes: settings.serve.clone_schemes.clone(),
        runners: Runners {
            review: super::review::reviewed,
            resume: super::resume::reviewed,
        },
    };
    let service = Service::new(pool, dir, options).map_err(anyhow::Error::msg)?;
    service.start().map_err(anyhow::Error::msg)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("serve-api")
        .enable_all()
        .build()
        .context("cannot start the API's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(api).context("the API's socket")?;
        server::serve(listener, service, server::Limits::default()).await;
        Ok(ExitCode::Success)
    })
}
