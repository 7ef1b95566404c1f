//! The HTTP API of `retake serve` (JSON in and out):
//!
//! | request | answer |
//! |---|---|
//! | `POST /reviews` `{"repo": "/repo", "args": ["--paths", "src/**"]}` | 202 the job; 400 `{"error"}` |
//! | `GET /reviews` | 200 every job |
//! | `GET /reviews/ID` | 200 the job; 404 |
//! | `GET /reviews/ID/result` | 200 the review's JSON report; 409 not finished or failed; 404 |
//! | `GET /healthz`, `GET /readyz` | 200 `ok` |
//! | `GET /metrics` | 200 Prometheus text: jobs by status, idle workers by kind |

use super::jobs::JobRequest;
use super::Service;
use std::io::Read;
use std::sync::Arc;

/// Largest request body accepted: a job is a path and a few options.
const MAX_BODY: u64 = 64 * 1024;

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

fn json(status: u16, value: &impl serde::Serialize) -> Answer {
    Answer {
        status,
        content_type: "application/json",
        body: serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into()),
    }
}

fn error(status: u16, message: impl Into<String>) -> Answer {
    json(status, &serde_json::json!({ "error": message.into() }))
}

fn text(body: String) -> Answer {
    Answer {
        status: 200,
        content_type: "text/plain; version=0.0.4",
        body,
    }
}

/// Answers one request (`method`, `path` without the query, `body`).
pub fn route(service: &Arc<Service>, method: &str, path: &str, body: &str) -> Answer {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        ("GET", ["healthz"] | ["readyz"]) => text("ok\n".into()),
        ("GET", ["metrics"]) => text(service.metrics()),
        ("POST", ["reviews"]) => match serde_json::from_str::<JobRequest>(body) {
            Ok(request) => match service.submit(request) {
                Ok(job) => json(202, &job),
                Err(e) => error(400, e),
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

/// Serves the API on `server` until the process ends, one request at a time (each answer is
/// bookkeeping; the reviews run on their own threads).
pub fn serve(server: &tiny_http::Server, service: &Arc<Service>) {
    for mut request in server.incoming_requests() {
        let method = request.method().as_str().to_uppercase();
        let path = request.url().split('?').next().unwrap_or("/").to_string();
        let mut body = String::new();
        let read = request.as_reader().take(MAX_BODY).read_to_string(&mut body);
        let answer = match read {
            Ok(_) => route(service, &method, &path, &body),
            Err(e) => error(400, format!("unreadable body: {e}")),
        };
        let header =
            tiny_http::Header::from_bytes(&b"Content-Type"[..], answer.content_type.as_bytes())
                .ok();
        let mut response =
            tiny_http::Response::from_string(answer.body).with_status_code(answer.status);
        if let Some(h) = header {
            response = response.with_header(h);
        }
        if let Err(e) = request.respond(response) {
            tracing::debug!(error = %e, "client went away");
        }
    }
}
