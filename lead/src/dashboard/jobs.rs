//! `retake serve`'s pages: the job list at `/` (live: the service publishes it on every change)
//! and each job's live view at `/jobs/ID` — the review as it happens, from the job's own feed.
//! The service keeps the feeds of its last [`KEPT`] jobs; a job it did not run itself (taken
//! over from an earlier service) has its status in the list and its report in the API.

use super::events::{self, Streams};
use super::routes::{self, HTML, TEXT};
use crate::auth::ApiToken;
use dashboard::findings::Filter;
use dashboard::live::LiveView;
use host::live::Feed;
use hyper::body::Incoming;
use hyper::{Method, Request};
use protocol::http::{answer, Answer};
use protocol::live::{JobLine, LiveEvent, Part};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

/// Job feeds kept for their views.
pub const KEPT: usize = 100;

/// The service's pages: its jobs' feed, each job's own, and the streams open on them.
#[derive(Default)]
pub struct Pages {
    jobs: Feed,
    by_job: Mutex<VecDeque<(String, Feed)>>,
    streams: Arc<Streams>,
}

impl Pages {
    /// The job list changed: this is it now.
    pub fn jobs_changed(&self, jobs: Vec<JobLine>) {
        self.jobs.publish(LiveEvent::Jobs { jobs });
    }

    /// A new feed for job `id`, titled `title`, kept for its view (the oldest beyond [`KEPT`]
    /// goes).
    pub fn job_feed(&self, id: &str, title: String) -> Feed {
        let feed = Feed::new();
        feed.publish(LiveEvent::Watching { title });
        let mut kept = self.by_job.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|(j, _)| j != id);
        kept.push_back((id.to_string(), feed.clone()));
        while kept.len() > KEPT {
            kept.pop_front();
        }
        feed
    }

    /// Job `id` ended (`exit 1`): its view says so.
    pub fn job_ended(&self, id: &str, text: String) {
        if let Some(feed) = self.feed_of(id) {
            feed.publish(LiveEvent::Ended { text });
        }
    }

    fn feed_of(&self, id: &str) -> Option<Feed> {
        let kept = self.by_job.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter().find(|(j, _)| j == id).map(|(_, f)| f.clone())
    }

    /// The answer when `request` is for a page (`/`, `/events`, `/login`, `/jobs/…`); else the
    /// request back, for the API.
    pub async fn answer(
        &self,
        token: Option<&ApiToken>,
        request: Request<Incoming>,
    ) -> Result<Answer, Request<Incoming>> {
        let path = request.uri().path().to_string();
        let page =
            path == "/" || path == "/events" || path == "/login" || path.starts_with("/jobs/");
        if !page {
            return Err(request);
        }
        let request = match routes::signed_in(token, request).await {
            Ok(request) => request,
            Err(refused) => return Ok(refused),
        };
        if !matches!(*request.method(), Method::GET | Method::HEAD) {
            return Ok(answer(405, TEXT, "the pages are read-only\n".into()));
        }
        let query = request.uri().query().unwrap_or("");
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        Ok(match parts.as_slice() {
            [""] => answer(
                200,
                HTML,
                dashboard::jobs::page(&self.jobs.state(), Some("/events")),
            ),
            ["events"] => events::answer(&self.streams, &self.jobs, query, &[Part::Jobs]),
            ["jobs", id] => match self.feed_of(id) {
                Some(feed) => {
                    let state = feed.state();
                    let filter = Filter::from_query(query);
                    let events = format!("/jobs/{id}/events?{query}");
                    answer(
                        200,
                        HTML,
                        dashboard::live::page(&LiveView {
                            state: &state,
                            filter: &filter,
                            links: &[("/", "Jobs")],
                            source: None,
                            events: Some(&events),
                            now_ms: host::live::now_ms(),
                        }),
                    )
                }
                None => missing(id),
            },
            ["jobs", id, "events"] => match self.feed_of(id) {
                Some(feed) => events::answer(&self.streams, &feed, query, &dashboard::live::PARTS),
                None => missing(id),
            },
            _ => answer(404, TEXT, "no such page\n".into()),
        })
    }
}

fn missing(id: &str) -> Answer {
    answer(
        404,
        TEXT,
        format!("no live view of {id} here (it is not one of this service's last {KEPT} jobs); GET /reviews/{id} has its status\n"),
    )
}
