//! What the dashboard answers: `/` (the live page when a command runs, else the history),
//! `/history`, `/events` (the live stream), `/source/PATH` (a file a finding points at),
//! `/login` (the sign-in form's target); 404 elsewhere, 405 for other methods, 401 without the
//! token when one is required.

use super::{events, source, Site};
use crate::auth::ApiToken;
use dashboard::findings::Filter;
use dashboard::live::LiveView;
use http_body_util::BodyExt as _;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, AUTHORIZATION, COOKIE, LOCATION, SET_COOKIE};
use hyper::{Method, Request};
use protocol::http::{answer as plain, Answer};
use std::sync::Arc;

/// Where a finding's file is shown.
pub(super) const SOURCE: &str = "/source/";
pub(super) const HTML: &str = "text/html; charset=utf-8";
pub(super) const TEXT: &str = "text/plain; charset=utf-8";
/// The cookie the sign-in form sets.
const COOKIE_NAME: &str = "retake_token";
/// The views of a command's dashboard.
const LIVE: &[(&str, &str)] = &[("/", "Live"), ("/history", "History")];
/// The views of `retake dashboard`.
const READ_ONLY: &[(&str, &str)] = &[("/", "History"), ("/last", "Last run and review")];
/// The largest sign-in body read.
const LOGIN_BODY: usize = 4096;

/// The answer to one request.
pub(super) async fn answer(site: Arc<Site>, request: Request<Incoming>) -> Answer {
    let path = request.uri().path().to_string();
    let query = request.uri().query().unwrap_or("").to_string();
    let request = match signed_in(site.token.as_ref(), request).await {
        Ok(request) => request,
        Err(refused) => return refused,
    };
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return plain(405, TEXT, "the dashboard is read-only\n".into());
    }
    match (path.as_str(), &site.feed) {
        ("/", Some(feed)) => {
            let state = feed.state();
            let filter = Filter::from_query(&query);
            let events = format!("/events?{query}");
            let page = dashboard::live::page(&LiveView {
                state: &state,
                filter: &filter,
                links: LIVE,
                source: Some(SOURCE),
                events: Some(&events),
                now_ms: host::live::now_ms(),
            });
            plain(200, HTML, page)
        }
        ("/last", None) => match super::last::last(&site.repo, &site.name) {
            Ok(state) => html(dashboard::live::page(&LiveView {
                state: &state,
                filter: &Filter::from_query(&query),
                links: READ_ONLY,
                source: Some(SOURCE),
                events: None,
                now_ms: host::live::now_ms(),
            })),
            Err(e) => plain(500, TEXT, format!("{e}\n")),
        },
        ("/" | "/history", _) => match history(&site) {
            Ok(page) => plain(200, HTML, page),
            Err(e) => plain(500, TEXT, format!("{e}\n")),
        },
        ("/events", Some(feed)) => {
            events::answer(&site.streams, feed, &query, &dashboard::live::PARTS)
        }
        (p, _) if p.starts_with(SOURCE) => source::answer(&site.repo, &p[SOURCE.len()..]),
        _ => plain(404, TEXT, "no such page\n".into()),
    }
}

/// A page.
pub(super) fn html(page: String) -> Answer {
    plain(200, HTML, page)
}

/// The request when it may see the pages (no token is required, or it presents it); else the
/// answer: the sign-in form's post signs in (a cookie), anything else gets the form (401).
pub(crate) async fn signed_in(
    token: Option<&ApiToken>,
    request: Request<Incoming>,
) -> Result<Request<Incoming>, Answer> {
    let Some(token) = token else {
        return Ok(request);
    };
    if request.method() == Method::POST && request.uri().path() == "/login" {
        return Err(login(token, request).await);
    }
    if token.admits(credential(&request).as_deref()) {
        return Ok(request);
    }
    let mut refused = plain(401, HTML, dashboard::login_page());
    refused.headers_mut().insert(
        hyper::header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer"),
    );
    Err(refused)
}

/// The bearer token a request presents: its `Authorization` header, else the sign-in cookie.
fn credential<B>(request: &Request<B>) -> Option<String> {
    if let Some(header) = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        return Some(header.to_string());
    }
    request
        .headers()
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| {
            c.trim()
                .strip_prefix(&format!("{COOKIE_NAME}="))
                .map(str::to_string)
        })
        .map(|t| format!("Bearer {t}"))
}

/// The sign-in form's post: the right token sets the cookie and goes to `/`.
async fn login(token: &ApiToken, request: Request<Incoming>) -> Answer {
    let body = http_body_util::Limited::new(request.into_body(), LOGIN_BODY)
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let given = String::from_utf8_lossy(&body)
        .split('&')
        .find_map(|p| p.strip_prefix("token="))
        .map(dashboard::findings::form_value)
        .unwrap_or_default();
    if given.is_empty() || !token.admits(Some(&format!("Bearer {given}"))) {
        return plain(401, HTML, dashboard::login_page());
    }
    let mut answer = plain(303, TEXT, String::new());
    let headers = answer.headers_mut();
    headers.insert(LOCATION, HeaderValue::from_static("/"));
    if let Ok(cookie) = HeaderValue::from_str(&format!(
        "{COOKIE_NAME}={given}; HttpOnly; SameSite=Strict; Path=/"
    )) {
        headers.insert(SET_COOKIE, cookie);
    }
    answer
}

/// The history page, from `verdicts.md` as it is now (a missing file is an empty history; one
/// that cannot be read is an error, never an empty page).
fn history(site: &Site) -> Result<String, String> {
    let state = site.repo.join(".retake");
    let path = review::verdicts_md::location(&site.repo, &state, None);
    let shown = super::shown(&site.repo, &path);
    let text = review::verdicts_md::read(&path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let batches = review::verdicts_md::summaries(&text);
    let links: &[(&str, &str)] = match site.feed {
        Some(_) => LIVE,
        None => READ_ONLY,
    };
    Ok(dashboard::history::page(&dashboard::history::HistoryView {
        repository: &site.name,
        source: &shown,
        batches: &batches,
        links,
    }))
}
