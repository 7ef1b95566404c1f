//! A loopback chat endpoint for tests of the clients of [`super`] (the agent backend here, the
//! chat executor in `implementer`, `retake run` with it in `lead`): one reading of a request and
//! one writing of a response for every fake server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

/// Reads one request from `stream`: its head (request line and headers) and its body.
pub fn read_request(stream: TcpStream) -> (String, String, TcpStream) {
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push_str(&line);
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok();
    let body = String::from_utf8_lossy(&body).into_owned();
    (head, body, reader.into_inner())
}

/// Answers with `status` and the JSON `body`, then closes.
pub fn respond(mut stream: TcpStream, status: u16, body: &str) {
    // A body of server-sent events is a streamed answer.
    let kind = if body.starts_with("data:") {
        "text/event-stream"
    } else {
        "application/json"
    };
    let response = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).ok();
}

/// Serves `replies` (status, body; a status of 0 never answers) to successive requests and
/// sends each request's head and body back to the test.
pub fn serve(replies: Vec<(u16, String)>) -> (String, mpsc::Receiver<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for (status, body) in replies {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let (head, request, stream) = read_request(stream);
            tx.send((head, request)).ok();
            if status == 0 {
                std::thread::sleep(Duration::from_secs(5));
                continue;
            }
            respond(stream, status, &body);
        }
    });
    (format!("http://{addr}"), rx)
}
