//! The remote runtime through the real binaries: workers started on their own (`retake actor …
//! --worker`, as compose and Kubernetes start them) connect to a Lead they did not start; the
//! review gives the verdict the local runtime gives; a kind no worker serves ends as an
//! Inspector that could not be replaced (PARTIAL, coverage 5/6); `retake serve` runs two jobs
//! at once over its HTTP API and returns both reports.

#[path = "support/mod.rs"]
mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::serve::Serve;
use support::workers::{free_port, workers, KINDS};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_retake")
}

/// Copies the bundled example `name` into a fresh temporary folder.
fn example(name: &str) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read_dir") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("type").is_dir() {
                if entry.file_name() != "target" && entry.file_name() != ".retake" {
                    copy(&entry.path(), &target);
                }
            } else {
                std::fs::copy(entry.path(), target).expect("copy");
            }
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    copy(&src, dir.path());
    dir
}

fn secret() -> String {
    "ab".repeat(32)
}

/// `retake review REPO --no-exec --paths ** --format json` in `runtime`, with `env`.
fn review(repo: &Path, runtime: &str, env: &[(&str, String)]) -> (Option<i32>, Value, String) {
    let mut cmd = Command::new(exe());
    cmd.args(["review", repo.to_str().expect("utf-8"), "--no-exec"])
        .args(["--paths", "**", "--format", "json", "--runtime", runtime]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("retake runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("JSON report ({e}): {stdout}\n{stderr}"));
    (out.status.code(), json, stderr)
}

fn findings(report: &Value) -> Vec<(String, String, Option<u64>)> {
    let mut all: Vec<(String, String, Option<u64>)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap_or_default().to_string(),
                f["path"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64(),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn remote_workers_give_the_verdict_of_the_local_runtime() {
    let repo = example("shop-nogo");
    let (local_code, local, _) = review(repo.path(), "local", &[]);
    let port = free_port();
    let lead = format!("127.0.0.1:{port}");
    let _workers = workers(&lead, &secret(), &KINDS, true, 0);
    let env = [
        ("RETAKE__WIRE__SECRET", secret()),
        ("RETAKE__REVIEW__LISTEN", lead.clone()),
    ];
    let (code, remote, stderr) = review(repo.path(), "remote", &env);
    assert_eq!(code, local_code, "{stderr}");
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(remote["verdict"], "NO-GO");
    assert_eq!(remote["verdict"], local["verdict"]);
    assert_eq!(findings(&remote), findings(&local));
    assert_eq!(remote["coverage"], local["coverage"], "{stderr}");
    // Reports name their Inspector by its slot, not by the worker's `NAME@HOST-PID`, so the
    // findings' agents and the notes ("reported by inspector-interface only") read the same.
    let agents = |r: &Value| -> Vec<Value> {
        r["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| f["agents"].clone())
            .collect()
    };
    assert_eq!(agents(&remote), agents(&local));
    assert_eq!(remote["notes"], local["notes"]);
}

#[test]
fn a_kind_without_workers_is_an_unavailable_inspector() {
    let repo = example("shop-go");
    let port = free_port();
    let lead = format!("127.0.0.1:{port}");
    let _workers = workers(&lead, &secret(), &KINDS[..5], true, 0);
    let env = [
        ("RETAKE__WIRE__SECRET", secret()),
        ("RETAKE__REVIEW__LISTEN", lead.clone()),
        (
            "RETAKE__SUPERVISION__CONNECT_TIMEOUT_MS",
            "1500".to_string(),
        ),
    ];
    let started = Instant::now();
    let (_, report, stderr) = review(repo.path(), "remote", &env);
    let notes: Vec<&str> = report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("PARTIAL:inspector-holistic")),
        "{notes:?}\n{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn the_remote_runtime_without_a_secret_is_refused() {
    let repo = example("shop-go");
    let out = Command::new(exe())
        .args([
            "review",
            repo.path().to_str().expect("utf-8"),
            "--runtime",
            "remote",
        ])
        .env_remove("RETAKE__WIRE__SECRET")
        .env("HOME", repo.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "retake: error: the remote runtime needs a shared secret: set [wire] secret or RETAKE__WIRE__SECRET\n"
    );
}

/// `retake serve` on loopback, its jobs in `jobs`; the examples' copies are temporary folders.
fn serve(jobs: &Path) -> Serve {
    assert_eq!(Serve::SECRET, secret());
    Serve::start(jobs, &std::env::temp_dir(), &[], &[])
}

fn get(url: &str) -> (u16, Value) {
    match ureq::get(url).call() {
        Ok(mut r) => (
            r.status().as_u16(),
            serde_json::from_str(&r.body_mut().read_to_string().expect("body")).expect("json"),
        ),
        Err(ureq::Error::StatusCode(code)) => (code, Value::Null),
        Err(e) => panic!("{url}: {e}"),
    }
}

#[test]
fn serve_runs_two_jobs_at_once_and_returns_both_reports() {
    let jobs = tempfile::tempdir().expect("jobs");
    let service = serve(jobs.path());
    // Two workers of every kind: both reviews can hold a full set at once.
    let _first = workers(&service.workers, &secret(), &KINDS, true, 0);
    let _second = workers(&service.workers, &secret(), &KINDS, true, 0);
    let nogo = example("shop-nogo");
    let go = example("shop-go");
    let mut ids: Vec<(String, PathBuf)> = Vec::new();
    for repo in [nogo.path(), go.path()] {
        let body = serde_json::json!({
            "repo": repo,
            "args": ["--no-exec", "--paths", "**"],
        });
        let mut answer = ureq::post(&format!("{}/reviews", service.api))
            .header("Content-Type", "application/json")
            .send(body.to_string())
            .expect("submitted");
        assert_eq!(answer.status().as_u16(), 202);
        let job: Value =
            serde_json::from_str(&answer.body_mut().read_to_string().expect("body")).expect("job");
        ids.push((
            job["id"].as_str().expect("id").to_string(),
            repo.to_path_buf(),
        ));
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut verdicts = Vec::new();
    for (id, _) in &ids {
        loop {
            let (status, job) = get(&format!("{}/reviews/{id}", service.api));
            assert_eq!(status, 200);
            if job["status"] == "done" || job["status"] == "failed" {
                assert_eq!(job["status"], "done", "{job}");
                break;
            }
            assert!(Instant::now() < deadline, "{job}");
            std::thread::sleep(Duration::from_millis(200));
        }
        let (status, report) = get(&format!("{}/reviews/{id}/result", service.api));
        assert_eq!(status, 200);
        verdicts.push(report["verdict"].as_str().unwrap_or_default().to_string());
    }
    assert_eq!(verdicts, vec!["NO-GO", "GO"]);
    let (_, list) = get(&format!("{}/reviews", service.api));
    let codes: Vec<Option<u64>> = list
        .as_array()
        .expect("list")
        .iter()
        .map(|j| j["exit_code"].as_u64())
        .collect();
    assert_eq!(codes, vec![Some(1), Some(0)]);
    // The pages: the job list, and each job's own view with its actors and verdict.
    let text = |path: &str| {
        let mut r = ureq::get(&format!("{}{path}", service.api))
            .call()
            .expect("a page");
        r.body_mut().read_to_string().expect("body")
    };
    let list = text("/");
    assert!(
        list.contains("0 queued, 0 running, 2 done, 0 failed."),
        "{list}"
    );
    assert!(list.contains("<a href=\"/jobs/job-1\">job-1</a>"), "{list}");
    assert!(list.contains("<td>NO-GO</td>"), "{list}");
    let view = text("/jobs/job-1");
    assert!(
        view.contains("<strong id=\"verdict\">NO-GO</strong>"),
        "{view}"
    );
    assert!(view.contains("Ended: <strong>exit 1</strong>"), "{view}");
    assert!(
        view.contains("data-actor=\"inspector-quality\" data-state=\"reported\""),
        "{view}"
    );
    // The event stream of a finished job: every part, then its end.
    let events = text("/jobs/job-2/events");
    assert_eq!(events.matches("event: part").count(), 5, "{events}");
    assert!(events.ends_with("event: ended\ndata: \n\n"), "{events}");
}

/// Polls job `id` until it is done or failed (or `secs` pass) and returns it.
fn settled(api: &str, id: &str, secs: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let (status, job) = get(&format!("{api}/reviews/{id}"));
        assert_eq!(status, 200, "{id}");
        if job["status"] == "done" || job["status"] == "failed" {
            return job;
        }
        assert!(Instant::now() < deadline, "{job}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_restarted_service_resumes_the_job_it_was_running() {
    let jobs = tempfile::tempdir().expect("jobs");
    let repo = example("shop-nogo");
    let first = serve(jobs.path());
    // No worker yet: the job starts, writes its state file and waits for a set of workers.
    let body = serde_json::json!({"repo": repo.path(), "args": ["--no-exec", "--paths", "**"]});
    let answer = ureq::post(&format!("{}/reviews", first.api))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .expect("submitted");
    assert_eq!(answer.status().as_u16(), 202);
    let state = repo.path().join(".retake/state/active.json");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !state.is_file() {
        assert!(Instant::now() < deadline, "no state file");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(first); // SIGKILL: the Lead dies in the middle of the job.

    let second = serve(jobs.path());
    let _workers = workers(&second.workers, &secret(), &KINDS, true, 0);
    let job = settled(&second.api, "job-1", 60);
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["verdict"], "NO-GO");
    let (status, report) = get(&format!("{}/reviews/job-1/result", second.api));
    assert_eq!(status, 200);
    assert_eq!(report["verdict"], "NO-GO");
    assert!(!state.exists(), "the resumed review removes its state file");
}

/// The value of the `/metrics` sample `name{labels}` of the service at `api`.
fn metric(api: &str, sample: &str) -> Option<u64> {
    let text = ureq::get(&format!("{api}/metrics"))
        .call()
        .ok()?
        .body_mut()
        .read_to_string()
        .ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(sample)?.trim().parse().ok())
}

/// Polls `/metrics` until every sample has its value, or `secs` pass (then fails).
fn metrics_become(api: &str, want: &[(&str, u64)], secs: u64) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let now: Vec<Option<u64>> = want.iter().map(|(s, _)| metric(api, s)).collect();
        if now.iter().zip(want).all(|(got, (_, v))| *got == Some(*v)) {
            return;
        }
        assert!(Instant::now() < deadline, "{want:?}: {now:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_paused_idle_worker_is_dropped_from_the_pool_and_registers_again_once_resumed() {
    let jobs = tempfile::tempdir().expect("jobs");
    let service = serve(jobs.path());
    let quality = workers(&service.workers, &secret(), &["quality"], false, 0);
    let pid = libc::pid_t::try_from(quality.0[0].id()).expect("pid");
    let idle = r#"retake_serve_idle_workers{role="inspector",kind="quality"}"#;
    let lost = r#"retake_serve_lost_workers_total{role="inspector",kind="quality"}"#;
    metrics_become(&service.api, &[(idle, 1), (lost, 0)], 20);
    // SIGSTOP: its heartbeats stop; the Lead drops it after three silent intervals (1 s each).
    // SAFETY: signals a child process this test started and still owns.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
    metrics_become(&service.api, &[(idle, 0), (lost, 1)], 20);
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGCONT) }, 0);
    // Resumed, it finds its connection closed and registers again.
    metrics_become(&service.api, &[(idle, 1), (lost, 1)], 20);
}
