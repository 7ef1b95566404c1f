//! The dashboard's web server, shared by `retake dashboard` (a repository's history, read-only)
//! and `retake review|run --dashboard` (one command as it happens): pages rendered by the
//! `dashboard` crate, the live event stream ([`events`]), the files findings point at
//! ([`source`]). Loopback by default; an address beyond loopback needs the API's token
//! (`RETAKE_API_TOKEN`), sent as a bearer token or — for a browser, which cannot add a header
//! to a page or an event stream — as the cookie a sign-in form sets.
//!
//! It runs on a thread of its own with its own runtime, so neither the review's nor the run's
//! actor systems ever wait for a page, and a page never waits for them: everything it shows
//! comes from the feed's fold or from files read on the request.

mod events;
pub mod jobs;
mod last;
mod routes;
mod source;

use crate::auth::{self, ApiToken};
use anyhow::Context as _;
use host::live::Feed;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a client has to send its request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a finished command waits for open pages to receive its end.
const END_WAIT: Duration = Duration::from_secs(3);

/// What every request reads.
pub struct Site {
    /// The repository (canonical).
    pub repo: PathBuf,
    /// Its name, for titles.
    pub name: String,
    /// The token a client must present, beyond loopback.
    pub token: Option<ApiToken>,
    /// The command's live events, when one runs.
    pub feed: Option<Feed>,
    /// Streams open and streams that delivered the end.
    streams: Arc<events::Streams>,
}

/// A dashboard being served.
pub struct Served {
    /// Where.
    pub addr: SocketAddr,
    site: Arc<Site>,
}

impl Served {
    /// Publishes how the command ended, then waits (a few seconds at most) until every open
    /// page has received it, so the page shows the end before the process exits.
    pub fn end(self, text: impl Into<String>) {
        if let Some(feed) = &self.site.feed {
            feed.publish(protocol::live::LiveEvent::Ended { text: text.into() });
        }
        self.site.streams.wait_delivered(END_WAIT);
    }
}

/// `--dashboard ADDR` of a command: a feed titled `title` (`retake review`), served live for
/// `repo` on `listen`.
pub fn live(repo: &std::path::Path, listen: &str, title: &str) -> anyhow::Result<(Feed, Served)> {
    let feed = Feed::new();
    let name = repo.file_name().map_or_else(
        || repo.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    feed.publish(protocol::live::LiveEvent::Watching {
        title: format!("{title} — {name}"),
    });
    let served = start(repo.to_path_buf(), listen, Some(feed.clone()), "live")?;
    Ok((feed, served))
}

/// `path` relative to `repo` when it is inside it, as a page names it.
fn shown(repo: &std::path::Path, path: &std::path::Path) -> String {
    path.strip_prefix(repo)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Starts serving `repo` on `listen` (the feed's live page when there is a feed, else the
/// history), on a thread of its own; the URL goes to standard error, saying `what` is served.
pub fn start(
    repo: PathBuf,
    listen: &str,
    feed: Option<Feed>,
    what: &str,
) -> anyhow::Result<Served> {
    let token =
        ApiToken::load(std::env::var(auth::TOKEN_ENV).ok(), None).map_err(anyhow::Error::msg)?;
    let listener = std::net::TcpListener::bind(listen)
        .with_context(|| format!("the dashboard cannot listen on {listen}"))?;
    let addr = listener.local_addr().context("the dashboard's address")?;
    auth::require_for(addr, token.as_ref()).map_err(anyhow::Error::msg)?;
    listener
        .set_nonblocking(true)
        .context("the dashboard's socket")?;
    let name = repo.file_name().map_or_else(
        || repo.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    eprintln!("retake dashboard: http://{addr}/ ({what} of {name})");
    let site = Arc::new(Site {
        repo,
        name,
        token,
        feed,
        streams: Arc::default(),
    });
    let serving = Arc::clone(&site);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the dashboard's runtime")?;
    std::thread::Builder::new()
        .name("dashboard".into())
        .spawn(move || {
            runtime.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                    tracing::error!("the dashboard's socket cannot be served");
                    return;
                };
                protocol::http::serve(listener, HEADER_TIMEOUT, move |request| {
                    routes::answer(Arc::clone(&serving), request)
                })
                .await;
            });
        })
        .context("cannot start the dashboard's thread")?;
    Ok(Served { addr, site })
}
