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
    fn get(&self, path: &str) -> Result<(u16, String), String> {
        let url = format!("{}{path}", self.base);
        let mut response = self
            .agent
            .get(&url)
            .header("Authorization", &self.bearer)
            .call()
            .map_err(|e| format!("GET {url}: {e}"))?;
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("GET {url}: {e}"))?;
        Ok((status, body))
    }

    /// Whether `/healthz` answers 200.
    pub(super) fn healthy(&self) -> bool {
        matches!(self.get("/healthz"), Ok((200, _)))
    }

    /// Idle registered workers, all kinds together (`retake_serve_idle_workers` summed).
    pub(super) fn idle_workers(&self) -> Result<u32, String> {
        let (status, text) = self.get("/metrics")?;
        if status != 200 {
            return Err(format!("GET /metrics answered {status}"));
        }
        Ok(idle_in_metrics(&text))
    }

    /// Submits `{"repo": repo, "args": args}`; the job's id.
    pub(super) fn submit(&self, repo: &str, args: &[String]) -> Result<String, String> {
        let url = format!("{}/reviews", self.base);
        let body = serde_json::json!({ "repo": repo, "args": args }).to_string();
        let mut response = self
            .agent
            .post(&url)
            .header("Content-Type", "application/json")
            .header("Authorization", &self.bearer)
            .send(body)
            .map_err(|e| format!("POST {url}: {e}"))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("POST {url}: {e}"))?;
        let job: Value = serde_json::from_str(&text)
            .map_err(|e| format!("POST {url} answered {status} with no JSON: {e}"))?;
        match (status, job["id"].as_str()) {
            (202, Some(id)) => Ok(id.to_string()),
            _ => Err(format!("POST {url} answered {status}: {}", job["error"])),
        }
    }

    /// The job `id`; an error while the API is unreachable (a restarting Lead).
    pub(super) fn job(&self, id: &str) -> Result<JobState, String> {
        let (status, text) = self.get(&format!("/reviews/{id}"))?;
        if status != 200 {
            return Err(format!("GET /reviews/{id} answered {status}: {text}"));
        }
        let job: Value =
            serde_json::from_str(&text).map_err(|e| format!("GET /reviews/{id}: {e}"))?;
        Ok(JobState {
            status: job["status"].as_str().unwrap_or_default().to_string(),
            exit_code: job["exit_code"]
                .as_i64()
                .and_then(|c| i32::try_from(c).ok()),
            error: job["error"].as_str().map(str::to_string),
        })
    }

    /// The review's JSON report of a finished job.
    pub(super) fn result(&self, id: &str) -> Result<Value, String> {
        let (status, text) = self.get(&format!("/reviews/{id}/result"))?;
        if status != 200 {
            return Err(format!(
                "GET /reviews/{id}/result answered {status}: {text}"
            ));
        }
        serde_json::from_str(&text).map_err(|e| format!("GET /reviews/{id}/result: {e}"))
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
}
