//! A small WebDriver client for the dashboard's browser tests: it starts `chromedriver` on a
//! free loopback port, opens a headless Chromium session, and offers what the tests need —
//! go to a URL, run a script in the page (the DOM checks), wait until a script says yes, save a
//! screenshot. `RETAKE_CHROMEDRIVER` / `RETAKE_CHROMIUM` name other binaries;
//! `RETAKE_SCREENSHOTS=docs` also writes each screenshot to `docs/` (the README's pictures).

#![allow(dead_code)] // each test target uses its own part

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A headless browser session, ended with its driver when dropped.
pub struct Browser {
    driver: Child,
    session: String,
    base: String,
    agent: ureq::Agent,
}

fn program(env: &str, default: &str) -> String {
    std::env::var(env).unwrap_or_else(|_| default.to_string())
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("address").port()
}

impl Browser {
    /// Starts the driver and a session (a 1280×1400 window).
    pub fn start() -> Browser {
        let driver_program = program("RETAKE_CHROMEDRIVER", "chromedriver");
        let port = free_port();
        let driver = Command::new(&driver_program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {driver_program} ({e}): install chromium and chromium-driver (.ci/browser-tests does)")
            });
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = agent
                .get(&format!("{base}/status"))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_to_string().ok())
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .is_some_and(|v| v["value"]["ready"] == true);
            if ready {
                break;
            }
            assert!(Instant::now() < deadline, "chromedriver did not get ready");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut browser = Browser {
            driver,
            session: String::new(),
            base,
            agent,
        };
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": program("RETAKE_CHROMIUM", "/usr/bin/chromium"),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1400"]
            }
        }}});
        let created = browser.call("POST", "/session", Some(caps));
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        browser
    }

    /// A WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let response = match body {
            Some(body) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.to_string()),
            None if method == "DELETE" => self.agent.delete(&url).call(),
            None => self.agent.get(&url).call(),
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().expect("an answer");
        let value: Value = serde_json::from_str(&text).expect("a JSON answer");
        assert!(status < 300, "{method} {path}: {status} {value}");
        value["value"].clone()
    }

    fn session_path(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.call(
            "POST",
            &self.session_path("/url"),
            Some(json!({ "url": url })),
        );
    }

    /// Runs `script` (a function body; `return` gives the value) in the page.
    pub fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            &self.session_path("/execute/sync"),
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until `script` returns something truthy (not null, false, 0 or ""), for at most
    /// `within`; its value. Panics naming `what` when it never does.
    pub fn wait_for(&self, what: &str, script: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let v = self.eval(script);
            let truthy =
                !matches!(&v, Value::Null | Value::Bool(false)) && v != json!(0) && v != json!("");
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                let text = self.eval("return document.body ? document.body.innerText : ''");
                panic!(
                    "{what}: not seen within {within:?}; the page says:\n{}",
                    text.as_str().unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Saves a screenshot of the window as `target/screenshots/NAME.png` (and
    /// `docs/dashboard-NAME.png` with `RETAKE_SCREENSHOTS=docs`); the path saved.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let encoded = self.call("GET", &self.session_path("/screenshot"), None);
        let png = decode_base64(encoded.as_str().expect("base64 text"));
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = root.join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, &png).expect("write the screenshot");
        if std::env::var("RETAKE_SCREENSHOTS").as_deref() == Ok("docs") {
            std::fs::write(root.join(format!("docs/dashboard-{name}.png")), &png)
                .expect("write the screenshot into docs/");
        }
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let url = format!("{}{}", self.base, self.session_path(""));
            let _ = self.agent.delete(&url).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (with padding) to bytes.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for chunk in clean.chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|c| *c != b'=').collect();
        let mut n = 0u32;
        for (i, c) in data.iter().enumerate() {
            n |= value(*c) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..data.len().saturating_sub(1)]);
    }
    out
}
