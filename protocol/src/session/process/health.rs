//! The actor's health endpoint: `/healthz`, `/readyz` and `/metrics` over plain HTTP, served on
//! a thread and runtime of its own, so it answers even while the actor's runtime is busy; every
//! connection is a task (`crate::http`), so a client that stalls in the middle of a request
//! cannot keep the next probe from being answered. Request bodies are never read.

use crate::http::{self, Answer};
use crate::session::{ActorError, Metrics, METRICS_CONTENT_TYPE};
use hyper::header::{HeaderValue, CONNECTION};
use hyper::Method;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a client has to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// A running health endpoint; dropping it stops the server and joins its thread.
pub struct HealthServer {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl HealthServer {
    /// Listens on `addr` (port 0 picks a free one) and serves `metrics` until dropped.
    pub fn start(addr: SocketAddr, metrics: Arc<Metrics>) -> Result<HealthServer, ActorError> {
        let refused = |reason: String| ActorError::Health { addr, reason };
        let listener = std::net::TcpListener::bind(addr).map_err(|e| refused(e.to_string()))?;
        let bound = listener.local_addr().map_err(|e| refused(e.to_string()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| refused(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| refused(format!("cannot start its runtime: {e}")))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("health".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(e) => return tracing::error!(error = %e, "health endpoint: no socket"),
                    };
                    let respond = move |request: hyper::Request<hyper::body::Incoming>| {
                        let metrics = Arc::clone(&metrics);
                        async move { respond(request.method(), request.uri().path(), &metrics) }
                    };
                    tokio::select! {
                        () = http::serve(listener, HEADER_TIMEOUT, respond) => {}
                        _ = stopped => {}
                    }
                })
            })
            .map_err(|e| refused(format!("cannot start its thread: {e}")))?;
        tracing::info!(addr = %bound, "health endpoint listening");
        Ok(HealthServer {
            stop: Some(stop),
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
        if let Some(stop) = self.stop.take() {
            let _stopped = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _joined = thread.join();
        }
    }
}

/// The answer to one request; a request that is not a GET or HEAD (which may carry a body
/// nobody will read) closes its connection.
fn respond(method: &Method, path: &str, metrics: &Metrics) -> Answer {
    let (status, content_type, body) = route(method, path, metrics);
    let mut answer = http::answer(status, content_type, body);
    if status == 405 {
        answer
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    answer
}

/// Status code, content type and body for one request (`path` without the query: a query
/// string does not change the answer).
fn route(method: &Method, path: &str, metrics: &Metrics) -> (u16, &'static str, String) {
    const TEXT: &str = "text/plain; charset=utf-8";
    if !matches!(*method, Method::GET | Method::HEAD) {
        return (405, TEXT, "only GET and HEAD\n".into());
    }
    match path {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_answer_by_path_method_and_readiness() {
        let m = Metrics::new("auditor", "", "auditor", 1);
        assert_eq!(route(&Method::GET, "/healthz", &m).0, 200);
        assert_eq!(
            route(&Method::GET, "/readyz", &m),
            (
                503,
                "text/plain; charset=utf-8",
                "not ready: no session with the Lead\n".into()
            )
        );
        let _up = m.session_started();
        assert_eq!(route(&Method::GET, "/readyz", &m).0, 200);
        let (status, kind, body) = route(&Method::HEAD, "/metrics", &m);
        assert_eq!((status, kind), (200, METRICS_CONTENT_TYPE));
        assert!(body.contains("\nretake_actor_session_up 1\n"), "{body}");
        assert_eq!(route(&Method::POST, "/healthz", &m).0, 405);
        assert_eq!(route(&Method::GET, "/", &m).0, 404);
    }
}

#[cfg(test)]
mod stall_tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn a_client_stalled_in_its_body_does_not_hold_up_the_probes() {
        let metrics = Arc::new(Metrics::new("inspector", "quality", "inspector-quality", 1));
        let server =
            HealthServer::start("127.0.0.1:0".parse().expect("addr"), metrics).expect("up");
        let addr = server.local_addr();
        let _stalled: Vec<std::net::TcpStream> = (0..5)
            .map(|_| {
                let mut s = std::net::TcpStream::connect(addr).expect("connect");
                s.write_all(b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n{")
                    .expect("write");
                s
            })
            .collect();
        for _ in 0..5 {
            let mut s = std::net::TcpStream::connect(addr).expect("connect");
            s.set_read_timeout(Some(Duration::from_secs(1)))
                .expect("timeout");
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .expect("write");
            let mut answer = String::new();
            let _read = s.read_to_string(&mut answer);
            assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
            assert!(answer.ends_with("ok\n"), "{answer}");
        }
    }
}
