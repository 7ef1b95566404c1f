//! The health probe: GET a health URL and turn the answer into an exit code, so a container
//! health check works in an image without curl (`retake-inspector health URL`).

use super::HEALTH_LISTEN_ENV;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// The largest body a probe reads (a `/metrics` page is a few KiB).
const MAX_BODY: u64 = 1024 * 1024;

/// Why a probe failed.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// Not something the probe can ask.
    #[error("'{url}' is not an http:// URL (the health endpoint serves plain HTTP)")]
    BadUrl {
        /// The URL given.
        url: String,
    },
    /// No answer: refused, timed out, not HTTP.
    #[error("{url} is unreachable: {reason}")]
    Unreachable {
        /// The URL probed.
        url: String,
        /// What went wrong.
        reason: String,
    },
    /// An answer other than 2xx.
    #[error("{url} answered {status}: {body}")]
    Status {
        /// The URL probed.
        url: String,
        /// The status code.
        status: u16,
        /// The first line of the body.
        body: String,
    },
}

/// GETs `url` within `timeout`: the status code and the body, whatever the status.
pub fn fetch(url: &str, timeout: Duration) -> Result<(u16, String), ProbeError> {
    if !url.starts_with("http://") {
        return Err(ProbeError::BadUrl { url: url.into() });
    }
    let unreachable = |e: ureq::Error| ProbeError::Unreachable {
        url: url.into(),
        reason: e.to_string(),
    };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        // A health endpoint is local to the container: a proxy from the environment must not
        // capture it.
        .proxy(None)
        .max_redirects(0)
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(unreachable)?;
    let status = response.status().as_u16();
    let body = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(unreachable)?;
    Ok((status, body))
}

/// GETs `url`: `Ok(body)` on a 2xx answer, otherwise why not.
pub fn probe(url: &str, timeout: Duration) -> Result<String, ProbeError> {
    let (status, body) = fetch(url, timeout)?;
    if (200..300).contains(&status) {
        return Ok(body);
    }
    Err(ProbeError::Status {
        url: url.into(),
        status,
        body: body.lines().next().unwrap_or_default().to_string(),
    })
}

/// `/healthz` of an endpoint listening on `listen`, reached over loopback when it listens on
/// every address (`0.0.0.0`, `::`).
pub fn healthz_url(listen: SocketAddr) -> String {
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/healthz", SocketAddr::new(ip, listen.port()))
}

/// `health [URL]`: probe a health endpoint for a container health check.
#[derive(Debug, Clone, clap::Args)]
pub struct HealthCheckArgs {
    /// The URL to GET, e.g. http://127.0.0.1:9100/readyz (default: /healthz of --listen).
    pub url: Option<String>,
    /// Where this container's health endpoint listens, when no URL is given. Without either
    /// there is no endpoint to ask and the check passes: it proves the binary loads.
    #[arg(long, value_name = "ADDR", env = HEALTH_LISTEN_ENV)]
    pub listen: Option<SocketAddr>,
    /// Give up after this many milliseconds.
    #[arg(long, default_value_t = 3000)]
    pub timeout_ms: u64,
}

impl HealthCheckArgs {
    /// Runs the check, prints one line, and returns the exit code: 0 healthy (2xx, or nothing
    /// configured to probe), 1 unhealthy or unreachable, 2 not an http:// URL.
    pub fn run(&self) -> u8 {
        let url = match (&self.url, self.listen) {
            (Some(url), _) => url.clone(),
            (None, Some(listen)) => healthz_url(listen),
            (None, None) => {
                println!(
                    "no health endpoint configured ({HEALTH_LISTEN_ENV} unset): nothing to probe"
                );
                return 0;
            }
        };
        match probe(&url, Duration::from_millis(self.timeout_ms)) {
            Ok(body) => {
                println!("{url}: {}", body.lines().next().unwrap_or("ok"));
                0
            }
            Err(e @ ProbeError::BadUrl { .. }) => {
                eprintln!("error: {e}");
                2
            }
            Err(e) => {
                eprintln!("unhealthy: {e}");
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::process::HealthServer;
    use crate::session::Metrics;
    use std::sync::Arc;

    const WAIT: Duration = Duration::from_secs(5);

    #[test]
    fn the_probe_reads_a_real_endpoint_and_maps_answers_to_exit_codes() {
        let metrics = Arc::new(Metrics::new("inspector", "test", "inspector-test", 2));
        let server =
            HealthServer::start("127.0.0.1:0".parse().unwrap(), metrics.clone()).expect("listens");
        let base = format!("http://{}", server.local_addr());
        assert_eq!(probe(&format!("{base}/healthz"), WAIT).unwrap(), "ok\n");
        match probe(&format!("{base}/readyz"), WAIT) {
            Err(ProbeError::Status { status, body, .. }) => {
                assert_eq!(
                    (status, body.as_str()),
                    (503, "not ready: no session with the Lead")
                )
            }
            other => panic!("expected 503, got {other:?}"),
        }
        let (status, text) = fetch(&format!("{base}/metrics"), WAIT).unwrap();
        assert_eq!(status, 200);
        assert!(
            text.lines().any(|l| l == "retake_actor_restarts 1"),
            "{text}"
        );

        let check = |url: &str| HealthCheckArgs {
            url: Some(url.to_string()),
            listen: None,
            timeout_ms: 5000,
        };
        assert_eq!(check(&format!("{base}/healthz")).run(), 0);
        assert_eq!(check(&format!("{base}/readyz")).run(), 1);
        assert_eq!(check(&format!("{base}/nowhere")).run(), 1);
        assert_eq!(check("https://example.invalid/healthz").run(), 2);
        let defaulted = HealthCheckArgs {
            url: None,
            listen: Some(server.local_addr()),
            timeout_ms: 5000,
        };
        assert_eq!(defaulted.run(), 0);
        let unconfigured = HealthCheckArgs {
            url: None,
            listen: None,
            timeout_ms: 5000,
        };
        assert_eq!(unconfigured.run(), 0);

        let addr = server.local_addr();
        drop(server);
        match probe(&format!("http://{addr}/healthz"), WAIT) {
            Err(ProbeError::Unreachable { .. }) => {}
            other => panic!("a stopped endpoint must be unreachable, got {other:?}"),
        }
    }

    #[test]
    fn healthz_url_reaches_a_wildcard_listener_over_loopback() {
        let url = |a: &str| healthz_url(a.parse().unwrap());
        assert_eq!(url("0.0.0.0:9100"), "http://127.0.0.1:9100/healthz");
        assert_eq!(url("[::]:9100"), "http://[::1]:9100/healthz");
        assert_eq!(url("10.1.2.3:80"), "http://10.1.2.3:80/healthz");
    }
}
