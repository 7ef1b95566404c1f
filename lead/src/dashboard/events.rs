//! The live event stream of a page (server-sent events): every part of the page once, then,
//! for each event of the feed, the part it changed, rendered from this stream's own fold of
//! the events (so no page re-reads a file or clones the whole state per event). A page that
//! falls behind the feed's backlog gets every part again. `event: ended` closes it.

use bytes::Bytes;
use dashboard::findings::Filter;
use dashboard::live::{self, LiveView};
use host::live::{now_ms, Feed};
use protocol::live::{LiveEvent, LiveState, Part};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, oneshot};

/// A comment line this often keeps an idle stream open through proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Streams open, and how many of them delivered the command's end.
#[derive(Default)]
pub(crate) struct Streams {
    counts: Mutex<(usize, usize)>,
    changed: Condvar,
}

impl Streams {
    fn opened(&self) {
        self.update(|c| c.0 += 1);
    }

    fn closed(&self, delivered_end: bool) {
        self.update(|c| {
            c.0 = c.0.saturating_sub(1);
            if delivered_end {
                c.1 = c.1.saturating_sub(1);
            }
        });
    }

    fn delivered_end(&self) {
        self.update(|c| c.1 += 1);
    }

    fn update(&self, change: impl FnOnce(&mut (usize, usize))) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut c);
        self.changed.notify_all();
    }

    /// Waits until every open stream delivered the end, for `at_most`.
    pub(super) fn wait_delivered(&self, at_most: Duration) {
        let deadline = Instant::now() + at_most;
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        while c.1 < c.0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            c = match self.changed.wait_timeout(c, left) {
                Ok((c, _)) => c,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// One page's stream of `parts`: they go to `out` until the page goes away or the command
/// ends; then, once the response told `flushed` that the last part reached the connection, the
/// end counts as delivered.
async fn stream(
    streams: &Streams,
    feed: &Feed,
    filter: Filter,
    parts: &'static [Part],
    out: mpsc::Sender<Bytes>,
    flushed: oneshot::Receiver<()>,
) {
    streams.opened();
    let ended = follow(feed, &filter, parts, &out).await;
    if ended {
        let _gone = out
            .send(Bytes::from_static(b"event: ended\ndata: \n\n"))
            .await;
        drop(out);
        let _ = tokio::time::timeout(super::END_WAIT, flushed).await;
        streams.delivered_end();
    }
    streams.closed(ended);
}

/// The response of a page's event stream of `parts` of `feed`, filtered as `query` asks.
pub(crate) fn answer(
    streams: &std::sync::Arc<Streams>,
    feed: &Feed,
    query: &str,
    parts: &'static [Part],
) -> protocol::http::Answer {
    let (out, body) = mpsc::channel::<Bytes>(64);
    let (written, flushed) = oneshot::channel();
    let (streams, feed) = (std::sync::Arc::clone(streams), feed.clone());
    let filter = Filter::from_query(query);
    tokio::spawn(async move { stream(&streams, &feed, filter, parts, out, flushed).await });
    protocol::http::stream("text/event-stream", body, written)
}

/// Sends parts until the page is gone (false) or the command ended (true).
async fn follow(feed: &Feed, filter: &Filter, parts: &[Part], out: &mpsc::Sender<Bytes>) -> bool {
    let (mut state, mut events) = feed.subscribe();
    for &part in parts {
        if !send(out, &state, filter, part).await {
            return false;
        }
    }
    let mut ended = state.ended.is_some();
    loop {
        if ended {
            return true;
        }
        let next = tokio::time::timeout(KEEP_ALIVE, events.recv()).await;
        match next {
            Err(_) => {
                if out
                    .send(Bytes::from_static(b": keep-alive\n\n"))
                    .await
                    .is_err()
                {
                    return false;
                }
            }
            Ok(Ok(published)) => {
                state.apply(&published.event);
                ended = matches!(*published.event, LiveEvent::Ended { .. });
                if parts.contains(&published.part)
                    && !send(out, &state, filter, published.part).await
                {
                    return false;
                }
            }
            Ok(Err(RecvError::Lagged(_))) => {
                // Behind the backlog: start again from the state as it is now.
                (state, events) = feed.subscribe();
                for &part in parts {
                    if !send(out, &state, filter, part).await {
                        return false;
                    }
                }
                ended = state.ended.is_some();
            }
            Ok(Err(RecvError::Closed)) => return true,
        }
    }
}

/// One part as an event; false when the page is gone.
async fn send(out: &mpsc::Sender<Bytes>, state: &LiveState, filter: &Filter, part: Part) -> bool {
    let view = LiveView {
        state,
        filter,
        links: &[],
        source: Some(super::routes::SOURCE),
        events: None,
        now_ms: now_ms(),
    };
    let (id, html) = live::part(&view, part);
    let data = serde_json::json!({ "id": id, "html": html });
    let frame = format!("event: part\ndata: {data}\n\n");
    out.send(Bytes::from(frame)).await.is_ok()
}
