//! The actor's health endpoint: `/healthz`, `/readyz` and `/metrics` over plain HTTP, served by
//! tiny_http on a thread of its own, so it answers even while the actor's runtime is busy.

use crate::session::{ActorError, Metrics, METRICS_CONTENT_TYPE};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

/// A running health endpoint; dropping it stops the server and joins its thread.
pub struct HealthServer {
    server: Arc<Server>,
    closing: Arc<AtomicBool>,
    addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl HealthServer {
    /// Listens on `addr` (port 0 picks a free one) and serves `metrics` until dropped.
    pub fn start(addr: SocketAddr, metrics: Arc<Metrics>) -> Result<HealthServer, ActorError> {
        let refused = |reason: String| ActorError::Health { addr, reason };
        let server = Arc::new(Server::http(addr).map_err(|e| refused(e.to_string()))?);
        let bound = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| refused("the server is not on an IP address".into()))?;
        let (serving, closing) = (server.clone(), Arc::new(AtomicBool::new(false)));
        let closed = closing.clone();
        let thread = std::thread::Builder::new()
            .name("health".into())
            .spawn(move || serve(&serving, &closed, &metrics))
            .map_err(|e| refused(format!("cannot start its thread: {e}")))?;
        tracing::info!(addr = %bound, "health endpoint listening");
        Ok(HealthServer {
            server,
            closing,
            addr: bound,
            thread: Some(thread),
        })
    }

    /// The address actually bound (the real port when port 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }
}

impl std::fmt::Debug for HealthServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HealthServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Drop for HealthServer {
    fn drop(&mut self) {
        self.closing.store(true, Ordering::SeqCst);
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _joined = thread.join();
        }
    }
}

/// Answers requests until `closing`; an accept error (out of file descriptors, say) is logged
/// and waited out rather than ending the endpoint.
fn serve(server: &Server, closing: &AtomicBool, metrics: &Metrics) {
    loop {
        match server.recv() {
            Ok(request) => answer(request, metrics),
            Err(_) if closing.load(Ordering::SeqCst) => return,
            Err(e) => {
                tracing::warn!(error = %e, "health endpoint: accept failed");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// Status code, content type and body for one request.
fn route(method: &Method, url: &str, metrics: &Metrics) -> (u16, &'static str, String) {
    const TEXT: &str = "text/plain; charset=utf-8";
    if !matches!(method, Method::Get | Method::Head) {
        return (405, TEXT, "only GET and HEAD\n".into());
    }
    // A query string (`/readyz?verbose`) does not change the answer.
    match url.split('?').next().unwrap_or_default() {
        "/healthz" => (200, TEXT, "ok\n".into()),
        "/readyz" => match metrics.readiness() {
            Ok(()) => (200, TEXT, "ready\n".into()),
            Err(reason) => (503, TEXT, format!("not ready: {reason}\n")),
        },
        "/metrics" => (200, METRICS_CONTENT_TYPE, metrics.render()),
        _ => (
            404,
            TEXT,
            "not found: try /healthz, /readyz or /metrics\n".into(),
        ),
    }
}

fn answer(request: Request, metrics: &Metrics) {
    let (status, content_type, body) = route(request.method(), request.url(), metrics);
    let mut response = Response::from_string(body).with_status_code(status);
    if let Ok(header) = Header::from_bytes("Content-Type", content_type) {
        response.add_header(header);
    }
    if let Err(e) = request.respond(response) {
        tracing::debug!(error = %e, "health client went away");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_answer_by_path_method_and_readiness() {
        let m = Metrics::new("auditor", "", "auditor", 1);
        assert_eq!(route(&Method::Get, "/healthz", &m).0, 200);
        assert_eq!(
            route(&Method::Get, "/readyz", &m),
            (
                503,
                "text/plain; charset=utf-8",
                "not ready: no session with the Lead\n".into()
            )
        );
        let _up = m.session_started();
        assert_eq!(route(&Method::Get, "/readyz?x=1", &m).0, 200);
        let (status, kind, body) = route(&Method::Head, "/metrics", &m);
        assert_eq!((status, kind), (200, METRICS_CONTENT_TYPE));
        assert!(body.contains("\nretake_actor_session_up 1\n"), "{body}");
        assert_eq!(route(&Method::Post, "/healthz", &m).0, 405);
        assert_eq!(route(&Method::Get, "/", &m).0, 404);
    }
}
