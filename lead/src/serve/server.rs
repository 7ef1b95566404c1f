//! The HTTP/1 server of `retake serve`'s API (`protocol::http`'s loop): every connection is a
//! task of its own, so a client that sends half a request holds only its task — `/healthz`
//! keeps answering.
//! A request's headers must arrive within [`Limits::header`] and its body within
//! [`Limits::body`] (else 408 and the connection closes); a body over [`MAX_BODY`] is refused
//! with 413 before it is read. What to answer is `http::route`'s, run off the async threads
//! (a submission writes `jobs.json`).

use super::http;
use super::Service;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, AUTHORIZATION, CONNECTION, CONTENT_LENGTH};
use hyper::Request;
use protocol::http::Answer;
use std::sync::Arc;
use std::time::Duration;

/// Largest request body accepted: a job is a path and a few options.
pub const MAX_BODY: usize = 64 * 1024;

/// How long a client may take to send a request.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// From the connection's start (or the previous answer) to the end of the headers.
    pub header: Duration,
    /// From the end of the headers to the end of the body.
    pub body: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header: Duration::from_secs(10),
            body: Duration::from_secs(10),
        }
    }
}

/// Serves the API on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, service: Arc<Service>, limits: Limits) {
    let respond = move |request| {
        let service = Arc::clone(&service);
        async move { respond(service, request, limits).await }
    };
    protocol::http::serve(listener, limits.header, respond).await;
}

/// One request's answer.
async fn respond(service: Arc<Service>, request: Request<Incoming>, limits: Limits) -> Answer {
    // The pages (the jobs list, each job's live view) first; the rest is the API.
    let request = match service.pages().answer(service.token(), request).await {
        Ok(page) => return page,
        Err(api) => api,
    };
    let method = request.method().as_str().to_uppercase();
    let path = request.uri().path().to_string();
    let authorization = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let too_large = || {
        http::error(
            413,
            format!("the request body is over {} KiB", MAX_BODY / 1024),
        )
    };
    let body = if !http::admitted(&service, &path, authorization.as_deref()) {
        // Not read: `route` answers 401 whatever it holds.
        Ok(String::new())
    } else if declared.is_some_and(|n| n > MAX_BODY as u64) {
        Err(too_large())
    } else {
        match tokio::time::timeout(
            limits.body,
            Limited::new(request.into_body(), MAX_BODY).collect(),
        )
        .await
        {
            Err(_) => Err(http::error(
                408,
                format!(
                    "the request body did not arrive within {} s",
                    limits.body.as_secs()
                ),
            )),
            Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => Err(too_large()),
            Ok(Err(e)) => Err(http::error(400, format!("unreadable body: {e}"))),
            Ok(Ok(collected)) => String::from_utf8(collected.to_bytes().to_vec())
                .map_err(|_| http::error(400, "the request body is not UTF-8")),
        }
    };
    let answer = match body {
        Ok(body) => tokio::task::spawn_blocking(move || {
            http::route(&service, &method, &path, authorization.as_deref(), &body)
        })
        .await
        .unwrap_or_else(|e| http::error(500, format!("the request failed: {e}"))),
        Err(refused) => refused,
    };
    response(answer)
}

/// The HTTP response of an answer; a refused body closes the connection (its rest may still be
/// on the way), and a 401 names the scheme.
fn response(answer: http::Answer) -> Answer {
    let mut response = protocol::http::answer(answer.status, answer.content_type, answer.body);
    let headers = response.headers_mut();
    if matches!(answer.status, 408 | 413) {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    if answer.status == 401 {
        headers.insert(
            hyper::header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer"),
        );
    }
    response
}
