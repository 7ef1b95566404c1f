//! `retake serve`'s API as an attacker and a careless operator would meet it, through the real
//! binary on loopback: no token, no service beyond loopback; no token in the request, 401; a
//! repository outside the repositories root (by path, by `..`, by a symlink inside the root),
//! 403; a client that stalls in the middle of its body does not hold up `/healthz`; a body too
//! large is 413; a full queue is 429.

#[path = "support/mod.rs"]
mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use support::serve::Serve;

const TOKEN: &str = "5f0c2d7e9a14b3c68e21f7d04a9b5c3e";

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into()
}

/// `POST /reviews` with `body` and an optional bearer token: status and body.
fn post(api: &str, token: Option<&str>, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let mut request = agent(Duration::from_secs(10))
        .post(&format!("{api}/reviews"))
        .header("Content-Type", "application/json");
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let mut answer = request.send(body.to_string()).expect("answered");
    let status = answer.status().as_u16();
    let text = answer.body_mut().read_to_string().expect("body");
    (status, serde_json::from_str(&text).expect("json"))
}

/// `GET path` with an optional bearer token: status and body text.
fn get(api: &str, path: &str, token: Option<&str>, timeout: Duration) -> (u16, String) {
    let mut request = agent(timeout).get(&format!("{api}{path}"));
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let mut answer = request.call().expect("answered");
    let status = answer.status().as_u16();
    (status, answer.body_mut().read_to_string().expect("body"))
}

/// `retake serve ARGS` in an empty folder that must fail to start: exit code and stderr.
fn refused(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let here = tempfile::tempdir().expect("dir");
    let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
    command
        .arg("serve")
        .args(args)
        .current_dir(here.path())
        .env("HOME", here.path())
        .env_remove("RETAKE_API_TOKEN")
        .env("RETAKE__WIRE__SECRET", "ab".repeat(32));
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_service_without_a_root_or_open_beyond_loopback_without_a_token_does_not_start() {
    let root = tempfile::tempdir().expect("root");
    let root_arg = root.path().to_str().expect("utf-8");
    let open_api = [
        "--api",
        "0.0.0.0:0",
        "--listen",
        "127.0.0.1:0",
        "--repos-root",
        root_arg,
    ];
    let (code, stderr) = refused(&["--api", "127.0.0.1:0", "--listen", "127.0.0.1:0"], &[]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "retake: error: a service needs the folder its jobs' repositories are in: --repos-root DIR or [serve] repos_root\n"
    );
    let (code, stderr) = refused(&open_api, &[]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("retake: error: the API listens on 0.0.0.0:")
            && stderr.ends_with(", beyond loopback, without a token: set RETAKE_API_TOKEN or [serve] api_token_file, or listen on 127.0.0.1\n")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    let (code, stderr) = refused(&open_api, &[("RETAKE_API_TOKEN", "short")]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "retake: error: RETAKE_API_TOKEN: the API token is 5 characters; at least 32 are required (e.g. `openssl rand -hex 32`)\n"
    );
}

#[test]
fn jobs_need_the_token_and_reach_only_repositories_under_the_root() {
    let top = tempfile::tempdir().expect("top");
    let root = top.path().join("repos");
    std::fs::create_dir_all(root.join("shop")).expect("mkdir");
    std::fs::create_dir_all(top.path().join("private")).expect("mkdir");
    std::os::unix::fs::symlink(top.path().join("private"), root.join("link")).expect("symlink");
    let jobs = top.path().join("jobs");
    let service = Serve::start(&jobs, &root, &[], &[("RETAKE_API_TOKEN", TOKEN)]);
    let api = service.api.as_str();
    let inside = serde_json::json!({"repo": root.join("shop"), "args": ["--no-exec"]});

    // Without the token, or with another: 401, nothing queued.
    for token in [None, Some("5f0c2d7e9a14b3c68e21f7d04a9b5c3f")] {
        let (status, body) = post(api, token, &inside);
        assert_eq!(status, 401, "{body}");
        assert_eq!(
            body["error"],
            "a bearer token is required (Authorization: Bearer TOKEN)"
        );
        assert_eq!(get(api, "/reviews", token, Duration::from_secs(5)).0, 401);
    }
    // The probes stay open (no worker registered: not ready).
    for (probe, status) in [("/healthz", 200), ("/readyz", 503), ("/metrics", 200)] {
        assert_eq!(
            get(api, probe, None, Duration::from_secs(5)).0,
            status,
            "{probe}"
        );
    }
    // Outside the root, however it is named: 403.
    for repo in [
        top.path().join("private"),
        root.join("shop/../../private"),
        root.join("link"),
        Path::new("/etc").to_path_buf(),
    ] {
        let (status, body) = post(api, Some(TOKEN), &serde_json::json!({"repo": repo}));
        assert_eq!(status, 403, "{}: {body}", repo.display());
        assert_eq!(
            body["error"],
            format!(
                "repo '{}' is outside the service's repositories root",
                repo.display()
            )
        );
    }
    let (status, body) = post(
        api,
        Some(TOKEN),
        &serde_json::json!({"repo": "shop", "args": ["--baseline", "/etc/shadow"]}),
    );
    assert_eq!(status, 403);
    assert_eq!(
        body["error"],
        "--baseline '/etc/shadow' is outside the job's repository"
    );
    let (status, body) = post(api, Some(TOKEN), &inside);
    assert_eq!(status, 202, "{body}");
    assert_eq!(body["id"], "job-1");
    assert!(
        !top.path().join("private/.retake").exists(),
        "nothing was written outside the root"
    );
}

#[test]
fn a_stalled_body_does_not_hold_up_the_probes_and_a_large_one_is_refused() {
    let top = tempfile::tempdir().expect("top");
    let service = Serve::start(&top.path().join("jobs"), top.path(), &[], &[]);
    let addr = service.api.trim_start_matches("http://").to_string();
    // Five clients announce 60,000 bytes, send a few and stall.
    let stalled: Vec<TcpStream> = (0..5)
        .map(|_| {
            let mut stream = TcpStream::connect(&addr).expect("connect");
            stream
                .write_all(
                    b"POST /reviews HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{\"repo\": ",
                )
                .expect("write");
            stream
        })
        .collect();
    for _ in 0..5 {
        let (status, body) = get(&service.api, "/healthz", None, Duration::from_secs(1));
        assert_eq!((status, body.as_str()), (200, "ok\n"));
    }
    drop(stalled);
    // Over 64 KiB: 413 before the body is read.
    let mut stream = TcpStream::connect(&addr).expect("connect");
    stream
        .write_all(b"POST /reviews HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n")
        .expect("write");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut answer = String::new();
    let _closed = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 413 Payload Too Large\r\n"),
        "{answer}"
    );
    assert!(
        answer.contains("the request body is over 64 KiB"),
        "{answer}"
    );
}

#[test]
fn a_full_queue_refuses_the_next_job_with_429() {
    let top = tempfile::tempdir().expect("top");
    std::fs::create_dir_all(top.path().join("repo")).expect("mkdir");
    let service = Serve::start(
        &top.path().join("jobs"),
        top.path(),
        &["--max-jobs", "1", "--max-queued", "1"],
        &[],
    );
    let api = service.api.as_str();
    let job = serde_json::json!({"repo": "repo", "args": ["--no-exec"]});
    assert_eq!(post(api, None, &job).0, 202);
    // No worker registers: the one runner holds job-1 while it waits for a set of workers.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, text) = get(api, "/reviews/job-1", None, Duration::from_secs(5));
        let job: serde_json::Value = serde_json::from_str(&text).expect("json");
        if job["status"] == "running" {
            break;
        }
        assert_eq!(job["status"], "queued", "{job}");
        assert!(Instant::now() < deadline, "{job}");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(post(api, None, &job).0, 202, "job-2 waits in the queue");
    let (status, body) = post(api, None, &job);
    assert_eq!(status, 429);
    assert_eq!(
        body["error"],
        "the queue is full (1 waiting, --max-queued); try again later"
    );
    let (_, list) = get(api, "/reviews", None, Duration::from_secs(5));
    let list: serde_json::Value = serde_json::from_str(&list).expect("json");
    assert_eq!(list.as_array().map(Vec::len), Some(2));
}
