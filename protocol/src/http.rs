//! The one HTTP/1 server loop of retake's endpoints (an actor's health endpoint, `retake
//! serve`'s API), on hyper: every connection is a task of its own, so a client that sends half
//! a request holds only its task and the next probe is answered; headers must arrive within the
//! given deadline or the connection is closed. What to answer is the caller's.

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full, StreamBody};
use hyper::body::Frame;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

/// A response: a complete body, or a stream of parts ([`stream`]).
pub type Answer = Response<BoxBody<Bytes, Infallible>>;

/// Serves connections of `listener` with `respond` until the task is dropped; an accept error
/// (out of descriptors, say) is logged and waited out rather than ending the loop.
pub async fn serve<F, Fut>(listener: tokio::net::TcpListener, header_timeout: Duration, respond: F)
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Answer> + Send + 'static,
{
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "cannot accept an HTTP connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let respond = respond.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let answer = respond(request);
                async move { Ok::<_, Infallible>(answer.await) }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "HTTP connection ended");
            }
        });
    }
}

/// A response: status, content type, body.
pub fn answer(status: u16, content_type: &'static str, body: String) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() =
        hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(content_type),
    );
    response
}

/// A response whose body is every part `parts` yields, sent as it comes, until the sender is
/// dropped (a server-sent event stream); `written` is told once the last part was handed to
/// the connection. Nothing caches it.
pub fn stream(
    content_type: &'static str,
    parts: tokio::sync::mpsc::Receiver<Bytes>,
    written: tokio::sync::oneshot::Sender<()>,
) -> Answer {
    let frames = futures::stream::unfold(
        (parts, Some(written)),
        |(mut parts, mut written)| async move {
            match parts.recv().await {
                Some(part) => Some((Ok::<_, Infallible>(Frame::data(part)), (parts, written))),
                None => {
                    if let Some(written) = written.take() {
                        let _no_one_waits = written.send(());
                    }
                    None
                }
            }
        },
    );
    let mut response = Response::new(StreamBody::new(frames).boxed());
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(content_type),
    );
    headers.insert(
        hyper::header::CACHE_CONTROL,
        hyper::header::HeaderValue::from_static("no-store"),
    );
    response
}
