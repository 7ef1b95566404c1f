//! The client side of `retake serve`'s HTTP API, as a container scenario uses it: health, idle
//! workers (from `/metrics`), submitting a job, its status and its report.

use serde_json::Value;
use std::time::Duration;

/// The API of one stack's Lead, published on the loopback interface.
pub(super) struct Api {
    base: String,
    agent: ureq::Agent,
    /// `Authorization: Bearer …` for the job endpoints.
    bearer: String,
}

/// A job as `GET /reviews/ID` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct JobState {
    /// `queued`, `running`, `done` or `failed`.
    pub(super) status: String,
    /// The review's exit code once done or failed.
    pub(super) exit_code: Option<i32>,
    /// Why it failed.
    pub(super) error: Option<String>,
}

/// Why a request to the Lead's API gave no usable answer; each names the request (its method,
/// and its URL or API path).
#[derive(Debug, thiserror::Error)]
pub(super) enum ApiError {
    /// No answer: the connection failed or timed out (a restarting or cut-off Lead).
    #[error("{method} {url}: {source}")]
    Unreachable {
        /// `GET` or `POST`.
        method: &'static str,
        /// The URL.
        url: String,
        /// What the HTTP client said.
        source: ureq::Error,
    },
    /// An answer whose body could not be read.
    #[error("{method} {url}: {source}")]
    UnreadableBody {
        /// `GET` or `POST`.
        method: &'static str,
        /// The URL.
        url: String,
        /// What the HTTP client said.
        source: ureq::Error,
    },
    /// An answer with another status than the request's success.
    #[error("{method} {target} answered {status}")]
    Status {
        /// `GET` or `POST`.
        method: &'static str,
        /// The API path.
        target: String,
        /// The HTTP status.
        status: u16,
    },
    /// An answer with another status than the request's success, and what it said.
    #[error("{method} {target} answered {status}: {answer}")]
    Refused {
        /// `GET` or `POST`.
        method: &'static str,
        /// The URL or API path.
        target: String,
        /// The HTTP status.
        status: u16,
        /// Its body, or its JSON `error` field.
        answer: String,
    },
    /// An answer that is not the JSON the request answers with.
    #[error("{method} {target}: {source}")]
    NotJson {
        /// `GET` or `POST`.
        method: &'static str,
        /// The API path.
        target: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// The answer to a job's submission is not JSON, whatever its status.
    #[error("POST {url} answered {status} with no JSON: {source}")]
    SubmitNotJson {
        /// The URL.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The parse error.
        source: serde_json::Error,
    },
}

impl JobState {
    /// Whether the job has ended, one way or the other.
    pub(super) fn finished(&self) -> bool {
        self.status == "done" || self.status == "failed"
    }
}

impl Api {
    /// The API at `127.0.0.1:port`, whose job endpoints take `token`; each request gives up
    /// after `timeout`.
    pub(super) fn new(port: u16, token: &str, timeout: Duration) -> Api {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            // A proxy from the environment must not capture a loopback address.
            .proxy(None);
        Api {
            base: format!("http://127.0.0.1:{port}"),
            agent: config.build().into(),
            bearer: format!("Bearer {token}"),
        }
    }

    /// `GET path`: status and body.
    fn get(&self, path: &str) -> Result<(u16, String), ApiError> {
        let url = format!("{}{path}", self.base);
        let mut response = self
            .agent
            .get(&url)
            .header("Authorization", &self.bearer)
            .call()
            .map_err(|source| ApiError::Unreachable {
                method: "GET",
                url: url.clone(),
                source,
            })?;
        let status = response.status().as_u16();
        let body =
            response
                .body_mut()
                .read_to_string()
                .map_err(|source| ApiError::UnreadableBody {
                    method: "GET",
                    url,
                    source,
                })?;
        Ok((status, body))
    }

    /// Whether `/healthz` answers 200.
    pub(super) fn healthy(&self) -> bool {
        matches!(self.get("/healthz"), Ok((200, _)))
    }

    /// Idle registered workers, all kinds together (`retake_serve_idle_workers` summed).
    pub(super) fn idle_workers(&self) -> Result<u32, ApiError> {
        let (status, text) = self.get("/metrics")?;
        if status != 200 {
            return Err(ApiError::Status {
                method: "GET",
                target: "/metrics".into(),
                status,
            });
        }
        Ok(idle_in_metrics(&text))
    }

    /// Submits `{"repo": repo, "args": args}`; the job's id.
    pub(super) fn submit(&self, repo: &str, args: &[String]) -> Result<String, ApiError> {
        let url = format!("{}/reviews", self.base);
        let body = serde_json::json!({ "repo": repo, "args": args }).to_string();
        let mut response = self
            .agent
            .post(&url)
            .header("Content-Type", "application/json")
            .header("Authorization", &self.bearer)
            .send(body)
            .map_err(|source| ApiError::Unreachable {
                method: "POST",
                url: url.clone(),
                source,
            })?;
        let status = response.status().as_u16();
        let text =
            response
                .body_mut()
                .read_to_string()
                .map_err(|source| ApiError::UnreadableBody {
                    method: "POST",
                    url: url.clone(),
                    source,
                })?;
        let job: Value = serde_json::from_str(&text).map_err(|source| ApiError::SubmitNotJson {
            url: url.clone(),
            status,
            source,
        })?;
        match (status, job["id"].as_str()) {
            (202, Some(id)) => Ok(id.to_string()),
            _ => Err(ApiError::Refused {
                method: "POST",
                target: url,
                status,
                // The JSON value as JSON: a quoted text, or `null` when the answer has none.
                answer: job["error"].to_string(),
            }),
        }
    }

    /// The job `id`; an error while the API is unreachable (a restarting Lead).
    pub(super) fn job(&self, id: &str) -> Result<JobState, ApiError> {
        let job = self.get_json(&format!("/reviews/{id}"))?;
        Ok(JobState {
            status: job["status"].as_str().unwrap_or_default().to_string(),
            exit_code: job["exit_code"]
                .as_i64()
                .and_then(|c| i32::try_from(c).ok()),
            error: job["error"].as_str().map(str::to_string),
        })
    }

    /// The review's JSON report of a finished job.
    pub(super) fn result(&self, id: &str) -> Result<Value, ApiError> {
        self.get_json(&format!("/reviews/{id}/result"))
    }

    /// `GET path`: its JSON body when it answers 200.
    fn get_json(&self, path: &str) -> Result<Value, ApiError> {
        let (status, text) = self.get(path)?;
        if status != 200 {
            return Err(ApiError::Refused {
                method: "GET",
                target: path.to_string(),
                status,
                answer: text,
            });
        }
        serde_json::from_str(&text).map_err(|source| ApiError::NotJson {
            method: "GET",
            target: path.to_string(),
            source,
        })
    }
}

/// The sum of the `retake_serve_idle_workers` samples of a Prometheus text.
fn idle_in_metrics(text: &str) -> u32 {
    text.lines()
        .filter(|l| l.starts_with("retake_serve_idle_workers{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u32>().ok())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_workers_are_summed_over_kinds() {
        let text = "# TYPE retake_serve_jobs gauge\nretake_serve_jobs{status=\"done\"} 4\n\
                    # TYPE retake_serve_idle_workers gauge\n\
                    retake_serve_idle_workers{role=\"auditor\",kind=\"\"} 2\n\
                    retake_serve_idle_workers{role=\"inspector\",kind=\"quality\"} 1\n";
        assert_eq!(idle_in_metrics(text), 3);
        assert_eq!(idle_in_metrics(""), 0);
    }

    /// A loopback server that answers one request with `status` and `body`; its port.
    fn answer_once(status: &'static str, body: &'static str) -> u16 {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        std::thread::spawn(move || {
            let (stream, _) = listener.accept().expect("accept");
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("read");
                if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = n.trim().parse().expect("length");
                }
                if line.trim().is_empty() {
                    break;
                }
            }
            let mut sent = vec![0; length];
            reader.read_exact(&mut sent).expect("body");
            let answer = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            reader
                .get_mut()
                .write_all(answer.as_bytes())
                .expect("write");
        });
        port
    }

    fn api(port: u16) -> Api {
        Api::new(port, "token", Duration::from_secs(5))
    }

    #[test]
    fn an_answer_the_runner_cannot_use_is_a_typed_error_naming_the_request() {
        let e = api(answer_once("503 Service Unavailable", ""))
            .idle_workers()
            .expect_err("503");
        assert!(matches!(e, ApiError::Status { status: 503, .. }), "{e:?}");
        assert_eq!(e.to_string(), "GET /metrics answered 503");

        let e = api(answer_once("404 Not Found", "no such job"))
            .job("j1")
            .expect_err("404");
        assert!(matches!(e, ApiError::Refused { status: 404, .. }), "{e:?}");
        assert_eq!(e.to_string(), "GET /reviews/j1 answered 404: no such job");

        let e = api(answer_once("200 OK", "{"))
            .result("j1")
            .expect_err("not JSON");
        assert!(matches!(e, ApiError::NotJson { .. }), "{e:?}");
        assert!(
            e.to_string()
                .starts_with("GET /reviews/j1/result: EOF while parsing"),
            "{e}"
        );

        let port = answer_once("400 Bad Request", r#"{"error":"no repo"}"#);
        let e = api(port).submit("/repo", &[]).expect_err("400");
        assert!(matches!(e, ApiError::Refused { status: 400, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("POST http://127.0.0.1:{port}/reviews answered 400: \"no repo\"")
        );

        let port = answer_once("502 Bad Gateway", "<html>");
        let e = api(port).submit("/repo", &[]).expect_err("502");
        assert!(
            matches!(e, ApiError::SubmitNotJson { status: 502, .. }),
            "{e:?}"
        );
        let wanted = format!("POST http://127.0.0.1:{port}/reviews answered 502 with no JSON: ");
        assert!(e.to_string().starts_with(&wanted), "{e}");
    }

    #[test]
    fn no_answer_is_unreachable_naming_the_url() {
        // Bound and released: nothing listens there now.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("port")
            .port();
        let e = api(port).job("j1").expect_err("nothing listens");
        assert!(
            matches!(e, ApiError::Unreachable { method: "GET", .. }),
            "{e:?}"
        );
        let wanted = format!("GET http://127.0.0.1:{port}/reviews/j1: ");
        assert!(e.to_string().starts_with(&wanted), "{e}");
    }
}
