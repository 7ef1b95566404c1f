//! A loopback chat endpoint for tests of the clients of [`super`] (the agent backend here,
//! the chat executor in `implementer`): one place for the fake server both use.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

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
            let mut request = vec![0u8; length];
            reader.read_exact(&mut request).ok();
            tx.send((head, String::from_utf8_lossy(&request).into_owned()))
                .ok();
            if status == 0 {
                std::thread::sleep(Duration::from_secs(5));
                continue;
            }
            let mut stream = reader.into_inner();
            let response = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(response.as_bytes()).ok();
        }
    });
    (format!("http://{addr}"), rx)
}
