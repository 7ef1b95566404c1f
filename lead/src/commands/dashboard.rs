//! `retake dashboard [PATH] [--listen ADDR]`: serves a repository's review history read-only
//! (`.retake/verdicts.md`, read again on each request) as the dashboard's history page, until
//! stopped. Loopback by default (`127.0.0.1:0`, the URL printed on stderr); an address beyond
//! loopback needs the API's token (`RETAKE_API_TOKEN`), sent as a bearer token, as `retake
//! serve` does. The repository's own configuration is not read: nothing in it may open the
//! dashboard.

use crate::cli::DashboardArgs;
use crate::serve::auth::{self, ApiToken};
use anyhow::Context as _;
use outputs::ExitCode;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long a client has to send its request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// What every request reads.
struct Site {
    repo: PathBuf,
    name: String,
    token: Option<ApiToken>,
}

/// Runs the command (returns only on a startup error).
pub fn run(args: DashboardArgs) -> anyhow::Result<ExitCode> {
    let repo = args.path.unwrap_or_else(|| PathBuf::from("."));
    let repo = repo
        .canonicalize()
        .with_context(|| format!("cannot read the repository {}", repo.display()))?;
    let token =
        ApiToken::load(std::env::var(auth::TOKEN_ENV).ok(), None).map_err(anyhow::Error::msg)?;
    let listener = std::net::TcpListener::bind(&args.listen)
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let addr = listener.local_addr().context("the dashboard's address")?;
    auth::require_for(addr, token.as_ref()).map_err(anyhow::Error::msg)?;
    listener
        .set_nonblocking(true)
        .context("the dashboard's socket")?;
    let name = repo.file_name().map_or_else(
        || repo.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    eprintln!(
        "retake dashboard: http://{addr}/ (the history of {name}; read-only, Ctrl-C stops it)"
    );
    let site = Arc::new(Site { repo, name, token });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the dashboard's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        protocol::http::serve(listener, HEADER_TIMEOUT, move |request| {
            let site = Arc::clone(&site);
            async move { answer(&site, &request) }
        })
        .await;
        Ok::<(), std::io::Error>(())
    })?;
    Ok(ExitCode::Success)
}

/// The answer to one request: the history page at `/`, 404 elsewhere, 405 for anything but
/// GET and HEAD, 401 without the token when one is required.
fn answer<B>(site: &Site, request: &hyper::Request<B>) -> protocol::http::Answer {
    const HTML: &str = "text/html; charset=utf-8";
    const TEXT: &str = "text/plain; charset=utf-8";
    if let Some(token) = &site.token {
        let given = request
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        if !token.admits(given) {
            return protocol::http::answer(401, TEXT, "a bearer token is required\n".into());
        }
    }
    if !matches!(*request.method(), hyper::Method::GET | hyper::Method::HEAD) {
        return protocol::http::answer(405, TEXT, "the dashboard is read-only\n".into());
    }
    match request.uri().path() {
        "/" => match history(site) {
            Ok(page) => protocol::http::answer(200, HTML, page),
            Err(e) => protocol::http::answer(500, TEXT, format!("{e}\n")),
        },
        _ => protocol::http::answer(404, TEXT, "no such page\n".into()),
    }
}

/// The history page, from `verdicts.md` as it is now (a missing file is an empty history; one
/// that cannot be read is an error, never an empty page).
fn history(site: &Site) -> Result<String, String> {
    let state = site.repo.join(".retake");
    let path = review::verdicts_md::location(&site.repo, &state, None);
    let shown = shown(&site.repo, &path);
    let text = review::verdicts_md::read(&path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let batches = review::verdicts_md::summaries(&text);
    Ok(dashboard::history::page(&dashboard::history::HistoryView {
        repository: &site.name,
        source: &shown,
        batches: &batches,
    }))
}

/// `path` relative to the repository when it is inside it.
fn shown(repo: &Path, path: &Path) -> String {
    path.strip_prefix(repo)
        .unwrap_or(path)
        .display()
        .to_string()
}
