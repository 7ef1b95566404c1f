//! The HTTP API of `retake serve` (JSON in and out):
//!
//! | request | answer |
//! |---|---|
//! | `POST /reviews` `{"repo": "/repos/shop", "args": ["--paths", "src/**"]}` | 202 the job; 400 `{"error"}`; 403 outside the repositories root; 413 body over 64 KiB; 429 queue full |
//! | `GET /reviews` | 200 every job |
//! | `GET /reviews/ID` | 200 the job; 404 |
//! | `GET /reviews/ID/result` | 200 the review's JSON report; 409 not finished or failed; 404 |
//! | `GET /healthz` | 200 `ok` while the process answers |
//! | `GET /readyz` | 200 `ok` when the jobs folder is writable and every Inspector kind and the Auditor have a live worker; 503 with what is missing |
//! | `GET /metrics` | 200 Prometheus text: jobs by status; idle, busy and lost workers by role and kind |
//!
//! Every `/reviews` request needs `Authorization: Bearer TOKEN` when the service has a token
//! (401 without it); the probes and `/metrics` never do.

use super::jobs::JobRequest;
use super::Service;

/// An answer: status, content type, body.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// `application/json` or `text/plain`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

pub(super) fn json(status: u16, value: &impl serde::Serialize) -> Answer {
    Answer {
        status,
        content_type: "application/json",
        body: serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into()),
    }
}

pub(super) fn error(status: u16, message: impl Into<String>) -> Answer {
    json(status, &serde_json::json!({ "error": message.into() }))
}

fn text(body: String) -> Answer {
    Answer {
        status: 200,
        content_type: "text/plain; version=0.0.4",
        body,
    }
}

/// Whether a request for `path` with this `Authorization` header may be answered: the
/// probes always, the jobs with the service's token (or by anyone when it has none).
pub fn admitted(service: &Service, path: &str, authorization: Option<&str>) -> bool {
    let probe = matches!(path.trim_matches('/'), "healthz" | "readyz" | "metrics");
    probe || service.token().is_none_or(|t| t.admits(authorization))
}

/// Answers one request (`method`, `path` without the query, the `Authorization` header,
/// `body`). The probes are open; the jobs need the service's token when it has one.
pub fn route(
    service: &Service,
    method: &str,
    path: &str,
    authorization: Option<&str>,
    body: &str,
) -> Answer {
    if !admitted(service, path, authorization) {
        return error(
            401,
            "a bearer token is required (Authorization: Bearer TOKEN)",
        );
    }
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        ("GET", ["healthz"]) => text("ok\n".into()),
        ("GET", ["readyz"]) => match service.ready() {
            Ok(()) => text("ok\n".into()),
            Err(why) => Answer {
                status: 503,
                content_type: "text/plain; charset=utf-8",
                body: format!("{why}\n"),
            },
        },
        ("GET", ["metrics"]) => text(service.metrics()),
        ("POST", ["reviews"]) => match serde_json::from_str::<JobRequest>(body) {
            Ok(request) => match service.submit(request) {
                Ok(job) => json(202, &job),
                Err(rejected) => error(rejected.status, rejected.message),
            },
            Err(e) => error(400, format!("bad job: {e}")),
        },
        ("GET", ["reviews"]) => json(200, &service.list()),
        ("GET", ["reviews", id]) => match service.job(id) {
            Some(job) => json(200, &job),
            None => error(404, format!("no job {id}")),
        },
        ("GET", ["reviews", id, "result"]) => match service.result(id) {
            Some(Ok(report)) => Answer {
                status: 200,
                content_type: "application/json",
                body: report,
            },
            Some(Err(why)) => error(409, why),
            None => error(404, format!("no job {id}")),
        },
        (_, ["healthz" | "readyz" | "metrics" | "reviews", ..]) => {
            error(405, format!("{method} is not allowed on {path}"))
        }
        _ => error(404, format!("no such resource {path}")),
    }
}
